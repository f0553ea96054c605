package simclock

import (
	"errors"
	"fmt"
	"time"
)

// A JumpThreshold selects which jumps a callback sees (R12). Zero disables
// a bound: MinForward 0 means no forward-jump callbacks, MinBackward 0 no
// backward-jump callbacks. Both bounds are inclusive.
type JumpThreshold struct {
	// OnClockChange selects ROS-time activation and deactivation.
	OnClockChange bool
	// MinForward selects forward jumps of at least this much; it must be
	// >= 0.
	MinForward time.Duration
	// MinBackward selects backward jumps of at least this much; it must be
	// <= 0 (a backward jump of 2 s has delta -2 s).
	MinBackward time.Duration
}

// AnyJump is the threshold rcl gives ROS-clock timers: every clock change
// and every jump of at least 1 ns either way (R22).
var AnyJump = JumpThreshold{OnClockChange: true, MinForward: 1, MinBackward: -1}

// Validate returns ErrInvalidThreshold when MinForward < 0 or
// MinBackward > 0.
func (th JumpThreshold) Validate() error {
	if th.MinForward < 0 {
		return fmt.Errorf("simclock: forward jump threshold %v must be positive or zero: %w", th.MinForward, ErrInvalidThreshold)
	}
	if th.MinBackward > 0 {
		return fmt.Errorf("simclock: backward jump threshold %v must be negative or zero: %w", th.MinBackward, ErrInvalidThreshold)
	}
	return nil
}

// matches is rcl's callback selection (R13, R14): clock changes when
// OnClockChange; otherwise forward and backward jumps past their bounds.
func (th JumpThreshold) matches(j TimeJump) bool {
	if j.ClockChange == ROSTimeActivated || j.ClockChange == ROSTimeDeactivated {
		return th.OnClockChange
	}
	return (th.MinBackward < 0 && j.Delta <= th.MinBackward) ||
		(th.MinForward > 0 && j.Delta >= th.MinForward)
}

// A TimeJump describes one change of a ROS clock: what changed and by how
// much. Delta is new minus old; it is always 0 for activation and
// deactivation, even though the time read changes epoch (rcl's rule).
type TimeJump struct {
	ClockChange ClockChange
	Delta       time.Duration
}

// JumpCallbacks are called around a jump: Pre before the clock changes,
// Post after. Either may be nil, not both. They run on the goroutine that
// changed the clock, one jump at a time; they may read the clock and
// register or remove callbacks, but must not change the override of the
// same clock, or of a clock sharing its cell (ROSClock.Share): that would
// deadlock.
type JumpCallbacks struct {
	Pre  func(TimeJump)
	Post func(TimeJump)
}

var errNoCallback = errors.New("simclock: one of the pre and post jump callbacks must be set")

type jumpHandler struct {
	threshold JumpThreshold
	callbacks JumpCallbacks
}
