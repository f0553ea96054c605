package bag

import (
	"fmt"

	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
)

// CodeTimeBase: stamps farther than --base-tolerance from the bag's clock: the latest /clock, or the log time in a bag without /clock (a warning for Time fields that are not stamps).
const CodeTimeBase rules.Code = "time_base_mismatch"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeTimeBase, Severity: rules.Error, Rules: []rules.ID{rules.R3, rules.R30},
			Title: "stamps on another time base than the bag's clock (wall stamps in a sim-time bag, or the reverse)",
			Fix:   "set use_sim_time the same on every node, the recorder included"},
		Detect: func(t *tally) []rules.Finding {
			tol := units.Span(t.opts.BaseTolerance)
			return fieldFindings(t, func(f *fieldTally) (counter, string) {
				c := f.ref(t).offBase
				if !t.clock.seen {
					return c, fmt.Sprintf("stamps more than %s s from the recorder's log time: sim-time stamps in a wall-clock bag, or clock skew", tol)
				}
				what := "on another time base than /clock"
				if len(c.ex) > 0 && c.ex[0].Detail != "" {
					what = "system (wall) time stamps in a sim-time bag"
				}
				return c, fmt.Sprintf("%s: more than %s s from the latest /clock", what, tol)
			}, true)
		},
	}, nil)
}
