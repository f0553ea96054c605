package doctor_test

import (
	"strings"
	"testing"
	"time"

	"github.com/simclock/simclock/doctor"
	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/rules"
	"github.com/simclock/simclock/transport"
)

// The simulator dies 3 s into an 8 s audit: the report says when /clock
// stopped and for how long it has been silent, and the rate is the rate
// while it published, not averaged over the dead time. All in virtual
// time: the report is the same on every machine.
func TestClockStopsMidAudit(t *testing.T) {
	h := newHarness(t, doctor.Options{})
	sim := ep(1, 2)
	h.node(1, "/sim", "gazebo", clockWriter(sim, doctor.ClockDDSTopic))
	h.node(2, "/", "planner", clockReader(ep(2, 4), doctor.ClockDDSTopic))
	// 100 Hz from 0.010 s to 3.000 s: 300 messages, 1000 s of sim time on.
	h.clock(doctor.ClockDDSTopic, sim, 10*time.Millisecond, 300, 10*time.Millisecond, 10*time.Millisecond, 1000e9)

	r := h.at(2 * time.Second)
	if hasFinding(r, doctor.CodeClockStopped) || !r.Summary.OK {
		t.Fatalf("at 2 s /clock is running: %+v", r.Findings)
	}

	r = h.at(8 * time.Second)
	f := finding(t, r, doctor.CodeClockStopped, "/sim/gazebo")
	for _, want := range []string{"/clock from /sim/gazebo stopped 3.000 s into the audit", "last value 1002.990000000",
		"300 messages at 100.0 Hz", "silent for 5.000 s"} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("message %q lacks %q", f.Message, want)
		}
	}
	if f.Severity != rules.Error || r.Summary.OK {
		t.Errorf("severity %v, summary %+v", f.Severity, r.Summary)
	}
	c := r.Clock[0]
	if c.RateHz < 99.99 || c.RateHz > 100.01 {
		t.Errorf("rate %.3f Hz: the 5 s of silence must not be averaged in", c.RateHz)
	}
	if c.Silence != 5*time.Second || *c.LastMsg != 3*time.Second || *c.FirstMsg != 10*time.Millisecond || c.Msgs != 300 {
		t.Errorf("clock writer %+v", c)
	}

	// The writer's node goes away (its lease ran out): still stopped, and
	// said so, not "nobody publishes /clock".
	h.w.Graph().SetParticipant(graph.Participant{GUID: pp(1)}, false)
	r = h.at(20 * time.Second)
	f = finding(t, r, doctor.CodeClockStopped, "/sim/gazebo")
	if !strings.Contains(f.Message, "left the graph") || !r.Clock[0].Left {
		t.Errorf("after the writer left: %s; %+v", f.Message, r.Clock)
	}
}

