package lint

import (
	"fmt"
	"strings"

	"github.com/simclock/simclock/rules"
)

func init() {
	register(Rule{
		ID:       rules.R2,
		Name:     "time-positional-args",
		Summary:  "rclpy Time() called with positional arguments (keyword-only)",
		Severity: rules.Error,
		Fixable:  true,
		Fix:      "pass seconds=, nanoseconds= and clock_type= by keyword",
		Help: "rclpy.time.Time(*, seconds=0, nanoseconds=0, clock_type=SYSTEM_TIME) takes keyword arguments only, " +
			"so Time(1, 2) raises TypeError. Write Time(seconds=1, nanoseconds=2); --fix adds the keywords.",
		detector: detector{expr: detectPositional(rules.R2)},
	})
}

// detectPositional is the detector of R2 (rclpy Time) and R7 (rclpy
// Duration): a call of the constructor with positional arguments.
func detectPositional(only rules.ID) func(*checker, *expr, *fn, []cond) {
	return func(c *checker, e *expr, f *fn, _ []cond) {
		if e.kind == eCall {
			checkPositional(c, e, f, only)
		}
	}
}

// checkPositional reports call e when it is rclpy Time (R2) or Duration
// (R7) with positional arguments and that rule is only.
func checkPositional(c *checker, e *expr, f *fn, only rules.ID) {
	u := f.u
	if u.lang != langPython || len(e.args) == 0 || e.splat {
		return
	}
	q := canon(c.d.qual(e.recv, f), langPython)
	var rule rules.ID
	var what string
	switch q {
	case "rclpy.time.Time":
		rule, what = rules.R2, "Time"
	case "rclpy.duration.Duration":
		rule, what = rules.R7, "Duration"
	default:
		return
	}
	if rule != only {
		return
	}
	names := []string{"seconds", "nanoseconds", "clock_type"}
	if rule == rules.R7 {
		names = names[:2]
	}
	var edits []Edit
	var kw []string
	if len(e.args) <= len(names) {
		for i, a := range e.args {
			edits = append(edits, Edit{Start: a.n.start, End: a.n.start, New: names[i] + "="})
			kw = append(kw, names[i]+"="+a.text())
		}
	}
	fix := fmt.Sprintf("%s(%s)", what, strings.Join(kw, ", "))
	if kw == nil {
		fix = "pass seconds=, nanoseconds= (and for Time clock_type=) by keyword"
		edits = nil
	}
	c.report(u, e, rule,
		fmt.Sprintf("rclpy %s takes keyword arguments only: %s raises TypeError", what, shorten(e.text())),
		fmt.Sprintf("rclpy.%s(*, seconds=0, nanoseconds=0%s) is keyword-only; seconds and nanoseconds are added, so seconds=1, nanoseconds=500000000 is 1.5 s (R2, R7).",
			map[string]string{"Time": "time.Time", "Duration": "duration.Duration"}[what],
			map[string]string{"Time": ", clock_type=SYSTEM_TIME", "Duration": ""}[what]),
		"write "+fix, edits)
}
