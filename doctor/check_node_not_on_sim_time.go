package doctor

import (
	"fmt"
	"slices"

	"github.com/simclock/simclock/rules"
)

// CodeNodeNotOnSimTime: in a graph on sim time, a node with no /clock
// reader runs on wall time.
const CodeNodeNotOnSimTime rules.Code = "node_not_on_sim_time"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeNodeNotOnSimTime, Severity: rules.Error, Rules: []rules.ID{rules.R16},
			Title: "a node has no /clock reader in a graph that runs on sim time, so it runs on wall time",
			Fix:   "start the node with use_sim_time true: --ros-args -p use_sim_time:=true, or parameters=[{'use_sim_time': True}] in the launch file"},
		Detect: nodeNotOnSimTime,
	})
}

// nodeNotOnSimTime: in a sim-time graph, a node with no reader of a clock
// topic that does not publish one itself (a simulator, bag play, a bridge)
// and is not hidden (ros2 daemon, tools).
func nodeNotOnSimTime(a *analysis) []rules.Finding {
	if !a.simGraph() {
		return nil
	}
	why := "nodes follow /clock"
	if len(a.clockWriters) > 0 {
		why = "/clock is published by " + a.clockSources()
		if t := a.clockTopics(); len(t) > 1 || t[0] != ClockDDSTopic {
			why = "clocks are published (" + a.describeClocks() + ")"
		}
	}
	var out []rules.Finding
	for _, n := range a.snap.Nodes {
		if n.Hidden() {
			continue
		}
		if slices.ContainsFunc(n.Readers, isClockEndpoint) || slices.ContainsFunc(n.Writers, isClockEndpoint) {
			continue
		}
		out = append(out, finding(n.FullName(), "/clock",
			fmt.Sprintf("%s has no /clock reader while %s: it runs on wall time (use_sim_time is false)", n.FullName(), why)))
	}
	return out
}
