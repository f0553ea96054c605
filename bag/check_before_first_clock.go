package bag

import (
	"github.com/simclock/simclock/rules"
)

// CodeBeforeFirstClock: messages recorded before the first valid /clock (bags with /clock only).
const CodeBeforeFirstClock rules.Code = "before_first_clock"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeBeforeFirstClock, Severity: rules.Warning, Rules: []rules.ID{rules.R16, rules.R26},
			Title: "messages recorded before the first /clock: their nodes saw now() == 0",
			Fix:   "start publishing after the first /clock, or wait for a valid clock"},
		Detect: func(t *tally) []rules.Finding {
			if !t.clock.seen {
				return nil
			}
			var out []rules.Finding
			for _, tt := range t.sortedTopics() {
				if c := tt.beforeClock; !tt.isClock && c.n > 0 {
					out = append(out, rules.Finding{Subject: rules.Subject{Topic: tt.rep.Topic}, Count: c.n,
						Message: "messages recorded before the first /clock: their nodes saw now() == 0", Examples: c.ex})
				}
			}
			return out
		},
	}, describeMessage)
}
