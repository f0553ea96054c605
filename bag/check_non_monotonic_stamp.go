package bag

import (
	"github.com/simclock/simclock/rules"
)

// CodeNonMonotonic: a stamp below the one before it on the same topic (Times outside arrays).
const CodeNonMonotonic rules.Code = "non_monotonic_stamp"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeNonMonotonic, Severity: rules.Warning,
			Title: "stamps going backwards within a topic",
			Fix:   "check for several publishers with different clocks, or a reset clock"},
		Detect: func(t *tally) []rules.Finding {
			return fieldFindings(t, func(f *fieldTally) (counter, string) {
				return f.backwards, "stamps going backwards within the topic"
			}, false)
		},
	}, nil)
}
