package cli

import (
	"bytes"
	"path/filepath"
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
	var text bytes.Buffer
	writeDoctorText(&text, r, false)
	checkWidth(t, text.String())
	checkGolden(t, filepath.Join("testdata", "doctor", "report.txt"), text.String())
	text.Reset()
	writeDoctorText(&text, r, true)
	checkGolden(t, filepath.Join("testdata", "doctor", "report_wide.txt"), text.String())

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
	checkGolden(t, filepath.Join("testdata", "doctor", "report.jsonl"), js.String())

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
