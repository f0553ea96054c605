package cli

// End-to-end tests over real DDS: simclock pub and simclock monitor run as
// separate processes, built from this tree, on loopback only (the
// project's config/cyclonedds-loopback.xml) with a domain id per test.

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
	"syscall"
	"testing"
	"time"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/internal/testdomain"
	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/dds"
)

// Domain ids of this package's DDS tests.
var (
	domainStallRestart = testdomain.ID(81)
	domainTwoPubs      = testdomain.ID(82)
	domainMalformed    = testdomain.ID(83)
	domainExpectRTF    = testdomain.ID(84)
	domainQoSTrap      = testdomain.ID(85)
)

// requireDDSCLI skips when libddsc is missing and CI is unset; under CI a
// missing library fails.
func requireDDSCLI(t *testing.T) {
	t.Helper()
	err := dds.Available()
	if err == nil {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("CI is set and Cyclone DDS is missing: %v", err)
	}
	t.Skipf("Cyclone DDS is not installed (apt-get install cyclonedds-dev): %v", err)
}

func loopbackConfigURI(t testing.TB) string {
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

// buildSimclock builds cmd/simclock into dir.
func buildSimclock(t testing.TB, dir string) string {
	t.Helper()
	// scripts/bench's repetitions (one process each) share one binary:
	// go build leaves an up-to-date output alone instead of linking it
	// again, seconds a process.
	if cache := os.Getenv("SIMCLOCK_BENCH_CACHE"); cache != "" {
		dir = cache
	}
	bin := filepath.Join(dir, "simclock")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/simclock/simclock/cmd/simclock")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// ddsEnv is the environment of a child process: this one's, minus every
// ROS and Cyclone variable, plus loopback-only Cyclone and domain.
func ddsEnv(t testing.TB, domain int) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ROS_") && !strings.HasPrefix(kv, "CYCLONEDDS_") {
			env = append(env, kv)
		}
	}
	return append(env, "CYCLONEDDS_URI="+loopbackConfigURI(t), "ROS_DOMAIN_ID="+strconv.Itoa(domain))
}

// A proc is a running simclock whose stdout lines arrive on lines.
type proc struct {
	name   string
	cmd    *exec.Cmd
	lines  chan string
	sum    monitorLine // running sums of the report lines read so far
	stderr lockedBuffer
	done   chan struct{}
	err    error
}

func startSimclock(t *testing.T, bin string, domain int, name string, args ...string) *proc {
	t.Helper()
	return startSimclockEnv(t, bin, ddsEnv(t, domain), name, args...)
}

// startSimclockEnv is startSimclock with the environment env.
func startSimclockEnv(t *testing.T, bin string, env []string, name string, args ...string) *proc {
	t.Helper()
	p := &proc{name: name, cmd: exec.Command(bin, args...), lines: make(chan string, 10000), done: make(chan struct{})}
	p.cmd.Env = env
	p.cmd.Stderr = &p.stderr
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		p.err = p.cmd.Wait()
		close(p.lines)
		close(p.done)
	}()
	t.Cleanup(func() {
		p.cmd.Process.Kill() //nolint:errcheck // may have exited
		<-p.done
		if strings.Contains(p.stderr.String(), "panic") {
			t.Errorf("%s panicked:\n%s", name, p.stderr.String())
		}
	})
	return p
}

// lockedBuffer is a bytes.Buffer safe for a writer and a reader at once.
type lockedBuffer struct {
	mu sync.Mutex // mu guards b
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// exitCode waits for p to exit and returns its status.
func (p *proc) exitCode(t *testing.T, timeout time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(timeout):
		t.Fatalf("%s did not exit within %v", p.name, timeout)
	}
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		return ee.ExitCode()
	}
	if p.err != nil {
		t.Fatalf("%s: %v", p.name, p.err)
	}
	return 0
}

// monitorLine is any JSON line of simclock monitor: a report, or the
// summary (whose totals then fill Report's counts). Sum is the sum of the
// counts of every report so far, filled in by next.
type monitorLine struct {
	Kind string `json:"kind"`
	clockstream.Report
	Checks []monitorCheck     `json:"checks"`
	OK     bool               `json:"ok"`
	Sum    clockstream.Counts `json:"-"`
}

