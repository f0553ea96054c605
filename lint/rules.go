package lint

import (
	"fmt"
	"slices"
	"strings"
)

// Level is how serious a finding is, with SARIF's names.
type Level string

// Levels. Notes are reported but do not fail a run (see Result.Failed).
const (
	LevelError   Level = "error"
	LevelWarning Level = "warning"
	LevelNote    Level = "note"
)

// Rule describes one check. IDs are the rule numbers of the ROS 2 time
// specification (docs: ../shared/spec/ros2-time.md); a check that guards
// against several rules uses the one whose failure it reports.
type Rule struct {
	ID      string
	Name    string // short kebab-case name, used in SARIF
	Summary string
	Level   Level
	// Fixable reports whether --fix can repair some findings mechanically.
	Fixable bool
}

// Rules lists every check, in rule-number order.
var Rules = []Rule{
	{"R2", "time-positional-args", "rclpy Time() called with positional arguments (keyword-only)", LevelError, true},
	{"R5", "clock-type-subtraction", "SYSTEM_TIME baseline (Time(), rclcpp::Time()) subtracted from or by ROS time", LevelError, true},
	{"R6", "clock-type-comparison", "SYSTEM_TIME baseline (Time(), rclcpp::Time()) compared with ROS time", LevelError, true},
	{"R7", "duration-positional-args", "rclpy Duration() called with positional arguments (keyword-only)", LevelError, true},
	{"R16", "use-sim-time-spelling", "misspelt use_sim_time parameter name (code, YAML parameter files, XML launch files)", LevelError, true},
	{"R26", "window-in-constructor", "now() - Duration computed in a Node constructor, where now() is 0 under sim time", LevelError, false},
	{"R27", "unguarded-window", "now() - Duration without a guard that skips now <= W", LevelWarning, false},
	{"R28", "lookup-time-zero", "tf2 lookup at a time that may be 0, or at an explicit Time(): tf2 reads 0 as latest", LevelWarning, false},
	{"R29", "constructor-baseline", "baseline taken from now() in a constructor, used in now() - prev without a prev <= 0 guard", LevelWarning, false},
}

// RuleByID returns the rule with the given ID (case-insensitive).
func RuleByID(id string) (Rule, bool) {
	for _, r := range Rules {
		if strings.EqualFold(r.ID, id) {
			return r, true
		}
	}
	return Rule{}, false
}

// ParseRules parses a comma-separated rule list such as "R27,R29". An empty
// string selects every rule.
func ParseRules(s string) ([]string, error) {
	var ids []string
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		r, ok := RuleByID(part)
		if !ok {
			known := make([]string, len(Rules))
			for i, r := range Rules {
				known[i] = r.ID
			}
			return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownRule, part, strings.Join(known, ","))
		}
		if !slices.Contains(ids, r.ID) {
			ids = append(ids, r.ID)
		}
	}
	return ids, nil
}