// Gaps that end, a paused value, jumps back and forward: each is a
// finding dated in the audit.
func TestClockStreamEvents(t *testing.T) {
	const ms = time.Millisecond
	tests := []struct {
		name  string
		feed  func(h *harness, w graph.GUID)
		end   time.Duration // the last message
		code  rules.Code
		sev   rules.Severity
		wants []string
	}{
		{"gap", func(h *harness, w graph.GUID) {
			h.clock(doctor.ClockDDSTopic, w, 0, 100, 10*ms, 10*ms, 1000e9)       // 0 to 0.99 s
			h.clock(doctor.ClockDDSTopic, w, 2490*ms, 100, 10*ms, 10*ms, 1001e9) // silent 1.5 s, then 1 s more
		}, 3480 * ms, doctor.CodeClockGap, rules.Warning, []string{"went silent for 1.500 s from 0.990 s into the audit, then resumed"}},
		{"stall", func(h *harness, w graph.GUID) {
			h.clock(doctor.ClockDDSTopic, w, 0, 100, 10*ms, 10*ms, 1000e9)   // running to 1000.99
			h.clock(doctor.ClockDDSTopic, w, 1000*ms, 300, 10*ms, 0, 1001e9) // then 3 s at 1001
		}, 3990 * ms, doctor.CodeClockStall, rules.Warning, []string{"stood still at 1001.000000000 from 1.000 s into the audit", "while messages kept coming"}},
		{"backward", func(h *harness, w graph.GUID) {
			h.clock(doctor.ClockDDSTopic, w, 0, 100, 10*ms, 10*ms, 1000e9)
			h.clock(doctor.ClockDDSTopic, w, 1000*ms, 100, 10*ms, 10*ms, 900e9) // a looped recording
		}, 1990 * ms, doctor.CodeClockBackward, rules.Error, []string{"went back from 1000.990000000 to 900.000000000 (by 100.990 s) 1.000 s into the audit"}},
		{"forward", func(h *harness, w graph.GUID) {
			h.clock(doctor.ClockDDSTopic, w, 0, 100, 10*ms, 10*ms, 1000e9)
			h.clock(doctor.ClockDDSTopic, w, 1000*ms, 100, 10*ms, 10*ms, 1060e9)
		}, 1990 * ms, doctor.CodeClockJumpForward, rules.Warning, []string{"jumped forward from 1000.990000000 to 1060.000000000 (by 59.010 s) 1.000 s into the audit"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, doctor.Options{})
			w := ep(1, 2)
			h.node(1, "/sim", "gazebo", clockWriter(w, doctor.ClockDDSTopic))
			tt.feed(h, w)
			r := h.at(tt.end + 50*ms) // still publishing: not stopped
			f := finding(t, r, tt.code, "/sim/gazebo")
			if f.Severity != tt.sev {
				t.Errorf("severity %v, want %v", f.Severity, tt.sev)
			}
			for _, want := range tt.wants {
				if !strings.Contains(f.Message, want) {
					t.Errorf("message %q lacks %q", f.Message, want)
				}
			}
			if len(r.Findings) != 1 {
				t.Errorf("want only %s: %+v", tt.code, r.Findings)
			}
		})
	}
}

// A /clock of only malformed messages is a writer with no time, and an
// error; a partly malformed one is counted.
func TestMalformedClock(t *testing.T) {
	h := newHarness(t, doctor.Options{})
	w := ep(1, 2)
	h.node(1, "/", "broken_sim", clockWriter(w, doctor.ClockDDSTopic))
	q := h.src.reader(t, doctor.ClockDDSTopic, true)
	for i := range 50 {
		q.push(transport.Sample{Data: []byte{0, 1, 0, 0, 1, 2, 3, 4}, Publisher: pub(w),
			SourceTimestamp: h.t0 + int64(i)*int64(20*time.Millisecond)})
	}
	r := h.at(time.Second)
	f := finding(t, r, doctor.CodeClockMalformed, "/broken_sim")
	for _, want := range []string{"50 of 50 messages /clock from /broken_sim are not a valid Clock",
		"50 do not decode as rosgraph_msgs/msg/Clock (the first 0.000 s into the audit)", "not one was valid"} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("message %q lacks %q", f.Message, want)
		}
	}
	if c := r.Clock[0]; c.SimNs != nil || c.Malformed != 50 || c.Msgs != 50 || r.Summary.OK || f.Severity != rules.Error {
		t.Errorf("clock %+v, summary %+v", c, r.Summary)
	}
}

