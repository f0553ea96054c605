package cli

import (
	"bytes"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/simclock/simclock/doctor"
	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/internal/report"
	"github.com/simclock/simclock/internal/report/reporttest"
	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
	"github.com/simclock/simclock/transport"
)

// doctorGraph is a sim-time graph with most of what doctor reports: two
// /clock writers, a node on wall time stamping wall time, a node whose
// /clock reader asks for transient local, stale and zero stamps, and a
// participant with no endpoints. Its times are at Unix-epoch magnitude.
func doctorGraph() doctor.Observation {
	pp := func(b byte) graph.GUID { return graph.GUID{b, 15: 0xc1, 14: 1} }
	ep := func(p, id byte) graph.GUID { return graph.GUID{p, 15: id} }
	const clockType, imuType, scanType = "rosgraph_msgs::msg::dds_::Clock_", "sensor_msgs::msg::dds_::Imu_", "sensor_msgs::msg::dds_::LaserScan_"
	g := graph.New()
	self := pp(9)
	for _, p := range []graph.GUID{pp(1), pp(2), pp(3), pp(4), pp(5), self} {
		g.SetParticipant(graph.Participant{GUID: p, Enclave: "/"}, true)
	}
	// Not ROS, nothing visible: a Fast DDS program announcing XTypes type
	// information, whose endpoints Cyclone DDS 0.10 drops.
	g.SetParticipant(graph.Participant{GUID: graph.GUID{0x01, 0x0f, 6, 15: 0xc1, 14: 1}}, true)
	strict := graph.DefaultReaderQoS
	strict.Durability = transport.TransientLocal
	clockW := graph.Endpoint{GUID: ep(1, 2), Kind: graph.Writer, DDSTopic: doctor.ClockDDSTopic, DDSType: clockType, QoS: graph.DefaultWriterQoS}
	replayW := graph.Endpoint{GUID: ep(5, 2), Kind: graph.Writer, DDSTopic: doctor.ClockDDSTopic, DDSType: clockType, QoS: graph.DefaultWriterQoS}
	plannerR := graph.Endpoint{GUID: ep(2, 4), Kind: graph.Reader, DDSTopic: doctor.ClockDDSTopic, DDSType: clockType, QoS: graph.DefaultReaderQoS}
	scanW := graph.Endpoint{GUID: ep(2, 6), Kind: graph.Writer, DDSTopic: "rt/scan", DDSType: scanType, QoS: graph.DefaultWriterQoS}
	imuW := graph.Endpoint{GUID: ep(3, 6), Kind: graph.Writer, DDSTopic: "rt/imu", DDSType: imuType, QoS: graph.DefaultWriterQoS}
	imuR := graph.Endpoint{GUID: ep(2, 8), Kind: graph.Reader, DDSTopic: "rt/imu", DDSType: imuType, QoS: graph.DefaultReaderQoS}
	strictR := graph.Endpoint{GUID: ep(4, 4), Kind: graph.Reader, DDSTopic: doctor.ClockDDSTopic, DDSType: clockType, QoS: strict}
	for _, e := range []graph.Endpoint{clockW, replayW, plannerR, scanW, imuW, imuR, strictR} {
		g.SetEndpoint(e, true)
	}
	g.SetDiscoveryInfo(graph.ParticipantEntitiesInfo{GID: pp(1), Nodes: []graph.NodeEntitiesInfo{
		{Namespace: "/sim", Name: "gazebo", Writers: []graph.GUID{clockW.GUID}}}})
	g.SetDiscoveryInfo(graph.ParticipantEntitiesInfo{GID: pp(2), Nodes: []graph.NodeEntitiesInfo{
		{Namespace: "/", Name: "planner", Readers: []graph.GUID{plannerR.GUID, imuR.GUID}, Writers: []graph.GUID{scanW.GUID}}}})
	g.SetDiscoveryInfo(graph.ParticipantEntitiesInfo{GID: pp(3), Nodes: []graph.NodeEntitiesInfo{
		{Namespace: "/robot", Name: "legacy_driver", Writers: []graph.GUID{imuW.GUID}}}})
	g.SetDiscoveryInfo(graph.ParticipantEntitiesInfo{GID: pp(4), Nodes: []graph.NodeEntitiesInfo{
		{Namespace: "/robot", Name: "strict", Readers: []graph.GUID{strictR.GUID}}}})
	g.SetDiscoveryInfo(graph.ParticipantEntitiesInfo{GID: pp(5), Nodes: []graph.NodeEntitiesInfo{
		{Namespace: "/", Name: "rosbag2_player", Writers: []graph.GUID{replayW.GUID}}}})

	rtf, sim := 1.0, int64(1_700_000_042_250_000_000)
	stamps := func(counts map[doctor.StampClass]int, stamp, ref int64) *doctor.WriterStamps {
		ws := &doctor.WriterStamps{}
		for c, n := range counts {
			ws.Counts[c] = n
			ws.Example[c].Stamp, ws.Example[c].Ref = stamp, ref
		}
		return ws
	}
	return doctor.Observation{
		Graph: g.Snapshot(), Self: self, Elapsed: 5 * time.Second,
		Clock: map[string]doctor.ClockWriter{
			clockW.GUID.String():  {GUID: clockW.GUID.String(), Msgs: 500, RateHz: 100, RTF: &rtf, SimNs: &sim, SimTime: units.Value(sim)},
			replayW.GUID.String(): {GUID: replayW.GUID.String(), Msgs: 50, RateHz: 10, RTF: &rtf, SimNs: &sim, SimTime: units.Value(sim)},
		},
		Stamps: map[string]map[string]*doctor.WriterStamps{
			"rt/imu":  {imuW.GUID.String(): stamps(map[doctor.StampClass]int{doctor.Wall: 140}, 1_796_237_419_426_995_141, 1_796_237_419_426_996_345)},
			"rt/scan": {scanW.GUID.String(): stamps(map[doctor.StampClass]int{doctor.Sim: 40, doctor.Stale: 3, doctor.Zero: 1}, 1_700_000_040_000_000_000, sim)},
		},
	}
}

