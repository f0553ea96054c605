package bag

import (
	"fmt"

	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
)

// CodeWindowZero: stamps equal to the window W (--window): stamp − W is 0 (a warning for Time fields that are not stamps).
const CodeWindowZero rules.Code = "window_zero"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeWindowZero, Severity: rules.Error, Rules: []rules.ID{rules.R25, rules.R27, rules.R28},
			Title: "stamp − W is exactly 0: tf2 reads time 0 as latest",
			Fix:   "guard stamp − W until the stamp exceeds W"},
		Detect: func(t *tally) []rules.Finding {
			return fieldFindings(t, func(f *fieldTally) (counter, string) {
				return f.windowZero, fmt.Sprintf("stamp − %s s is exactly 0: tf2 reads time 0 as \"latest\"", units.Span(t.opts.Window))
			}, true)
		},
	}, nil)
}
