package cli

// End-to-end tests of simclock doctor: graphs of real processes (simclock
// pub and monitor, and Go nodes built on package node, see
// testnode_test.go) on loopback DDS, one domain per graph, each finding
// provoked on purpose and read back from doctor's JSON.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/simclock/simclock/doctor"
	"github.com/simclock/simclock/internal/testdomain"
	"github.com/simclock/simclock/rules"
)

// Domain ids of the doctor tests (this helper's range is 100-129).
var (
	domainDoctorHealthy = testdomain.ID(102)
	domainDoctorHazards = testdomain.ID(103)
	domainDoctorTwoPubs = testdomain.ID(104)
	domainDoctorNoClock = testdomain.ID(105)
	domainDoctorWatch   = testdomain.ID(106)
)

// startTestNode starts this test binary as a Go ROS node (testnode_test.go)
// with the given SIMCLOCK_TEST_* settings, and waits until it is set up.
func startTestNode(t *testing.T, domain int, name string, settings ...string) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(ddsEnv(t, domain), testNodeEnv+"="+name)
	cmd.Env = append(cmd.Env, settings...)
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt) //nolint:errcheck // may have exited
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill() //nolint:errcheck // stuck
			<-done
		}
	})
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		ok := sc.Scan() && sc.Text() == "ready"
		ready <- ok
		for sc.Scan() {
		}
		cmd.Wait() //nolint:errcheck // killed at cleanup
		close(done)
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatalf("test node %s did not start:\n%s", name, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("test node %s not ready after 30s:\n%s", name, stderr.String())
	}
}

// doctorRun is one parsed run of simclock doctor --format json.
type doctorRun struct {
	exit   int
	env    map[string]any
	nodes  map[string]doctor.NodeReport
	topics map[string]doctor.TopicReport
	clock  []doctor.ClockWriter
	// transforms are the transform lines, in order.
	transforms []doctor.TransformReport
	findings   []rules.Finding
	summary    *doctor.Summary
	raw        string
}

func runDoctorJSON(t *testing.T, bin string, domain int, args ...string) doctorRun {
	t.Helper()
	return runDoctorJSONEnv(t, bin, ddsEnv(t, domain), args...)
}

// runDoctorJSONEnv is runDoctorJSON with the environment env.
func runDoctorJSONEnv(t *testing.T, bin string, env []string, args ...string) doctorRun {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"doctor", "--format", "json"}, args...)...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := parseDoctorLines(t, strings.Split(strings.TrimSpace(stdout.String()), "\n"))
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.exit = ee.ExitCode()
	case err != nil:
		t.Fatalf("doctor: %v\n%s", err, stderr.String())
	}
	if r.summary == nil {
		t.Fatalf("doctor wrote no summary (exit %d):\n%s\n%s", r.exit, stdout.String(), stderr.String())
	}
	return r
}

