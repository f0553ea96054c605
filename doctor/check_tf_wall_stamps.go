package doctor

import (
	"fmt"

	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
)

// CodeTFWallStamps: a transform on /tf stamped with wall time in a
// sim-time graph.
const CodeTFWallStamps rules.Code = "tf_wall_stamps"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeTFWallStamps, Severity: rules.Error, Rules: []rules.ID{rules.R16, rules.R26},
			Title: "a node publishes a transform on /tf stamped with wall time while the graph runs on sim time",
			Fix: "set use_sim_time true on the node that broadcasts the transform (a driver, robot_state_publisher, a bridge) " +
				"and stamp transforms with its clock (now()), not the system clock"},
		Detect: tfWallStamps,
	})
}

// tfWallStamps: per transform and writer, wall stamps on a dynamic tf
// topic while a clock is published. A static transform's stamp does not
// matter to tf2.
func tfWallStamps(a *analysis) []rules.Finding {
	if len(a.clockWriters) == 0 {
		return nil
	}
	var out []rules.Finding
	for _, t := range a.tf {
		if t.Wall == 0 || t.Static {
			continue
		}
		ex := t.stamps.Example[Wall]
		out = append(out, finding(t.Publisher, t.Topic, fmt.Sprintf(
			"%s stamps the transform %s on %s with wall time: %d of %d stamps (e.g. %s, wall clock %s) while /clock "+
				"from %s is at sim time; tf2 listeners on sim time find it far ahead of every lookup "+
				"(\"Lookup would require extrapolation into the past\")",
			t.Publisher, t, t.Topic, t.Wall, t.Samples, units.Value(ex.Stamp), units.Value(ex.Ref), a.clockSources())))
	}
	return out
}
