package fastpeer_test

// Interoperability between simclock (Cyclone DDS) and the Fast DDS peer,
// over loopback only, one DDS domain per test (130-139). Every test that
// starts a peer checks that it is loopback-only.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/simclock/simclock/internal/fastpeer"
	"github.com/simclock/simclock/internal/testdomain"
	"github.com/simclock/simclock/ros2msg"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/dds"
)

var (
	domainPeerToMonitor = testdomain.ID(130)
	domainPubToPeer     = testdomain.ID(131)
	domainStamped       = testdomain.ID(132)
	domainXTypes        = testdomain.ID(133)
	domainPeerGraph     = testdomain.ID(134)
	domainRclcpp        = testdomain.ID(135)
	domainSimclockNodes = testdomain.ID(136)
	domainXTypesReader  = testdomain.ID(137)
)

var simclockBuild struct {
	once sync.Once
	dir  string
	path string
	err  error
}

type mainRun struct{ m *testing.M }

func (r mainRun) Run() int {
	code := r.m.Run()
	if simclockBuild.dir != "" {
		os.RemoveAll(simclockBuild.dir)
	}
	return code
}

func TestMain(m *testing.M) { goleak.VerifyTestMain(mainRun{m}) }

// simclock builds cmd/simclock once per test binary.
func simclock(t *testing.T) string {
	t.Helper()
	simclockBuild.once.Do(func() {
		dir, err := os.MkdirTemp("", "simclock-fastpeer-test-")
		if err != nil {
			simclockBuild.err = err
			return
		}
		simclockBuild.dir = dir
		simclockBuild.path = filepath.Join(dir, "simclock")
		out, err := exec.Command("go", "build", "-o", simclockBuild.path, "github.com/simclock/simclock/cmd/simclock").CombinedOutput()
		if err != nil {
			simclockBuild.err = errors.New(err.Error() + "\n" + string(out))
		}
	})
	if simclockBuild.err != nil {
		t.Fatalf("go build simclock: %v", simclockBuild.err)
	}
	return simclockBuild.path
}

func loopbackURI(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs("../../config/cyclonedds-loopback.xml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
	return "file://" + p
}

// requireCyclone skips without libddsc unless CI is set.
func requireCyclone(t *testing.T) {
	t.Helper()
	if err := dds.Available(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and Cyclone DDS is missing: %v", err)
		}
		t.Skipf("Cyclone DDS is not installed (apt-get install cyclonedds-dev): %v", err)
	}
}

// simclockEnv is the environment of a simclock child: loopback Cyclone in
// domain, no other ROS or DDS settings.
func simclockEnv(t *testing.T, domain int) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ROS_") && !strings.HasPrefix(kv, "CYCLONEDDS_") {
			env = append(env, kv)
		}
	}
	return append(env, "CYCLONEDDS_URI="+loopbackURI(t), "ROS_DOMAIN_ID="+strconv.Itoa(domain))
}

// cycloneGUID turns a peer GID (32 hex digits) into the publisher id
// simclock prints ("010f78fd.146bac52.00000000.00000303").
func cycloneGUID(gid string) string {
	if len(gid) != 32 {
		return "bad gid " + gid
	}
	return gid[0:8] + "." + gid[8:16] + "." + gid[16:24] + "." + gid[24:32]
}

func endpoint(t *testing.T, p *fastpeer.Peer, kind, node, topic string) fastpeer.Event {
	t.Helper()
	es := p.Select(func(e fastpeer.Event) bool {
		return e.Kind == "endpoint" && e.Get("kind") == kind && e.Get("node") == node && e.Get("topic") == topic
	})
	if len(es) != 1 {
		t.Fatalf("peer has %d %s endpoints of %s on %s, want 1", len(es), kind, node, topic)
	}
	return es[0]
}

func checkLoopback(t *testing.T, peers ...*fastpeer.Peer) {
	t.Helper()
	for _, p := range peers {
		if err := p.CheckLoopback(); err != nil {
			t.Error(err)
		}
	}
}

// monitorReport is the part of simclock monitor's JSON report (kind
// "report", schema 1) used here.
type monitorReport struct {
	Kind       string             `json:"kind"`
	HaveClock  bool               `json:"have_clock"`
	ValueNS    int64              `json:"value_ns"`
	Messages   int                `json:"messages"`
	Malformed  int                `json:"malformed"`
	Publishers []monitorPublisher `json:"publishers"`
}

type monitorPublisher struct {
	ID       string `json:"id"`
	Messages int    `json:"messages"`
}

