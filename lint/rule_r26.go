package lint

import (
	"fmt"

	"github.com/simclock/simclock/rules"
)

func init() {
	register(Rule{
		ID:       rules.R26,
		Name:     "window-in-constructor",
		Summary:  "now() - Duration computed in a Node constructor, where now() is 0 under sim time",
		Severity: rules.Error,
		Fix:      "compute the window in a callback that runs after the clock has started",
		Help: "A Node's constructor runs before the first /clock message, so under use_sim_time its clock's now() is 0 " +
			"whatever time the simulator starts at, and now() - W is negative: rclpy raises ValueError, rclcpp on " +
			"Humble and Jazzy silently stores a negative Time. Compute the window in a callback that runs once the clock has started.",
		SimTimeOnly: true,
		detector:    detector{expr: detectR26},
	})
}

// detectR26 reports a window subtraction (see isWindowSub) without a
// correct guard in the constructor of a Node subclass.
func detectR26(c *checker, e *expr, f *fn, _ []cond) {
	if !f.ctor || f.cls == nil || !f.cls.isNode || !c.unguardedWindow(e, f) {
		return
	}
	outcome := negativeOutcome(f.u, c.distro)
	fd := c.reportSimTimeOnly(f.u, e, rules.R26,
		fmt.Sprintf("\"%s\" is computed in the constructor of Node subclass %s, where now() is 0 under sim time: %s", e.text(), f.cls.name, outcome),
		"Constructors run before the first /clock, so now() returns 0 whatever time the simulator starts at (R26): 0 - W is negative ("+outcome+").",
		"compute the window in a callback that runs after the clock has started, and "+windowFix(f.u), nil)
	if fd != nil && c.silentNegative(f) {
		fd.Severity = rules.Info // stored silently: what it does depends on where it goes
	}
}
