package cli

// simclock pub and simclock monitor in virtual time: each command runs on
// a virtual-time executor (Env.Virtual), and a test attaches simulated
// /clock publishers to the monitor's executor (Env.OnExecutor), so the
// output is the same on every run, to the nanosecond, without waiting.

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/inproc"
	"github.com/simclock/simclock/virtualclock"
)

// peer is a simulated /clock publisher: a schedule and the name of the
// bus attachment it publishes from.
type peer struct {
	name string
	cfg  clockstream.ScheduleConfig
}

// virtualRun returns a run in virtual time on an in-process bus, with
// peers publishing /clock beside the command; at interruptAt of virtual
// time (when positive) the run is interrupted, as by SIGINT or SIGTERM.
func virtualRun(t *testing.T, peers []peer, interruptAt time.Duration) *testRun {
	t.Helper()
	r := newTestRun(t)
	bus := inproc.NewBus()
	r.Virtual, r.Bus = virtualclock.New(), bus
	r.OnExecutor = func(exec *executor.Executor) {
		for _, p := range peers {
			tr := bus.Connect(p.name)
			pub, err := tr.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
			if err != nil {
				t.Fatal(err)
			}
			sch, err := clockstream.NewSchedule(p.cfg)
			if err != nil {
				t.Fatal(err)
			}
			pl, err := clockstream.NewPlayer(r.ctx, exec, pub, sch, clockstream.PlayerOptions{})
			if err != nil {
				t.Fatal(err)
			}
			r.after = append(r.after, pl.Close, func() { tr.Close() })
		}
		if interruptAt > 0 {
			// The signal arrives at a virtual instant, so the summary is
			// deterministic too.
			q := timer.NewQueue(exec.Steady())
			exec.AddQueue(q)
			var once *timer.Timer
			once, _ = q.New(interruptAt, func(timer.Info) { once.Cancel(); r.interrupt() }, true)
			r.after = append(r.after, func() { exec.RemoveQueue(q); q.Close() })
		}
	}
	return r
}

func liveGolden(t *testing.T, name, got string) {
	t.Helper()
	checkGolden(t, filepath.Join("testdata", "live", name), got)
}

var (
	// steady: one simulator at twice real time from 1.7e9 s.
	steady = peer{"gazebo", clockstream.ScheduleConfig{Start: 1_700_000_000 * time.Second, Period: 10 * time.Millisecond,
		Step: 20 * time.Millisecond}}
	// faulty: paused for 0.5 s at 1.2 s of wall time, a backward jump, 5% drops.
	faulty = peer{"bagplay", clockstream.ScheduleConfig{Start: 100 * time.Second, Period: 10 * time.Millisecond,
		Step: 10 * time.Millisecond, Pause: true, PauseAt: 101200 * time.Millisecond, ResumeAfter: 500 * time.Millisecond,
		Jump: true, JumpAt: 102 * time.Second, JumpTo: 50 * time.Second, Drop: 0.05, Seed: 3}}
	// late: a second simulator at real time from 0, starting 1 s late.
	late = peer{"stage", clockstream.ScheduleConfig{Period: 20 * time.Millisecond, Step: 20 * time.Millisecond,
		PreClock: time.Second}}
)

func TestMonitorGolden(t *testing.T) {
	for _, tc := range []struct {
		name  string
		peers []peer
		args  []string
		code  int
	}{
		{"one_publisher", []peer{steady}, []string{"--expect-rtf", "2±0.01"}, ExitOK},
		{"faults", []peer{faulty}, []string{"--fail-on-backward"}, ExitFailure},
		{"two_publishers", []peer{steady, late}, []string{"--expect-rtf", "1"}, ExitFailure},
		{"no_clock", nil, nil, ExitFailure},
		{"no_clock_allowed", nil, []string{"--allow-no-clock"}, ExitOK},
	} {
		for _, format := range []string{"text", "json"} {
			t.Run(tc.name+"/"+format, func(t *testing.T) {
				args := append([]string{"monitor", "--transport", "inproc", "--duration", "3", "--format", format}, tc.args...)
				out, errOut, code := virtualRun(t, tc.peers, 0).run(args...)
				if code != tc.code {
					t.Errorf("exit %d, want %d; stderr %q", code, tc.code, errOut)
				}
				ext := ".txt"
				if format == "json" {
					ext = ".jsonl"
					checkJSONLines(t, out)
				} else {
					checkWidth(t, out)
				}
				liveGolden(t, "monitor_"+tc.name+ext, out)
			})
		}
	}
}

func TestPubGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"rtf2", []string{"--start", "5", "--rtf", "2", "--duration", "2.5"}},
		{"until", []string{"--start", "100", "--until", "100.5", "--period", "100ms", "--step", "0.1"}},
		{"faults", []string{"--start", "1s", "--period", "0.05", "--pause-at", "1.5", "--resume-after", "500ms",
			"--jump-at", "2", "--jump-to", "1", "--drop", "0.2", "--jitter", "10ms", "--seed", "9", "--duration", "3"}},
	} {
		for _, format := range []string{"text", "json"} {
			t.Run(tc.name+"/"+format, func(t *testing.T) {
				args := append([]string{"pub", "--transport", "inproc", "--format", format}, tc.args...)
				out, errOut, code := virtualRun(t, nil, 0).run(args...)
				if code != ExitOK {
					t.Fatalf("exit %d; stderr %q", code, errOut)
				}
				ext := ".txt"
				if format == "json" {
					ext = ".jsonl"
					checkJSONLines(t, out)
				} else {
					checkWidth(t, out)
				}
				liveGolden(t, "pub_"+tc.name+ext, out)
			})
		}
	}
}

