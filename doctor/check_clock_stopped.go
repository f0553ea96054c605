package doctor

import (
	"fmt"

	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
)

// CodeClockStopped: a clock writer stopped during the audit.
const CodeClockStopped rules.Code = "clock_stopped"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeClockStopped, Severity: rules.Error, Rules: []rules.ID{rules.R16},
			Title: "a /clock writer stopped publishing during the audit: sim time stands still for every node on it",
			Fix:   "check the simulator or bag player: it crashed, hung or was stopped; nodes on sim time wait (timers do not fire) until /clock comes back"},
		Detect: clockStopped,
	})
}

// clockStopped: a writer that published and has been silent longer than a
// gap when the report is made, whether it is still in the graph or left.
func clockStopped(a *analysis) []rules.Finding {
	var out []rules.Finding
	for _, cw := range a.clockRows {
		if cw.Msgs == 0 || cw.LastMsg == nil || (cw.Silence == 0 && !cw.Left) {
			continue
		}
		last := "no valid value"
		if cw.SimNs != nil {
			last = "last value " + cw.SimTime
		}
		msg := fmt.Sprintf("%s from %s stopped %s (%s, after %d messages at %.1f Hz)",
			cw.Topic, cw.Node, at(*cw.LastMsg), last, cw.Msgs, cw.RateHz)
		if cw.Silence > 0 {
			msg += fmt.Sprintf(" and has been silent for %s s", units.Span(cw.Silence))
		}
		if cw.Left {
			msg += "; the writer has left the graph"
		}
		msg += ": sim time stands still for every node on it"
		out = append(out, finding(cw.Node, cw.Topic, msg))
	}
	return out
}