// Remapped and per-namespace clocks: a time source is a reader of any
// topic of type rosgraph_msgs/msg/Clock; one reading a topic nobody
// publishes is named with both topics; a relay publishing /robot1/clock
// is a clock source, not a wall-time node; each robot's stamps are
// compared with its own clock.
func TestClockTopics(t *testing.T) {
	h := newHarness(t, doctor.Options{})
	sim, relay := ep(1, 2), ep(2, 2)
	h.node(1, "/", "gazebo", clockWriter(sim, doctor.ClockDDSTopic))
	// The relay reads /clock and republishes it, 4000 s ahead, as
	// /robot2/clock: robot2's simulation runs on its own time.
	h.node(2, "/robot2", "clock_relay", clockReader(ep(2, 4), doctor.ClockDDSTopic), clockWriter(relay, "rt/robot2/clock"))
	// robot1's controller was remapped to /robot1/clock: nobody publishes it.
	h.node(3, "/robot1", "controller", clockReader(ep(3, 4), "rt/robot1/clock"))
	imu := graph.Endpoint{GUID: ep(4, 6), Kind: graph.Writer, DDSTopic: "rt/robot2/imu", DDSType: "sensor_msgs::msg::dds_::Imu_", QoS: graph.DefaultWriterQoS}
	h.node(4, "/robot2", "imu_driver", clockReader(ep(4, 4), "rt/robot2/clock"), imu)
	h.at(100 * time.Millisecond) // Report follows the graph: the clock topics are read
	h.clock(doctor.ClockDDSTopic, sim, 100*time.Millisecond, 100, 10*time.Millisecond, 10*time.Millisecond, 1000e9)
	h.clock("rt/robot2/clock", relay, 100*time.Millisecond, 100, 10*time.Millisecond, 10*time.Millisecond, 5000e9)
	h.at(1200 * time.Millisecond)
	// robot2's IMU stamps robot2's sim time: "sim", not 4000 s in the future.
	q := h.src.reader(t, "rt/robot2/imu", false)
	q.push(transport.Sample{Data: imuMsg(5000_500_000_000), Publisher: pub(imu.GUID), SourceTimestamp: h.t0 + int64(600*time.Millisecond)})
	r := h.at(1300 * time.Millisecond)

	f := finding(t, r, doctor.CodeClockTopicUnpublished, "/robot1/controller")
	if f.Topic != "/robot1/clock" || !strings.Contains(f.Message, "reads /robot1/clock, which nobody publishes") ||
		!strings.Contains(f.Message, "/clock is published by /gazebo") {
		t.Errorf("%+v", f)
	}
	for _, code := range []rules.Code{doctor.CodeNodeNotOnSimTime, doctor.CodeMultipleClockPubs, doctor.CodeFutureStamps, doctor.CodeNoClockPublisher} {
		if hasFinding(r, code) {
			t.Errorf("unexpected %s: %+v", code, r.Findings)
		}
	}
	if len(r.Findings) != 1 {
		t.Errorf("findings %+v", r.Findings)
	}
	nodes := map[string]doctor.NodeReport{}
	for _, n := range r.Nodes {
		nodes[n.Name] = n
	}
	if n := nodes["/robot2/clock_relay"]; !n.PublishesClock || !n.SimTime || n.ClockTopic != "/clock" {
		t.Errorf("relay %+v", n)
	}
	if n := nodes["/robot1/controller"]; !n.SimTime || n.ClockTopic != "/robot1/clock" || *n.ClockMatched != 0 {
		t.Errorf("controller %+v", n)
	}
	if n := nodes["/robot2/imu_driver"]; n.ClockTopic != "/robot2/clock" || *n.ClockMatched != 1 {
		t.Errorf("imu driver %+v", n)
	}
	var topics []string
	for _, c := range r.Clock {
		topics = append(topics, c.Topic+" "+c.Node)
	}
	if strings.Join(topics, ",") != "/clock /gazebo,/robot2/clock /robot2/clock_relay" {
		t.Errorf("clock writers %v", topics)
	}
	for _, tp := range r.Topics {
		if tp.Name == "/robot2/imu" && (tp.StampBase != "sim" || tp.Samples != 1) {
			t.Errorf("/robot2/imu %+v", tp)
		}
	}
}

// imuMsg encodes a sensor_msgs/msg/Imu stamped stamp (ns), frame "imu".
func imuMsg(stamp int64) []byte {
	b := clockMsg(stamp)                        // header.stamp
	b = append(b, 4, 0, 0, 0, 'i', 'm', 'u', 0) // frame_id
	return append(b, make([]byte, 4+(4+9+3+9+3+9)*8)...)
}