// doctor's human and JSON reports of one graph, as golden files: the
// reports themselves (the graph is built, not discovered, so the output
// is the same on every run; the live tests check discovery).
func TestDoctorReportGolden(t *testing.T) {
	r := doctor.Analyze(doctorGraph())
	checkDoctorGoldens(t, r, "report")
	var text bytes.Buffer
	writeDoctorText(&text, r, true)
	checkGolden(t, filepath.Join("testdata", "doctor", "report_wide.txt"), text.String())

	// SARIF: each finding a result at its node and topic, valid SARIF 2.1.0.
	var sarif bytes.Buffer
	if err := writeDoctorSARIF(&sarif, r); err != nil {
		t.Fatal(err)
	}
	reporttest.ValidateSARIF(t, sarif.Bytes())
	checkGolden(t, filepath.Join("testdata", "doctor", "report.sarif"),
		sarifGolden(t, sarif.String(), doctor.Checks(), func(c rules.Check) string { return string(c.Code) }))

	codes := map[rules.Code]bool{}
	for _, f := range r.Findings {
		codes[f.Code] = true
	}
	for _, c := range []rules.Code{doctor.CodeNodeNotOnSimTime, doctor.CodeClockQoSMismatch, doctor.CodeMultipleClockPubs,
		doctor.CodeWallStamps, doctor.CodeZeroStamps, doctor.CodeStaleStamps, doctor.CodeParticipantNoEndpoints} {
		if !codes[c] {
			t.Errorf("no %s finding in %v", c, codes)
		}
	}
}

