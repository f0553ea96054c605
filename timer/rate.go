package timer

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/simclock/simclock"
)

// ErrBadRate rejects a rate or period that is not positive.
var ErrBadRate = errors.New("rate must be greater than 0")

// A Rate paces a loop at a fixed period on any clock, with rclcpp's
// algorithm (rate.cpp): when a call to Sleep comes late it returns at once
// instead of sleeping, and after missing more than a whole cycle it
// re-phases from now rather than bursting. On a ROS clock with sim time
// it sleeps in ROS time. A Rate is not safe for concurrent use.
type Rate[K simclock.Kind] struct {
	clock  simclock.Clock[K]
	period time.Duration
	last   int64
}

// NewRate returns a rate of hz cycles per second on clock, starting now.
func NewRate[K simclock.Kind](clock simclock.Clock[K], hz float64) (*Rate[K], error) {
	if !(hz > 0) {
		return nil, fmt.Errorf("timer: rate %v Hz: %w", hz, ErrBadRate)
	}
	period, err := simclock.DurationOf(1/hz, 0)
	if err != nil || period <= 0 {
		return nil, fmt.Errorf("timer: rate %v Hz: %w", hz, ErrBadRate)
	}
	return NewRateEvery(clock, period)
}

// NewRateEvery returns a rate with the given period on clock.
func NewRateEvery[K simclock.Kind](clock simclock.Clock[K], period time.Duration) (*Rate[K], error) {
	if period <= 0 {
		return nil, fmt.Errorf("timer: period %v: %w", period, ErrBadRate)
	}
	return &Rate[K]{clock: clock, period: period, last: clock.Now().Nanoseconds()}, nil
}

// Period returns the rate's period.
func (r *Rate[K]) Period() time.Duration { return r.period }

// Reset restarts the cycle from now.
func (r *Rate[K]) Reset() { r.last = r.clock.Now().Nanoseconds() }

// Sleep waits until the end of the current cycle. It reports false,
// without sleeping, when the cycle had already ended. Errors come from
// the clock's SleepUntil: ctx done, or a ROS clock's time source change.
//
// A done ctx is checked first, before the cycle is counted: a loop that
// runs behind schedule (every Sleep late, none sleeping) still sees its
// cancellation, as an rclcpp loop sees rclcpp::ok() turn false and an
// rclpy Rate.sleep raises ROSInterruptException on a shut-down context.
func (r *Rate[K]) Sleep(ctx context.Context) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("timer: rate sleep: %w", err)
	}
	now := r.clock.Now().Nanoseconds()
	period := int64(r.period)
	next := deadline(r.last, period)
	if now < r.last {
		// Time went backwards: start the cycle again from now.
		next = deadline(now, period)
	}
	r.last = deadline(r.last, period) // rclcpp: last += period, even after a backward jump
	if next <= now {
		if now > deadline(next, period) {
			r.last = deadline(now, period)
		}
		return false, nil
	}
	until, err := simclock.TimeFromNanoseconds[K](next)
	if err != nil {
		return false, err
	}
	if err := r.clock.SleepUntil(ctx, until); err != nil {
		return false, err
	}
	return true, nil
}
