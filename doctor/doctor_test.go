package doctor_test

import (
	"testing"
	"time"

	"github.com/simclock/simclock/doctor"
	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/rules"
	"github.com/simclock/simclock/rules/rulestest"
	"github.com/simclock/simclock/transport"
)

func TestClassify(t *testing.T) {
	const (
		sim  = int64(1000e9)
		wall = int64(1_764_000_000e9)
		tol  = time.Second
		wtol = 10 * time.Second
	)
	tests := []struct {
		name    string
		stamp   int64
		haveSim bool
		simNow  int64
		want    doctor.StampClass
		ok      bool
	}{
		{"zero", 0, true, sim, doctor.Zero, true},
		{"zero without clock", 0, false, 0, doctor.Zero, true},
		{"on /clock", sim - 200e6, true, sim, doctor.Sim, true},
		{"at the tolerance", sim + int64(tol), true, sim, doctor.Sim, true},
		{"wall clock", wall - 50e6, true, sim, doctor.Wall, true},
		{"stale", sim - 30e9, true, sim, doctor.Stale, true},
		{"future", sim + 30e9, true, sim, doctor.Future, true},
		{"sim near wall counts as sim", wall, true, wall - 100e6, doctor.Sim, true},
		{"wall without /clock", wall + 2e9, false, 0, doctor.Wall, true},
		{"nothing to compare with", sim, false, 0, 0, false},
		{"extreme stamps do not overflow", -1 << 63, true, sim, doctor.Stale, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := doctor.Classify(tt.stamp, tt.simNow, tt.haveSim, wall, tol, wtol)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Classify = %v, %v; want %v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestStampBase(t *testing.T) {
	var c doctor.StampCounts
	if c.Base() != doctor.BaseUnknown {
		t.Errorf("no stamps: %q", c.Base())
	}
	c[doctor.Stale] = 2
	c[doctor.Sim] = 1
	if c.Base() != "sim" {
		t.Errorf("sim and stale: %q", c.Base())
	}
	c[doctor.Wall] = 1
	if c.Base() != doctor.BaseMixed {
		t.Errorf("sim and wall: %q", c.Base())
	}
}

// TestChecksDocumented: every check is complete, has its own code and is
// written out in docs/rules.md.
func TestChecksDocumented(t *testing.T) {
	if len(doctor.Checks()) == 0 {
		t.Fatal("no checks registered")
	}
	rulestest.CheckDocumented(t, doctor.Checks())
}

// A graph built by hand: the detectors' verdicts follow from the graph
// alone, and the observer's own participant is never reported.
func TestAnalyze(t *testing.T) {
	pp := func(b byte) graph.GUID { return graph.GUID{b, 15: 0xc1, 14: 1} }
	ep := func(p byte, id byte) graph.GUID { return graph.GUID{p, 15: id} }
	clockType := "rosgraph_msgs::msg::dds_::Clock_"
	g := graph.New()
	self := pp(9)
	for _, p := range []graph.GUID{pp(1), pp(2), pp(3), self} {
		g.SetParticipant(graph.Participant{GUID: p, Enclave: "/"}, true)
	}
	g.SetParticipant(graph.Participant{GUID: graph.GUID{0x01, 0x0f, 5, 15: 0xc1, 14: 1}}, true) // Fast DDS, nothing visible
	writer := graph.Endpoint{GUID: ep(1, 2), Kind: graph.Writer, DDSTopic: doctor.ClockDDSTopic, DDSType: clockType, QoS: graph.DefaultWriterQoS}
	goodReader := graph.Endpoint{GUID: ep(2, 4), Kind: graph.Reader, DDSTopic: doctor.ClockDDSTopic, DDSType: clockType, QoS: graph.DefaultReaderQoS}
	strictQoS := graph.DefaultReaderQoS
	strictQoS.Durability = transport.TransientLocal
	badReader := graph.Endpoint{GUID: ep(3, 4), Kind: graph.Reader, DDSTopic: doctor.ClockDDSTopic, DDSType: clockType, QoS: strictQoS}
	selfReader := graph.Endpoint{GUID: ep(9, 4), Kind: graph.Reader, DDSTopic: doctor.ClockDDSTopic, DDSType: clockType, QoS: strictQoS}
	for _, e := range []graph.Endpoint{writer, goodReader, badReader, selfReader} {
		g.SetEndpoint(e, true)
	}
	g.SetDiscoveryInfo(graph.ParticipantEntitiesInfo{GID: pp(1), Nodes: []graph.NodeEntitiesInfo{
		{Namespace: "/", Name: "gazebo", Writers: []graph.GUID{writer.GUID}},
		{Namespace: "/", Name: "rviz"},            // no /clock reader
		{Namespace: "/", Name: "_ros2cli_daemon"}, // hidden
	}})
	g.SetDiscoveryInfo(graph.ParticipantEntitiesInfo{GID: pp(2), Nodes: []graph.NodeEntitiesInfo{
		{Namespace: "/", Name: "planner", Readers: []graph.GUID{goodReader.GUID}}}})
	g.SetDiscoveryInfo(graph.ParticipantEntitiesInfo{GID: pp(3), Nodes: []graph.NodeEntitiesInfo{
		{Namespace: "/robot", Name: "ctl", Readers: []graph.GUID{badReader.GUID}}}})
	g.SetDiscoveryInfo(graph.ParticipantEntitiesInfo{GID: self, Nodes: []graph.NodeEntitiesInfo{
		{Namespace: "/", Name: "me", Readers: []graph.GUID{selfReader.GUID}}}})

	r := doctor.Analyze(doctor.Observation{Graph: g.Snapshot(), Self: self})
	type key struct {
		code rules.Code
		node string
	}
	got := map[key]rules.Severity{}
	for _, f := range r.Findings {
		got[key{f.Code, f.Node}] = f.Severity
	}
	want := map[key]rules.Severity{
		{doctor.CodeNodeNotOnSimTime, "/rviz"}:      rules.Error,
		{doctor.CodeClockQoSMismatch, "/robot/ctl"}: rules.Error,
		{doctor.CodeParticipantNoEndpoints, "participant 010f0500.00000000.00000000.000001c1 (eProsima Fast DDS)"}: rules.Info,
	}
	if len(got) != len(want) {
		t.Errorf("findings = %+v", r.Findings)
	}
	for k, sev := range want {
		if got[k] != sev {
			t.Errorf("finding %v: severity %v, want %v (all: %+v)", k, got[k], sev, r.Findings)
		}
	}
	if r.Summary.Errors != 2 || r.Summary.Infos != 1 || r.Summary.OK {
		t.Errorf("summary = %+v", r.Summary)
	}
	for _, failOn := range []rules.FailOn{rules.FailOnError, rules.FailOnNever} {
		if r := doctor.Analyze(doctor.Observation{Graph: g.Snapshot(), Self: self, FailOn: failOn}); r.Summary.OK != (failOn == rules.FailOnNever) {
			t.Errorf("--fail-on %v: summary = %+v", failOn, r.Summary)
		}
	}
	for _, n := range r.Nodes {
		if n.Name == "/me" {
			t.Error("the observer's own node is reported")
		}
	}
	if len(r.Nodes) != 5 {
		t.Errorf("nodes = %+v", r.Nodes)
	}
}
