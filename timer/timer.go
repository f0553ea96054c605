// Package timer implements ROS 2 timers and rates with rcl's semantics
// (rcl/src/rcl/timer.c), to the nanosecond.
//
// A Timer belongs to a Queue, which schedules every timer of one clock in
// a heap ordered by next call time, so 100 000 timers cost O(log n) per
// call and O(1) per /clock update. The executor (package executor) asks
// each queue for its ready timers and calls them.
//
// # Semantics (R19-R24)
//
//   - A new timer's first call is due one period after creation:
//     last_call = now, next_call = now + period.
//   - It is ready when not canceled and now >= next_call.
//   - Call sets last_call = now and next_call += period, then skips whole
//     missed periods so next_call > now strictly (Jazzy; never a burst).
//     Period 0 makes next_call = now: always ready.
//   - Timers on a ROS clock follow its jumps: a forward jump past the
//     deadline wakes the executor once; a backward jump to before
//     last_call restarts a full period from the new now; enabling or
//     disabling sim time carries rcl's "credit" across the change (see
//     Queue's jump handling).
//   - Reset sets next_call = now + period and un-cancels; it does not
//     change last_call. Cancel stops calls until Reset. Destroy takes
//     the timer out of its queue for good (rclpy's destroy_timer).
//
// # Infinite periods
//
// rcl computes now + period in int64 (timer.c, rcl_timer_init2 and
// rcl_timer_reset). rclcpp's "never, until reset" idiom is a period of
// Duration::max() (INT32_MAX s + 999999999 ns, about 68 years), which
// keeps that sum inside int64 at any realistic now, so rcl never makes
// such a timer ready. A period of simclock.InfiniteDuration (2^63-1 ns,
// RMW_DURATION_INFINITE) would overflow rcl's sum, which C leaves
// undefined. simclock saturates every deadline computation instead: a
// deadline past the end of representable time is math.MaxInt64, which
// means "never". Such a timer is never ready, gives the executor no
// deadline to wait for (no busy loop, no jump of a virtual clock to the
// end of time), and keeps its never-deadline across clock jumps; Reset
// or ExchangePeriod followed by Reset brings it back.
package timer

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/simclock/simclock"
)

// Errors returned by timers.
var (
	// ErrCanceled is returned by Call on a canceled timer (rcl's
	// TIMER_CANCELED).
	ErrCanceled = errors.New("timer is canceled")
	// ErrNegativePeriod rejects a period below 0.
	ErrNegativePeriod = errors.New("timer period must be non-negative")
	// ErrNegativeNow reports a clock that reads below 0 at call time.
	ErrNegativeNow = errors.New("clock now returned negative time point value")
	// ErrDestroyed is returned by Call on a destroyed timer (rclpy raises
	// InvalidHandle, rcl returns TIMER_INVALID).
	ErrDestroyed = errors.New("timer is destroyed")
)

// Info describes one call: when it was due and when it ran, as times on
// the timer's clock, each carrying the clock's type. It is rclcpp's
// TimerInfo (rclcpp/include/rclcpp/timer.hpp: two rclcpp::Time on the
// timer's clock) and rclpy Rolling's TimerInfo (rclpy/timer.py), filled
// from rcl_timer_call_with_info (rcl/src/rcl/timer.c). For a Time of the
// clock's kind, use simclock.As:
//
//	due, err := simclock.As[simclock.ROS](info.ExpectedCallTime)
type Info struct {
	// ExpectedCallTime is the deadline the call was scheduled for (rcl's
	// next_call_time before the call), which a late call has passed.
	// rcl's arithmetic can put a deadline before the clock's epoch (a
	// period shortened with ExchangePeriod, then sim time switched on
	// while the ROS value is below the difference: R22's credit); a Time
	// is never negative, so Info reports such a deadline as 0. The timer
	// itself keeps rcl's value, and its phase.
	ExpectedCallTime simclock.AnyTime
	// ActualCallTime is the clock's reading when the call ran.
	ActualCallTime simclock.AnyTime
}

// anyTime returns ns on a clock of type ct, a negative ns as 0 (see
// Info). ct is the queue's, always valid.
func anyTime(ns int64, ct simclock.ClockType) simclock.AnyTime {
	t, _ := simclock.AnyTimeFromNanoseconds(max(ns, 0), ct)
	return t
}

// A Timer calls a function periodically on one clock. Methods are safe
// for concurrent use.
type Timer struct {
	q         *Queue
	seq       uint64 // creation order, for deterministic dispatch
	index     int    // position in q.heap; guarded by q.mu
	period    int64
	lastCall  int64
	nextCall  int64
	credit    int64
	canceled  bool
	destroyed bool
	callback  func(Info)
}

// Period returns the timer's period.
func (t *Timer) Period() time.Duration {
	t.q.mu.Lock()
	defer t.q.mu.Unlock()
	return time.Duration(t.period)
}

// ExchangePeriod sets a new period and returns the old one. As in rcl,
// the next call time is not moved: the new period applies from the next
// call or reset.
func (t *Timer) ExchangePeriod(p time.Duration) (time.Duration, error) {
	if p < 0 {
		return 0, ErrNegativePeriod
	}
	t.q.mu.Lock()
	defer t.q.mu.Unlock()
	old := t.period
	t.period = int64(p)
	return time.Duration(old), nil
}