// parseDoctorLines reads doctor's JSON lines: one run, or one --watch
// round (the lines up to its summary).
func parseDoctorLines(t *testing.T, lines []string) doctorRun {
	t.Helper()
	r := doctorRun{nodes: map[string]doctor.NodeReport{}, topics: map[string]doctor.TopicReport{}, raw: strings.Join(lines, "\n")}
	for i, line := range lines {
		if line == "" {
			continue
		}
		var head struct {
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal([]byte(line), &head); err != nil {
			t.Fatalf("doctor line %d is not JSON: %q", i+1, line)
		}
		if !strings.HasPrefix(line, `{"kind":`) {
			t.Errorf("doctor line %d does not start with its kind: %q", i+1, line)
		}
		dec := func(v any) {
			if err := json.Unmarshal([]byte(line), v); err != nil {
				t.Fatalf("doctor line %d (%s): %v", i+1, head.Kind, err)
			}
		}
		switch head.Kind {
		case "env":
			dec(&r.env)
		case "node":
			var n doctor.NodeReport
			dec(&n)
			r.nodes[n.Name] = n
		case "topic":
			var tp doctor.TopicReport
			dec(&tp)
			r.topics[tp.Name] = tp
		case "clock":
			var c doctor.ClockWriter
			dec(&c)
			r.clock = append(r.clock, c)
		case "transform":
			var tr doctor.TransformReport
			dec(&tr)
			r.transforms = append(r.transforms, tr)
		case "finding":
			var f rules.Finding
			dec(&f)
			r.findings = append(r.findings, f)
		case "summary":
			r.summary = new(doctor.Summary)
			dec(r.summary)
		case "participant":
		default:
			t.Errorf("doctor line %d: unknown kind %q", i+1, head.Kind)
		}
	}
	return r
}

func (r doctorRun) has(code rules.Code, node, topic string) bool {
	return slices.ContainsFunc(r.findings, func(f rules.Finding) bool {
		return f.Code == code && (node == "" || f.Node == node) && (topic == "" || f.Topic == topic)
	})
}

// awaitDoctor runs doctor until ready holds for a run, and returns that
// run; discovery takes a machine-dependent time, so only the deadline
// bounds it.
// loadCaused reports whether f is a finding a loaded machine can cause on a
// graph that is otherwise healthy: a process held up for over a second
// leaves a /clock gap or stamps that arrive late (healthy, in
// doctor_diagnostics_test.go, allows the same two). Tests that list what they
// expect do not count these as unexpected; the healthy graph waits for a run
// without them, so a doctor that always reports one still fails it.
func loadCaused(f rules.Finding) bool {
	return f.Code == doctor.CodeClockGap || f.Code == doctor.CodeStaleStamps
}

func (r doctorRun) hasLoadCaused() bool {
	return slices.ContainsFunc(r.findings, loadCaused)
}

func awaitDoctor(t *testing.T, bin string, domain int, what string, ready func(doctorRun) bool) doctorRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	// Each run that does not see it watches twice as long (2 s to 16 s):
	// on a loaded machine discovery alone may take most of a short run,
	// and a finding that needs a state to last (an endpoint undiscovered
	// for 1 s) then never fits in one.
	for watch := 2 * time.Second; ; watch = min(2*watch, 16*time.Second) {
		r := runDoctorJSON(t, bin, domain, "--duration", watch.String())
		if ready(r) {
			return r
		}
		if ctx.Err() != nil {
			t.Fatalf("doctor never saw %s; last run (%s):\n%s", what, watch, r.raw)
		}
	}
}

