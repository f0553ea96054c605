package doctor_test

import (
	"strings"
	"testing"
	"time"

	"github.com/simclock/simclock/cdr"
	"github.com/simclock/simclock/doctor"
	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/ros2msg"
	"github.com/simclock/simclock/rules"
	"github.com/simclock/simclock/transport"
)

// A transform in a TFMessage.
type tfEntry struct {
	stamp         int64
	parent, child string
}

// tfMsg encodes a tf2_msgs/msg/TFMessage (the layout rmw writes:
// sequence<TransformStamped>, each a Header, child_frame_id and seven
// doubles).
func tfMsg(ts ...tfEntry) []byte {
	w := cdr.NewWriter(64)
	w.Uint32(uint32(len(ts)))
	for _, t := range ts {
		w.Int32(int32(t.stamp / 1e9))
		w.Uint32(uint32(t.stamp % 1e9))
		w.String(t.parent)
		w.String(t.child)
		for _, v := range []float64{1, 2, 3, 0, 0, 0, 1} {
			w.Float64(v)
		}
	}
	return w.Bytes()
}

func tfWriter(id graph.GUID, ddsTopic string, static bool) graph.Endpoint {
	q := graph.DefaultWriterQoS
	if static {
		q.Reliability, q.Durability = transport.Reliable, transport.TransientLocal
	}
	return graph.Endpoint{GUID: id, Kind: graph.Writer, DDSTopic: ddsTopic, DDSType: doctor.TFDDSType, QoS: q}
}

// tf publishes n TFMessages on ddsTopic from writer, every period of wall
// time from offset after the start of the audit; msg makes the i-th.
func (h *harness) tf(ddsTopic string, writer graph.GUID, offset time.Duration, n int, period time.Duration, msg func(i int) []tfEntry) {
	q := h.src.reader(h.t, ddsTopic, false)
	for i := range n {
		q.push(transport.Sample{Data: tfMsg(msg(i)...), Publisher: pub(writer),
			SourceTimestamp: h.t0 + int64(offset) + int64(i)*int64(period)})
	}
}

func transformOf(t *testing.T, r doctor.Report, parent, child, publisher string) doctor.TransformReport {
	t.Helper()
	for _, tr := range r.Transforms {
		if tr.Parent == parent && tr.Child == child && tr.Publisher == publisher {
			return tr
		}
	}
	t.Fatalf("no transform %s→%s by %s in %+v", parent, child, publisher, r.Transforms)
	return doctor.TransformReport{}
}

