package doctor

import (
	"fmt"
	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
)

// CodeClockStall: a clock writer's value stood still while its messages kept coming.
const CodeClockStall rules.Code = "clock_stall"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeClockStall, Severity: rules.Warning,
			Title: "/clock kept coming but its value stood still (a paused simulator or bag player): sim time did not advance",
			Fix:   "unpause the simulator or ros2 bag play if that was not meant; nodes on sim time do nothing while it is paused"},
		Detect: clockStalls,
	})
}

// clockStalls: messages kept coming while the value stood still.
func clockStalls(a *analysis) []rules.Finding {
	var out []rules.Finding
	for _, cw := range a.clockRows {
		if cw.Pauses == 0 {
			continue
		}
		e, _ := firstEvent(cw, clockstream.Pause)
		msg := fmt.Sprintf("%s from %s stood still at %s from %s (at least %s s) while messages kept coming",
			cw.Topic, cw.Node, units.Value(e.From), at(e.At), units.Span(e.Length))
		if cw.Pauses > 1 {
			msg += fmt.Sprintf(" (%d pauses in all)", cw.Pauses)
		}
		out = append(out, finding(cw.Node, cw.Topic, msg))
	}
	return out
}