func TestDoctorLiveGraphs(t *testing.T) {
	requireDDSCLI(t)
	bin := buildSimclock(t, t.TempDir())

	t.Run("healthy_graph_has_no_findings", func(t *testing.T) {
		t.Parallel()
		d := domainDoctorHealthy
		pub := startSimclock(t, bin, d, "pub", "pub", "--start", "1000", "--format", "json")
		_ = pub
		startSimclock(t, bin, d, "monitor", "monitor", "--namespace", "/tools", "--format", "json")
		startTestNode(t, d, "driver", "SIMCLOCK_TEST_SIM_TIME=1", "SIMCLOCK_TEST_TOPIC=/temperature")
		r := awaitDoctor(t, bin, d, "the three nodes, /clock and sim stamps", func(r doctorRun) bool {
			return len(r.nodes) == 3 && len(r.clock) == 1 && r.topics["/temperature"].Samples > 0 && !r.hasLoadCaused()
		})
		if len(r.findings) != 0 || r.exit != 0 || !r.summary.OK {
			t.Fatalf("healthy graph: exit %d, findings:\n%s", r.exit, r.raw)
		}
		drv := r.nodes["/driver"]
		if !drv.SimTime || drv.ClockMatched == nil || *drv.ClockMatched != 1 || drv.ClockQoS != "BEST_EFFORT VOLATILE" {
			t.Errorf("/driver = %+v", drv)
		}
		if n := r.nodes["/simclock_pub"]; !n.PublishesClock {
			t.Errorf("/simclock_pub = %+v", n)
		}
		if n, ok := r.nodes["/tools/simclock_monitor"]; !ok || !n.SimTime {
			t.Errorf("/tools/simclock_monitor = %+v (listed %v)", n, ok)
		}
		tp := r.topics["/temperature"]
		if tp.Type != "sensor_msgs/msg/Temperature" || tp.StampBase != "sim" || !slices.Equal(tp.Publishers, []string{"/driver"}) {
			t.Errorf("/temperature = %+v", tp)
		}
		c := r.clock[0]
		if c.Node != "/simclock_pub" || c.SimNs == nil || *c.SimNs < 1000e9 || c.RateHz <= 0 {
			t.Errorf("clock writer = %+v", c)
		}
	})

	t.Run("each_hazard_is_found", func(t *testing.T) {
		t.Parallel()
		d := domainDoctorHazards
		startSimclock(t, bin, d, "pub", "pub", "--start", "1000", "--format", "json")
		startTestNode(t, d, "forgetful", "SIMCLOCK_TEST_TOPIC=/forgetful/temperature")
		startTestNode(t, d, "wall_stamper", "SIMCLOCK_TEST_SIM_TIME=1", "SIMCLOCK_TEST_TOPIC=/wall/temperature", "SIMCLOCK_TEST_STAMP=wall")
		startTestNode(t, d, "zero_stamper", "SIMCLOCK_TEST_SIM_TIME=1", "SIMCLOCK_TEST_TOPIC=/zero/temperature", "SIMCLOCK_TEST_STAMP=zero")
		startTestNode(t, d, "laggard", "SIMCLOCK_TEST_SIM_TIME=1", "SIMCLOCK_TEST_TOPIC=/late/temperature", "SIMCLOCK_TEST_STAMP=-30s")
		startTestNode(t, d, "prophet", "SIMCLOCK_TEST_SIM_TIME=1", "SIMCLOCK_TEST_TOPIC=/early/temperature", "SIMCLOCK_TEST_STAMP=30s")
		startTestNode(t, d, "strict", "SIMCLOCK_TEST_SIM_TIME=1", "SIMCLOCK_TEST_NS=/robot",
			"SIMCLOCK_TEST_CLOCK_QOS=reliable_transient_local")
		want := []struct {
			code        rules.Code
			node, topic string
		}{
			{doctor.CodeNodeNotOnSimTime, "/forgetful", "/clock"},
			{doctor.CodeWallStamps, "/forgetful", "/forgetful/temperature"},
			{doctor.CodeWallStamps, "/wall_stamper", "/wall/temperature"},
			{doctor.CodeZeroStamps, "/zero_stamper", "/zero/temperature"},
			{doctor.CodeStaleStamps, "/laggard", "/late/temperature"},
			{doctor.CodeFutureStamps, "/prophet", "/early/temperature"},
			{doctor.CodeClockQoSMismatch, "/robot/strict", "/clock"},
		}
		r := awaitDoctor(t, bin, d, "every hazard", func(r doctorRun) bool {
			for _, w := range want {
				if !r.has(w.code, w.node, w.topic) {
					return false
				}
			}
			return true
		})
		if r.exit != 1 || r.summary.OK {
			t.Errorf("exit %d, summary %+v; want exit 1", r.exit, *r.summary)
		}
		// Nothing else: each node shows exactly its own hazard.
		for _, f := range r.findings {
			if !slices.ContainsFunc(want, func(w struct {
				code        rules.Code
				node, topic string
			}) bool {
				return w.code == f.Code && w.node == f.Node && w.topic == f.Topic
			}) && !loadCaused(f) {
				t.Errorf("unexpected finding %+v", f)
			}
			if f.Message == "" || f.Fix == "" || !strings.Contains(f.Message, f.Node) {
				t.Errorf("finding %s does not name its node or say what to change: %+v", f.Code, f)
			}
		}
		if n := r.nodes["/robot/strict"]; n.ClockMatched == nil || *n.ClockMatched != 0 ||
			n.ClockQoS != "RELIABLE TRANSIENT_LOCAL" {
			t.Errorf("/robot/strict = %+v", n)
		}
		for topic, base := range map[string]string{"/wall/temperature": "wall", "/zero/temperature": "zero",
			"/late/temperature": "sim", "/forgetful/temperature": "wall"} {
			if got := r.topics[topic].StampBase; got != base {
				t.Errorf("%s stamp_base = %q, want %q", topic, got, base)
			}
		}
	})

	t.Run("two_clock_publishers", func(t *testing.T) {
		t.Parallel()
		d := domainDoctorTwoPubs
		startSimclock(t, bin, d, "pub", "pub", "--start", "1000", "--format", "json")
		startSimclock(t, bin, d, "pub2", "pub", "--start", "1000", "--format", "json", "--ros-args", "-r", "__node:=bag_player")
		r := awaitDoctor(t, bin, d, "two /clock writers", func(r doctorRun) bool { return len(r.clock) == 2 })
		if !r.has(doctor.CodeMultipleClockPubs, "", "/clock") || r.exit != 1 {
			t.Fatalf("exit %d:\n%s", r.exit, r.raw)
		}
		if _, ok := r.nodes["/bag_player"]; !ok {
			t.Errorf("--ros-args -r __node:=bag_player: nodes %v", slices.Collect(mapsKeys(r.nodes)))
		}
	})

	t.Run("no_clock_publisher", func(t *testing.T) {
		t.Parallel()
		d := domainDoctorNoClock
		startTestNode(t, d, "waiting", "SIMCLOCK_TEST_SIM_TIME=1")
		r := awaitDoctor(t, bin, d, "the sim-time node", func(r doctorRun) bool { return len(r.nodes) == 1 })
		if !r.has(doctor.CodeNoClockPublisher, "/waiting", "/clock") || len(r.findings) != 1 || r.exit != 1 {
			t.Fatalf("exit %d:\n%s", r.exit, r.raw)
		}
	})
}