// An empty domain is not a healthy graph: while discovery may still be
// running the report says so, then it is a finding naming the likely
// causes, and never OK.
func TestEmptyDomain(t *testing.T) {
	h := newHarness(t, doctor.Options{Network: doctor.Network{Domain: 73, DiscoveryRange: "LOCALHOST",
		CycloneURI: "file:///etc/cyclone.xml"}})
	r := h.at(time.Second)
	if !r.Summary.Discovering || r.Summary.OK || len(r.Findings) != 0 {
		t.Errorf("at 1 s: %+v %+v", r.Summary, r.Findings)
	}
	r = h.at(4 * time.Second)
	f := finding(t, r, doctor.CodeNothingDiscovered, "")
	for _, want := range []string{"domain 73", "ROS_DOMAIN_ID (doctor used 73)", "ROS_AUTOMATIC_DISCOVERY_RANGE LOCALHOST",
		"CYCLONEDDS_URI (file:///etc/cyclone.xml)", "XTypes"} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("message %q lacks %q", f.Message, want)
		}
	}
	if r.Summary.Discovering || r.Summary.OK || f.Severity != rules.Error {
		t.Errorf("summary %+v", r.Summary)
	}
}

// A ROS participant whose ros_discovery_info has not arrived: its nodes
// are unknown, so the report is not complete and not OK.
func TestPendingParticipant(t *testing.T) {
	h := newHarness(t, doctor.Options{})
	h.w.Graph().SetParticipant(graph.Participant{GUID: pp(1), Enclave: "/"}, true)
	r := h.at(5 * time.Second)
	if !r.Summary.Discovering || r.Summary.Pending != 1 || r.Summary.OK {
		t.Errorf("summary %+v", r.Summary)
	}
	r.MarkPartial()
	if !r.Summary.Partial || r.Summary.OK {
		t.Errorf("partial %+v", r.Summary)
	}
}

// A /clock reader in partition robot1 is on the topic, with a compatible
// QoS, and hears nothing: not matched, and a finding of its own.
func TestClockPartition(t *testing.T) {
	h := newHarness(t, doctor.Options{})
	h.node(1, "/", "gazebo", clockWriter(ep(1, 2), doctor.ClockDDSTopic))
	r := clockReader(ep(2, 4), doctor.ClockDDSTopic)
	r.Partitions = []string{"robot1"}
	h.node(2, "/robot1", "planner", r)
	rep := h.at(time.Second)
	f := finding(t, rep, doctor.CodeClockPartition, "/robot1/planner")
	if !strings.Contains(f.Message, `is in partition "robot1"`) || !strings.Contains(f.Message, "writer in the default partition") {
		t.Errorf("%s", f.Message)
	}
	if hasFinding(rep, doctor.CodeClockQoSMismatch) {
		t.Errorf("a partition is not a QoS mismatch: %+v", rep.Findings)
	}
	for _, n := range rep.Nodes {
		if n.Name == "/robot1/planner" && (n.ClockMatched == nil || *n.ClockMatched != 0 || !strings.Contains(n.ClockQoS, `partition "robot1"`)) {
			t.Errorf("%+v", n)
		}
	}
}

