package doctor

import "github.com/simclock/simclock/rules"

// CodeExpectSimTime: a node --expect sim_time=NODE names is missing, or not
// on sim time.
const CodeExpectSimTime rules.Code = "expect_sim_time"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeExpectSimTime, Severity: rules.Error, Rules: []rules.ID{rules.R16},
			Title: "a node expected on sim time (--expect sim_time=NODE) is missing, has no clock reader, or its reader hears no clock",
			Fix:   "start the node with use_sim_time true and the /clock QoS rclcpp uses; check the launch file brought it up"},
		Detect: func(a *analysis) []rules.Finding { return expectFindings(a, ExpectSimTime, true) },
	})
}

// expectFindings is a finding per unmet expectation of kind, about its
// subject as a node (byNode) or as a topic.
func expectFindings(a *analysis, kind string, byNode bool) []rules.Finding {
	var out []rules.Finding
	for _, r := range a.unmet(kind) {
		node, topic := r.Subject, r.topic
		if !byNode {
			node = ""
		}
		out = append(out, finding(node, topic, "--expect "+r.Expect+": "+r.Detail))
	}
	return out
}