// --watch reports every --interval: each round its own summary, the
// first one before --duration ends.
func TestDoctorWatch(t *testing.T) {
	requireDDSCLI(t)
	bin := buildSimclock(t, t.TempDir())
	d := domainDoctorWatch
	startTestNode(t, d, "waiting", "SIMCLOCK_TEST_SIM_TIME=1")

	t.Run("for_duration", func(t *testing.T) {
		cmd := exec.Command(bin, "doctor", "--watch", "--interval", "300ms", "--duration", "2s", "--format", "json")
		cmd.Env = ddsEnv(t, d)
		out, err := cmd.Output()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		summaries := strings.Count(string(out), `{"kind":"summary"`)
		if summaries < 2 {
			t.Errorf("--watch wrote %d summaries, want one per interval:\n%s", summaries, out)
		}
		if !strings.HasPrefix(string(out), `{"kind":"env"`) || strings.Count(string(out), `{"kind":"env"`) != 1 {
			t.Errorf("want one env line first:\n%s", out)
		}
	})

	// Without --duration, --watch runs until interrupted (it stopped
	// after the default 3 s); no round calls a graph it has not
	// discovered yet healthy.
	t.Run("until_interrupted", func(t *testing.T) {
		w := startDoctorWatch(t, bin, ddsEnv(t, d), "--interval", "300ms")
		w.await("a round past 4 s", func(r doctorRun) bool { return r.summary.Elapsed > 4*time.Second })
		r := w.await("the waiting node", func(r doctorRun) bool { return len(r.nodes) == 1 })
		if !r.has(doctor.CodeNoClockPublisher, "/waiting", "/clock") {
			t.Errorf("round:\n%s", r.raw)
		}
		exit, _ := w.interrupt()
		if exit != ExitFailure {
			t.Errorf("exit %d after SIGINT, want the last round's verdict (1)", exit)
		}
		checkNoEmptyOK(t, w.rounds)
	})
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func TestDoctorUsage(t *testing.T) {
	for _, args := range [][]string{
		{"doctor", "--duration", "-1s"},
		{"doctor", "--duration", "0"},
		{"doctor", "--format", "xml"},
		{"doctor", "extra"},
		{"doctor", "--expect", "use_sim_time=/a"},
		{"doctor", "--expect", "clock_rate=110..90"},
		{"doctor", "--expect", "sim_time=robot"},
		{"doctor", "--watch", "--format", "junit"},
		{"doctor", "--watch", "--xunit-file", "x.xml"},
		{"pub", "--node-name", "9lives"},
		{"monitor", "--namespace", "/a//b"},
		{"pub", "--ros-args", "-r", "__node:=bad-name"},
		{"pub", "--ros-args", "-r", "chatter:=talk"},
		{"monitor", "--ros-args", "-p", "use_sim_time:=true", "--"},
	} {
		// doctor has no --transport; the others run on inproc, not DDS
		if args[0] != "doctor" {
			args = append(args, "--transport", "inproc")
		}
		r := newTestRun(t)
		r.setenv("ROS_DOMAIN_ID", strconv.Itoa(domainDoctorWatch)) // with the offset, as every test id
		ctx, cancel := context.WithTimeout(r.ctx, 5*time.Second)
		r.ctx = ctx
		_, errb, code := r.run(args...)
		cancel()
		if code != ExitUsage {
			t.Errorf("simclock %s: exit %d, want %d; stderr %s", strings.Join(args, " "), code, ExitUsage, errb)
		}
	}
}