// Cancel stops the timer until Reset (R24). It is idempotent.
func (t *Timer) Cancel() {
	t.q.mu.Lock()
	t.canceled = true
	t.q.fixLocked(t)
	t.q.mu.Unlock()
}

// IsCanceled reports whether the timer is canceled.
func (t *Timer) IsCanceled() bool {
	t.q.mu.Lock()
	defer t.q.mu.Unlock()
	return t.canceled
}

// Reset schedules the next call one period from now and un-cancels the
// timer (R24). The last call time is kept, as rcl does. It does nothing
// to a destroyed timer.
func (t *Timer) Reset() {
	q := t.q
	now := q.now()
	q.mu.Lock()
	if t.destroyed {
		q.mu.Unlock()
		return
	}
	t.nextCall = deadline(now, t.period)
	t.canceled = false
	q.fixLocked(t)
	q.mu.Unlock()
	q.poke()
}

// IsReady reports whether a call is due: not canceled and now >=
// next_call (R20).
func (t *Timer) IsReady() bool {
	now := t.q.now()
	t.q.mu.Lock()
	defer t.q.mu.Unlock()
	return t.readyAt(now)
}

// readyAt is rcl_timer_is_ready at now: not canceled and now >=
// next_call, except that a saturated deadline is never reached. The
// caller must hold t.q.mu.
func (t *Timer) readyAt(now int64) bool {
	return !t.canceled && t.nextCall != never && now >= t.nextCall
}

// never is a deadline past the end of representable time: the timer is
// never ready (see the package doc, Infinite periods).
const never = math.MaxInt64

// deadline returns from + period, saturated at never instead of wrapping.
func deadline(from, period int64) int64 {
	return int64(simclock.SaturatingAdd(time.Duration(from), time.Duration(period)))
}

// TimeUntilNextCall returns next_call - now, which is <= 0 when the call
// is due (R20). ok is false for a canceled timer.
func (t *Timer) TimeUntilNextCall() (d time.Duration, ok bool) {
	now := t.q.now()
	t.q.mu.Lock()
	defer t.q.mu.Unlock()
	if t.canceled {
		return 0, false
	}
	return time.Duration(t.nextCall - now), true
}

// TimeSinceLastCall returns now - last_call.
func (t *Timer) TimeSinceLastCall() time.Duration {
	now := t.q.now()
	t.q.mu.Lock()
	defer t.q.mu.Unlock()
	return time.Duration(now - t.lastCall)
}

// NextCallTime returns the scheduled deadline in nanoseconds on the
// timer's clock.
func (t *Timer) NextCallTime() int64 {
	t.q.mu.Lock()
	defer t.q.mu.Unlock()
	return t.nextCall
}

// Call records a call now and runs the callback (R21), whether or not
// the timer is ready, as rcl allows. It returns the call's Info, or
// ErrCanceled.
func (t *Timer) Call() (Info, error) {
	info, err := t.advance(t.q.now())
	if err != nil {
		return info, err
	}
	if t.callback != nil {
		t.callback(info)
	}
	return info, nil
}

// advance is the bookkeeping of rcl_timer_call_with_info.
func (t *Timer) advance(now int64) (Info, error) {
	q := t.q
	q.mu.Lock()
	defer q.mu.Unlock()
	if t.destroyed {
		return Info{}, ErrDestroyed
	}
	if t.canceled {
		return Info{}, ErrCanceled
	}
	if now < 0 {
		return Info{}, ErrNegativeNow
	}
	info := Info{ExpectedCallTime: anyTime(t.nextCall, q.clockType), ActualCallTime: anyTime(now, q.clockType)}
	t.lastCall = now
	t.nextCall = deadline(t.nextCall, t.period)
	if t.nextCall <= now {
		if t.period == 0 {
			t.nextCall = now
		} else {
			// Skip the missed periods, keeping the phase (rcl#1089): one
			// division, however many periods were missed (a first /clock
			// at a Unix-epoch time skips billions of them at once). The
			// product is at most now - next_call + period, which
			// saturates rather than wraps.
			skipped := (1 + (now-t.nextCall)/t.period) * t.period
			t.nextCall = deadline(t.nextCall, skipped)
		}
	}
	q.fixLocked(t)
	return info, nil
}

// Destroy takes the timer out of its queue for good, as rclpy's
// Timer.destroy() and Node.destroy_timer() do (rclpy/rclpy/timer.py,
// node.py) and as releasing the last reference to an rclcpp timer does:
// the queue holds it no longer, so a timer replaced by a new one leaves
// nothing behind, and an executor with only destroyed timers is idle. A
// destroyed timer is canceled and never runs again: Reset does nothing,
// Call returns ErrDestroyed. Destroy is idempotent, and a callback may
// destroy its own timer or another; a timer destroyed during a round is
// not called in it.
func (t *Timer) Destroy() {
	q := t.q
	q.mu.Lock()
	t.destroyed, t.canceled = true, true
	q.removeLocked(t)
	q.mu.Unlock()
}

// String describes the timer for debugging.
func (t *Timer) String() string {
	t.q.mu.Lock()
	defer t.q.mu.Unlock()
	return fmt.Sprintf("timer(period=%v, next=%d, canceled=%v)", time.Duration(t.period), t.nextCall, t.canceled)
}
