package bag

import (
	"github.com/simclock/simclock/rules"
)

// CodeZeroStamp: Time values equal to 0 (a warning for Time fields that are not stamps).
const CodeZeroStamp rules.Code = "zero_stamp"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeZeroStamp, Severity: rules.Error, Rules: []rules.ID{rules.R10, rules.R29},
			Title: "Time fields equal to 0: uninitialised time",
			Fix:   "stamp messages from now() only once the clock is valid (after the first /clock)"},
		Detect: func(t *tally) []rules.Finding {
			return fieldFindings(t, func(f *fieldTally) (counter, string) {
				return f.zero, "stamps equal to 0: uninitialised time (set before the first /clock, or never set)"
			}, true)
		},
	}, nil)
}
