package lint

import (
	"fmt"
	"slices"
	"strings"
)

// Distros are the ROS 2 distributions --ros-distro accepts, oldest first.
var Distros = []string{"humble", "jazzy", "kilted", "rolling"}

// DefaultDistro is the distribution findings are worded for when none is
// given: the current long-term release.
const DefaultDistro = "jazzy"

// ParseDistro checks a distribution name ("" means DefaultDistro).
func ParseDistro(s string) (string, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return DefaultDistro, nil
	}
	if !slices.Contains(Distros, s) {
		return "", fmt.Errorf("%w \"%s\" (known: %s)", ErrUnknownDistro, s, strings.Join(Distros, ", "))
	}
	return s, nil
}

// rclcppThrowsOnNegative reports whether the distribution's rclcpp throws
// when a Time would become negative. rclcpp 28.2.0 (ros2/rclcpp#2510) added
// the check to the int64 constructor that Time - Duration and -= go
// through; Humble (16.x) and Jazzy (28.1.x) predate it and store the
// negative value silently. Kilted (29.x) and Rolling have it.
func rclcppThrowsOnNegative(distro string) bool {
	return distro == "kilted" || distro == "rolling"
}

// negativeOutcome says, in the finding's words, what now() - W below 0 does
// in the file's client library on the chosen distribution.
func negativeOutcome(u *unit, distro string) string {
	if u.lang == langPython {
		return "rclpy raises ValueError 'Subtraction leads to negative time.'"
	}
	if rclcppThrowsOnNegative(distro) {
		return fmt.Sprintf("rclcpp on %s (28.2 and later) throws std::runtime_error 'cannot store a negative time point in rclcpp::Time'", distroTitle(distro))
	}
	return fmt.Sprintf("rclcpp on %s (before 28.2) silently gives a negative Time; Kilted and Rolling throw", distroTitle(distro))
}

func distroTitle(d string) string {
	if d == "" {
		d = DefaultDistro
	}
	return strings.ToUpper(d[:1]) + d[1:]
}