// A node's ros_discovery_info may come seconds after its endpoints (a
// Fast DDS heartbeat period): its stamps wait until its node, so its
// clock, is known, and are then classified, none lost.
func TestStampsWaitForTheirNode(t *testing.T) {
	h := newHarness(t, doctor.Options{})
	sim := ep(1, 2)
	h.node(1, "/", "gazebo", clockWriter(sim, doctor.ClockDDSTopic))
	g := h.w.Graph()
	g.SetParticipant(graph.Participant{GUID: pp(2), Enclave: "/"}, true)
	imu := graph.Endpoint{GUID: ep(2, 6), Participant: pp(2), Kind: graph.Writer, DDSTopic: "rt/imu",
		DDSType: "sensor_msgs::msg::dds_::Imu_", QoS: graph.DefaultWriterQoS}
	g.SetEndpoint(imu, true)
	h.at(0) // the watcher reads rt/imu
	h.clock(doctor.ClockDDSTopic, sim, 0, 400, 10*time.Millisecond, 10*time.Millisecond, 1000e9)
	q := h.src.reader(t, "rt/imu", false)
	for i := range 5 {
		q.push(transport.Sample{Data: imuMsg(1000e9 + int64(i)*500e6), Publisher: pub(imu.GUID),
			SourceTimestamp: h.t0 + int64(i)*int64(500*time.Millisecond)})
	}
	r := h.at(3 * time.Second)
	if r.Summary.Pending != 1 || r.Topics[0].Samples != 0 {
		t.Fatalf("before its node is known: %+v, %+v", r.Summary, r.Topics)
	}
	g.SetDiscoveryInfo(graph.ParticipantEntitiesInfo{GID: pp(2), Nodes: []graph.NodeEntitiesInfo{
		{Namespace: "/", Name: "imu_driver", Writers: []graph.GUID{imu.GUID}, Readers: []graph.GUID{ep(2, 4)}}}})
	g.SetEndpoint(graph.Endpoint{GUID: ep(2, 4), Participant: pp(2), Kind: graph.Reader, DDSTopic: doctor.ClockDDSTopic,
		DDSType: doctor.ClockDDSType, QoS: graph.DefaultReaderQoS}, true)
	r = h.at(3100 * time.Millisecond)
	if tp := r.Topics[0]; tp.Samples != 5 || tp.StampBase != "sim" || len(r.Findings) != 0 {
		t.Errorf("after: %+v, findings %+v", tp, r.Findings)
	}
}

// A topic whose writers all left loses doctor's reader, and gets a new one
// when a writer comes back: a graph whose nodes restart under new names
// does not grow doctor (TestSoak, tagged soak, measures it over hours).
func TestReaderFollowsWriters(t *testing.T) {
	h := newHarness(t, doctor.Options{})
	sim := ep(1, 2)
	h.node(1, "/", "gazebo", clockWriter(sim, doctor.ClockDDSTopic))
	imu := graph.Endpoint{GUID: ep(2, 6), Kind: graph.Writer, DDSTopic: "rt/imu", DDSType: "sensor_msgs::msg::dds_::Imu_", QoS: graph.DefaultWriterQoS}
	h.node(2, "/", "imu_driver", clockReader(ep(2, 4), doctor.ClockDDSTopic), imu)
	h.at(100 * time.Millisecond)
	h.clock(doctor.ClockDDSTopic, sim, 100*time.Millisecond, 100, 10*time.Millisecond, 10*time.Millisecond, 1000e9)
	first := h.src.reader(t, "rt/imu", false)

	h.w.Graph().SetParticipant(graph.Participant{GUID: pp(2)}, false)
	h.at(time.Second)
	if !first.isClosed() {
		t.Fatal("the reader of /imu is open after its only writer left")
	}
	h.node(2, "/", "imu_driver", clockReader(ep(2, 4), doctor.ClockDDSTopic), imu)
	h.at(1100 * time.Millisecond)
	again := h.src.reader(t, "rt/imu", false)
	if again == first || again.isClosed() {
		t.Fatal("no new reader of /imu when its writer came back")
	}
	again.push(transport.Sample{Data: imuMsg(1000_500_000_000), Publisher: pub(imu.GUID), SourceTimestamp: h.t0 + int64(600*time.Millisecond)})
	r := h.at(1200 * time.Millisecond)
	for _, tp := range r.Topics {
		if tp.Name == "/imu" && (tp.StampBase != "sim" || tp.Samples != 1) {
			t.Errorf("/imu after the restart: %+v", tp)
		}
	}
}
