package graph_test

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/transport"
)

func gid(b byte) graph.GUID {
	var g graph.GUID
	for i := range g {
		g[i] = b
	}
	return g
}

// The bytes rmw_cyclonedds (Jazzy) publishes for a participant with one
// node /ns/talker holding one reader and one writer: 16-byte GIDs, then
// the sequence of NodeEntitiesInfo, little-endian XCDR1.
func TestDiscoveryInfoWire(t *testing.T) {
	msg := graph.ParticipantEntitiesInfo{GID: gid(1), Nodes: []graph.NodeEntitiesInfo{
		{Namespace: "/ns", Name: "talker", Readers: []graph.GUID{gid(2)}, Writers: []graph.GUID{gid(3)}}}}
	var want []byte
	want = append(want, 0, 1, 0, 0)                     // encapsulation: CDR little endian
	want = append(want, bytes.Repeat([]byte{1}, 16)...) // gid.data
	want = append(want, 1, 0, 0, 0)                     // node_entities_info_seq length
	want = append(want, 4, 0, 0, 0, '/', 'n', 's', 0)
	want = append(want, 7, 0, 0, 0, 't', 'a', 'l', 'k', 'e', 'r', 0, 0) // + 1 pad byte
	want = append(want, 1, 0, 0, 0)
	want = append(want, bytes.Repeat([]byte{2}, 16)...)
	want = append(want, 1, 0, 0, 0)
	want = append(want, bytes.Repeat([]byte{3}, 16)...)
	got := msg.MarshalCDR()
	if !bytes.Equal(got, want) {
		t.Fatalf("MarshalCDR:\n got % x\nwant % x", got, want)
	}
	back, err := graph.UnmarshalParticipantEntitiesInfo(got)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(msg, back); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	for n := range len(got) {
		if _, err := graph.UnmarshalParticipantEntitiesInfo(got[:n]); !errors.Is(err, graph.ErrBadDiscoveryInfo) {
			t.Errorf("truncated to %d bytes: err = %v, want ErrBadDiscoveryInfo", n, err)
		}
	}
}

func FuzzDiscoveryInfo(f *testing.F) {
	f.Add(graph.ParticipantEntitiesInfo{GID: gid(9), Nodes: []graph.NodeEntitiesInfo{{Namespace: "/", Name: "n"}}}.MarshalCDR())
	f.Add([]byte{0, 1, 0, 0})
	// Hostile names: escapes, a 300-byte name, a count far beyond the data.
	f.Add(graph.ParticipantEntitiesInfo{GID: gid(9), Nodes: []graph.NodeEntitiesInfo{
		{Namespace: "/\x1b]0;pwned\x07", Name: "\x1b[31mred\n" + string(bytes.Repeat([]byte{'n'}, 300))}}}.MarshalCDR())
	f.Add(append(append([]byte{0, 1, 0, 0}, bytes.Repeat([]byte{7}, 16)...), 0xff, 0xff, 0xff, 0x7f))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := graph.UnmarshalParticipantEntitiesInfo(data)
		if err != nil {
			return
		}
		again, err := graph.UnmarshalParticipantEntitiesInfo(p.MarshalCDR())
		if err != nil {
			t.Fatalf("re-decoding our own encoding: %v", err)
		}
		if diff := cmp.Diff(p, again); diff != "" {
			t.Fatalf("round trip (-first +second):\n%s", diff)
		}
	})
}

// FuzzUserDataValue: the USER_DATA of any participant or endpoint
// ("enclave=/;typehash=RIHS01_...;") yields values without the separator,
// and never panics.
func FuzzUserDataValue(f *testing.F) {
	f.Add([]byte("enclave=/;"), "enclave")
	f.Add([]byte("typehash=RIHS01_692f;enclave=\x1b[2J;"), "typehash")
	f.Add([]byte("=;;==;\xff"), "")
	f.Fuzz(func(t *testing.T, userData []byte, key string) {
		v, ok := graph.UserDataValue(userData, key)
		if ok && bytes.Contains([]byte(v), []byte(";")) {
			t.Fatalf("value %q of %q holds the separator", v, key)
		}
	})
}

