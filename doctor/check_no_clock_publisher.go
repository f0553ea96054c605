package doctor

import (
	"fmt"

	"github.com/simclock/simclock/rules"
)

// CodeNoClockPublisher: nodes read /clock and nobody publishes it.
const CodeNoClockPublisher rules.Code = "no_clock_publisher"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeNoClockPublisher, Severity: rules.Error, Rules: []rules.ID{rules.R10, rules.R16},
			Title: "nodes read /clock but nobody publishes it, so their time stays 0",
			Fix:   "start the simulator (or its /clock bridge, or ros2 bag play --clock), or set use_sim_time false on these nodes"},
		Detect: noClockPublisher,
	})
}

// noClockPublisher: clock readers and no clock writer at all; one finding
// per node.
func noClockPublisher(a *analysis) []rules.Finding {
	if len(a.clockWriters) > 0 {
		return nil
	}
	var out []rules.Finding
	seen := map[string]bool{}
	for _, r := range a.clockReaders {
		who := a.who(r)
		if seen[who] {
			continue
		}
		seen[who] = true
		topic := rosTopicOr(r.DDSTopic)
		out = append(out, finding(who, topic,
			fmt.Sprintf("%s uses sim time (it reads %s) but nobody publishes a clock: its time stays 0, its ROS timers never fire", who, topic)))
	}
	return out
}
