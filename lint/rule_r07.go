package lint

import "github.com/simclock/simclock/rules"

func init() {
	register(Rule{
		ID:       rules.R7,
		Name:     "duration-positional-args",
		Summary:  "rclpy Duration() called with positional arguments (keyword-only)",
		Severity: rules.Error,
		Fixable:  true,
		Fix:      "pass seconds= and nanoseconds= by keyword",
		Help: "rclpy.duration.Duration(*, seconds=0, nanoseconds=0) takes keyword arguments only, so Duration(1) raises TypeError. " +
			"Write Duration(seconds=1); seconds and nanoseconds add up. --fix adds the keywords.",
		detector: detector{expr: detectPositional(rules.R7)}, // in rule_r02.go
	})
}
