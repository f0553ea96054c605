package lint

import (
	"fmt"

	"github.com/simclock/simclock/rules"
)

func init() {
	register(Rule{
		ID:       rules.R16,
		Name:     "use-sim-time-spelling",
		Summary:  "misspelt use_sim_time parameter name (code, YAML parameter files, XML launch files)",
		Severity: rules.Error,
		Fixable:  true,
		Fix:      "write use_sim_time",
		Help: "Only the parameter named exactly use_sim_time switches a node to /clock; any other spelling sets an " +
			"unrelated parameter and is ignored, so the node silently stamps with wall time. Write use_sim_time; " +
			"--fix corrects the spelling.",
		detector: detector{str: detectR16},
	})
}

// simTimeMisspellings are names people write for use_sim_time.
var simTimeMisspellings = map[string]bool{
	"use_simulated_time": true, "use_simulation_time": true, "use_simtime": true,
	"use_sim_times": true, "use_sime_time": true, "usesimtime": true, "use_sim_tim": true,
	"use_sim_time ": true, " use_sim_time": true,
}

// detectR16 reports a string that names a misspelt use_sim_time.
func detectR16(c *checker, s *expr) {
	if !simTimeMisspellings[s.name] || s.u == nil {
		return
	}
	var edits []Edit
	if s.content != nil {
		edits = []Edit{{Start: s.content.start, End: s.content.end, New: "use_sim_time"}}
	}
	fix := "write 'use_sim_time'"
	if s.u.lang == langYAML || s.u.lang == langXML {
		fix = "write use_sim_time"
	}
	c.report(s.u, s, rules.R16,
		fmt.Sprintf("parameter name %q is not use_sim_time: the node silently keeps wall time", s.name),
		"Only the use_sim_time parameter switches a node to /clock (R16); any other spelling declares or sets an unrelated parameter and is ignored.",
		fix, edits)
}
