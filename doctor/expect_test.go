package doctor_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/simclock/simclock/doctor"
	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/transport"
)

func TestParseExpectation(t *testing.T) {
	for _, c := range []struct {
		in, want string
		min, max float64
	}{
		{"sim_time=/robot/*", "sim_time=/robot/*", 0, 0},
		{"sim_stamps=/scan", "sim_stamps=/scan", 0, 0},
		{"clock_rate=90..110", "clock_rate=90..110", 90, 110},
		{"clock_rate=/robot1/clock:0.5..1e3", "clock_rate=/robot1/clock:0.5..1000", 0.5, 1000},
	} {
		e, err := doctor.ParseExpectation(c.in)
		if err != nil || e.String() != c.want || e.MinHz != c.min || e.MaxHz != c.max {
			t.Errorf("ParseExpectation(%q) = %+v (%s), %v", c.in, e, e, err)
		}
	}
	for _, bad := range []string{"", "sim_time", "sim_time=", "sim_time=robot", "sim_time=/a[", "clock_rate=110..90",
		"clock_rate=90", "clock_rate=-1..2", "clock_rate=NaN..1", "clock_rate=clock:1..2", "use_sim_time=/a"} {
		if _, err := doctor.ParseExpectation(bad); !errors.Is(err, doctor.ErrExpectation) {
			t.Errorf("ParseExpectation(%q): %v, want ErrExpectation", bad, err)
		}
	}
}

func expectation(t *testing.T, r doctor.Report, expect string, met bool, subject string) doctor.ExpectationResult {
	t.Helper()
	for _, e := range r.Expectations {
		if e.Expect == expect && e.Met == met && e.Subject == subject {
			return e
		}
	}
	t.Fatalf("no result of %s met=%v for %q in %+v", expect, met, subject, r.Expectations)
	return doctor.ExpectationResult{}
}

// A gate's expectations against a graph with a node on wall time: each
// that holds is said so, each that fails is a finding naming what failed
// it. Virtual time.
func TestExpectations(t *testing.T) {
	const ms = time.Millisecond
	var expect []doctor.Expectation
	for _, s := range []string{"sim_time=/robot/*", "sim_time=/robot/imu_driver", "sim_time=/arm/*", "sim_stamps=/robot/imu",
		"sim_stamps=/robot/range", "sim_stamps=/nothing", "clock_rate=90..110", "clock_rate=200..300", "clock_rate=/robot1/clock:1..2"} {
		e, err := doctor.ParseExpectation(s)
		if err != nil {
			t.Fatal(err)
		}
		expect = append(expect, e)
	}
	h := newHarness(t, doctor.Options{Expect: expect})
	sim := ep(1, 2)
	h.node(1, "/sim", "gazebo", clockWriter(sim, doctor.ClockDDSTopic))
	imuType := "sensor_msgs::msg::dds_::Imu_"
	imu := graph.Endpoint{GUID: ep(2, 6), Kind: graph.Writer, DDSTopic: "rt/robot/imu", DDSType: imuType, QoS: graph.DefaultWriterQoS}
	rng := graph.Endpoint{GUID: ep(3, 6), Kind: graph.Writer, DDSTopic: "rt/robot/range", DDSType: imuType, QoS: graph.DefaultWriterQoS}
	h.node(2, "/robot", "imu_driver", clockReader(ep(2, 4), doctor.ClockDDSTopic), imu)
	h.node(3, "/robot", "legacy_driver", rng)
	h.at(0)
	h.clock(doctor.ClockDDSTopic, sim, 0, 300, 10*ms, 10*ms, 1000e9)
	for i := range 10 {
		h.src.reader(t, "rt/robot/imu", false).push(transport.Sample{Data: imuMsg(1000e9 + int64(i)*100e6), Publisher: pub(imu.GUID),
			SourceTimestamp: h.t0 + int64(i)*int64(100*ms) + int64(ms)})
		h.src.reader(t, "rt/robot/range", false).push(transport.Sample{Data: imuMsg(h.t0 + int64(i)*100e6), Publisher: pub(rng.GUID),
			SourceTimestamp: h.t0 + int64(i)*int64(100*ms) + int64(ms)})
	}
	r := h.at(3 * time.Second)

	e := expectation(t, r, "sim_time=/robot/*", false, "/robot/legacy_driver")
	if !strings.Contains(e.Detail, "/robot/legacy_driver is not on sim time") {
		t.Errorf("sim_time=/robot/*: %+v", e)
	}
	expectation(t, r, "sim_time=/robot/imu_driver", true, "/robot/imu_driver")
	if e := expectation(t, r, "sim_time=/arm/*", false, ""); e.Detail != "no node matches /arm/*" {
		t.Errorf("sim_time=/arm/*: %+v", e)
	}
	expectation(t, r, "sim_stamps=/robot/imu", true, "/robot/imu")
	if e := expectation(t, r, "sim_stamps=/robot/range", false, "/robot/range"); !strings.Contains(e.Detail, "wall stamps, not sim time: /robot/legacy_driver wall") {
		t.Errorf("sim_stamps=/robot/range: %+v", e)
	}
	expectation(t, r, "sim_stamps=/nothing", false, "")
	if e := expectation(t, r, "clock_rate=90..110", true, "/clock"); e.Detail != "/clock at /sim/gazebo 100.0 Hz" {
		t.Errorf("clock_rate=90..110: %+v", e)
	}
	if e := expectation(t, r, "clock_rate=200..300", false, "/sim/gazebo"); !strings.Contains(e.Detail, "at 100.0 Hz, outside 200..300 Hz") {
		t.Errorf("clock_rate=200..300: %+v", e)
	}
	expectation(t, r, "clock_rate=/robot1/clock:1..2", false, "")

	// Each failure is a finding, named and of its check.
	f := finding(t, r, doctor.CodeExpectSimTime, "/robot/legacy_driver")
	if f.Message != "--expect sim_time=/robot/*: /robot/legacy_driver is not on sim time: it has no clock reader (use_sim_time is false)" {
		t.Errorf("finding: %+v", f)
	}
	counts := map[string]int{}
	for _, f := range r.Findings {
		counts[string(f.Code)]++
	}
	if counts["expect_sim_time"] != 2 || counts["expect_sim_stamps"] != 2 || counts["expect_clock_rate"] != 2 {
		t.Errorf("findings by code: %v", counts)
	}
}
