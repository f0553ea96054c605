package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"go.uber.org/goleak"
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

func TestMonitorFlagErrors(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--interval", "0s"}, "--interval"},
		{[]string{"--stall-periods", "0"}, "--stall-periods"},
		{[]string{"--expect-rtf", "fast"}, "--expect-rtf"},
		{[]string{"--format", "yaml"}, "--format"},
		{[]string{"/a", "/b"}, "at most one topic"},
	} {
		code, _, stderr := runClockCLI(t, false, append([]string{"monitor"}, tc.args...)...)
		if code != ExitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("monitor %v: exit %d, stderr %q; want %d mentioning %q", tc.args, code, stderr, ExitUsage, tc.want)
		}
	}
}

func TestMonitorNoClockFailsExpectRTF(t *testing.T) {
	defer goleak.VerifyNone(t)
	code, stdout, _ := runClockCLI(t, false, "monitor", "/sim/clock", "--transport", "inproc", "--interval", "100ms",
		"--duration", "350ms", "--format", "json", "--expect-rtf", "1")
	if code != ExitFailure {
		t.Errorf("exit %d, want %d: no clock cannot meet --expect-rtf", code, ExitFailure)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var env, report, sum monitorLine
	for i, dst := range map[int]*monitorLine{0: &env, 1: &report, len(lines) - 1: &sum} {
		if err := json.Unmarshal([]byte(lines[i]), dst); err != nil {
			t.Fatalf("line %d %q: %v", i, lines[i], err)
		}
	}
	if env.Kind != "env" || !strings.Contains(lines[0], `"topic":"/sim/clock"`) || report.Kind != "report" || report.HaveClock {
		t.Errorf("env %q, first report %q", lines[0], lines[1])
	}
	if sum.Kind != "summary" || sum.OK || len(sum.Checks) != 1 || sum.Checks[0].OK {
		t.Errorf("summary %q", lines[len(lines)-1])
	}
}

func TestMonitorTextLinesAndLiveRefresh(t *testing.T) {
	defer goleak.VerifyNone(t)
	code, stdout, stderr := runClockCLI(t, false, "monitor", "--transport", "inproc", "--interval", "100ms", "--duration", "250ms")
	if code != ExitOK || !strings.Contains(stdout, "/clock no clock yet") || !strings.Contains(stdout, "summary: ") || stderr != "" {
		t.Errorf("not a TTY: exit %d, stdout %q, stderr %q; want one line per interval on stdout", code, stdout, stderr)
	}
	code, stdout, stderr = runClockCLI(t, true, "monitor", "--transport", "inproc", "--interval", "100ms", "--duration", "250ms")
	if code != ExitOK || !strings.Contains(stderr, "\r\033[K") || strings.Contains(stdout, "no clock yet") || !strings.Contains(stdout, "summary: ") {
		t.Errorf("TTY: exit %d, stdout %q, stderr %q; want refreshes on stderr and only the summary on stdout", code, stdout, stderr)
	}
}
