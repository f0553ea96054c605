package bag

import (
	"fmt"

	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
)

// CodeClockWindow: /clock values at or below the window W (--window).
const CodeClockWindow rules.Code = "clock_window"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeClockWindow, Severity: rules.Error, Rules: []rules.ID{rules.R25, rules.R27},
			Title: "/clock values at or below the window W: now − W is negative or zero",
			Fix:   "guard now() − W until now() > W, or start the simulation after W"},
		Detect: func(t *tally) []rules.Finding {
			c := &t.clock
			return clockFinding(c.windowNegative.n+c.windowZero.n, append(c.windowNegative.ex, c.windowZero.ex...),
				fmt.Sprintf("/clock values at or below the window %s s: now − W is negative or zero at these times", units.Span(t.opts.Window)))
		},
	}, nil)
}
