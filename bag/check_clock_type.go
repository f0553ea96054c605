package bag

import (
	"fmt"

	"github.com/simclock/simclock/rules"
	"github.com/simclock/simclock/timemsg"
)

// CodeClockType: /clock carries another type than rosgraph_msgs/msg/Clock.
const CodeClockType rules.Code = "clock_type"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeClockType, Severity: rules.Error, Rules: []rules.ID{rules.R9},
			Title: "/clock carries another type than rosgraph_msgs/msg/Clock",
			Fix:   "publish rosgraph_msgs/msg/Clock on /clock"},
		Detect: func(t *tally) []rules.Finding {
			var out []rules.Finding
			for _, tt := range t.sortedTopics() {
				if tt.isClock && !tt.clockType && tt.rep.Messages > 0 {
					out = append(out, rules.Finding{Subject: rules.Subject{Topic: tt.rep.Topic}, Count: tt.rep.Messages,
						Message: fmt.Sprintf("/clock carries %s, not %s", tt.rep.Type, timemsg.ClockTypeName)})
				}
			}
			return out
		},
	}, nil)
}
