//go:build cgo

package lint

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/simclock/simclock/rules"
)

// findingsOf lints one file and lists its findings as "line:col rule-or-code severity".
func findingsOf(t *testing.T, name, src string, cfg Config) []string {
	t.Helper()
	res, err := Source(name, []byte(src), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range res.Findings {
		id := string(f.Code)
		if f.Rule() != 0 {
			id = f.Rule().String()
		}
		out = append(out, fmt.Sprintf("%d:%d %s %s", f.Line, f.Col, id, f.Severity))
	}
	return out
}

// A suppression names rules by number or name, in any case; one naming
// no rule of the linter, or silencing nothing, is reported where the
// comment is.
func TestSuppressionByNameAndNumber(t *testing.T) {
	const src = `from rclpy.duration import Duration
from rclpy.node import Node


class S(Node):
    def a(self):
        return self.get_clock().now() - Duration(seconds=1)  # simclock: ignore[unguarded-window]

    def b(self):
        # simclock: ignore[Unguarded-Window, R28]
        return self.get_clock().now() - Duration(seconds=1)

    def c(self):
        return self.get_clock().now() - Duration(seconds=1)  # simclock: ignore[unguarded-windw]

    def d(self):
        return self.get_clock().now() - Duration(seconds=1)  # simclock: ignore[R99]

    def e(self):
        return 1  # simclock: ignore

    def f(self):
        return 1  # simclock: ignore[]

    def g(self):
        return 1  # simclock: ignored, says the prose


PARAMETERS = {'use_sim_time': True}  # R27 fails a run only on sim time
`
	got := findingsOf(t, "s.py", src, Config{})
	want := []string{
		"10:9 unused-suppression info", // R28: nothing to silence on line 11
		"14:16 R27 warning",            // misspelt name: not silenced
		"14:62 unknown-suppression info",
		"17:16 R27 warning",
		"17:62 unknown-suppression info",
		"20:19 unused-suppression info", // bare ignore on a line with no finding
		"23:19 unknown-suppression info",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	res, _ := Source("s.py", []byte(src), Config{})
	for _, f := range res.Findings {
		if f.Code == CodeUnknownSuppression && f.Line != 23 && !strings.Contains(f.Message, "R2, R5") {
			t.Errorf("an unknown suppression does not list the rules: %s", f.Message)
		}
		if f.Code == CodeUnusedSuppression && f.Line == 10 && !strings.Contains(f.Message, "ignore[R28] silences no R28 (lookup-time-zero) finding") {
			t.Errorf("unused suppression message: %s", f.Message)
		}
		if len(f.Rules) == 0 && (f.Fix == "" || f.Why == "" || f.File != "s.py") {
			t.Errorf("suppression finding incomplete: %+v", f)
		}
	}

	// --strict: the same findings are warnings, which fail a run.
	for _, f := range findingsOf(t, "s.py", src, Config{Strict: true}) {
		if strings.Contains(f, "suppression") && !strings.HasSuffix(f, " warning") {
			t.Errorf("under Strict: %s", f)
		}
	}
}

// A suppression of a rule that did not run is not called unused: --rules,
// the config file's ignore and per-file ignores switch rules off. Nor is
// one in a file that did not parse cleanly. An unknown rule is reported
// whatever ran.
func TestSuppressionNotJudged(t *testing.T) {
	const src = "x = 1  # simclock: ignore[R28]\ny = 2  # simclock: ignore[R99]\n"
	if got := findingsOf(t, "a.py", src, Config{Rules: []rules.ID{rules.R27}}); !slices.Equal(got, []string{"2:8 unknown-suppression info"}) {
		t.Errorf("--rules R27: %v", got)
	}
	if got := findingsOf(t, "a.py", src, Config{}); !slices.Equal(got, []string{"1:8 unused-suppression info", "2:8 unknown-suppression info"}) {
		t.Errorf("every rule: %v", got)
	}
	p, err := NewPattern(".", "*.py")
	if err != nil {
		t.Fatal(err)
	}
	if got := findingsOf(t, "a.py", src, Config{Ignore: []PathRules{{Pattern: p, Rules: []rules.ID{rules.R28}}}}); !slices.Equal(got, []string{"2:8 unknown-suppression info"}) {
		t.Errorf("per-file ignore of R28: %v", got)
	}
	bare := "x = 1  # simclock: ignore\n"
	if got := findingsOf(t, "a.py", bare, Config{Rules: []rules.ID{rules.R27}}); len(got) != 0 {
		t.Errorf("a bare ignore judged with some rules off: %v", got)
	}
	broken := "def f(:\n    return 1  # simclock: ignore[R27]\n"
	if got := findingsOf(t, "a.py", broken, Config{}); len(got) != 0 {
		t.Errorf("a file with a syntax error: %v", got)
	}
	yaml := "node:\n  ros__parameters:\n    use_sim_tme: true  # simclock: ignore[use-sim-time-spelling]\n    rate: 1  # simclock: ignore[R16]\n"
	if got := findingsOf(t, "p.yaml", yaml, Config{}); !slices.Equal(got, []string{"4:14 unused-suppression info"}) {
		t.Errorf("YAML: %v", got)
	}
}

// A per-file ignore drops the rule's findings in the files it covers only.
func TestPerFileIgnore(t *testing.T) {
	const src = "from rclpy.time import Time\nt = Time(1, 2)\n"
	p, err := NewPattern(".", "test/**")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Ignore: []PathRules{{Pattern: p, Rules: []rules.ID{rules.R2}}}}
	if got := findingsOf(t, "test/a.py", src, cfg); len(got) != 0 {
		t.Errorf("test/a.py: %v", got)
	}
	if got := findingsOf(t, "src/a.py", src, cfg); !slices.Equal(got, []string{"2:5 R2 error"}) {
		t.Errorf("src/a.py: %v", got)
	}
}

func TestParseRule(t *testing.T) {
	for in, want := range map[string]rules.ID{"R27": rules.R27, "r27": rules.R27, " unguarded-window ": rules.R27, "Lookup-Time-Zero": rules.R28} {
		if got, err := ParseRule(in); err != nil || got != want {
			t.Errorf("ParseRule(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"R1", "R99", "unguarded_window", "", "27"} {
		if _, err := ParseRule(in); err == nil {
			t.Errorf("ParseRule(%q) accepted", in)
		}
	}
	if ids, err := ParseRules("unguarded-window,R28,r27"); err != nil || !slices.Equal(ids, []rules.ID{rules.R27, rules.R28}) {
		t.Errorf("ParseRules = %v, %v", ids, err)
	}
}
