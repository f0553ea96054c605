package doctor

import (
	"fmt"

	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
)

// CodeWallStamps: a node stamps with wall time in a sim-time graph.
const CodeWallStamps rules.Code = "wall_stamps"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeWallStamps, Severity: rules.Error, Rules: []rules.ID{rules.R16, rules.R26},
			Title: "a node stamps messages with wall time while the graph runs on sim time",
			Fix:   "set use_sim_time true on the publishing node, and stamp with the node's clock (node.now(), get_clock().now()), not the system clock"},
		Detect: wallStamps,
	})
}

// wallStamps: per topic and writer, wall stamps while /clock is published.
func wallStamps(a *analysis) []rules.Finding {
	if len(a.clockWriters) == 0 {
		return nil
	}
	var out []rules.Finding
	for _, s := range a.stampedWriters() {
		if s.tf {
			continue // per transform: check_tf_*.go
		}
		if c := s.stamps.Counts[Wall]; c > 0 {
			ex := s.stamps.Example[Wall]
			out = append(out, finding(s.who, s.topic,
				fmt.Sprintf("%s stamps %s with wall time: %d of %d stamps (e.g. %s, wall clock %s) while /clock from %s is at sim time",
					s.who, s.topic, c, s.stamps.Counts.Total(), units.Value(ex.Stamp), units.Value(ex.Ref), a.clockSources())))
		}
	}
	return out
}