// SIGINT and SIGTERM cancel the command's context (cmd/simclock): the run
// ends with its summary and its verdict, not with an error.
func TestInterruptEndsWithSummary(t *testing.T) {
	out, errOut, code := virtualRun(t, []peer{steady}, 2500*time.Millisecond).run("monitor", "--transport", "inproc")
	if code != ExitOK || !strings.Contains(out, "summary: 250 messages in 2.500 s") || errOut != "" {
		t.Errorf("monitor: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	out, errOut, code = virtualRun(t, nil, 1500*time.Millisecond).run("pub", "--transport", "inproc", "--format", "json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != ExitOK || !strings.HasPrefix(lines[len(lines)-1], `{"kind":"summary","elapsed_ns":1500000000,"sent":150,`) {
		t.Errorf("pub: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
}

// checkJSONLines checks the JSON conventions: every line an object with
// "kind" first, env first, summary last, times in integer _ns fields.
func checkJSONLines(t *testing.T, out string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for i, line := range lines {
		if !strings.HasPrefix(line, `{"kind":"`) {
			t.Errorf("line %d does not start with kind: %s", i+1, line)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		checkNsFields(t, m)
	}
	if !strings.HasPrefix(lines[0], `{"kind":"env"`) || !strings.HasPrefix(lines[len(lines)-1], `{"kind":"summary"`) {
		t.Errorf("want env first and summary last:\n%s", out)
	}
}

func checkNsFields(t *testing.T, v any) {
	t.Helper()
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if strings.HasSuffix(k, "_s") || strings.HasSuffix(k, "_ms") {
				t.Errorf("field %q: times are integer nanoseconds in _ns fields", k)
			}
			if f, ok := x.(float64); ok && strings.HasSuffix(k, "_ns") && f != float64(int64(f)) {
				t.Errorf("field %q = %v is not an integer", k, f)
			}
			checkNsFields(t, x)
		}
	case []any:
		for _, x := range v {
			checkNsFields(t, x)
		}
	}
}

// checkWidth checks that human output fits 100 columns.
func checkWidth(t *testing.T, out string) {
	t.Helper()
	for line := range strings.SplitSeq(out, "\n") {
		if n := len([]rune(line)); n > tableWidth {
			t.Errorf("%d columns: %s", n, line)
		}
	}
}

// simclock bag clock is simclock pub over a bag's timeline: the same
// Player, the same output.
func TestBagClockGolden(t *testing.T) {
	bagFile := filepath.Join("testdata", "bag", "hazards.mcap")
	for _, format := range []string{"text", "json"} {
		out, errOut, code := virtualRun(t, nil, 0).run("bag", "clock", "--transport", "inproc", "--hz", "10", "--rate", "2", "--format", format, bagFile)
		if code != ExitOK {
			t.Fatalf("exit %d; stderr %q", code, errOut)
		}
		ext := ".txt"
		if format == "json" {
			ext = ".jsonl"
			checkJSONLines(t, out)
		} else {
			checkWidth(t, out)
		}
		liveGolden(t, "bag_clock"+ext, out)
	}
}

// On a terminal the monitor refreshes one line in place on stderr, under
// a header row that labels its columns, and prints only its summary on
// stdout; piped, it prints a row per interval.
func TestMonitorLiveRefreshOnATerminal(t *testing.T) {
	r := virtualRun(t, nil, 0)
	r.StderrIsTTY = true
	out, errOut, code := r.run("monitor", "--transport", "inproc", "--duration", "2.5", "--allow-no-clock")
	if code != ExitOK || strings.Count(errOut, "\r\033[K") != 2 || !strings.Contains(errOut, "no clock yet") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if head, _, _ := strings.Cut(errOut, "\r"); !strings.HasSuffix(head, monitorHeader+"\n") || !strings.Contains(monitorHeader, "value (s)") {
		t.Errorf("stderr %q: want the header row before the live line", errOut)
	}
	if strings.Contains(out, "no clock yet") || !strings.HasPrefix(out, "summary: no /clock message at all") {
		t.Errorf("stdout %q: want the summary only", out)
	}
}

// On a terminal, the per-publisher table and the warnings scroll above the
// live line when who publishes or what is wrong changes, not every
// interval; the publishers are named.
func TestMonitorLivePublishersOnATerminal(t *testing.T) {
	r := virtualRun(t, []peer{steady, late}, 0)
	r.StderrIsTTY = true
	_, errOut, code := r.run("monitor", "--transport", "inproc", "--duration", "4", "--allow-no-clock")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	// Four intervals: the second publisher appears, then jumps, then a
	// zero, then nothing new.
	if n := strings.Count(errOut, "    publisher "); n != 3 || !strings.Contains(errOut, "gazebo/pub1") || !strings.Contains(errOut, "stage/pub2") {
		t.Errorf("the publisher table is printed %d times (want 3 of 4 intervals):\n%s", n, errOut)
	}
}
