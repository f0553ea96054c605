package simclock

import "fmt"

// ClockType names the clock a time belongs to, with rcl's values (R1). Its
// zero value is Uninitialized, which no valid time carries.
type ClockType uint8

// The clock types of rcl_clock_type_e.
const (
	Uninitialized ClockType = iota
	ROSTime
	SystemTime
	SteadyTime
)

// String returns rcl's name, such as "ROS_TIME".
func (c ClockType) String() string {
	switch c {
	case Uninitialized:
		return "UNINITIALIZED"
	case ROSTime:
		return "ROS_TIME"
	case SystemTime:
		return "SYSTEM_TIME"
	case SteadyTime:
		return "STEADY_TIME"
	}
	return fmt.Sprintf("ClockType(%d)", uint8(c))
}

// Valid reports whether c is ROS, system or steady time.
func (c ClockType) Valid() bool { return c >= ROSTime && c <= SteadyTime }

// ClockChange says what kind of jump a jump callback sees (R13, R14), with
// rcl's values.
type ClockChange uint8

// The clock changes of rcl_clock_change_e. rcl never produces
// SystemTimeNoChange.
const (
	ROSTimeNoChange    ClockChange = 1
	ROSTimeActivated   ClockChange = 2
	ROSTimeDeactivated ClockChange = 3
	SystemTimeNoChange ClockChange = 4
)

// String returns rcl's name, such as "ROS_TIME_ACTIVATED".
func (c ClockChange) String() string {
	switch c {
	case ROSTimeNoChange:
		return "ROS_TIME_NO_CHANGE"
	case ROSTimeActivated:
		return "ROS_TIME_ACTIVATED"
	case ROSTimeDeactivated:
		return "ROS_TIME_DEACTIVATED"
	case SystemTimeNoChange:
		return "SYSTEM_TIME_NO_CHANGE"
	}
	return fmt.Sprintf("ClockChange(%d)", uint8(c))
}

// A Kind is a clock kind used as a type parameter: ROS, System or Steady.
// Times of different kinds have different types, so mixing them does not
// compile.
type Kind interface {
	ROS | System | Steady
	// ClockType returns the run-time clock type of the kind.
	ClockType() ClockType
}

// ROS is the kind of ROS time: system time, or sim time from /clock while
// the override is enabled.
type ROS struct{}

// System is the kind of OS wall-clock time, which may jump.
type System struct{}

// Steady is the kind of monotonic time.
type Steady struct{}

// ClockType returns ROSTime.
func (ROS) ClockType() ClockType { return ROSTime }

// ClockType returns SystemTime.
func (System) ClockType() ClockType { return SystemTime }

// ClockType returns SteadyTime.
func (Steady) ClockType() ClockType { return SteadyTime }

func kindOf[K Kind]() ClockType {
	var k K
	return k.ClockType()
}
