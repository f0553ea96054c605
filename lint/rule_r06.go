package lint

import "github.com/simclock/simclock/rules"

func init() {
	register(Rule{
		ID:       rules.R6,
		Name:     "clock-type-comparison",
		Summary:  "SYSTEM_TIME baseline (Time(), rclcpp::Time()) compared with ROS time",
		Severity: rules.Error,
		Fixable:  true,
		Fix:      "give the baseline the ROS clock type, or take it from the node clock's now()",
		Help: "rclpy's Time() defaults to SYSTEM_TIME, as does rclcpp::Time(), while a node clock's now() is ROS_TIME. " +
			"Comparing times of different clock types raises in rclpy and throws std::runtime_error in rclcpp. " +
			"Give the baseline the ROS clock type or take it from now(); --fix adds the clock type.",
		detector: detector{expr: detectR6},
	})
}

// detectR6 reports a SYSTEM_TIME value compared with a ROS_TIME one, with
// R5's checkClockTypes (rule_r05.go).
func detectR6(c *checker, e *expr, f *fn, conds []cond) {
	if e.kind == eCompare {
		c.checkClockTypes(e, f, conds)
	}
}
