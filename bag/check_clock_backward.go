package bag

import (
	"github.com/simclock/simclock/rules"
)

// CodeClockBackward: /clock jumps backwards (clockstream's backward jump).
const CodeClockBackward rules.Code = "clock_backward"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeClockBackward, Severity: rules.Error, Rules: []rules.ID{rules.R14, rules.R22},
			Title: "/clock goes back (looped or restarted recording)",
			Fix:   "record one run per bag; nodes must handle the time jump (reset timers and filters)"},
		Detect: func(t *tally) []rules.Finding {
			return clockFinding(t.clock.report.BackwardJumps, t.clock.backward,
				"/clock jumps backwards (a looped or restarted recording): ROS timers reset and dt goes negative")
		},
	}, nil)
}
