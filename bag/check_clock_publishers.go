package bag

import (
	"fmt"

	"github.com/simclock/simclock/rules"
)

// CodeClockPublishers: /clock had more than one publisher when recorded (its channel's offered QoS profiles).
const CodeClockPublishers rules.Code = "clock_publishers"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeClockPublishers, Severity: rules.Warning, Rules: []rules.ID{rules.R18},
			Title: "/clock had several publishers when recorded",
			Fix:   "run one /clock publisher (one simulator, no bag play --clock beside it)"},
		Detect: func(t *tally) []rules.Finding {
			var out []rules.Finding
			for _, tt := range t.sortedTopics() {
				if n := tt.rep.Publishers; tt.isClock && n > 1 {
					out = append(out, rules.Finding{Subject: rules.Subject{Topic: tt.rep.Topic}, Count: int64(n),
						Message: fmt.Sprintf("/clock had %d publishers when recorded: more than one is a fault", n)})
				}
			}
			return out
		},
	}, nil)
}