func TestIncompatible(t *testing.T) {
	w := graph.DefaultWriterQoS
	r := graph.DefaultReaderQoS
	policies := func(is []graph.Incompatibility) []string {
		var out []string
		for _, i := range is {
			out = append(out, i.Policy)
		}
		return out
	}
	tests := []struct {
		name string
		w, r func(*graph.QoS)
		want []string
	}{
		{"defaults match", nil, nil, nil},
		{"best effort writer, reliable reader", func(q *graph.QoS) { q.Reliability = transport.BestEffort },
			func(q *graph.QoS) { q.Reliability = transport.Reliable }, []string{"reliability"}},
		{"reliable writer serves best effort reader", nil, nil, nil},
		{"volatile writer, transient local reader", nil,
			func(q *graph.QoS) { q.Durability = transport.TransientLocal }, []string{"durability"}},
		{"transient local writer serves volatile reader", func(q *graph.QoS) { q.Durability = transport.TransientLocal }, nil, nil},
		{"reader deadline shorter than writer's", func(q *graph.QoS) { q.Deadline = time.Second },
			func(q *graph.QoS) { q.Deadline = 100 * time.Millisecond }, []string{"deadline"}},
		{"reader wants a deadline the writer does not offer", nil,
			func(q *graph.QoS) { q.Deadline = time.Second }, []string{"deadline"}},
		{"liveliness kind", nil, func(q *graph.QoS) { q.Liveliness = graph.ManualByTopic }, []string{"liveliness"}},
		{"lease", func(q *graph.QoS) { q.LeaseDuration = 2 * time.Second },
			func(q *graph.QoS) { q.LeaseDuration = time.Second }, []string{"liveliness_lease_duration"}},
		{"ownership", func(q *graph.QoS) { q.Ownership = graph.Exclusive }, nil, []string{"ownership"}},
		{"xcdr2 writer, xcdr1 reader", func(q *graph.QoS) { q.DataRepresentation = []graph.DataRepresentation{graph.XCDR2} },
			nil, []string{"data_representation"}},
		{"xcdr1 writer, reader accepting both", nil,
			func(q *graph.QoS) { q.DataRepresentation = []graph.DataRepresentation{graph.XCDR2, graph.XCDR1} }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wq, rq := w, r
			if tt.w != nil {
				tt.w(&wq)
			}
			if tt.r != nil {
				tt.r(&rq)
			}
			if diff := cmp.Diff(tt.want, policies(graph.Incompatible(wq, rq))); diff != "" {
				t.Errorf("Incompatible (-want +got):\n%s", diff)
			}
		})
	}
}

// One spelling: a QoS and an incompatibility read as ros2 topic info -v
// prints the kinds, so one doctor sentence never mixes two.
func TestQoSSpelling(t *testing.T) {
	q := graph.DefaultReaderQoS
	q.Durability = transport.TransientLocal
	if got, want := q.String(), "BEST_EFFORT TRANSIENT_LOCAL"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	q.Liveliness, q.LeaseDuration, q.Ownership = graph.ManualByTopic, 2*time.Second, graph.Exclusive
	if got, want := q.String(), "BEST_EFFORT TRANSIENT_LOCAL liveliness MANUAL_BY_TOPIC lease 2s EXCLUSIVE"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	w := graph.DefaultWriterQoS
	w.Reliability = transport.BestEffort
	var got []string
	for _, i := range graph.Incompatible(w, graph.QoS{Reliability: transport.Reliable, Durability: transport.TransientLocal,
		Deadline: graph.Infinite, LeaseDuration: graph.Infinite}) {
		got = append(got, i.String())
	}
	want := []string{"reliability: offered BEST_EFFORT, requested RELIABLE", "durability: offered VOLATILE, requested TRANSIENT_LOCAL"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Incompatible (-want +got):\n%s", diff)
	}
}

