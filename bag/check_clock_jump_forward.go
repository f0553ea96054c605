package bag

import (
	"fmt"

	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
)

// CodeClockJump: /clock jumps forward by more than the analyser's JumpSteps steps per period (clockstream's forward jump).
const CodeClockJump rules.Code = "clock_jump_forward"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeClockJump, Severity: rules.Warning, Rules: []rules.ID{rules.R22, rules.R23},
			Title: "/clock jumps forward by more than 10 steps per period",
			Fix:   "due timers fire at once after a jump; make callbacks robust to large dt"},
		Detect: func(t *tally) []rules.Finding {
			c := t.clock.report
			return clockFinding(c.ForwardJumps, t.clock.forward, fmt.Sprintf(
				"/clock jumps forward by more than %d steps of %s s per period: due timers fire at once", t.clockConfig().JumpSteps, units.Span(c.StepNS)))
		},
	}, nil)
}
