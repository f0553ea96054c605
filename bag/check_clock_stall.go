package bag

import (
	"fmt"

	"github.com/simclock/simclock/rules"
)

// CodeClockStall: the /clock value stands still for more than N periods (clockstream's pause).
const CodeClockStall rules.Code = "clock_stall"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeClockStall, Severity: rules.Warning,
			Title: "/clock pauses: the value stands still for more than N periods",
			Fix:   "expect sim timers to stop while paused; nodes must not treat it as a fault"},
		Detect: func(t *tally) []rules.Finding {
			return clockFinding(t.clock.report.Pauses, t.clock.pauses, fmt.Sprintf(
				"/clock pauses: the value stands still for more than %d periods: sim timers stop while paused", t.clockConfig().Periods))
		},
	}, nil)
}
