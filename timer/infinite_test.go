package timer_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/virtualclock"
)

// A timer whose period is simclock.InfiniteDuration is never ready.
// Upstream: rcl_timer_init2 sets next_call_time = now + period
// (rcl/src/rcl/timer.c), and rclcpp's "never, until reset" idiom
// passes Duration::max() (INT32_MAX s + 999999999 ns), whose sum with
// any realistic now stays in int64, so rcl never makes the timer ready.
// With RMW_DURATION_INFINITE the C sum overflows (undefined); simclock
// saturates it to "never" instead of wrapping into the past, which made
// the timer ready on every executor round.
func TestInfinitePeriodNeverReady(t *testing.T) {
	const unixEpoch = int64(1_700_000_000) * sec
	for _, tc := range []struct {
		name string
		new  func(fc *virtualclock.Clock) *timer.Queue
	}{
		{"steady", func(fc *virtualclock.Clock) *timer.Queue { return timer.NewQueue(fc.Steady()) }},
		{"system at a Unix-epoch time", func(fc *virtualclock.Clock) *timer.Queue {
			sys, _ := simclock.TimeFromNanoseconds[simclock.System](unixEpoch)
			fc.SetSystem(sys)
			return timer.NewQueue(fc.System())
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fc := virtualclock.New()
			q := tc.new(fc)
			calls := 0
			tm := newTimer(t, q, simclock.InfiniteDuration, func(timer.Info) { calls++ })
			if tm.IsReady() || tm.NextCallTime() != math.MaxInt64 {
				t.Fatalf("new infinite timer: ready %v, next %d; want never", tm.IsReady(), tm.NextCallTime())
			}
			if d := until(t, tm); d <= 0 {
				t.Fatalf("time until next call = %v, want positive", d)
			}
			if _, ok := q.Next(); ok {
				t.Fatal("Queue.Next gives a deadline for a timer that never fires")
			}
			fc.Advance(100 * 365 * 24 * time.Hour)
			if tm.IsReady() || dispatch(t, q) != 0 || calls != 0 {
				t.Fatalf("after 100 years: ready %v, calls %d", tm.IsReady(), calls)
			}
			// Call is allowed when not ready (rcl); the deadline stays never.
			info := mustCall(t, tm)
			if info.ExpectedCallTime.Nanoseconds() != math.MaxInt64 || tm.NextCallTime() != math.MaxInt64 || tm.IsReady() {
				t.Fatalf("after Call: info %+v, next %d", info, tm.NextCallTime())
			}
			tm.Reset()
			if tm.IsReady() || tm.NextCallTime() != math.MaxInt64 {
				t.Fatalf("after Reset: next %d", tm.NextCallTime())
			}
			// Exchanging the period and resetting brings it back.
			if _, err := tm.ExchangePeriod(time.Second); err != nil {
				t.Fatal(err)
			}
			tm.Reset()
			fc.Advance(time.Second)
			if !tm.IsReady() || dispatch(t, q) != 1 {
				t.Fatal("after ExchangePeriod(1s), Reset and 1 s: not called")
			}
		})
	}
}

// rclcpp's idiom, Duration::max(), at a Unix-epoch system time: rcl's sum
// fits and the timer is simply 68 years away.
func TestMessageMaxPeriodAtUnixEpoch(t *testing.T) {
	fc := virtualclock.New()
	now := int64(1_700_000_000) * sec
	sys, _ := simclock.TimeFromNanoseconds[simclock.System](now)
	fc.SetSystem(sys)
	q := timer.NewQueue(fc.System())
	tm := newTimer(t, q, simclock.MaxMessageDuration, nil)
	if got, want := tm.NextCallTime(), now+int64(simclock.MaxMessageDuration); got != want || tm.IsReady() {
		t.Fatalf("next %d ready %v; want %d, not ready", got, tm.IsReady(), want)
	}
	if next, ok := q.Next(); !ok || next != tm.NextCallTime() {
		t.Fatalf("Queue.Next = %d, %v", next, ok)
	}
}

// On a ROS clock the never-deadline survives every kind of jump: the
// first /clock at a Unix-epoch time (forward jump), a backward jump, and
// switching sim time off and on (rcl's credit arithmetic would otherwise
// turn "never" into a finite deadline).
func TestInfinitePeriodAcrossJumps(t *testing.T) {
	f := newROS(t, true, 0)
	calls := 0
	tm := newTimer(t, f.q, simclock.InfiniteDuration, func(timer.Info) { calls++ })
	steps := []struct {
		name string
		do   func()
	}{
		{"first /clock at 1.7e9 s", func() { f.set(1_700_000_000 * sec) }},
		{"backward jump to 5 s", func() { f.set(5 * sec) }},
		{"sim time off", f.ros.DisableROSTimeOverride},
		{"sim time on", f.ros.EnableROSTimeOverride},
		{"forward to 2^62 ns", func() { f.set(1 << 62) }},
	}
	for _, s := range steps {
		s.do()
		if tm.IsReady() || tm.NextCallTime() != math.MaxInt64 || dispatch(t, f.q) != 0 {
			t.Fatalf("%s: ready %v, next %d", s.name, tm.IsReady(), tm.NextCallTime())
		}
	}
	if calls != 0 {
		t.Fatalf("%d calls", calls)
	}
}

// The executor gets no deadline from an infinite timer: in virtual time
// Spin reports ErrIdle at once instead of moving the clock to the end of
// time, and a finite timer beside it runs on schedule.
func TestExecutorIgnoresInfiniteTimer(t *testing.T) {
	fc := virtualclock.New()
	e := executor.New(executor.Config{Virtual: fc})
	defer e.Close()
	q := timer.NewQueue(fc.Steady())
	e.AddQueue(q)
	infinite := 0
	newTimer(t, q, simclock.InfiniteDuration, func(timer.Info) { infinite++ })
	before := fc.SteadyNow()
	if err := e.Spin(context.Background()); !errors.Is(err, executor.ErrIdle) {
		t.Fatalf("Spin = %v, want ErrIdle", err)
	}
	if fc.SteadyNow() != before || infinite != 0 {
		t.Fatalf("clock moved %d ns, %d calls", fc.SteadyNow()-before, infinite)
	}
	finite := 0
	newTimer(t, q, 100*time.Millisecond, func(timer.Info) { finite++ })
	spinFor(t, e, fc, 1050*time.Millisecond)
	if finite != 10 || infinite != 0 {
		t.Fatalf("finite %d calls (want 10), infinite %d (want 0)", finite, infinite)
	}
}
