package bag

import (
	"fmt"

	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
)

// CodeClockGap: no /clock message for more than N periods of log time (clockstream's gap).
const CodeClockGap rules.Code = "clock_gap"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeClockGap, Severity: rules.Warning,
			Title: "/clock gaps: no message for more than N periods of log time",
			Fix:   "check the simulator and the recorder for hangs or dropped /clock (QoS, CPU load)"},
		Detect: func(t *tally) []rules.Finding {
			c := t.clock.report
			return clockFinding(c.Gaps, t.clock.gaps, fmt.Sprintf("/clock gaps: no message for more than %d periods of %s s",
				t.clockConfig().Periods, units.Span(c.PeriodNS)))
		},
	}, nil)
}
