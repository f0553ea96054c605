package doctor

import (
	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/rules"
)

// CodeClockBackward: a clock writer's value went back during the audit.
const CodeClockBackward rules.Code = "clock_backward"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeClockBackward, Severity: rules.Error, Rules: []rules.ID{rules.R14, rules.R22},
			Title: "/clock went back in time during the audit (a looped or restarted simulation or recording)",
			Fix:   "nodes see time jump back: tf2 buffers are cleared (\"Detected jump back in time\"), timers reset; restart the graph's nodes after a simulation reset, or do not loop playback"},
		Detect: clockBackward,
	})
}

// clockBackward: a valid value below the previous one.
func clockBackward(a *analysis) []rules.Finding {
	return jumps(a, clockstream.BackwardJump, "went back", func(cw ClockWriter) int { return cw.BackwardJumps })
}
