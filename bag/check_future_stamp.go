package bag

import (
	"fmt"

	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
)

// CodeFutureStamp: stamps ahead of the bag's clock by more than --future-tolerance.
const CodeFutureStamp rules.Code = "future_stamp"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeFutureStamp, Severity: rules.Warning,
			Title: "stamps ahead of the reference by more than the future tolerance",
			Fix:   "check clock sync between hosts, or stamps computed ahead of time"},
		Detect: func(t *tally) []rules.Finding {
			tol := units.Span(t.opts.FutureTolerance)
			return fieldFindings(t, func(f *fieldTally) (counter, string) {
				ref := f.ref(t)
				lead := units.Span(f.report(t).MaxLeadNS)
				if t.clock.seen {
					return ref.future, fmt.Sprintf("stamps ahead of the latest /clock by more than %s s (max %s s)", tol, lead)
				}
				return ref.future, fmt.Sprintf("stamps ahead of the log time by more than %s s (max %s s): clock skew between hosts?", tol, lead)
			}, false)
		},
	}, nil)
}