func (c *monitorLine) add(r clockstream.Counts) {
	c.Sum.Messages += r.Messages
	c.Sum.Gaps += r.Gaps
	c.Sum.Pauses += r.Pauses
	c.Sum.BackwardJumps += r.BackwardJumps
	c.Sum.ForwardJumps += r.ForwardJumps
	c.Sum.Malformed += r.Malformed
	c.Sum.NotNormalized += r.NotNormalized
	c.Sum.Zero += r.Zero
}

// next returns the next monitor line satisfying pred, failing after timeout.
func (p *proc) next(t *testing.T, what string, timeout time.Duration, pred func(monitorLine) bool) monitorLine {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				t.Fatalf("%s exited while waiting for %s; stderr:\n%s", p.name, what, p.stderr.String())
			}
			var m monitorLine
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("%s: bad JSON line %q: %v", p.name, line, err)
			}
			if isReport(m) {
				p.sum.add(m.Counts)
			}
			m.Sum = p.sum.Sum
			if pred(m) {
				return m
			}
		case <-deadline:
			t.Fatalf("timed out after %v waiting for %s from %s; stderr:\n%s", timeout, what, p.name, p.stderr.String())
		}
	}
}

func isReport(m monitorLine) bool { return m.Kind == "report" }

func TestDDSProcesses(t *testing.T) {
	requireDDSCLI(t)
	bin := buildSimclock(t, t.TempDir())
	t.Run("stall_then_restart_with_backward_jump", func(t *testing.T) {
		t.Parallel()
		testStallRestart(t, bin)
	})
	t.Run("R18/two_publishers_warn", func(t *testing.T) {
		t.Parallel()
		testTwoPublishers(t, bin)
	})
	t.Run("malformed_counted_and_dropped", func(t *testing.T) {
		t.Parallel()
		testMalformed(t, bin)
	})
	t.Run("missing_libddsc_says_what_to_install", func(t *testing.T) {
		t.Parallel()
		cmd := exec.Command(bin, "monitor", "--duration", "1s")
		cmd.Env = append(ddsEnv(t, domainExpectRTF), "SIMCLOCK_LIBDDSC=/nonexistent/libddsc.so.0")
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != ExitFailure {
			t.Fatalf("exit: %v, want status %d\n%s", err, ExitFailure, out)
		}
		for _, want := range []string{"no Cyclone DDS library", "apt-get install cyclonedds-dev", "/opt/ros"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
	})
	t.Run("qos_trap_reliable_subscriber", func(t *testing.T) {
		t.Parallel()
		testQoSTrap(t, bin)
	})
	t.Run("expect_rtf_exit_status", func(t *testing.T) {
		t.Parallel()
		testExpectRTF(t, bin)
	})
}

func testStallRestart(t *testing.T, bin string) {
	d := domainStallRestart
	mon := startSimclock(t, bin, d, "monitor", "monitor", "--format", "json", "--interval", "200ms",
		"--fail-on-backward", "--duration", "60s")
	if env := mon.next(t, "env line", 10*time.Second, func(m monitorLine) bool { return true }); env.Kind != "env" {
		t.Fatalf("first line kind %q, want env", env.Kind)
	}
	pub := startSimclock(t, bin, d, "pub#1", "pub", "--start", "100", "--period", "10ms")
	running := mon.next(t, "the clock from pub#1", 20*time.Second, func(m monitorLine) bool {
		return isReport(m) && m.HaveClock && m.Value >= int64(100*time.Second) && len(m.Publishers) == 1 && m.Messages > 0
	})

	// A loaded machine can stall the publisher long enough for a gap of
	// its own before the kill, so the kill's gap is counted from there:
	// one more gap, counted once however long the silence lasts.
	pub.cmd.Process.Kill() //nolint:errcheck // checked by the stall below
	<-pub.done
	silent := mon.next(t, "a gap report", 10*time.Second, func(m monitorLine) bool { return isReport(m) && m.Silence > 0 })
	if silent.Sum.Gaps < running.Sum.Gaps+1 {
		t.Errorf("gaps so far %d, want at least %d (one more than while pub#1 ran)", silent.Sum.Gaps, running.Sum.Gaps+1)
	}
	again := mon.next(t, "a second gap report", 5*time.Second, isReport)
	if again.Silence == 0 || again.Value != silent.Value || again.Sum.Gaps != silent.Sum.Gaps {
		t.Errorf("during the gap: silence %v, value %d (was %d), gaps %d (was %d); want the clock to stay at the last value and the silence counted once",
			again.Silence, again.Value, silent.Value, again.Sum.Gaps, silent.Sum.Gaps)
	}

	startSimclock(t, bin, d, "pub#2", "pub", "--start", "50", "--period", "10ms")
	jumped := mon.next(t, "the backward jump on restart", 20*time.Second, func(m monitorLine) bool {
		return isReport(m) && m.Sum.BackwardJumps >= 1
	})
	if jumped.BackwardJumps > 0 && !slices.ContainsFunc(jumped.Warnings, func(w string) bool { return strings.Contains(w, "backward") }) {
		t.Errorf("report with a backward jump lacks its warning: %+v", jumped.Report)
	}
	resumed := mon.next(t, "the clock to resume", 10*time.Second, func(m monitorLine) bool {
		return isReport(m) && m.Silence == 0 && m.Messages > 10
	})
	if resumed.Value >= int64(100*time.Second) || resumed.Value < int64(50*time.Second) {
		t.Errorf("resumed value %s, want pub#2's clock from 50 s", units.Value(resumed.Value))
	}

	mon.cmd.Process.Signal(syscall.SIGINT) //nolint:errcheck // checked by the summary
	sum := mon.next(t, "the summary", 10*time.Second, func(m monitorLine) bool { return m.Kind == "summary" })
	if sum.OK || sum.BackwardJumps < 1 || sum.Gaps < 1 {
		t.Errorf("summary ok %v, %d backward jumps, %d gaps; want a failed --fail-on-backward check", sum.OK, sum.BackwardJumps, sum.Gaps)
	}
	if code := mon.exitCode(t, 10*time.Second); code != ExitFailure {
		t.Errorf("monitor exit status %d, want %d (--fail-on-backward)", code, ExitFailure)
	}
}

func testTwoPublishers(t *testing.T, bin string) {
	d := domainTwoPubs
	mon := startSimclock(t, bin, d, "monitor", "monitor", "--format", "json", "--interval", "200ms", "--duration", "60s")
	startSimclock(t, bin, d, "pub#1", "pub", "--start", "100", "--node-name", "gazebo")
	startSimclock(t, bin, d, "pub#2", "pub", "/clock", "--start", "200", "--ros-args", "-r", "__node:=stage", "-r", "__ns:=/sim")
	// Publishers are named by their nodes, through ros_discovery_info, as
	// ros2 topic info -v names them; the GID stays.
	// Each pub runs at rtf 1 and its own RTF says so, whatever the other
	// does (mixing the two timelines gave thousands). RTF is measured
	// against the monitor's wall clock, which a loaded machine skews in a
	// single report, so the test waits for a report that shows it rather
	// than judging the first.
	rtfAboutOne := func(p clockstream.PublisherStats) bool { return p.RTF != nil && *p.RTF > 0.5 && *p.RTF < 1.5 }
	r := mon.next(t, "two named publishers sending, each at rtf about 1", 40*time.Second, func(m monitorLine) bool {
		return isReport(m) && len(m.Publishers) == 2 && m.Publishers[0].Messages > 0 && m.Publishers[1].Messages > 0 &&
			m.Publishers[0].Node != "" && m.Publishers[1].Node != "" &&
			rtfAboutOne(m.Publishers[0]) && rtfAboutOne(m.Publishers[1])
	})
	if nodes := []string{r.Publishers[0].Node, r.Publishers[1].Node}; !slices.Contains(nodes, "/gazebo") || !slices.Contains(nodes, "/sim/stage") {
		t.Errorf("publisher nodes %q, want /gazebo and /sim/stage", nodes)
	}
	if r.Publishers[0].ID == r.Publishers[1].ID || r.RTF != nil {
		t.Errorf("publishers %+v, overall rtf %v; want two ids and no overall RTF", r.Publishers, r.RTF)
	}
	found := false
	for _, w := range r.Warnings {
		found = found || strings.Contains(w, "2 publishers") && strings.Contains(w, "R18")
	}
	if !found {
		t.Errorf("no R18 warning in %q", r.Warnings)
	}
}

// A reliable /clock subscriber gets nothing from a best-effort publisher
// (ros2 bag play --clock): monitor --qos-reliability reliable shows it as
// such a node would meet it, and names the publisher it cannot match; a
// remapped topic (--ros-args -r) reaches the publisher's.
func testQoSTrap(t *testing.T, bin string) {
	d := domainQoSTrap
	startSimclock(t, bin, d, "player", "pub", "/sim/clock", "--best-effort", "--node-name", "player")
	mon := startSimclock(t, bin, d, "monitor reliable", "monitor", "--format", "json", "--interval", "200ms",
		"--qos-reliability", "reliable", "--duration", "3s", "--ros-args", "-r", "/clock:=/sim/clock")
	sum := mon.next(t, "summary", 30*time.Second, func(m monitorLine) bool { return m.Kind == "summary" })
	if code := mon.exitCode(t, 10*time.Second); code != ExitFailure || sum.Messages != 0 {
		t.Fatalf("reliable monitor: exit %d, %d messages; want 1 and none (no /clock reaches it)", code, sum.Messages)
	}
	// The reports and the summary name the publisher that does not match,
	// and why. Discovery of another process takes what it takes on a
	// loaded machine, so the monitor runs until a report names /player
	// (not for a fixed time), then is interrupted for its summary.
	const mismatch = "publisher /player offers BEST_EFFORT VOLATILE, which this subscription does not match"
	mon = startSimclock(t, bin, d, "monitor reliable, text", "monitor", "/sim/clock", "--interval", "200ms",
		"--qos-reliability", "reliable", "--duration", "60s")
	text := mon.text(t, "the QoS warning naming /player", 30*time.Second, mismatch)
	mon.cmd.Process.Signal(syscall.SIGINT) //nolint:errcheck // the summary below shows it
	for l := range mon.lines {
		text.WriteString(l + "\n")
	}
	if !strings.Contains(text.String(), "reliability: offered BEST_EFFORT, requested RELIABLE") {
		t.Errorf("no QoS warning naming /player:\n%s", text.String())
	}
	// As a node's time source subscribes, it gets the clock (once it has
	// discovered the publisher: not within a fixed time).
	mon = startSimclock(t, bin, d, "monitor best effort", "monitor", "/sim/clock", "--format", "json", "--interval", "200ms", "--duration", "60s")
	mon.next(t, "a report with /clock", 30*time.Second, func(m monitorLine) bool { return isReport(m) && m.Messages > 0 })
	mon.cmd.Process.Signal(syscall.SIGINT) //nolint:errcheck // the summary below shows it
	sum = mon.next(t, "summary", 30*time.Second, func(m monitorLine) bool { return m.Kind == "summary" })
	if sum.Messages == 0 {
		t.Errorf("best-effort monitor got no /clock")
	}
	// bag clock publishes as rosbag2's player does, best effort, and says
	// which reader that leaves without a clock: it loops until it has
	// discovered the reader and said so, however long that takes.
	startSimclock(t, bin, d, "reliable reader", "monitor", "--qos-reliability", "reliable", "--node-name", "strict", "--duration", "120s")
	bc := startSimclock(t, bin, d, "bag clock", "bag", "clock", "--loop", "--duration", "120", "testdata/bag/hazards.mcap")
	bc.text(t, "bag clock's warning about the reliable reader", 60*time.Second,
		"the reader of /strict (RELIABLE VOLATILE) does not match this publisher")
}

// text collects p's output lines until one contains want, failing after
// timeout, and returns them.
func (p *proc) text(t *testing.T, what string, timeout time.Duration, want string) *strings.Builder {
	t.Helper()
	var text strings.Builder
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				t.Fatalf("%s exited while waiting for %s; output:\n%s\nstderr:\n%s", p.name, what, text.String(), p.stderr.String())
			}
			text.WriteString(l + "\n")
			if strings.Contains(l, want) {
				return &text
			}
		case <-deadline:
			t.Fatalf("%s: no %s within %v; output:\n%s", p.name, what, timeout, text.String())
		}
	}
}

