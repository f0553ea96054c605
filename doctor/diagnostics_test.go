package doctor_test

import (
	"strings"
	"testing"
	"time"

	"github.com/simclock/simclock/doctor"
	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/internal/term"
	"github.com/simclock/simclock/ros2msg"
)

func statusNamed(t *testing.T, sts []doctor.DiagnosticStatus, name string) doctor.DiagnosticStatus {
	t.Helper()
	for _, st := range sts {
		if st.Name == name {
			return st
		}
	}
	var names []string
	for _, st := range sts {
		names = append(names, st.Name)
	}
	t.Fatalf("no status %q in %q", name, names)
	return doctor.DiagnosticStatus{}
}

func value(st doctor.DiagnosticStatus, key string) string {
	for _, kv := range st.Values {
		if kv.Key == key {
			return kv.Value
		}
	}
	return "<none>"
}

// A report as /diagnostics statuses: the graph, one per check (OK or at
// its findings' severity), one per node; a node that leaves is STALE for
// a while; names from the network are escaped. Virtual time.
func TestDiagnostics(t *testing.T) {
	const ms = time.Millisecond
	h := newHarness(t, doctor.Options{})
	sim := ep(1, 2)
	h.node(1, "/sim", "gazebo", clockWriter(sim, doctor.ClockDDSTopic))
	h.node(2, "/", "planner", clockReader(ep(2, 4), doctor.ClockDDSTopic))
	legacy := ep(3, 3)
	h.node(3, "/robot", "legacy_driver", tfWriter(legacy, "rt/tf", false))
	h.node(4, "/robot", "evil\x1b]0;owned\x07", clockReader(ep(4, 4), doctor.ClockDDSTopic))
	h.at(0)
	h.clock(doctor.ClockDDSTopic, sim, 0, 300, 10*ms, 10*ms, 1000e9)
	h.tf("rt/tf", legacy, ms, 50, 50*ms, func(i int) []tfEntry {
		return []tfEntry{{h.t0 + int64(i)*int64(50*ms), "base_link", "laser"}}
	})
	r := h.at(3 * time.Second)
	d := &doctor.Diagnostics{HardwareID: "ros_domain_7", Escape: term.Escape}
	sts := d.Statuses(r)

	g := sts[0]
	if g.Name != "simclock_doctor/graph" || g.Level != doctor.LevelError || g.Message != "2 errors, 0 warnings" ||
		value(g, "nodes") != "4" || g.HardwareID != "ros_domain_7" || value(g, "ok") != "false" {
		t.Errorf("graph status: %+v", g)
	}
	checks := 0
	for _, st := range sts {
		if strings.HasPrefix(st.Name, "simclock_doctor/checks/") {
			checks++
		}
	}
	if checks != len(doctor.Checks()) {
		t.Errorf("%d check statuses, %d checks", checks, len(doctor.Checks()))
	}
	st := statusNamed(t, sts, "simclock_doctor/checks/tf_wall_stamps")
	if st.Level != doctor.LevelError || !strings.Contains(st.Message, "/robot/legacy_driver stamps the transform base_link→laser") ||
		value(st, "findings") != "1" || !strings.HasPrefix(value(st, "/robot/legacy_driver /tf"), "/robot/legacy_driver stamps") ||
		value(st, "rules") != "R16,R26" {
		t.Errorf("tf_wall_stamps: %+v", st)
	}
	if st := statusNamed(t, sts, "simclock_doctor/checks/clock_qos_mismatch"); st.Level != doctor.LevelOK || st.Message != "ok" {
		t.Errorf("a check with no finding: %+v", st)
	}
	st = statusNamed(t, sts, "simclock_doctor/nodes/robot/legacy_driver")
	if st.Level != doctor.LevelError || !strings.HasPrefix(st.Message, "2 findings; ") ||
		value(st, "findings") != "node_not_on_sim_time tf_wall_stamps" || value(st, "tf base_link→laser") != "wall" ||
		st.HardwareID != pp(3).String() {
		t.Errorf("legacy_driver: %+v", st)
	}
	st = statusNamed(t, sts, "simclock_doctor/nodes/planner")
	if st.Level != doctor.LevelOK || st.Message != "on sim time (/clock)" || value(st, "clock_writers_matched") != "1" {
		t.Errorf("planner: %+v", st)
	}
	st = statusNamed(t, sts, `simclock_doctor/nodes/robot/evil\x1b]0;owned\a`)
	if st.Level != doctor.LevelOK || value(st, "node") != `/robot/evil\x1b]0;owned\a` {
		t.Errorf("a hostile name: %+v", st)
	}
	if got := doctor.DiagnosticsStamp(r, 5); got != 1000e9+299*10e6 {
		t.Errorf("stamp %d, want the last /clock", got)
	}

	// The planner's process goes: STALE, said so, then forgotten.
	h.w.Graph().SetParticipant(graph.Participant{GUID: pp(2)}, false)
	r = h.at(4 * time.Second)
	sts = d.Statuses(r)
	st = statusNamed(t, sts, "simclock_doctor/nodes/planner")
	if st.Level != doctor.LevelStale || st.Message != "no longer in the graph" {
		t.Errorf("after it left: %+v", st)
	}
	for range 60 {
		sts = d.Statuses(r)
	}
	for _, st := range sts {
		if st.Name == "simclock_doctor/nodes/planner" {
			t.Errorf("still listed after 61 reports: %+v", st)
		}
	}
}

// Before discovery has finished the graph's status is STALE, not OK.
func TestDiagnosticsWhileDiscovering(t *testing.T) {
	h := newHarness(t, doctor.Options{})
	var d doctor.Diagnostics
	st := d.Statuses(h.at(time.Second))[0]
	if st.Level != doctor.LevelStale || !strings.Contains(st.Message, "discovering") {
		t.Errorf("graph status of an empty graph at 1 s: %+v", st)
	}
	if got := doctor.DiagnosticsStamp(h.at(time.Second), 42); got != 42 {
		t.Errorf("stamp without /clock: %d, want the wall clock", got)
	}
}

// EncodeDiagnosticArray writes what the shipped definition reads back.
func TestEncodeDiagnosticArray(t *testing.T) {
	sts := []doctor.DiagnosticStatus{
		{Level: doctor.LevelWarn, Name: "a/b", Message: "m", HardwareID: "hw", Values: []doctor.KeyValue{{"k", "v"}, {"", ""}}},
		{Level: doctor.LevelStale, Name: "x"},
	}
	b, err := doctor.EncodeDiagnosticArray(-1_500_000_000, "frame", sts)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ros2msg.ParseShipped(doctor.DiagnosticsType)
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	stamp := v["header"].(ros2msg.Value)["stamp"].(ros2msg.Value)
	if stamp["sec"].(int32) != -2 || stamp["nanosec"].(uint32) != 500_000_000 {
		t.Errorf("stamp %v", stamp)
	}
	status := v["status"].([]any)
	first := status[0].(ros2msg.Value)
	values := first["values"].([]any)
	if len(status) != 2 || first["level"].(uint8) != 1 || first["name"] != "a/b" || first["hardware_id"] != "hw" ||
		len(values) != 2 || values[0].(ros2msg.Value)["value"] != "v" || status[1].(ros2msg.Value)["level"].(uint8) != 3 {
		t.Errorf("decoded %v", v)
	}
	if _, err := doctor.EncodeDiagnosticArray(1<<62, "", nil); err == nil {
		t.Error("a stamp beyond int32 seconds encoded")
	}
}
