package doctor

import (
	"fmt"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
)

// CodeClockGap: a clock writer went silent, then resumed.
const CodeClockGap rules.Code = "clock_gap"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeClockGap, Severity: rules.Warning, Rules: []rules.ID{rules.R22},
			Title: "/clock went silent during the audit, then resumed: nodes on sim time froze meanwhile",
			Fix:   "check the simulator's load and its real-time factor: a simulator that cannot keep up publishes /clock in bursts"},
		Detect: clockGaps,
	})
}

// clockGaps: silences that ended during the audit.
func clockGaps(a *analysis) []rules.Finding {
	var out []rules.Finding
	for _, cw := range a.clockRows {
		if cw.Gaps == 0 {
			continue
		}
		e, _ := firstEvent(cw, clockstream.Gap)
		msg := fmt.Sprintf("%s from %s went silent for %s s from %s, then resumed", cw.Topic, cw.Node, units.Span(e.Length), at(e.At))
		if cw.Gaps > 1 {
			msg += fmt.Sprintf(" (%d gaps in all)", cw.Gaps)
		}
		out = append(out, finding(cw.Node, cw.Topic, msg))
	}
	return out
}