func testMalformed(t *testing.T, bin string) {
	d := domainMalformed
	mon := startSimclock(t, bin, d, "monitor", "monitor", "--format", "json", "--interval", "200ms", "--duration", "60s")
	tr, err := dds.Open(context.Background(), dds.Config{Domain: uint32(d), URI: loopbackConfigURI(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close() //nolint:errcheck // test cleanup
	pub, err := tr.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
	if err != nil {
		t.Fatal(err)
	}
	// Best-effort samples sent before the monitor's reader knows the writer
	// are lost: wait until the monitor reports the publisher.
	mon.next(t, "the monitor to see the publisher", 20*time.Second, func(m monitorLine) bool { return isReport(m) && len(m.Publishers) == 1 })
	// ...and until the publisher knows the monitor's reader: the two sides
	// discover each other separately, and a writer sends only to the
	// readers it has matched.
	for deadline := time.Now().Add(20 * time.Second); pub.MatchedSubscriptions() == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the publisher never matched the monitor's reader")
		}
	}
	good := timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: 42, Nanosec: 5}})
	// Payloads that are no RTPS payload at all are refused before they
	// reach the wire (DDS receivers would drop the whole packet).
	for _, bad := range [][]byte{{0x00, 0x01}, {0xff, 0xff, 0x00, 0x00, 0x2b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}} {
		if err := pub.Publish(context.Background(), bad); !errors.Is(err, dds.ErrInvalidPayload) {
			t.Errorf("Publish(% x) = %v, want ErrInvalidPayload", bad, err)
		}
	}
	for _, data := range [][]byte{
		good,
		{0x00, 0x01, 0x00, 0x00, 0x2a, 0x00, 0x00, 0x00},                         // short payload
		{0x00, 0x03, 0x00, 0x00, 0x2b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, // PL_CDR_LE: not what a Clock is
		{0x00, 0x07, 0x00, 0x00, 0x2c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, // CDR2_LE (XCDR2): idem
		timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: 43, Nanosec: 6}}),
	} {
		if err := pub.Publish(context.Background(), data); err != nil {
			t.Fatalf("Publish(% x): %v", data, err)
		}
		time.Sleep(20 * time.Millisecond) // the monitor's queue is deep, but keep the order obvious
	}
	r := mon.next(t, "5 samples", 20*time.Second, func(m monitorLine) bool { return isReport(m) && m.Sum.Messages >= 5 })
	if r.Sum.Malformed != 3 || r.Value != int64(43*time.Second+6) || r.Sum.Messages != 5 || r.Sum.BackwardJumps != 0 {
		t.Errorf("malformed %d, value %s, messages %d; want 3 dropped and the clock at the last good value 43.000000006",
			r.Sum.Malformed, units.Value(r.Value), r.Sum.Messages)
	}
}

