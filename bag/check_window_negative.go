package bag

import (
	"fmt"

	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
)

// CodeWindowNegative: stamps below the window W (--window): stamp − W is negative (a warning for Time fields that are not stamps).
const CodeWindowNegative rules.Code = "window_negative"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeWindowNegative, Severity: rules.Error, Rules: []rules.ID{rules.R4, rules.R27},
			Title: "stamp − W is negative: rclpy raises",
			Fix:   "guard stamp − W until the stamp exceeds W"},
		Detect: func(t *tally) []rules.Finding {
			return fieldFindings(t, func(f *fieldTally) (counter, string) {
				return f.windowNegative, fmt.Sprintf("stamp − %s s is negative: rclpy raises \"Subtraction leads to negative time\"", units.Span(t.opts.Window))
			}, true)
		},
	}, nil)
}
