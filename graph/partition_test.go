package graph_test

import (
	"testing"

	"github.com/simclock/simclock/graph"
)

// The cases of Cyclone DDS 0.10's partitions_match_p (q_qosmatch.c):
// the default partition, plain names, wildcards on one side only.
func TestPartitionsMatch(t *testing.T) {
	tests := []struct {
		a, b []string
		want bool
	}{
		{nil, nil, true},
		{nil, []string{""}, true},
		{nil, []string{"robot1"}, false},
		{[]string{"robot1"}, []string{"robot1"}, true},
		{[]string{"robot1"}, []string{"robot2"}, false},
		{[]string{"robot1", "shared"}, []string{"shared"}, true},
		{[]string{"robot*"}, []string{"robot1"}, true},
		{[]string{"robot?"}, []string{"robot12"}, false},
		{[]string{"r*t*"}, []string{"robot1"}, true},
		{[]string{"*"}, nil, true}, // '*' matches the default partition ""
		{[]string{"*"}, []string{"any"}, true},
		{[]string{"robot*"}, []string{"rob*"}, false}, // two wildcards never match
		{[]string{"a*b*c"}, []string{"aXbYbZc"}, true},
		{[]string{"a*b"}, []string{"aXbY"}, false},
	}
	for _, tt := range tests {
		if got := graph.PartitionsMatch(tt.a, tt.b); got != tt.want {
			t.Errorf("PartitionsMatch(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := graph.PartitionsMatch(tt.b, tt.a); got != tt.want {
			t.Errorf("PartitionsMatch(%q, %q) = %v, want %v (not symmetric)", tt.b, tt.a, got, tt.want)
		}
	}
}

// A /clock reader in another partition than the writer is on the topic,
// with the type and a compatible QoS, and matches nothing.
func TestMatchesHonoursPartitions(t *testing.T) {
	g := graph.New()
	const topic, typ = "rt/clock", "rosgraph_msgs::msg::dds_::Clock_"
	w := graph.Endpoint{GUID: gid(1), Kind: graph.Writer, DDSTopic: topic, DDSType: typ, QoS: graph.DefaultWriterQoS}
	r := graph.Endpoint{GUID: gid(2), Kind: graph.Reader, DDSTopic: topic, DDSType: typ, QoS: graph.DefaultReaderQoS,
		Partitions: []string{"robot1"}}
	g.SetEndpoint(w, true)
	g.SetEndpoint(r, true)
	s := g.Snapshot()
	if m := s.Matches(r); len(m) != 0 {
		t.Errorf("a reader in partition robot1 matches %v", m)
	}
	r.Partitions = nil
	if m := s.Matches(r); len(m) != 1 {
		t.Errorf("a reader in the default partition matches %v", m)
	}
}

func FuzzPartitionsMatch(f *testing.F) {
	f.Add("robot*", "robot1")
	f.Add("*a*a*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
	f.Fuzz(func(t *testing.T, a, b string) {
		got := graph.PartitionsMatch([]string{a}, []string{b})
		if got != graph.PartitionsMatch([]string{b}, []string{a}) {
			t.Fatalf("not symmetric for %q, %q", a, b)
		}
		if a == b && !isWild(a) && !got {
			t.Fatalf("%q does not match itself", a)
		}
	})
}

func isWild(s string) bool {
	for _, c := range s {
		if c == '*' || c == '?' {
			return true
		}
	}
	return false
}