// runMonitor runs simclock monitor --format json until done, called
// after each report with the reports and stderr so far, is true, then
// interrupts it, and returns every report and its stderr. Discovery
// between processes takes what it takes (seconds on a loaded machine),
// so a monitor run for a fixed time could end before it heard the peer.
func runMonitor(ctx context.Context, t *testing.T, domain int, done func(reports []monitorReport, stderr string) bool) ([]monitorReport, string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, simclock(t), "monitor", "--format", "json", "--interval", "500ms", "--duration", "120s")
	cmd.Env = simclockEnv(t, domain)
	var stderr syncBuffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var reports []monitorReport
	interrupted := false
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		var r monitorReport
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("monitor line %q: %v", sc.Text(), err)
		}
		if r.Kind != "report" {
			continue
		}
		reports = append(reports, r)
		if !interrupted && done(reports, stderr.String()) {
			cmd.Process.Signal(os.Interrupt) //nolint:errcheck // Wait reports how it ended
			interrupted = true
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("simclock monitor: %v\n%s", err, stderr.String())
	}
	if !interrupted {
		t.Logf("simclock monitor ended before it saw what the test waits for")
	}
	return reports, stderr.String()
}

// TestPeerClockReachesSimclockMonitor: a Fast DDS node publishing /clock
// as ros_gz_bridge does (reliable, keep last 10) is heard by simclock
// monitor over Cyclone, which names the peer's writer GID as publisher.
func TestPeerClockReachesSimclockMonitor(t *testing.T) {
	requireCyclone(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	peer := fastpeer.Start(ctx, t, domainPeerToMonitor, fastpeer.WithNodes(fastpeer.Node{
		Name:  "/sim/gazebo",
		Clock: &fastpeer.ClockPublisher{Start: 1000 * time.Second, Step: 10 * time.Millisecond, Rate: 50},
	}))
	writer := endpoint(t, peer, "writer", "/sim/gazebo", "rt/clock")
	if writer.Get("type") != "rosgraph_msgs::msg::dds_::Clock_" || writer.Get("reliability") != "reliable" {
		t.Errorf("peer /clock writer: %s", writer.Line)
	}

	reports, stderr := runMonitor(ctx, t, domainPeerToMonitor, func(reports []monitorReport, _ string) bool {
		return reports[len(reports)-1].Messages > 0
	})
	got := 0
	for _, r := range reports {
		got += r.Messages
		if r.Malformed != 0 {
			t.Errorf("monitor counts %d malformed /clock messages from the peer", r.Malformed)
		}
		if !r.HaveClock {
			continue
		}
		if _, err := peer.WaitFor(ctx, func(e fastpeer.Event) bool {
			ns, err := e.Time()
			return e.Kind == "published" && e.Get("topic") == "rt/clock" && err == nil && ns == r.ValueNS
		}); err != nil {
			t.Errorf("monitor reports sim time %d ns, which the peer never published: %v", r.ValueNS, err)
		}
		if len(r.Publishers) != 1 || r.Publishers[0].ID != cycloneGUID(writer.Get("gid")) {
			t.Errorf("monitor publishers %+v, want the peer's writer %s alone", r.Publishers, cycloneGUID(writer.Get("gid")))
		}
	}
	if got == 0 {
		t.Fatalf("simclock monitor received no /clock from the Fast DDS peer\nmonitor stderr:\n%s\npeer stderr:\n%s",
			stderr, peer.Stderr())
	}
	t.Logf("simclock monitor received %d /clock messages from the Fast DDS peer", got)
	checkLoopback(t, peer)
}

// TestSimclockPubReachesPeer: simclock pub's /clock (Cyclone) reaches a
// Fast DDS node that follows sim time with rclcpp's ClockQoS; a node whose
// /clock reader asks for reliable delivery matches a reliable simclock pub
// but not `simclock pub --best-effort` (as with ros2 bag play), and Fast
// DDS reports the incompatible RELIABILITY policy.
func TestSimclockPubReachesPeer(t *testing.T) {
	requireCyclone(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	peer := fastpeer.Start(ctx, t, domainPubToPeer, fastpeer.WithNodes(
		fastpeer.Node{Name: "/listener", UseSimTime: true},
		fastpeer.Node{Name: "/strict_listener", UseSimTime: true, ClockReader: fastpeer.QoS{Reliability: "reliable"}},
	))
	if r := endpoint(t, peer, "reader", "/listener", "rt/clock"); r.Get("reliability") != "best_effort" ||
		r.Get("durability") != "volatile" || r.Get("depth") != "1" {
		t.Errorf("rclcpp ClockQoS is best_effort, volatile, keep_last 1; peer reader: %s", r.Line)
	}
	clockAtLeast := func(node string, sec int64) func(fastpeer.Event) bool {
		return func(e fastpeer.Event) bool {
			s, err := e.Int("sec")
			return e.Kind == "clock" && e.Get("node") == node && err == nil && s >= sec
		}
	}

	pub := func(args ...string) (stop func()) {
		cmd := exec.Command(simclock(t), append([]string{"pub", "--period", "20ms", "--duration", "60s"}, args...)...)
		cmd.Env = simclockEnv(t, domainPubToPeer)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return func() {
			cmd.Process.Signal(os.Interrupt) //nolint:errcheck // may have exited
			if err := cmd.Wait(); err != nil {
				t.Errorf("simclock pub %v: %v\n%s", args, err, stderr.String())
			}
		}
	}

	t.Run("reliable", func(t *testing.T) {
		stop := pub("--start", "2000")
		defer stop()
		for _, node := range []string{"/listener", "/strict_listener"} {
			got, err := peer.WaitCount(ctx, 5, clockAtLeast(node, 2000))
			if err != nil {
				t.Fatalf("%s received %d clocks from simclock pub: %v\npeer stderr:\n%s", node, len(got), err, peer.Stderr())
			}
			for _, e := range got {
				ns, err := e.Time()
				if err != nil || ns < 2000e9 || ns > 2100e9 {
					t.Errorf("%s: clock %q (simclock pub starts at 2000 s)", node, e.Line)
				}
				if len(e.Get("publisher")) != 32 {
					t.Errorf("%s: clock without a publisher GID: %q", node, e.Line)
				}
			}
		}
	})

	t.Run("best_effort_vs_reliable_reader", func(t *testing.T) {
		stop := pub("--start", "3000", "--best-effort")
		defer stop()
		if _, err := peer.WaitCount(ctx, 5, clockAtLeast("/listener", 3000)); err != nil {
			t.Fatalf("/listener (best effort) received no best-effort clock: %v", err)
		}
		inc, err := peer.WaitFor(ctx, func(e fastpeer.Event) bool {
			return e.Kind == "incompatible" && e.Get("node") == "/strict_listener" && e.Get("topic") == "rt/clock"
		})
		if err != nil {
			t.Fatalf("no incompatible-QoS report for the reliable /clock reader: %v", err)
		}
		if inc.Get("policy") != "RELIABILITY" {
			t.Errorf("incompatible policy %q, want RELIABILITY: %s", inc.Get("policy"), inc.Line)
		}
		if got := peer.Select(clockAtLeast("/strict_listener", 3000)); len(got) != 0 {
			t.Errorf("the reliable reader received %d best-effort clocks: %q", len(got), got[0].Line)
		}
	})
	checkLoopback(t, peer)
}

// imuSample is what the test reads back from a sensor_msgs/msg/Imu.
type imuSample struct {
	stamp        int64
	frameID      string
	orientationW float64
	accelZ       float64
}

// decodeImu decodes a sensor_msgs/msg/Imu with simclock's ros2msg decoder
// and the shipped Jazzy definition, and checks that it is little-endian
// CDR of exactly the size the layout gives.
func decodeImu(b []byte) (imuSample, error) {
	var s imuSample
	schema, err := ros2msg.ParseShipped("sensor_msgs/msg/Imu")
	if err != nil {
		return s, err
	}
	v, err := schema.Decode(b)
	if err != nil {
		return s, err
	}
	if !bytes.Equal(b[:4], []byte{0, 1, 0, 0}) {
		return s, errors.New("not CDR_LE with options 0")
	}
	header := v["header"].(ros2msg.Value)
	stamp := header["stamp"].(ros2msg.Value)
	s.stamp = int64(stamp["sec"].(int32))*1e9 + int64(stamp["nanosec"].(uint32))
	s.frameID = header["frame_id"].(string)
	s.orientationW = v["orientation"].(ros2msg.Value)["w"].(float64)
	s.accelZ = v["linear_acceleration"].(ros2msg.Value)["z"].(float64)
	// Header: stamp 8, frame_id 4+len+1; then 8-aligned from the body's
	// start: orientation 4, three covariances 9 each, two Vector3.
	const doubles = 4 + 9 + 3 + 9 + 3 + 9
	if want := 4 + (12+len(s.frameID)+1+7)&^7 + 8*doubles; len(b) != want {
		return s, errors.New("size " + strconv.Itoa(len(b)) + ", want " + strconv.Itoa(want))
	}
	return s, nil
}

// TestPeerStampedTopicsReachCyclone: Fast DDS nodes publish
// sensor_msgs/msg/Imu stamped from sim time, the wall clock and zero; a
// Cyclone raw reader receives exactly the stamps the peer published.
func TestPeerStampedTopicsReachCyclone(t *testing.T) {
	requireCyclone(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tr, err := dds.Open(ctx, dds.Config{Domain: uint32(domainStamped), URI: loopbackURI(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close() //nolint:errcheck // test cleanup
	topics := map[string]fastpeer.Stamp{"/robot/imu": fastpeer.StampSim, "/robot/imu_wall": fastpeer.StampWall,
		"/robot/imu_zero": fastpeer.StampZero}
	subs := map[string]transport.Subscription{}
	for topic := range topics {
		sub, err := tr.Subscribe(topic, "sensor_msgs/msg/Imu", transport.QoS{Depth: 1000, Reliability: transport.BestEffort})
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close() //nolint:errcheck // test cleanup
		subs[topic] = sub
	}
	peer := fastpeer.Start(ctx, t, domainStamped, fastpeer.WithNodes(
		fastpeer.Node{Name: "/sim/gazebo", Clock: &fastpeer.ClockPublisher{Start: 500 * time.Second, Step: 10 * time.Millisecond, Rate: 50}},
		fastpeer.Node{Name: "/robot/imu_driver", UseSimTime: true, Imu: &fastpeer.ImuPublisher{Topic: "imu", Stamp: fastpeer.StampSim, Rate: 20}},
		fastpeer.Node{Name: "/robot/wall_driver", Imu: &fastpeer.ImuPublisher{Topic: "imu_wall", Stamp: fastpeer.StampWall, Rate: 20}},
		fastpeer.Node{Name: "/robot/zero_driver", Imu: &fastpeer.ImuPublisher{Topic: "/robot/imu_zero", Stamp: fastpeer.StampZero, Rate: 20}},
	))
	for topic, base := range topics {
		t.Run(string(base), func(t *testing.T) {
			var got []imuSample
			rctx, stop := context.WithTimeout(ctx, 30*time.Second)
			defer stop()
			transport.Receive(rctx, subs[topic], func(s transport.Sample) { //nolint:errcheck // ends by stop
				imu, err := decodeImu(s.Data)
				if err != nil {
					t.Errorf("%s: sample % x: %v", topic, s.Data, err)
					stop()
					return
				}
				got = append(got, imu)
				if len(got) >= 5 {
					stop()
				}
			})
			if len(got) < 5 {
				t.Fatalf("Cyclone received %d Imu on %s from the Fast DDS peer", len(got), topic)
			}
			for _, s := range got {
				// The peer prints what it published after writing it.
				e, err := peer.WaitFor(ctx, func(e fastpeer.Event) bool {
					ns, err := e.Time()
					return e.Kind == "published" && e.Get("topic") == "rt"+topic && err == nil && ns == s.stamp
				})
				if err != nil {
					t.Errorf("%s: received stamp %d ns, which the peer never published: %v", topic, s.stamp, err)
				} else if e.Get("base") != string(base) {
					t.Errorf("published with base %s, want %s: %s", e.Get("base"), base, e.Line)
				}
				if s.frameID != "imu_link" || s.orientationW != 1 || s.accelZ != 9.81 {
					t.Errorf("%s: frame_id %q, orientation.w %v, linear_acceleration.z %v", topic, s.frameID, s.orientationW, s.accelZ)
				}
				switch base {
				case fastpeer.StampZero:
					if s.stamp != 0 {
						t.Errorf("zero stamp is %d", s.stamp)
					}
				case fastpeer.StampSim: // 0 before the node's first /clock, then sim time from 500 s
					if s.stamp != 0 && (s.stamp < 500e9 || s.stamp > 1000e9) {
						t.Errorf("sim stamp %d ns outside the published sim time", s.stamp)
					}
				case fastpeer.StampWall:
					if d := time.Since(time.Unix(0, s.stamp)); d < -time.Hour || d > time.Hour {
						t.Errorf("wall stamp %v is %v from now", time.Unix(0, s.stamp), d)
					}
				}
			}
		})
	}
	checkLoopback(t, peer)
}

// TestXTypesTypeInformationRejectedByCyclone: a Fast DDS writer that
// announces XTypes TypeInformation (Fast DDS's default for types with a
// registered TypeObject, which rmw_fastrtps turns off) is rejected by
// Cyclone DDS 0.10.2's discovery, while the same writer without it is
// heard. Fast DDS itself still counts the Cyclone reader as matched.
func TestXTypesTypeInformationRejectedByCyclone(t *testing.T) {
	requireCyclone(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	plain := fastpeer.Start(ctx, t, domainXTypes, fastpeer.WithNodes(fastpeer.Node{
		Name: "/plain_sim", Clock: &fastpeer.ClockPublisher{Start: 100 * time.Second, Step: 10 * time.Millisecond, Rate: 50}}))
	xtypes := fastpeer.Start(ctx, t, domainXTypes, fastpeer.WithXTypes(), fastpeer.WithNodes(fastpeer.Node{
		Name: "/xtypes_sim", Clock: &fastpeer.ClockPublisher{Start: 900 * time.Second, Step: 10 * time.Millisecond, Rate: 50}}))
	plainW := endpoint(t, plain, "writer", "/plain_sim", "rt/clock").Get("gid")
	xtypesW := endpoint(t, xtypes, "writer", "/xtypes_sim", "rt/clock").Get("gid")

	// Until it hears the plain writer and Cyclone has rejected the XTypes
	// one (so that its absence below means something).
	reports, stderr := runMonitor(ctx, t, domainXTypes, func(reports []monitorReport, stderr string) bool {
		r := reports[len(reports)-1]
		return slices.ContainsFunc(r.Publishers, func(p monitorPublisher) bool { return p.ID == cycloneGUID(plainW) && p.Messages > 0 }) &&
			strings.Contains(stderr, "(TYPE_INFORMATION) invalid")
	})
	heard, listed := map[string]bool{}, map[string]bool{}
	for _, r := range reports {
		for _, p := range r.Publishers {
			listed[p.ID] = true
			heard[p.ID] = heard[p.ID] || p.Messages > 0
		}
		if r.HaveClock && r.ValueNS >= 900e9 {
			t.Errorf("monitor got sim time %d ns from the XTypes writer", r.ValueNS)
		}
	}
	if !heard[cycloneGUID(plainW)] {
		t.Errorf("monitor did not hear the rmw_fastrtps-like writer %s (heard %v)", plainW, heard)
	}
	if listed[cycloneGUID(xtypesW)] {
		t.Errorf("monitor lists the writer announcing TypeInformation %s; Cyclone 0.10.2 should reject it", xtypesW)
	}
	// Cyclone says why on stderr: "invalid parameter list ... pid 75
	// (TYPE_INFORMATION) invalid" then "Invalid PublicationBuiltinTopicData".
	if !strings.Contains(stderr, "(TYPE_INFORMATION) invalid") {
		t.Errorf("Cyclone did not report the TypeInformation it rejects; monitor stderr:\n%s", stderr)
	}
	// The Fast DDS side believes the Cyclone reader matched: nothing on
	// that side shows the samples go nowhere.
	if _, err := xtypes.WaitFor(ctx, func(e fastpeer.Event) bool {
		return e.Kind == "matched" && e.Get("node") == "/xtypes_sim" && e.Get("topic") == "rt/clock"
	}); err != nil {
		t.Errorf("XTypes writer never matched: %v", err)
	}
	for _, p := range []*fastpeer.Peer{plain, xtypes} {
		cfg := p.Select(func(e fastpeer.Event) bool { return e.Kind == "config" })
		want := strconv.FormatBool(p == xtypes)
		if len(cfg) != 1 || cfg[0].Get("xtypes") != want {
			t.Errorf("peer config %v, want xtypes=%s", cfg, want)
		}
	}
	checkLoopback(t, plain, xtypes)
}

// TestPeerGraph: two Fast DDS peers read each other's ros_discovery_info
// (rmw_dds_common ParticipantEntitiesInfo): node names, and reader and
// writer GIDs that are the GUIDs samples arrive from.
func TestPeerGraph(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sim := fastpeer.Start(ctx, t, domainPeerGraph, fastpeer.WithNodes(fastpeer.Node{
		Name: "/sim/gazebo", Clock: &fastpeer.ClockPublisher{Start: 7 * time.Second, Rate: 20}}))
	robot := fastpeer.Start(ctx, t, domainPeerGraph, fastpeer.WithNodes(
		fastpeer.Node{Name: "/robot/follower", UseSimTime: true},
		fastpeer.Node{Name: "/robot/wall_node"}))
	simWriter := endpoint(t, sim, "writer", "/sim/gazebo", "rt/clock").Get("gid")
	ready := func(p *fastpeer.Peer) string {
		es := p.Select(func(e fastpeer.Event) bool { return e.Kind == "ready" })
		return es[0].Get("participant")
	}

	node, err := robot.WaitFor(ctx, func(e fastpeer.Event) bool {
		return e.Kind == "graph_node" && e.Get("name") == "gazebo" && e.Get("writers") != "none"
	})
	if err != nil {
		t.Fatalf("robot never saw /sim/gazebo in ros_discovery_info: %v", err)
	}
	if node.Get("namespace") != "/sim" || node.Get("participant") != ready(sim) || node.Get("writers") != simWriter ||
		node.Get("readers") != "none" {
		t.Errorf("robot's view of /sim/gazebo: %s; want namespace /sim, participant %s, writers %s, no readers",
			node.Line, ready(sim), simWriter)
	}
	c, err := robot.WaitFor(ctx, func(e fastpeer.Event) bool { return e.Kind == "clock" && e.Get("node") == "/robot/follower" })
	if err != nil {
		t.Fatal(err)
	}
	if c.Get("publisher") != simWriter {
		t.Errorf("clock from %s, but ros_discovery_info lists writer %s", c.Get("publisher"), simWriter)
	}
	followerReader := endpoint(t, robot, "reader", "/robot/follower", "rt/clock").Get("gid")
	for _, name := range []string{"follower", "wall_node"} {
		n, err := sim.WaitFor(ctx, func(e fastpeer.Event) bool {
			return e.Kind == "graph_node" && e.Get("name") == name && (name != "follower" || e.Get("readers") != "none")
		})
		if err != nil {
			t.Fatalf("sim never saw /robot/%s: %v", name, err)
		}
		wantReaders := "none"
		if name == "follower" {
			wantReaders = followerReader
		}
		if n.Get("namespace") != "/robot" || n.Get("readers") != wantReaders || n.Get("writers") != "none" {
			t.Errorf("sim's view of /robot/%s: %s; want readers %s, no writers", name, n.Line, wantReaders)
		}
	}
	checkLoopback(t, sim, robot)
}

// logSample is what the test reads back from an rcl_interfaces/msg/Log.
type logSample struct {
	stamp                     int64
	level                     uint8
	name, msg, file, function string
}

// logDefinition is rcl_interfaces/msg/Log (Jazzy), which simclock does not
// ship.
const logDefinition = `uint8 DEBUG=10
uint8 INFO=20
uint8 WARN=30
uint8 ERROR=40
uint8 FATAL=50
builtin_interfaces/Time stamp
uint8 level
string name
string msg
string file
string function
uint32 line
`

// decodeLog decodes an rcl_interfaces/msg/Log with simclock's ros2msg.
func decodeLog(b []byte) (logSample, error) {
	var l logSample
	schema, err := ros2msg.Parse("rcl_interfaces/msg/Log", []byte(logDefinition))
	if err != nil {
		return l, err
	}
	v, err := schema.Decode(b)
	if err != nil {
		return l, err
	}
	stamp := v["stamp"].(ros2msg.Value)
	l.stamp = int64(stamp["sec"].(int32))*1e9 + int64(stamp["nanosec"].(uint32))
	l.level = v["level"].(uint8)
	l.name, l.msg = v["name"].(string), v["msg"].(string)
	l.file, l.function = v["file"].(string), v["function"].(string)
	return l, nil
}

// TestRclcppEndpoints: with RclcppEndpoints a peer node has the endpoints
// every rclcpp node has, and its /rosout line, stamped with the wall clock
// although the node follows sim time, reaches a late Cyclone reader
// through TRANSIENT_LOCAL durability.
func TestRclcppEndpoints(t *testing.T) {
	requireCyclone(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	peer := fastpeer.Start(ctx, t, domainRclcpp, fastpeer.WithNodes(
		fastpeer.Node{Name: "/robot/sim_node", UseSimTime: true, RclcppEndpoints: true}))
	for _, want := range []struct{ kind, topic, typ, qos string }{
		{"writer", "rt/rosout", "rcl_interfaces::msg::dds_::Log_", "reliable transient_local 1000"},
		{"writer", "rt/parameter_events", "rcl_interfaces::msg::dds_::ParameterEvent_", "reliable volatile 1000"},
		{"reader", "rt/parameter_events", "rcl_interfaces::msg::dds_::ParameterEvent_", "reliable volatile 1000"},
		{"reader", "rt/clock", "rosgraph_msgs::msg::dds_::Clock_", "best_effort volatile 1"},
	} {
		e := endpoint(t, peer, want.kind, "/robot/sim_node", want.topic)
		if got := e.Get("reliability") + " " + e.Get("durability") + " " + e.Get("depth"); e.Get("type") != want.typ || got != want.qos {
			t.Errorf("%s on %s: %s; want type %s, QoS %s", want.kind, want.topic, e.Line, want.typ, want.qos)
		}
	}
	if e := endpoint(t, peer, "writer", "/robot/sim_node", "rt/rosout"); e.Get("lifespan_s") != "10" {
		t.Errorf("/rosout writer lifespan %q s, want 10 (rcl_qos_profile_rosout_default)", e.Get("lifespan_s"))
	}

	tr, err := dds.Open(ctx, dds.Config{Domain: uint32(domainRclcpp), URI: loopbackURI(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close() //nolint:errcheck // test cleanup
	sub, err := tr.Subscribe("/rosout", "rcl_interfaces/msg/Log",
		transport.QoS{Depth: 1000, Reliability: transport.Reliable, Durability: transport.TransientLocal})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close() //nolint:errcheck // test cleanup
	var got []logSample
	rctx, stop := context.WithTimeout(ctx, 30*time.Second)
	defer stop()
	transport.Receive(rctx, sub, func(s transport.Sample) { //nolint:errcheck // ends by stop
		l, err := decodeLog(s.Data)
		if err != nil {
			t.Errorf("/rosout sample % x: %v", s.Data, err)
		}
		got = append(got, l)
		stop()
	})
	if len(got) != 1 {
		t.Fatalf("the late Cyclone reader got %d /rosout messages, want the 1 kept by TRANSIENT_LOCAL", len(got))
	}
	l := got[0]
	pub := peer.Select(func(e fastpeer.Event) bool { return e.Kind == "published" && e.Get("topic") == "rt/rosout" })
	if len(pub) != 1 {
		t.Fatalf("peer published %d /rosout lines", len(pub))
	}
	if ns, _ := pub[0].Time(); l.stamp != ns || pub[0].Get("base") != "wall" {
		t.Errorf("/rosout stamp %d ns; the peer published %s", l.stamp, pub[0].Line)
	}
	if l.level != 20 || l.name != "robot.sim_node" || l.msg != "fastpeer node started" {
		t.Errorf("/rosout: level %d, logger %q, msg %q; want 20, robot.sim_node, fastpeer node started", l.level, l.name, l.msg)
	}
	checkLoopback(t, peer)
}

// startSimclock runs simclock with args in domain until the test ends.
func startSimclock(t *testing.T, domain int, args ...string) {
	t.Helper()
	cmd := exec.Command(simclock(t), args...)
	cmd.Env = simclockEnv(t, domain)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt) //nolint:errcheck // may have exited
		// Exit status 1 is the tool's verdict on a run the test cut short
		// (monitor interrupted before its first /clock says so and fails);
		// these tests assert what the peer saw, not that verdict. Usage
		// errors (2) and deaths by signal still fail the test.
		var exit *exec.ExitError
		if err := cmd.Wait(); err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
			t.Errorf("simclock %v: %v\n%s", args, err, stderr.String())
		}
	})
}

// TestPeerSeesSimclockNodes: the ros_discovery_info that simclock pub and
// simclock monitor publish over Cyclone is read by an rmw_fastrtps-like
// reader: their node names and namespaces, and GIDs that are exactly the
// GUIDs of the DDS endpoints Fast DDS discovered (with the /clock type
// hash in their USER_DATA).
func TestPeerSeesSimclockNodes(t *testing.T) {
	requireCyclone(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	peer := fastpeer.Start(ctx, t, domainSimclockNodes, fastpeer.WithNodes(fastpeer.Node{Name: "/follower", UseSimTime: true}))
	startSimclock(t, domainSimclockNodes, "pub", "--node-name", "clk", "--namespace", "/sim", "--start", "50", "--period", "20ms")
	startSimclock(t, domainSimclockNodes, "monitor", "--node-name", "mon", "--namespace", "/tools")

	graphNode := func(ns, name, field string) fastpeer.Event {
		e, err := peer.WaitFor(ctx, func(e fastpeer.Event) bool {
			return e.Kind == "graph_node" && e.Get("namespace") == ns && e.Get("name") == name && e.Get(field) != "none"
		})
		if err != nil {
			t.Fatalf("the Fast DDS peer never read node %s/%s with %s in ros_discovery_info: %v\npeer stderr:\n%s",
				ns, name, field, err, peer.Stderr())
		}
		return e
	}
	remote := func(kind, gid string) fastpeer.Event {
		e, err := peer.WaitFor(ctx, func(e fastpeer.Event) bool {
			return e.Kind == "remote" && e.Get("kind") == kind && e.Get("gid") == gid && e.Get("status") == "discovered"
		})
		if err != nil {
			t.Fatalf("ros_discovery_info lists %s %s, which Fast DDS never discovered: %v", kind, gid, err)
		}
		return e
	}
	const clockHash = "typehash=RIHS01_692f7a66e93a3c83e71765d033b60349ba68023a8c689a79e48078bcb5c58564;"

	clk := graphNode("/sim", "clk", "writers")
	w := remote("writer", clk.Get("writers"))
	if w.Get("topic") != "rt/clock" || w.Get("type") != "rosgraph_msgs::msg::dds_::Clock_" || w.Get("user_data") != clockHash {
		t.Errorf("simclock pub's writer as Fast DDS sees it: %s", w.Line)
	}
	c, err := peer.WaitFor(ctx, func(e fastpeer.Event) bool { return e.Kind == "clock" && e.Get("node") == "/follower" })
	if err != nil {
		t.Fatal(err)
	}
	if c.Get("publisher") != clk.Get("writers") {
		t.Errorf("/clock comes from %s; ros_discovery_info says /sim/clk writes %s", c.Get("publisher"), clk.Get("writers"))
	}
	if clk.Get("participant") != c.Get("publisher")[:24]+"000001c1" {
		t.Errorf("/sim/clk's participant GID %s does not own its writer %s", clk.Get("participant"), c.Get("publisher"))
	}

	mon := graphNode("/tools", "mon", "readers")
	r := remote("reader", mon.Get("readers"))
	if r.Get("topic") != "rt/clock" || r.Get("reliability") != "best_effort" || r.Get("user_data") != clockHash {
		t.Errorf("simclock monitor's reader as Fast DDS sees it: %s", r.Line)
	}
	checkLoopback(t, peer)
}

// syncBuffer is a bytes.Buffer written by a child process and read by the
// test.
type syncBuffer struct {
	mu sync.Mutex // mu guards b
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestXTypesReaderRejectedByCyclone: the reader side of the same fact. A
// Fast DDS /clock reader announcing TypeInformation gets nothing from
// simclock pub, whose Cyclone discards the subscription, while an
// rmw_fastrtps-like reader next to it does; the Fast DDS reader still
// counts the Cyclone writer as matched.
func TestXTypesReaderRejectedByCyclone(t *testing.T) {
	requireCyclone(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	plain := fastpeer.Start(ctx, t, domainXTypesReader, fastpeer.WithNodes(fastpeer.Node{Name: "/plain_follower", UseSimTime: true}))
	xtypes := fastpeer.Start(ctx, t, domainXTypesReader, fastpeer.WithXTypes(),
		fastpeer.WithNodes(fastpeer.Node{Name: "/xtypes_follower", UseSimTime: true}))

	cmd := exec.Command(simclock(t), "pub", "--start", "10", "--period", "20ms", "--duration", "60s")
	cmd.Env = simclockEnv(t, domainXTypesReader)
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt) //nolint:errcheck // may have exited
		cmd.Wait()                       //nolint:errcheck // its stderr holds Cyclone's complaints
	}()

	if _, err := plain.WaitCount(ctx, 5, func(e fastpeer.Event) bool { return e.Kind == "clock" }); err != nil {
		t.Fatalf("the rmw_fastrtps-like reader got no /clock from simclock pub: %v", err)
	}
	if _, err := xtypes.WaitFor(ctx, func(e fastpeer.Event) bool {
		return e.Kind == "matched" && e.Get("node") == "/xtypes_follower" && e.Get("topic") == "rt/clock"
	}); err != nil {
		t.Errorf("the XTypes reader never matched: %v", err)
	}
	for !strings.Contains(stderr.String(), "Invalid SubscriptionBuiltinTopicData") {
		select {
		case <-ctx.Done():
			t.Fatalf("Cyclone did not report rejecting the XTypes subscription; simclock pub stderr:\n%s", stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	if !strings.Contains(stderr.String(), "(TYPE_INFORMATION) invalid") {
		t.Errorf("Cyclone's complaint does not name TYPE_INFORMATION:\n%s", stderr.String())
	}
	// The plain reader keeps receiving; the XTypes one has nothing.
	if _, err := plain.WaitCount(ctx, 10, func(e fastpeer.Event) bool { return e.Kind == "clock" }); err != nil {
		t.Fatal(err)
	}
	if got := xtypes.Select(func(e fastpeer.Event) bool { return e.Kind == "clock" }); len(got) != 0 {
		t.Errorf("the XTypes reader received %d clocks, e.g. %s", len(got), got[0].Line)
	}
	checkLoopback(t, plain, xtypes)
}
