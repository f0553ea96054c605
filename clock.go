package simclock

import (
	"context"
	"fmt"
	"time"
)

// A Clock reports the current time of one clock kind and sleeps on it.
// SystemClock, SteadyClock, ROSClock and the fakes of package clocktest
// implement it.
type Clock[K Kind] interface {
	// Now returns the current time.
	Now() Time[K]
	// SleepUntil blocks until Now() >= t and returns nil, or returns early
	// with ctx's error (wrapped) when ctx is done. A ROS clock also
	// returns ErrTimeSourceChanged (R15). The context is checked first, as
	// rclcpp and rclpy check theirs: a done ctx is an error even when t
	// has already passed.
	SleepUntil(ctx context.Context, t Time[K]) error
}

// SystemClock is the OS wall clock (R10): Unix nanoseconds, which may jump
// when the OS clock is set. Its zero value is ready to use.
type SystemClock struct{}

// Now returns the current wall-clock time.
func (SystemClock) Now() Time[System] { return Time[System]{ns: time.Now().UnixNano()} }

// SleepUntil blocks until the wall clock reaches t or ctx is done.
func (c SystemClock) SleepUntil(ctx context.Context, t Time[System]) error {
	return sleepUntil(ctx, func() int64 { return c.Now().ns }, t.ns)
}

// SteadyClock is a monotonic clock (R10). Its epoch is fixed per process
// and arbitrary, so steady times from different processes do not compare.
// Its zero value is ready to use.
type SteadyClock struct{}

// steadyBase anchors the steady clock. Reading 1 s at process start keeps
// steady times positive, so a steady clock is always "started" (R11).
var steadyBase = time.Now().Add(-time.Second)

// Now returns the current monotonic time.
func (SteadyClock) Now() Time[Steady] { return Time[Steady]{ns: int64(time.Since(steadyBase))} }

// SleepUntil blocks until the steady clock reaches t or ctx is done.
func (c SteadyClock) SleepUntil(ctx context.Context, t Time[Steady]) error {
	return sleepUntil(ctx, func() int64 { return c.Now().ns }, t.ns)
}

// sleepUntil waits on a Go timer, re-reading now after each wake-up so a
// wall clock that was set meanwhile is honoured. A done ctx fails first.
func sleepUntil(ctx context.Context, now func() int64, until int64) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("simclock: sleep: %w", err)
	}
	var timer *time.Timer
	for {
		left := time.Duration(until - now())
		if left <= 0 {
			if timer != nil {
				timer.Stop()
			}
			return nil
		}
		if timer == nil {
			timer = time.NewTimer(left)
		} else {
			timer.Reset(left)
		}
		select {
		case <-ctx.Done():
			timer.Stop()
			return fmt.Errorf("simclock: sleep: %w", ctx.Err())
		case <-timer.C:
		}
	}
}