// tf in a sim-time graph, transform by transform: one on time, one 3 s
// late, one wall-stamped, one published by two nodes, and static ones
// whose stamps tf2 ignores. All in virtual time.
func TestTransforms(t *testing.T) {
	const ms = time.Millisecond
	h := newHarness(t, doctor.Options{})
	sim := ep(1, 2)
	h.node(1, "/sim", "gazebo", clockWriter(sim, doctor.ClockDDSTopic))
	state, legacy, loc, amcl, static := ep(2, 3), ep(3, 3), ep(4, 3), ep(5, 3), ep(6, 3)
	h.node(2, "/robot", "state_publisher", clockReader(ep(2, 4), doctor.ClockDDSTopic), tfWriter(state, "rt/tf", false))
	h.node(3, "/robot", "legacy_driver", tfWriter(legacy, "rt/tf", false))
	h.node(4, "/robot", "localization", clockReader(ep(4, 4), doctor.ClockDDSTopic), tfWriter(loc, "rt/tf", false))
	h.node(5, "/robot", "amcl", clockReader(ep(5, 4), doctor.ClockDDSTopic), tfWriter(amcl, "rt/tf", false))
	h.node(6, "/robot", "static_tf", clockReader(ep(6, 4), doctor.ClockDDSTopic), tfWriter(static, "rt/tf_static", true))
	h.at(0) // the watcher reads rt/tf and rt/tf_static

	// /clock at 100 Hz from 1000 s; every transform written 1 ms after a
	// /clock instant, so the sim time of each write is exact.
	h.clock(doctor.ClockDDSTopic, sim, 0, 500, 10*ms, 10*ms, 1000e9)
	simAt := func(i int) int64 { return 1000e9 + int64(i)*int64(50*ms) } // every 50 ms
	h.tf("rt/tf", state, ms, 100, 50*ms, func(i int) []tfEntry {
		return []tfEntry{{simAt(i), "odom", "base_link"}, {simAt(i) - 3e9 - int64(i%5)*int64(ms), "base_link", "wheel"}}
	})
	h.tf("rt/tf", legacy, ms, 100, 50*ms, func(i int) []tfEntry {
		return []tfEntry{{h.t0 + int64(i)*int64(50*ms), "base_link", "laser"}}
	})
	h.tf("rt/tf", loc, ms, 100, 50*ms, func(i int) []tfEntry { return []tfEntry{{simAt(i), "map", "odom"}} })
	h.tf("rt/tf", amcl, 25*ms, 100, 50*ms, func(i int) []tfEntry { return []tfEntry{{simAt(i) + 5e6, "map", "odom"}} })
	h.tf("rt/tf_static", static, ms, 1, 0, func(int) []tfEntry {
		return []tfEntry{{0, "base_link", "imu"}, {h.t0, "base_link", "camera"}}
	})
	r := h.at(5 * time.Second)

	if got := transformOf(t, r, "odom", "base_link", "/robot/state_publisher"); got.Samples != 100 || got.Base != "sim" ||
		got.Lag == nil || got.Lag.P50 != 0 || got.Lag.Max != 0 || got.Topic != "/tf" || got.Static {
		t.Errorf("odom→base_link: %+v %+v", got, got.Lag)
	}
	wheel := transformOf(t, r, "base_link", "wheel", "/robot/state_publisher")
	if wheel.Stale != 100 || wheel.Base != "sim" || wheel.Lag.P50 != 3002e6 || wheel.Lag.Max != 3004e6 || wheel.Lag.Count != 100 {
		t.Errorf("base_link→wheel: %+v %+v", wheel, wheel.Lag)
	}
	f := finding(t, r, doctor.CodeTFLag, "/robot/state_publisher")
	for _, want := range []string{"transform base_link→wheel on /tf lags /clock: median 3.002 s, p95 3.004 s, max 3.004 s over its latest 100 stamps",
		"extrapolation into the future"} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("tf_lag: %q lacks %q", f.Message, want)
		}
	}
	if strings.Contains(f.Message, "odom→base_link") || f.Topic != "/tf" {
		t.Errorf("tf_lag: %+v", f)
	}

	f = finding(t, r, doctor.CodeTFWallStamps, "/robot/legacy_driver")
	if !strings.Contains(f.Message, "stamps the transform base_link→laser on /tf with wall time: 100 of 100 stamps") ||
		f.Severity != rules.Error {
		t.Errorf("tf_wall_stamps: %+v", f)
	}
	f = finding(t, r, doctor.CodeTFMultiplePublishers, "")
	if !strings.Contains(f.Message, "2 nodes publish the transform map→odom: /robot/amcl (/tf), /robot/localization (/tf)") {
		t.Errorf("tf_multiple_publishers: %+v", f)
	}
	// The static transforms: listed, stamps as they are, and no finding
	// (tf2 keeps a static transform for all time).
	imu := transformOf(t, r, "base_link", "imu", "/robot/static_tf")
	cam := transformOf(t, r, "base_link", "camera", "/robot/static_tf")
	if !imu.Static || imu.Zero != 1 || cam.Wall != 1 || cam.Topic != "/tf_static" {
		t.Errorf("static: %+v %+v", imu, cam)
	}
	for _, f := range r.Findings {
		switch {
		case f.Code == doctor.CodeWallStamps || f.Code == doctor.CodeStaleStamps || f.Code == doctor.CodeFutureStamps:
			t.Errorf("tf judged as a plain stamped topic too: %+v", f)
		case f.Node == "/robot/static_tf" || f.Node == "/robot/localization" && f.Code != doctor.CodeTFMultiplePublishers:
			t.Errorf("finding about a healthy publisher: %+v", f)
		}
	}
	if len(r.Transforms) != 7 {
		t.Errorf("%d transforms, want 7: %+v", len(r.Transforms), r.Transforms)
	}

	// A writer that leaves takes its transforms along.
	h.w.Graph().SetParticipant(graph.Participant{GUID: pp(5)}, false)
	r = h.at(6 * time.Second)
	if hasFinding(r, doctor.CodeTFMultiplePublishers) || len(r.Transforms) != 6 {
		t.Errorf("after /robot/amcl left: %d transforms, findings %+v", len(r.Transforms), r.Findings)
	}
}

