package doctor

import "github.com/simclock/simclock/rules"

// CodeExpectClockRate: the clock --expect clock_rate=MIN..MAX bounds is
// missing, stopped, or publishes outside the range.
const CodeExpectClockRate rules.Code = "expect_clock_rate"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeExpectClockRate, Severity: rules.Error,
			Title: "the clock expected at a rate (--expect clock_rate=MIN..MAX) is not published, stopped, or runs outside the range",
			Fix:   "check the simulator (or ros2 bag play --clock HZ) runs and publishes its clock at the rate the test expects"},
		Detect: func(a *analysis) []rules.Finding { return expectFindings(a, ExpectClockRate, true) },
	})
}