func testExpectRTF(t *testing.T, bin string) {
	d := domainExpectRTF
	startSimclock(t, bin, d, "pub", "pub", "--start", "1000", "--rtf", "2", "--period", "10ms")
	for _, tc := range []struct {
		expect string
		code   int
	}{{"2±0.2", ExitOK}, {"1±10%", ExitFailure}} {
		t.Run(tc.expect, func(t *testing.T) {
			t.Parallel()
			// The monitor judges 4 s of /clock however late it discovers
			// the publisher (a loaded machine), then is interrupted: a run
			// of a fixed --duration could end with little or nothing heard.
			m := startSimclock(t, bin, d, "monitor "+tc.expect, "monitor", "--format", "json", "--interval", "500ms",
				"--duration", "120s", "--expect-rtf", tc.expect)
			m.next(t, "4 s of /clock", 60*time.Second, func(l monitorLine) bool { return isReport(l) && l.Sum.Messages >= 400 })
			m.cmd.Process.Signal(syscall.SIGINT) //nolint:errcheck // checked by the exit status
			var last monitorLine
			for line := range m.lines {
				json.Unmarshal([]byte(line), &last) //nolint:errcheck // checked through Kind
			}
			if code := m.exitCode(t, 20*time.Second); code != tc.code {
				t.Errorf("--expect-rtf %s: exit status %d, want %d; last line %+v", tc.expect, code, tc.code, last)
			}
			if last.Kind != "summary" || len(last.Checks) != 2 || last.Checks[1].Name != "expect_rtf" {
				t.Errorf("--expect-rtf %s: last line %+v, want a summary with the expect_rtf check", tc.expect, last)
			}
		})
	}
}
