package cli

// simclock doctor --diagnostics read back by a peer simclock did not
// write: a Fast DDS node that reads diagnostic_msgs/msg/DiagnosticArray
// through the code fastddsgen generates from the type's IDL (itself made
// from the upstream .msg files by rosidl_adapter), as rmw_fastrtps_cpp
// reads with its generated type support. Nothing here times anything.

import (
	"context"
	"github.com/simclock/simclock/internal/testdomain"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/simclock/simclock/doctor"
	"github.com/simclock/simclock/internal/fastpeer"
	"github.com/simclock/simclock/ros2msg"
)

var domainDoctorDiagnostics = testdomain.ID(125)

func statusOf(a fastpeer.DiagnosticArray, name string) (fastpeer.DiagnosticStatus, bool) {
	for _, st := range a.Status {
		if st.Name == name {
			return st, true
		}
	}
	return fastpeer.DiagnosticStatus{}, false
}

// awaitArray waits until the monitor has read an array for which ready
// holds, and returns it.
func awaitArray(t *testing.T, ctx context.Context, p *fastpeer.Peer, what string, ready func(fastpeer.DiagnosticArray) bool) fastpeer.DiagnosticArray {
	t.Helper()
	isArray := func(e fastpeer.Event) bool { return e.Kind == "diagnostics" }
	for {
		n := len(p.Select(isArray))
		arrays, err := p.DiagnosticArrays()
		if err != nil {
			t.Fatal(err)
		}
		for i := len(arrays) - 1; i >= 0; i-- {
			if ready(arrays[i]) {
				return arrays[i]
			}
		}
		if _, err := p.WaitCount(ctx, n+1, isArray); err != nil {
			t.Fatalf("waiting for %s: %v; %d arrays read, the last: %+v\nstderr:\n%s", what, err, len(arrays), arrays[max(0, len(arrays)-1):], p.Stderr())
		}
	}
}

// healthy reports whether a node's status is OK with message, or a
// warning whose only findings are those a loaded machine can cause (a
// process held up for more than a second: late stamps, a /clock gap).
func healthy(st fastpeer.DiagnosticStatus, message string) bool {
	if st.Level == byte(doctor.LevelOK) {
		return st.Message == message
	}
	if st.Level != byte(doctor.LevelWarn) {
		return false
	}
	for _, code := range strings.Fields(kv(st, "findings")) {
		if code != string(doctor.CodeStaleStamps) && code != string(doctor.CodeClockGap) {
			return false
		}
	}
	return true
}

func kv(st fastpeer.DiagnosticStatus, key string) string {
	v, ok := st.Value(key)
	if !ok {
		return "<none>"
	}
	return v
}

