package lint

func init() {
	register(Rule{
		ID:      "R7",
		Name:    "duration-positional-args",
		Summary: "rclpy Duration() called with positional arguments (keyword-only)",
		Level:   LevelError,
		Fixable: true,
		Help: "rclpy.duration.Duration(*, seconds=0, nanoseconds=0) takes keyword arguments only, so Duration(1) raises TypeError. " +
			"Write Duration(seconds=1); seconds and nanoseconds add up. --fix adds the keywords.",
		detector: detector{expr: detectPositional("R7")}, // in rule_r02.go
	})
}
