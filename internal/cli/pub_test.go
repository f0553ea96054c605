package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// runClockCLI runs simclock in-process and returns the exit code and streams.
func runClockCLI(t *testing.T, tty bool, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, StderrIsTTY: tty,
		Getenv: func(string) string { return "" }}
	code = Main(context.Background(), args, env)
	return code, out.String(), errb.String()
}

func TestParseSimTime(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		err  bool
	}{
		{"0", 0, false},
		{"12", 12 * time.Second, false},
		{"1.5", 1500 * time.Millisecond, false}, // R30
		{"1700000000.000000001", 1700000000*time.Second + 1, false},
		{".5", 500 * time.Millisecond, false},
		{"2147483647", 2147483647 * time.Second, false},
		{"2147483648", 0, true}, // past int32 sec (R8)
		{"-1", 0, true},
		{"1.0000000001", 0, true},
		{"", 0, true},
		{"1e3", 0, true},
		{"1.-5", 0, true},
	} {
		got, err := parseSimTime(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("parseSimTime(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestPubFlagErrors(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--period", "0s"}, "--period"},
		{[]string{"--step", "1ms", "--rtf", "2"}, "--step and --rtf"},
		{[]string{"--jump-to", "5"}, "--jump-to and --jump-at"},
		{[]string{"--resume-after", "1s"}, "--resume-after needs --pause-at"},
		{[]string{"--loop"}, "--loop needs --until"},
		{[]string{"--loop", "--start", "10", "--until", "5"}, "--until"},
		{[]string{"--start", "-3"}, "not a sim time"},
		{[]string{"--format", "xml"}, "--format"},
		{[]string{"--transport", "carrier-pigeon", "--duration", "1ms"}, "--transport"},
		{[]string{"extra"}, "takes no arguments"},
	} {
		code, _, stderr := runClockCLI(t, false, append([]string{"pub"}, tc.args...)...)
		if code != ExitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("pub %v: exit %d, stderr %q; want %d mentioning %q", tc.args, code, stderr, ExitUsage, tc.want)
		}
	}
}

func TestPubInprocText(t *testing.T) {
	defer goleak.VerifyNone(t)
	code, stdout, stderr := runClockCLI(t, false, "pub", "--transport", "inproc", "--start", "5", "--period", "10ms",
		"--rtf", "2", "--duration", "1300ms")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "publishing /clock every 10ms, +20ms sim per message (rtf 2)") {
		t.Fatalf("output:\n%s\nwant a header, a line per second, the last partial second and a summary", stdout)
	}
	if !strings.Contains(lines[1], " pub  sent ") || !strings.Contains(lines[1], "events [start]") {
		t.Errorf("first second: %q", lines[1])
	}
	if !strings.Contains(lines[3], "summary") {
		t.Errorf("last line: %q", lines[3])
	}
}

func TestPubInprocJSON(t *testing.T) {
	defer goleak.VerifyNone(t)
	code, stdout, stderr := runClockCLI(t, false, "pub", "--transport", "inproc", "--start", "100", "--until", "100.5",
		"--period", "100ms", "--step", "100ms", "--format", "json", "--duration", "3s")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var kinds []string
	var last pubLine
	for line := range strings.SplitSeq(strings.TrimSpace(stdout), "\n") {
		var l pubLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("bad JSON %q: %v", line, err)
		}
		kinds = append(kinds, l.Kind)
		last = l
	}
	if kinds[0] != "env" || last.Kind != "summary" {
		t.Errorf("kinds %v: want env first and summary last", kinds)
	}
	// --until 100.5 without --loop ends the run after 6 messages, well
	// before --duration.
	if last.SentTotal != 6 || last.SimNs != int64(100500*time.Millisecond) {
		t.Errorf("summary %+v, want 6 messages ending at 100.5 s", last)
	}
}