func TestSnapshotAttributesEndpointsToNodes(t *testing.T) {
	g := graph.New()
	pp := graph.GUID{0x01, 0x0f, 3: 7, 15: 0xc1}
	pp[14] = 1
	w := graph.Endpoint{GUID: graph.GUID{0x01, 0x0f, 3: 7, 15: 2}, Kind: graph.Writer, DDSTopic: "rt/clock",
		DDSType: "rosgraph_msgs::msg::dds_::Clock_", QoS: graph.DefaultWriterQoS}
	r := graph.Endpoint{GUID: graph.GUID{0x01, 0x0f, 3: 7, 15: 4}, Kind: graph.Reader, DDSTopic: "rt/clock",
		DDSType: "rosgraph_msgs::msg::dds_::Clock_", QoS: graph.DefaultReaderQoS}
	g.SetParticipant(graph.Participant{GUID: pp, Enclave: "/"}, true)
	g.SetEndpoint(w, true)
	g.SetEndpoint(r, true)
	g.SetDiscoveryInfo(graph.ParticipantEntitiesInfo{GID: pp, Nodes: []graph.NodeEntitiesInfo{
		{Namespace: "/", Name: "sim", Writers: []graph.GUID{w.GUID}},
		{Namespace: "/robot", Name: "ctl", Readers: []graph.GUID{r.GUID}},
	}})
	s := g.Snapshot()
	if len(s.Nodes) != 2 || s.Nodes[0].FullName() != "/robot/ctl" || s.Nodes[1].FullName() != "/sim" {
		t.Fatalf("nodes = %+v", s.Nodes)
	}
	if got := s.Participants[0].Vendor; got != "eProsima Fast DDS" {
		t.Errorf("vendor = %q", got)
	}
	if ms := s.Matches(s.Nodes[0].Readers[0]); len(ms) != 1 || ms[0].Node != "/sim" {
		t.Errorf("matches of /robot/ctl's reader = %+v", ms)
	}
	topics := s.Topics()
	if len(topics) != 1 || topics[0].Topic != "/clock" || topics[0].Types[0] != "rosgraph_msgs/msg/Clock" {
		t.Errorf("topics = %+v", topics)
	}
	g.SetParticipant(graph.Participant{GUID: pp}, false)
	if s := g.Snapshot(); len(s.Endpoints) != 0 || len(s.Participants) != 0 {
		t.Errorf("after the participant left: %+v", s)
	}
}

func TestNames(t *testing.T) {
	if got := graph.ROSTopic("rt/tf_static"); got != "/tf_static" {
		t.Errorf("ROSTopic = %q", got)
	}
	if got := graph.ROSTopic("ros_discovery_info"); got != "" {
		t.Errorf("ROSTopic(ros_discovery_info) = %q", got)
	}
	if got := graph.ROSType("sensor_msgs::msg::dds_::LaserScan_"); got != "sensor_msgs/msg/LaserScan" {
		t.Errorf("ROSType = %q", got)
	}
	if v, ok := graph.UserDataValue([]byte("enclave=/;typehash=RIHS01_ab;"), "typehash"); !ok || v != "RIHS01_ab" {
		t.Errorf("UserDataValue = %q %v", v, ok)
	}
}

// A writer's GID names its node through ros_discovery_info, as ros2 topic
// info -v does; the transport's string form of a GID parses back.
func TestNodeOf(t *testing.T) {
	g := graph.New()
	w, r := gid(7), gid(8)
	if g.NodeOf(w) != "" {
		t.Error("a GID no node lists has a node")
	}
	g.SetDiscoveryInfo(graph.ParticipantEntitiesInfo{GID: gid(1), Nodes: []graph.NodeEntitiesInfo{
		{Namespace: "/sim", Name: "gazebo", Writers: []graph.GUID{w}, Readers: []graph.GUID{r}}}})
	if got := g.NodeOf(w); got != "/sim/gazebo" {
		t.Errorf("NodeOf(writer) = %q", got)
	}
	if got := g.NodeOf(r); got != "/sim/gazebo" {
		t.Errorf("NodeOf(reader) = %q", got)
	}
	back, ok := graph.ParseGUID(w.String())
	if !ok || back != w {
		t.Errorf("ParseGUID(%q) = %v, %v", w.String(), back, ok)
	}
	for _, bad := range []string{"", "01.02.03.04", "0102030g.00000000.00000000.00000000", "handle-12"} {
		if _, ok := graph.ParseGUID(bad); ok {
			t.Errorf("ParseGUID(%q) accepted", bad)
		}
	}
}