// doctor --watch --diagnostics publishes a graph whose time is broken
// (a driver on wall time) and healthy nodes on Fast DDS and Cyclone DDS;
// the Fast DDS monitor reads every status with its level, name, message,
// hardware id and values; a node that leaves is STALE.
func TestDoctorDiagnostics(t *testing.T) {
	requireDDSCLI(t)
	bin := buildSimclock(t, t.TempDir())
	peerBin := fastpeer.BuildDiagnostics(t, ros2msg.ShippedDefinition)
	d := domainDoctorDiagnostics
	ctx, cancel := context.WithTimeout(context.Background(), 3*hang)
	defer cancel()
	monitor := fastpeer.Start(ctx, t, d, fastpeer.WithBinary(peerBin), fastpeer.WithNodes(
		fastpeer.Node{Name: "/sim/gazebo", Clock: &fastpeer.ClockPublisher{Start: 1000 * time.Second, Step: 10 * time.Millisecond, Rate: 100}},
		fastpeer.Node{Name: "/robot/imu_driver", UseSimTime: true, Imu: &fastpeer.ImuPublisher{Topic: "imu", Rate: 20}},
		fastpeer.Node{Name: "/robot/legacy_driver", Imu: &fastpeer.ImuPublisher{Topic: "range", Stamp: fastpeer.StampWall, Rate: 20}},
		fastpeer.Node{Name: "/rqt_robot_monitor", UseSimTime: true,
			Subscribe: []fastpeer.Subscription{{Topic: doctor.DiagnosticsTopic, Type: doctor.DiagnosticsType}}},
	))
	leaver := fastpeer.Start(ctx, t, d, fastpeer.WithNodes(fastpeer.Node{Name: "/robot/leaver", UseSimTime: true}))
	startTestNode(t, d, "planner", "SIMCLOCK_TEST_NS=/robot", "SIMCLOCK_TEST_SIM_TIME=1", "SIMCLOCK_TEST_TOPIC=/robot/temperature")
	w := startDoctorWatch(t, bin, ddsEnv(t, d), "--diagnostics", "--interval", "2s")

	a := awaitArray(t, ctx, monitor, "every node and the wall-time driver's findings", func(a fastpeer.DiagnosticArray) bool {
		legacy, ok1 := statusOf(a, "simclock_doctor/nodes/robot/legacy_driver")
		planner, ok2 := statusOf(a, "simclock_doctor/nodes/robot/planner")
		_, ok3 := statusOf(a, "simclock_doctor/nodes/robot/leaver")
		imu, ok4 := statusOf(a, "simclock_doctor/nodes/robot/imu_driver")
		return ok1 && ok2 && ok3 && ok4 && strings.Contains(kv(legacy, "findings"), "wall_stamps") &&
			strings.HasPrefix(kv(planner, "stamps /robot/temperature"), "sim") && strings.HasPrefix(kv(imu, "stamps /robot/imu"), "sim")
	})
	if err := monitor.CheckLoopback(); err != nil {
		t.Error(err)
	}
	if a.Node != "/rqt_robot_monitor" || a.Stamp < 1000e9 || a.Stamp > 1e9*1e9 {
		t.Errorf("array read by %s, stamp %d: want the monitor node, stamped with sim time", a.Node, a.Stamp)
	}
	// Published by doctor's hidden node, as the monitor's graph cache
	// decodes ros_discovery_info.
	doc, err := monitor.WaitFor(ctx, func(e fastpeer.Event) bool {
		return e.Kind == "graph_node" && e.Get("name") == "_simclock_doctor" && strings.Contains(e.Get("writers"), a.Publisher)
	})
	if err != nil {
		t.Errorf("no _simclock_doctor node with writer %s: %v", a.Publisher, err)
	} else if doc.Get("namespace") != "/" {
		t.Errorf("doctor's node: %s", doc.Line)
	}

	g, _ := statusOf(a, "simclock_doctor/graph")
	if g.Level != byte(doctor.LevelError) || !strings.Contains(g.Message, "errors") || g.HardwareID != "ros_domain_"+strconv.Itoa(d) ||
		kv(g, "ok") != "false" || kv(g, "clock_writers") != "1" {
		t.Errorf("graph: %+v", g)
	}
	var checks []string
	for _, st := range a.Status {
		if name, ok := strings.CutPrefix(st.Name, "simclock_doctor/checks/"); ok {
			checks = append(checks, name)
		}
	}
	for _, c := range doctor.Checks() {
		if !slices.Contains(checks, string(c.Code)) {
			t.Errorf("no status for check %s in %q", c.Code, checks)
		}
	}
	st, _ := statusOf(a, "simclock_doctor/checks/wall_stamps")
	if st.Level != byte(doctor.LevelError) || !strings.Contains(st.Message, "/robot/legacy_driver stamps /robot/range with wall time") ||
		!strings.HasPrefix(kv(st, "/robot/legacy_driver /robot/range"), "/robot/legacy_driver stamps") || kv(st, "rules") != "R16,R26" {
		t.Errorf("wall_stamps: %+v", st)
	}
	st, _ = statusOf(a, "simclock_doctor/checks/clock_qos_mismatch")
	if st.Level != byte(doctor.LevelOK) || st.Message != "ok" || kv(st, "findings") != "0" {
		t.Errorf("clock_qos_mismatch: %+v", st)
	}
	st, _ = statusOf(a, "simclock_doctor/nodes/robot/legacy_driver")
	if st.Level != byte(doctor.LevelError) || kv(st, "sim_time") != "false" || !strings.Contains(kv(st, "findings"), "node_not_on_sim_time") ||
		kv(st, "vendor") != "eProsima Fast DDS" {
		t.Errorf("legacy_driver: %+v", st)
	}
	// The Go node on Cyclone DDS and the simulator: OK (or warnings that
	// only this machine's load can cause).
	st, _ = statusOf(a, "simclock_doctor/nodes/robot/planner")
	if !healthy(st, "on sim time (/clock)") || kv(st, "sim_time") != "true" || kv(st, "clock_writers_matched") != "1" ||
		kv(st, "vendor") != "Eclipse Cyclone DDS" {
		t.Errorf("planner (Cyclone DDS): %+v", st)
	}
	st, _ = statusOf(a, "simclock_doctor/nodes/sim/gazebo")
	if !healthy(st, "publishes a clock") || kv(st, "publishes_clock") != "true" {
		t.Errorf("gazebo: %+v", st)
	}

	// A node's process goes: its status turns STALE.
	if err := leaver.Stop(); err != nil {
		t.Fatal(err)
	}
	a = awaitArray(t, ctx, monitor, "the node that left, STALE", func(a fastpeer.DiagnosticArray) bool {
		st, ok := statusOf(a, "simclock_doctor/nodes/robot/leaver")
		return ok && st.Level == byte(doctor.LevelStale)
	})
	if st, _ := statusOf(a, "simclock_doctor/nodes/robot/leaver"); st.Message != "no longer in the graph" {
		t.Errorf("leaver: %+v", st)
	}
	w.interrupt()
}
