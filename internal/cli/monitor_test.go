package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport"
)

func TestParseExpectRTF(t *testing.T) {
	for _, tc := range []struct {
		in        string
		want, tol float64
		err       bool
	}{
		{"1", 1, 0.1, false},
		{"2±0.2", 2, 0.2, false},
		{"2+-0.5", 2, 0.5, false},
		{"0.5±10%", 0.5, 0.05, false},
		{" 1 ± 0 ", 1, 0, false},
		{"fast", 0, 0, true},
		{"-1", 0, 0, true},
		{"1±x", 0, 0, true},
		{"1±-1", 0, 0, true},
		{"NaN", 0, 0, true},
	} {
		want, tol, err := parseExpectRTF(tc.in)
		if (err != nil) != tc.err || want != tc.want || tol != tc.tol {
			t.Errorf("parseExpectRTF(%q) = %v, %v, %v; want %v, %v, error %v", tc.in, want, tol, err, tc.want, tc.tol, tc.err)
		}
	}
}

// A /clock of only malformed messages gives no node a time: monitor's
// clock_present check fails on it (have_clock false), in virtual time.
func TestMonitorMalformedClockFails(t *testing.T) {
	r := virtualRun(t, nil, 0) // the broken simulator is attached here
	r.OnExecutor = func(exec *executor.Executor) {
		tr := r.Bus.Connect("broken_sim")
		pub, err := tr.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
		if err != nil {
			t.Fatal(err)
		}
		q := timer.NewQueue(exec.Steady())
		exec.AddQueue(q)
		if _, err := q.New(20*time.Millisecond, func(timer.Info) {
			pub.Publish(r.ctx, []byte{0, 1, 0, 0, 1, 2, 3, 4}) //nolint:errcheck // in-process
		}, true); err != nil {
			t.Fatal(err)
		}
		r.after = append(r.after, func() { exec.RemoveQueue(q); q.Close(); tr.Close() })
	}
	out, errOut, code := r.run("monitor", "--transport", "inproc", "--duration", "1", "--format", "json")
	if code != ExitFailure {
		t.Errorf("exit %d, want %d; stderr %q", code, ExitFailure, errOut)
	}
	sum := lastKind(t, out, "summary")
	if sum == nil || sum["have_clock"] != false || sum["malformed"].(float64) < 40 || sum["ok"] != false {
		t.Fatalf("summary %v", sum)
	}
	checks := sum["checks"].([]any)
	c := checks[0].(map[string]any)
	if c["name"] != "clock_present" || c["ok"] != false || !strings.Contains(c["detail"].(string), "none a valid Clock") {
		t.Errorf("clock_present %v", c)
	}
}