// tfGraph is a sim-time graph whose tf is broken in each way doctor
// finds: a driver on wall time broadcasting its laser frame, a state
// publisher whose wheel transforms lag /clock by 3 s, a driver that kept
// its own timeline after /clock went back, two nodes broadcasting
// map→odom, and a static transform stamped 0 (harmless: tf2 keeps a
// static transform for all time).
func tfGraph() doctor.Observation {
	pp := func(b byte) graph.GUID { return graph.GUID{b, 15: 0xc1, 14: 1} }
	ep := func(p, id byte) graph.GUID { return graph.GUID{p, 15: id} }
	g := graph.New()
	self := pp(9)
	for _, p := range []graph.GUID{pp(1), pp(2), pp(3), pp(4), pp(5), pp(6), self} {
		g.SetParticipant(graph.Participant{GUID: p, Enclave: "/"}, true)
	}
	static := graph.DefaultWriterQoS
	static.Reliability, static.Durability = transport.Reliable, transport.TransientLocal
	const clockType = "rosgraph_msgs::msg::dds_::Clock_"
	clockW := graph.Endpoint{GUID: ep(1, 2), Kind: graph.Writer, DDSTopic: doctor.ClockDDSTopic, DDSType: clockType, QoS: graph.DefaultWriterQoS}
	tfW := func(p byte, topic string, q graph.QoS) graph.Endpoint {
		return graph.Endpoint{GUID: ep(p, 3), Kind: graph.Writer, DDSTopic: topic, DDSType: doctor.TFDDSType, QoS: q}
	}
	clockR := func(p byte) graph.Endpoint {
		return graph.Endpoint{GUID: ep(p, 4), Kind: graph.Reader, DDSTopic: doctor.ClockDDSTopic, DDSType: clockType, QoS: graph.DefaultReaderQoS}
	}
	nodes := []struct {
		p         byte
		ns, name  string
		endpoints []graph.Endpoint
	}{
		{1, "/sim", "gazebo", []graph.Endpoint{clockW}},
		{2, "/robot", "laser_driver", []graph.Endpoint{tfW(2, "rt/tf", graph.DefaultWriterQoS)}},
		{3, "/robot", "robot_state_publisher", []graph.Endpoint{clockR(3), tfW(3, "rt/tf", graph.DefaultWriterQoS)}},
		{4, "/robot", "localization", []graph.Endpoint{clockR(4), tfW(4, "rt/tf", graph.DefaultWriterQoS)}},
		{5, "/robot", "amcl", []graph.Endpoint{clockR(5), tfW(5, "rt/tf", graph.DefaultWriterQoS)}},
		{6, "/robot", "static_tf", []graph.Endpoint{clockR(6), tfW(6, "rt/tf_static", static)}},
	}
	for _, n := range nodes {
		info := graph.NodeEntitiesInfo{Namespace: n.ns, Name: n.name}
		for _, e := range n.endpoints {
			e.Participant = pp(n.p)
			g.SetEndpoint(e, true)
			if e.Kind == graph.Writer {
				info.Writers = append(info.Writers, e.GUID)
			} else {
				info.Readers = append(info.Readers, e.GUID)
			}
		}
		g.SetDiscoveryInfo(graph.ParticipantEntitiesInfo{GID: pp(n.p), Nodes: []graph.NodeEntitiesInfo{info}})
	}
	rtf, sim := 1.0, int64(1042_250_000_000)
	const wall = int64(1_796_237_419_426_995_141)
	tf := func(topic string, counts map[doctor.StampClass]int, stamp, ref int64, lags ...int64) *doctor.TransformStamps {
		ts := &doctor.TransformStamps{Topic: topic, Lags: lags}
		for c, n := range counts {
			ts.Counts[c] = n
			ts.Example[c].Stamp, ts.Example[c].Ref = stamp, ref
		}
		return ts
	}
	var wheelLags []int64
	for i := range 200 {
		wheelLags = append(wheelLags, 3e9+int64(i%20)*1e6)
	}
	old := tf("rt/tf", map[doctor.StampClass]int{doctor.Sim: 300, doctor.Future: 180}, 1045_120_000_000, 42_120_000_000)
	old.OldTimeline = 180
	old.OldExample = doctor.OldTimelineStamp{Stamp: 1045_120_000_000, Sim: 42_120_000_000, JumpFrom: 1044_990_000_000,
		JumpTo: 40_000_000_000, JumpAt: 3 * time.Second}
	key := func(p byte, parent, child string) doctor.TransformKey {
		return doctor.TransformKey{Writer: ep(p, 3).String(), Parent: parent, Child: child}
	}
	obs := doctor.Observation{
		Graph: g.Snapshot(), Self: self, Elapsed: 5 * time.Second,
		Clock: map[string]doctor.ClockWriter{
			clockW.GUID.String(): {GUID: clockW.GUID.String(), Msgs: 500, RateHz: 100, RTF: &rtf, SimNs: &sim, SimTime: units.Value(sim)},
		},
		Stamps: map[string]map[string]*doctor.WriterStamps{},
		Transforms: map[doctor.TransformKey]*doctor.TransformStamps{
			key(2, "base_link", "laser"):    tf("rt/tf", map[doctor.StampClass]int{doctor.Wall: 100}, wall, wall+1_204),
			key(3, "odom", "base_link"):     tf("rt/tf", map[doctor.StampClass]int{doctor.Sim: 200}, sim, sim, 0, 1e6, 2e6),
			key(3, "base_link", "wheel"):    tf("rt/tf", map[doctor.StampClass]int{doctor.Stale: 200}, sim-3e9, sim, wheelLags...),
			key(4, "map", "odom"):           old,
			key(5, "map", "odom"):           tf("rt/tf", map[doctor.StampClass]int{doctor.Sim: 100}, sim, sim, 0, 0),
			key(6, "base_link", "imu_link"): tf("rt/tf_static", map[doctor.StampClass]int{doctor.Zero: 1}, 0, sim),
		},
	}
	// A tf topic's stamps per writer are its transforms' together, as
	// the Watcher counts them.
	for k, ts := range obs.Transforms {
		byWriter := obs.Stamps[ts.Topic]
		if byWriter == nil {
			byWriter = map[string]*doctor.WriterStamps{}
			obs.Stamps[ts.Topic] = byWriter
		}
		ws := byWriter[k.Writer]
		if ws == nil {
			ws = &doctor.WriterStamps{}
			byWriter[k.Writer] = ws
		}
		for c, n := range ts.Counts {
			ws.Counts[c] += n
		}
	}
	return obs
}