// /clock goes back 3 s into the audit (a simulation reset): a node whose
// stamps follow its clock goes back with it; one that keeps its own
// timeline stamps ahead of /clock from then on, which listeners hold
// against it as TF_OLD_DATA.
func TestTransformsAfterClockJumpsBack(t *testing.T) {
	const ms = time.Millisecond
	h := newHarness(t, doctor.Options{})
	sim := ep(1, 2)
	h.node(1, "/", "gazebo", clockWriter(sim, doctor.ClockDDSTopic))
	follower, freerun := ep(2, 3), ep(3, 3)
	h.node(2, "/robot", "odometry", clockReader(ep(2, 4), doctor.ClockDDSTopic), tfWriter(follower, "rt/tf", false))
	h.node(3, "/robot", "driver", clockReader(ep(3, 4), doctor.ClockDDSTopic), tfWriter(freerun, "rt/tf", false))
	h.at(0)
	// 1000 s to 1002.99 s, then back to 500 s from 3 s into the audit.
	h.clock(doctor.ClockDDSTopic, sim, 0, 300, 10*ms, 10*ms, 1000e9)
	h.clock(doctor.ClockDDSTopic, sim, 3000*ms, 300, 10*ms, 10*ms, 500e9)
	clockAt := func(wall time.Duration) int64 {
		if wall < 3*time.Second {
			return 1000e9 + int64(wall)
		}
		return 500e9 + int64(wall-3*time.Second)
	}
	h.tf("rt/tf", follower, ms, 120, 50*ms, func(i int) []tfEntry {
		return []tfEntry{{clockAt(time.Duration(i) * 50 * ms), "odom", "base_link"}}
	})
	h.tf("rt/tf", freerun, ms, 120, 50*ms, func(i int) []tfEntry {
		return []tfEntry{{1000e9 + int64(i)*int64(50*ms), "base_link", "laser"}}
	})
	r := h.at(6 * time.Second)
	f := finding(t, r, doctor.CodeTFOldData, "/robot/driver")
	for _, want := range []string{"/clock went back from 1002.990000000 to 500.000000000 3.000 s into the audit",
		"/robot/driver keeps stamping the transform base_link→laser on /tf on the old timeline",
		"TF_OLD_DATA"} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("tf_old_data: %q lacks %q", f.Message, want)
		}
	}
	// Stamps written more than a tolerance after the jump count: 4.001 s
	// to 5.951 s, 40 of them.
	if got := transformOf(t, r, "base_link", "laser", "/robot/driver"); got.OldTimeline != 40 {
		t.Errorf("old timeline: %d stamps, want 40", got.OldTimeline)
	}
	if got := transformOf(t, r, "odom", "base_link", "/robot/odometry"); got.OldTimeline != 0 {
		t.Errorf("the follower: %+v", got)
	}
	if !hasFinding(r, doctor.CodeClockBackward) {
		t.Errorf("no clock_backward: %+v", r.Findings)
	}
}

// FuzzDecodeTF: any payload decodes without panic, and what decodes
// agrees with the generic decoder of the shipped definition.
func FuzzDecodeTF(f *testing.F) {
	f.Add(tfMsg(tfEntry{1, "a", "b"}, tfEntry{2e9, "odom", "base_link"}))
	f.Add(tfMsg())
	f.Add([]byte{0, 1, 0, 0, 255, 255, 255, 255})
	schema, err := ros2msg.ParseShipped("tf2_msgs/msg/TFMessage")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got []tfEntry
		err := doctor.DecodeTF(data, func(stamp int64, parent, child string) { got = append(got, tfEntry{stamp, parent, child}) })
		v, gerr := schema.Decode(data)
		if gerr != nil {
			return // the generic decoder is stricter (trailing bytes)
		}
		if err != nil {
			t.Fatalf("the shipped definition decodes %x, DecodeTF fails: %v", data, err)
		}
		ts := v["transforms"].([]any)
		if len(ts) != len(got) {
			t.Fatalf("%d transforms, the generic decoder %d", len(got), len(ts))
		}
		for i, x := range ts {
			tr := x.(ros2msg.Value)
			h := tr["header"].(ros2msg.Value)
			st := h["stamp"].(ros2msg.Value)
			want := tfEntry{int64(st["sec"].(int32))*1e9 + int64(st["nanosec"].(uint32)), h["frame_id"].(string), tr["child_frame_id"].(string)}
			if got[i] != want {
				t.Fatalf("transform %d: %+v, the generic decoder %+v", i, got[i], want)
			}
		}
	})
}
