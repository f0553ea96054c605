package doctor

import (
	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/rules"
)

// CodeClockJumpForward: a clock writer's value jumped forward beyond its step.
const CodeClockJumpForward rules.Code = "clock_jump_forward"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeClockJumpForward, Severity: rules.Warning, Rules: []rules.ID{rules.R22, rules.R23},
			Title: "/clock jumped forward during the audit, beyond its usual step",
			Fix:   "a jump fires every timer that fell due at once; check the simulator (a seek, a reset, a stall it caught up on)"},
		Detect: clockJumpsForward,
	})
}

// clockJumpsForward: a value far ahead of the usual step.
func clockJumpsForward(a *analysis) []rules.Finding {
	return jumps(a, clockstream.ForwardJump, "jumped forward", func(cw ClockWriter) int { return cw.ForwardJumps })
}
