package simclock

import (
	"errors"
	"fmt"
)

// Errors returned by simclock's values and clocks. Match them with
// errors.Is; arithmetic on the hot path returns them bare.
var (
	// ErrNegativeTime reports a time that would be below 0 ns: negative
	// construction inputs (R2) or a subtraction past zero, rclpy's
	// "Subtraction leads to negative time." (R4).
	ErrNegativeTime = errors.New("negative time")
	// ErrOverflow reports a value that does not fit in int64 nanoseconds
	// (R2, R4, R7).
	ErrOverflow = errors.New("nanoseconds overflow int64")
	// ErrOutOfRange reports a value that cannot be represented where it is
	// going, such as a message sec field outside int32 (R8) or a NaN input.
	ErrOutOfRange = errors.New("value out of range")
	// ErrClockTypeMismatch reports an operation between times of different
	// clock types (R5, R6). The error is a *ClockTypeError naming both.
	ErrClockTypeMismatch = errors.New("different clock types")
	// ErrInvalidThreshold reports a jump threshold with min_forward < 0 or
	// min_backward > 0 (R12).
	ErrInvalidThreshold = errors.New("invalid jump threshold")
	// ErrTimeSourceChanged reports a sleep that ended because the ROS-time
	// override was enabled or disabled while it waited (R15).
	ErrTimeSourceChanged = errors.New("time source changed during sleep")
)

// A ClockTypeError reports an operation between times of different clock
// types. It unwraps to ErrClockTypeMismatch.
type ClockTypeError struct {
	Op          string // "subtract", "compare", ...
	Left, Right ClockType
}

// Error names the operation and both clock types, as rclpy's TypeError does.
func (e *ClockTypeError) Error() string {
	return fmt.Sprintf("can't %s times with different clock types (%s and %s)", e.Op, e.Left, e.Right)
}

// Unwrap returns ErrClockTypeMismatch.
func (e *ClockTypeError) Unwrap() error { return ErrClockTypeMismatch }