// doctor's report of a graph whose tf is broken, as golden files: the
// transforms table, per writer and parent→child pair, and the tf
// findings (docs/troubleshooting.md quotes them under tf2's errors).
func TestDoctorTFGolden(t *testing.T) {
	r := doctor.Analyze(tfGraph())
	checkDoctorGoldens(t, r, "tf")
	codes := map[rules.Code]int{}
	for _, f := range r.Findings {
		codes[f.Code]++
	}
	for _, c := range []rules.Code{doctor.CodeTFWallStamps, doctor.CodeTFLag, doctor.CodeTFOldData, doctor.CodeTFMultiplePublishers} {
		if codes[c] != 1 {
			t.Errorf("%d %s findings, want 1: %v", codes[c], c, codes)
		}
	}
	if codes[doctor.CodeZeroStamps] != 0 || codes[doctor.CodeWallStamps] != 0 || codes[doctor.CodeStaleStamps] != 0 {
		t.Errorf("tf judged as a plain stamped topic: %v", codes)
	}
}

// doctor as a gate: --expect's results in the text report, JSON and
// JUnit, the JUnit valid (junit-10.xsd) with a failing test case per
// finding and unmet expectation and a passing one per expectation held.
func TestDoctorExpectGolden(t *testing.T) {
	obs := doctorGraph()
	for _, s := range []string{"sim_time=/planner", "sim_time=/sim/*", "sim_time=/robot/*", "sim_stamps=/scan", "sim_stamps=/imu", "clock_rate=90..110"} {
		e, err := doctor.ParseExpectation(s)
		if err != nil {
			t.Fatal(err)
		}
		obs.Expect = append(obs.Expect, e)
	}
	r := doctor.Analyze(obs)
	var text bytes.Buffer
	writeDoctorText(&text, r, false)
	checkWidth(t, text.String())
	checkGolden(t, filepath.Join("testdata", "doctor", "expect.txt"), text.String())
	var junit bytes.Buffer
	if err := writeDoctorJUnit(&junit, r, "my_pkg.graph_time", rules.FailOnError, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	got := reporttest.ValidateJUnit(t, junit.Bytes())
	checkGolden(t, filepath.Join("testdata", "doctor", "expect.junit.xml"), junit.String())
	errs := rules.Count(r.Findings, rules.Error)
	passes := 0
	for _, e := range r.Expectations {
		if e.Met {
			passes++
		}
	}
	if got.Failures != errs || got.Errors != 0 || got.Tests != len(r.Findings)+passes || passes != 2 {
		t.Errorf("JUnit counts %+v; %d errors, %d findings, %d expectations held", got, errs, len(r.Findings), passes)
	}
	for _, want := range []string{"expect_sim_time (/planner)", "expect_sim_time (/sim/*)", "expect_sim_time (/robot/legacy_driver /clock)",
		"expect_clock_rate (/rosbag2_player /clock)"} {
		if !slices.Contains(got.Cases, want) {
			t.Errorf("no test case %q in %q", want, got.Cases)
		}
	}
	// An incomplete report is an error in the file, as it is exit 1.
	r.Summary.Discovering, r.Summary.Pending = true, 1
	junit.Reset()
	if err := writeDoctorJUnit(&junit, r, "x.y", rules.FailOnError, 0); err != nil {
		t.Fatal(err)
	}
	if got := reporttest.ValidateJUnit(t, junit.Bytes()); got.Errors != 1 {
		t.Errorf("discovering: %+v", got)
	}
}

// checkDoctorGoldens compares r's text report (within 100 columns) and its
// JSON lines, after the env line of a 5 s audit, with testdata/doctor's
// NAME.txt and NAME.jsonl.
func checkDoctorGoldens(t *testing.T, r doctor.Report, name string) {
	t.Helper()
	var text bytes.Buffer
	writeDoctorText(&text, r, false)
	checkWidth(t, text.String())
	checkGolden(t, filepath.Join("testdata", "doctor", name+".txt"), text.String())

	var js bytes.Buffer
	out := report.NewJSONLines(&js)
	o := &doctorOptions{duration: 5 * time.Second, tolerance: time.Second}
	if err := out.Write("env", o.envLine(7)); err != nil {
		t.Fatal(err)
	}
	if err := writeDoctorJSON(out, r); err != nil {
		t.Fatal(err)
	}
	checkJSONLines(t, js.String())
	checkGolden(t, filepath.Join("testdata", "doctor", name+".jsonl"), js.String())
}
