package timer_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/virtualclock"
)

// Timer conformance, translated from rcl test/rcl/test_timer.cpp (TT-xxx),
// rclpy test/test_timer.py (PM-xxx) and the derived vectors (DV-1xx) of
// the reference, all in virtual time: clocktest fakes and ROS clocks whose
// override the test sets. Nothing sleeps.

const sec = int64(time.Second)

func rosTime(t testing.TB, ns int64) simclock.Time[simclock.ROS] {
	t.Helper()
	v, err := simclock.TimeFromNanoseconds[simclock.ROS](ns)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// rosFixture is a ROS clock over a fake, with one timer queue on it and a
// count of the queue's wake-ups.
type rosFixture struct {
	t     testing.TB
	fc    *virtualclock.Clock
	ros   *simclock.ROSClock
	q     *timer.Queue
	wakes atomic.Int64
}

// newROS returns a ROS clock with the override set to value, enabled when
// active (otherwise it reads the fake system clock).
func newROS(t testing.TB, active bool, value int64) *rosFixture {
	t.Helper()
	fc := virtualclock.New()
	ros := simclock.NewROSClockOn(fc.System(), fc.Steady())
	ros.SetROSTimeOverride(rosTime(t, value))
	if active {
		ros.EnableROSTimeOverride()
	}
	f := &rosFixture{t: t, fc: fc, ros: ros, q: timer.NewQueue[simclock.ROS](ros)}
	f.q.SetWake(func() { f.wakes.Add(1) })
	t.Cleanup(f.q.Close)
	return f
}

// set sets the override (a /clock message).
func (f *rosFixture) set(ns int64) { f.ros.SetROSTimeOverride(rosTime(f.t, ns)) }

func (f *rosFixture) now() int64 { return f.ros.Now().Nanoseconds() }

func newTimer(t testing.TB, q *timer.Queue, period time.Duration, cb func(timer.Info)) *timer.Timer {
	t.Helper()
	tm, err := q.New(period, cb, true)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// until returns time_until_next_call of a timer that is not canceled.
func until(t testing.TB, tm *timer.Timer) int64 {
	t.Helper()
	d, ok := tm.TimeUntilNextCall()
	if !ok {
		t.Fatalf("TimeUntilNextCall: timer is canceled")
	}
	return int64(d)
}

// rosAt is ns on the ROS clock, as a timer.Info carries it.
func rosAt(ns int64) simclock.AnyTime {
	t, err := simclock.AnyTimeFromNanoseconds(ns, simclock.ROSTime)
	if err != nil {
		panic(err)
	}
	return t
}

// ns is t's nanoseconds.
func ns(t simclock.AnyTime) int64 { return t.Nanoseconds() }

func mustCall(t testing.TB, tm *timer.Timer) timer.Info {
	t.Helper()
	info, err := tm.Call()
	if err != nil {
		t.Fatalf("Call: %v", err)
	}
	return info
}

// R19: the first call is due one period after creation, on every clock
// (rcl_timer_init2, rcl:rcl/src/rcl/timer.c:129-225).
func TestR19FirstDeadline(t *testing.T) {
	fc := virtualclock.New()
	ros := newROS(t, true, 1000)
	for _, tc := range []struct {
		name string
		q    *timer.Queue
		ct   simclock.ClockType
	}{
		{"steady", timer.NewQueue(fc.Steady()), simclock.SteadyTime},
		{"system", timer.NewQueue(fc.System()), simclock.SystemTime},
		{"ros", ros.q, simclock.ROSTime},
	} {
		t.Run("R19/"+tc.name, func(t *testing.T) {
			if got := tc.q.ClockType(); got != tc.ct {
				t.Errorf("ClockType = %v, want %v", got, tc.ct)
			}
			now := tc.q.Now()
			tm := newTimer(t, tc.q, 100, nil)
			if got, want := tm.NextCallTime(), now+100; got != want {
				t.Errorf("next_call_time = %d, want %d", got, want)
			}
			if got := until(t, tm); got != 100 {
				t.Errorf("time_until_next_call = %d, want 100", got)
			}
			if got := tm.TimeSinceLastCall(); got != 0 {
				t.Errorf("time_since_last_call = %v, want 0", got)
			}
			if tm.IsReady() {
				t.Error("IsReady = true, want false")
			}
			if tm.IsCanceled() {
				t.Error("IsCanceled = true, want false (autostart)")
			}
			if got := tm.Period(); got != 100 {
				t.Errorf("Period = %v, want 100ns", got)
			}
		})
	}
}

// R19: a negative period is rejected, at creation and on exchange
// (rcl:rcl/test/rcl/test_timer.cpp:136-160, rclpy:rclpy/rclpy/timer.py:28-115).
func TestR19NegativePeriod(t *testing.T) {
	fc := virtualclock.New()
	q := timer.NewQueue(fc.Steady())
	if _, err := q.New(-1, nil, true); !errors.Is(err, timer.ErrNegativePeriod) {
		t.Errorf("New(-1): err = %v, want ErrNegativePeriod", err)
	}
	tm := newTimer(t, q, 0, nil) // rcl:rcl/test/rcl/test_timer.cpp:175-185: period 0 is fine
	if _, err := tm.ExchangePeriod(-1); !errors.Is(err, timer.ErrNegativePeriod) {
		t.Errorf("ExchangePeriod(-1): err = %v, want ErrNegativePeriod", err)
	}
	if q.Len() != 1 {
		t.Errorf("Len = %d, want 1", q.Len())
	}
}

// R20: ready when now >= next_call_time; time_until = next - now
// (rcl:rcl/test/rcl/test_timer.cpp:601-633: ROS time active at 0, 5 s timer).
func TestR20Ready(t *testing.T) {
	f := newROS(t, true, 0)
	tm := newTimer(t, f.q, 5*time.Second, nil)
	for _, tc := range []struct {
		ref   string
		set   int64
		until int64
		ready bool
	}{
		{"rcl:rcl/test/rcl/test_timer.cpp:601-622", 1, 4999999999, false},
		{"rcl:rcl/test/rcl/test_timer.cpp:624-627", 5 * sec, 0, true},
		{"rcl:rcl/test/rcl/test_timer.cpp:629-633", 5*sec + 1, -1, true},
	} {
		f.set(tc.set)
		if got := until(t, tm); got != tc.until {
			t.Errorf("R20/%s: time_until_next_call = %d, want %d", tc.ref, got, tc.until)
		}
		if got := tm.IsReady(); got != tc.ready {
			t.Errorf("R20/%s: IsReady = %v, want %v", tc.ref, got, tc.ready)
		}
	}
}

// R21: a call records last_call = now, reports the scheduled deadline as
// the expected time, and skips missed periods keeping the phase so the
// next deadline is strictly after now (derived from rcl_timer_call,
// rcl:rcl/src/rcl/timer.c:266-326, and rcl:rcl/include/rcl/timer.h:104-106).
func TestR21Call(t *testing.T) {
	for _, tc := range []struct {
		ref, name      string
		period         int64
		setBeforeCall  int64 // ROS time at the call (the timer is made at 1000)
		wantExpected   int64
		wantActual     int64
		wantNext       int64
		wantReadyAfter bool
	}{
		{"derived from rcl:rcl/src/rcl/timer.c:266-326", "on time", 100, 1100, 1100, 1100, 1200, false},
		{"derived from rcl:rcl/src/rcl/timer.c:266-326", "late, keep phase", 100, 1350, 1100, 1350, 1400, false},
		{"derived from rcl:rcl/src/rcl/timer.c:266-326", "late on a period boundary: strictly after now", 100, 1400, 1100, 1400, 1500, false},
		{"derived from rcl:rcl/src/rcl/timer.c:266-326", "called before ready", 100, 1000, 1100, 1000, 1200, false},
		{"derived from rcl:rcl/include/rcl/timer.h:104-106", "period 0", 0, 1000, 1000, 1000, 1000, true},
		{"R21", "period 0 later", 0, 5000, 1000, 5000, 5000, true},
		{"R21", "many periods missed", 7, 1000 + 7*1000 + 3, 1007, 8003, 8007, false},
	} {
		t.Run("R21/"+tc.name, func(t *testing.T) { // tc.ref says where the case comes from
			f := newROS(t, true, 1000)
			var got []timer.Info
			tm := newTimer(t, f.q, time.Duration(tc.period), func(i timer.Info) { got = append(got, i) })
			f.set(tc.setBeforeCall)
			info := mustCall(t, tm)
			want := timer.Info{ExpectedCallTime: rosAt(tc.wantExpected), ActualCallTime: rosAt(tc.wantActual)}
			if info != want {
				t.Errorf("Call info = %+v, want %+v", info, want)
			}
			if len(got) != 1 || got[0] != want {
				t.Errorf("callback got %+v, want one %+v", got, want)
			}
			if n := tm.NextCallTime(); n != tc.wantNext {
				t.Errorf("next_call_time = %d, want %d", n, tc.wantNext)
			}
			if tc.period > 0 && tm.NextCallTime() <= f.now() {
				t.Errorf("next_call_time %d not strictly after now %d", tm.NextCallTime(), f.now())
			}
			if r := tm.IsReady(); r != tc.wantReadyAfter {
				t.Errorf("IsReady after call = %v, want %v", r, tc.wantReadyAfter)
			}
			if d := tm.TimeSinceLastCall(); d != 0 {
				t.Errorf("time_since_last_call = %v, want 0", d)
			}
		})
	}
}

// R21, rcl:rcl/test/rcl/test_timer.cpp:852-866: calling when not ready is allowed and pushes the deadline
// one period each time.
func TestR21CallNotReady(t *testing.T) {
	fc := virtualclock.New()
	q := timer.NewQueue(fc.Steady())
	n := 0
	tm := newTimer(t, q, time.Second, func(timer.Info) { n++ })
	a := until(t, tm)
	for range 3 {
		mustCall(t, tm)
	}
	b := until(t, tm)
	if n != 3 || a != sec || b != 4*sec {
		t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:852-866: count %d, a %d, b %d; want 3, 1s, 4s", n, a, b)
	}
	// rcl:rcl/test/rcl/test_timer.cpp:868-874: exchange to 0; the next call keeps the deadline.
	fc.Advance(time.Millisecond)
	old, err := tm.ExchangePeriod(0)
	if err != nil || old != time.Second {
		t.Fatalf("ExchangePeriod(0) = %v, %v; want 1s", old, err)
	}
	mustCall(t, tm)
	if c := until(t, tm); n != 4 || c >= b || c != 4*sec-int64(time.Millisecond) {
		t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:868-874: count %d, time_until %d; want 4 and %d (< b)", n, c, 4*sec-int64(time.Millisecond))
	}
	// rcl:rcl/test/rcl/test_timer.cpp:882-885: a canceled timer cannot be called.
	tm.Cancel()
	if _, err := tm.Call(); !errors.Is(err, timer.ErrCanceled) {
		t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:882-885: Call on canceled: err = %v, want ErrCanceled", err)
	}
	if n != 4 {
		t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:882-885: count %d, want 4", n)
	}
	// rcl:rcl/test/rcl/test_timer.cpp:876-880 (clock now < 0 -> ERROR) cannot be written: a simclock.Time
	// is never negative, so no Clock can report one.
}

// R20: period 0 is always ready (rcl:rcl/test/rcl/test_timer.cpp:467-500).
func TestR20PeriodZero(t *testing.T) {
	fc := virtualclock.New()
	q := timer.NewQueue(fc.Steady())
	tm := newTimer(t, q, 0, nil)
	for i := range 3 {
		if !tm.IsReady() || until(t, tm) > 0 {
			t.Fatalf("round %d: IsReady %v, time_until %d; want ready, <= 0", i, tm.IsReady(), until(t, tm))
		}
		mustCall(t, tm)
		fc.Advance(time.Duration(i))
	}
}

// R20, R21 in wait-set form (rcl:rcl/test/rcl/test_timer.cpp:225-464): which timers are ready
// after a wait, and the missed period skipped.
func TestR21WaitSet(t *testing.T) {
	fc := virtualclock.New()
	q := timer.NewQueue(fc.Steady())
	t0 := fc.SteadyNow()
	fast := newTimer(t, q, 50*time.Millisecond, nil)
	slow := newTimer(t, q, time.Second, nil)
	fc.Advance(100 * time.Millisecond)
	// rcl:rcl/test/rcl/test_timer.cpp:225-292: exactly one ready, the 50 ms one.
	if got := q.AppendReady(nil); len(got) != 1 || got[0] != fast {
		t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:225-292: ready = %v, want [the 50 ms timer]", got)
	}
	if slow.IsReady() {
		t.Error("rcl:rcl/test/rcl/test_timer.cpp:225-292: 1000 ms timer ready")
	}
	fast.Cancel()
	slow.Cancel()
	// rcl:rcl/test/rcl/test_timer.cpp:364-409, rcl:rcl/test/rcl/test_timer.cpp:576-588: nothing armed, nothing ready.
	if got := q.AppendReady(nil); len(got) != 0 {
		t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:576-588: ready = %v, want none", got)
	}
	if _, ok := q.Next(); ok {
		t.Error("Next: ok with every timer canceled")
	}
	// rcl:rcl/test/rcl/test_timer.cpp:411-450, rcl:rcl/test/rcl/test_timer.cpp:452-464: a 200 ms timer left for 500 ms is ready; after the
	// call the next deadline is at 600 ms, the 400 ms one skipped.
	t1 := fc.SteadyNow()
	tm := newTimer(t, q, 200*time.Millisecond, nil)
	fc.Advance(500 * time.Millisecond)
	if !tm.IsReady() {
		t.Error("rcl:rcl/test/rcl/test_timer.cpp:411-450: not ready after 500 ms")
	}
	info := mustCall(t, tm)
	if tm.IsReady() {
		t.Error("rcl:rcl/test/rcl/test_timer.cpp:452-464: ready after the call")
	}
	if got, want := tm.NextCallTime(), t1+int64(600*time.Millisecond); got != want {
		t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:452-464: next = %d, want %d (+600 ms)", got, want)
	}
	if got, want := info.ExpectedCallTime.Nanoseconds(), t1+int64(200*time.Millisecond); got != want {
		t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:452-464: expected = %d, want %d", got, want)
	}
	if d, ok := q.Next(); !ok || d != tm.NextCallTime() {
		t.Errorf("Next = %d, %v; want %d", d, ok, tm.NextCallTime())
	}
	_ = t0
}

// R22 on a ROS clock: jumps, with rcl's exact numbers (rcl:rcl/test/rcl/test_timer.cpp:601-835,
// derived from rcl:rcl/src/rcl/timer.c:90-126) and the credit carried across activation
// (rcl:rcl/src/rcl/timer.c:72-126).
func TestR22Jumps(t *testing.T) {
	// rcl:rcl/test/rcl/test_timer.cpp:642-673
	t.Run("R22/activate after 1 ms of system time", func(t *testing.T) {
		f := newROS(t, false, 0)
		tm := newTimer(t, f.q, 5*time.Second, nil)
		f.fc.Advance(time.Millisecond)
		prev := until(t, tm)
		if prev != 5*sec-int64(time.Millisecond) {
			t.Fatalf("rcl:rcl/test/rcl/test_timer.cpp:642-663: time_until = %d, want 5 s - 1 ms", prev)
		}
		f.set(1)
		f.ros.EnableROSTimeOverride()
		// Credit = remaining 4.999 s; next = now - credit + period, so the
		// time until the call is the elapsed 1 ms.
		got := until(t, tm)
		if !(0 < got && got < prev) || got != int64(time.Millisecond) {
			t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:665-673: time_until = %d, want 1 ms (0 < x < %d)", got, prev)
		}
		if d := tm.TimeSinceLastCall(); d != 5*time.Second-time.Millisecond {
			t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:665-673: time_since_last_call = %v, want 4.999s (last = now - credit)", d)
		}
	})
	// rcl:rcl/test/rcl/test_timer.cpp:683-718
	t.Run("R22/deactivate", func(t *testing.T) {
		f := newROS(t, true, 1)
		tm := newTimer(t, f.q, 5*time.Second, nil)
		f.set(sec)
		if got := until(t, tm); got != 4000000001 {
			t.Fatalf("rcl:rcl/test/rcl/test_timer.cpp:683-709: time_until = %d, want 4000000001", got)
		}
		f.ros.DisableROSTimeOverride()
		got := until(t, tm)
		if !(0 < got && got < 4000000001) || got != 999999999 {
			t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:711-718: time_until = %d, want 999999999 (= period - remaining)", got)
		}
		if !f.ros.Now().After(rosTime(t, 1e18)) {
			t.Error("ROS clock does not read system time after deactivation")
		}
	})
	// rcl:rcl/test/rcl/test_timer.cpp:737-765
	t.Run("R22/backward jump before last call", func(t *testing.T) {
		f := newROS(t, true, 2*sec)
		tm := newTimer(t, f.q, 5*time.Second, nil)
		f.set(3 * sec)
		if got := until(t, tm); got != 4*sec {
			t.Fatalf("rcl:rcl/test/rcl/test_timer.cpp:737-757: time_until = %d, want 4 s", got)
		}
		f.set(1 * sec)
		if got := until(t, tm); got != 5*sec {
			t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:758-765: time_until = %d, want exactly 5 s", got)
		}
	})
	// derived from rcl:rcl/src/rcl/timer.c:90-126
	t.Run("R22/jumps while active", func(t *testing.T) {
		f := newROS(t, true, 1000)
		tm := newTimer(t, f.q, 100, nil)
		f.set(1050)
		f.set(1020) // backward, but not before last_call 1000
		if got := until(t, tm); got != 80 {
			t.Errorf("derived from rcl:rcl/src/rcl/timer.c:90-126: time_until = %d, want 80", got)
		}
		f.set(900) // before last_call: a full period from now
		if got, next := until(t, tm), tm.NextCallTime(); got != 100 || next != 1000 {
			t.Errorf("derived from rcl:rcl/src/rcl/timer.c:90-126: time_until %d, next %d; want 100, 1000", got, next)
		}
		if d := tm.TimeSinceLastCall(); d != 0 {
			t.Errorf("derived from rcl:rcl/src/rcl/timer.c:90-126: time_since_last_call = %v, want 0 (last = 900)", d)
		}
		f.wakes.Store(0)
		f.set(1200) // forward past the deadline: wake once
		if got := until(t, tm); got != -200 || !tm.IsReady() {
			t.Errorf("derived from rcl:rcl/src/rcl/timer.c:90-126: time_until %d, ready %v; want -200, true", got, tm.IsReady())
		}
		if w := f.wakes.Load(); w != 1 {
			t.Errorf("derived from rcl:rcl/src/rcl/timer.c:90-126: %d wake-ups, want 1", w)
		}
	})
	// rcl:rcl/test/rcl/test_timer.cpp:776-835
	t.Run("R22/wake only past the deadline", func(t *testing.T) {
		f := newROS(t, true, sec)
		tm := newTimer(t, f.q, time.Second, nil)
		f.wakes.Store(0)
		f.set(sec + sec/2)
		if w := f.wakes.Load(); w != 0 || tm.IsReady() {
			t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:776-828: %d wake-ups, ready %v; want 0, false", w, tm.IsReady())
		}
		f.set(5 * sec)
		if w := f.wakes.Load(); w != 1 || !tm.IsReady() {
			t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:829-835: %d wake-ups, ready %v; want 1, true", w, tm.IsReady())
		}
		if got := f.q.AppendReady(nil); len(got) != 1 || got[0] != tm {
			t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:829-835: ready = %v, want the timer", got)
		}
	})
	// derived from rcl:rcl/src/rcl/timer.c:72-89
	t.Run("R22/credit on deactivation", func(t *testing.T) {
		f := newROS(t, true, 100*sec)
		tm := newTimer(t, f.q, 10*time.Second, nil)
		f.set(104 * sec)
		f.ros.DisableROSTimeOverride()
		s := f.fc.System().Now().Nanoseconds()
		if got, want := tm.NextCallTime(), s+4*sec; got != want {
			t.Errorf("next = %d, want S + 4 s = %d (time_until = elapsed)", got, want)
		}
		if got := tm.TimeSinceLastCall(); got != 6*time.Second {
			t.Errorf("time_since_last_call = %v, want 6s (last = S - 6 s)", got)
		}
	})
	// derived from rcl:rcl/src/rcl/timer.c:72-126
	t.Run("R22/activation while the ROS value is 0", func(t *testing.T) {
		f := newROS(t, false, 0)
		s := f.fc.System().Now().Nanoseconds()
		tm := newTimer(t, f.q, 10*time.Second, nil)
		f.ros.EnableROSTimeOverride()
		if got := tm.NextCallTime(); got != s+10*sec {
			t.Errorf("derived from rcl:rcl/src/rcl/timer.c:72-126: next = %d, want unchanged S + 10 s = %d", got, s+10*sec)
		}
		if tm.IsReady() {
			t.Error("derived from rcl:rcl/src/rcl/timer.c:72-126: ready at ROS time 0")
		}
		if got := f.q.AppendReady(nil); len(got) != 0 {
			t.Errorf("derived from rcl:rcl/src/rcl/timer.c:72-126: ready = %v", got)
		}
		f.set(100 * sec) // first /clock: last_call (system epoch) is in the future
		if got, d := tm.NextCallTime(), tm.TimeSinceLastCall(); got != 110*sec || d != 0 {
			t.Errorf("derived from rcl:rcl/src/rcl/timer.c:72-126: next %d, since last %v; want 110 s, 0", got, d)
		}
		if got := until(t, tm); got != 10*sec {
			t.Errorf("derived from rcl:rcl/src/rcl/timer.c:72-126: time_until = %d, want 10 s", got)
		}
	})
	t.Run("R22/credit kept while 0, spent on deactivation", func(t *testing.T) {
		// pre(activate) stores remaining 7 s; post sees 0 and keeps it;
		// pre(deactivate) sees 0 and stores nothing; post spends the 7 s.
		f := newROS(t, false, 0)
		tm := newTimer(t, f.q, 10*time.Second, nil)
		f.fc.Advance(3 * time.Second)
		f.ros.EnableROSTimeOverride()
		f.ros.DisableROSTimeOverride()
		now := f.now()
		if got, want := tm.NextCallTime(), now-7*sec+10*sec; got != want {
			t.Errorf("next = %d, want now + 3 s = %d", got, want)
		}
		if got := tm.TimeSinceLastCall(); got != 7*time.Second {
			t.Errorf("time_since_last_call = %v, want 7s", got)
		}
	})
	t.Run("R22/credit 0 keeps the old epoch until the next jump", func(t *testing.T) {
		// Activated exactly at the deadline: the credit is 0, so nothing is
		// rewritten and the deadline stays a system time; the next /clock
		// finds last_call in the future and restarts a full period.
		f := newROS(t, false, 0)
		tm := newTimer(t, f.q, 10*time.Second, nil)
		f.fc.Advance(10 * time.Second)
		old := tm.NextCallTime()
		f.set(100 * sec)
		f.ros.EnableROSTimeOverride()
		if got := tm.NextCallTime(); got != old || tm.IsReady() {
			t.Errorf("after activation: next %d, ready %v; want %d (unchanged), false", got, tm.IsReady(), old)
		}
		f.set(101 * sec)
		if got := tm.NextCallTime(); got != 111*sec {
			t.Errorf("after /clock 101 s: next = %d, want 111 s", got)
		}
	})
	t.Run("R22/overdue at activation puts last_call in the future", func(t *testing.T) {
		// Overdue by 2 s: credit -2 s, so last = now + 2 s and
		// next = now + 12 s. The next forward jump that stays before
		// last_call restarts a full period from the new now.
		f := newROS(t, false, 0)
		tm := newTimer(t, f.q, 10*time.Second, nil)
		f.fc.Advance(12 * time.Second)
		f.set(100 * sec)
		f.ros.EnableROSTimeOverride()
		if got := tm.NextCallTime(); got != 112*sec {
			t.Fatalf("after activation: next = %d, want 112 s", got)
		}
		if got := tm.TimeSinceLastCall(); got != -2*time.Second {
			t.Errorf("after activation: time_since_last_call = %v, want -2s", got)
		}
		f.set(101 * sec)
		if got, d := tm.NextCallTime(), tm.TimeSinceLastCall(); got != 111*sec || d != 0 {
			t.Errorf("after /clock 101 s: next %d, since last %v; want 111 s, 0", got, d)
		}
	})
	t.Run("R22/backward jump resets canceled timers too", func(t *testing.T) {
		f := newROS(t, true, 10*sec)
		tm := newTimer(t, f.q, time.Second, nil)
		tm.Cancel()
		f.set(5 * sec) // rcl rewrites last = 5 s, next = 6 s, canceled or not
		if d := tm.TimeSinceLastCall(); d != 0 {
			t.Errorf("time_since_last_call = %v, want 0", d)
		}
		tm.Reset() // next = 6 s
		f.set(5*sec + sec/2)
		f.set(5*sec + sec/5) // back, but not before last_call 5 s
		if got := until(t, tm); got != 8*sec/10 {
			t.Errorf("time_until = %d, want 0.8 s", got)
		}
	})
	t.Run("R22/steady and system timers ignore ROS jumps", func(t *testing.T) {
		f := newROS(t, true, 10*sec)
		q := timer.NewQueue(f.fc.System())
		tm := newTimer(t, q, time.Second, nil)
		next := tm.NextCallTime()
		f.set(sec)
		f.ros.DisableROSTimeOverride()
		if tm.NextCallTime() != next {
			t.Errorf("system timer moved by a ROS jump")
		}
		// A step of the system clock is not a jump either (rcl:rcl/src/rcl/time.c:277-389).
		step, _ := simclock.TimeFromNanoseconds[simclock.System](next + 5*sec)
		f.fc.SetSystem(step)
		if tm.NextCallTime() != next || !tm.IsReady() {
			t.Errorf("system timer after a clock step: next %d, ready %v", tm.NextCallTime(), tm.IsReady())
		}
	})
}

// R23: a sim timer created at 0 never fires while the clock sits at 0;
// the first /clock S > 0 fires each such timer once at now = S; a first
// /clock of 0 is no jump, and the first tick comes one period later.
func TestR23SimStartAtZero(t *testing.T) {
	periods := []time.Duration{300 * time.Millisecond, time.Second, 2 * time.Second}
	t.Run("R23/first clock S>0", func(t *testing.T) {
		f := newROS(t, true, 0)
		var calls []timer.Info
		var ts []*timer.Timer
		for _, p := range periods {
			ts = append(ts, newTimer(t, f.q, p, func(i timer.Info) { calls = append(calls, i) }))
		}
		f.set(0) // the clock sits at 0: no jump
		if got := f.q.AppendReady(nil); len(got) != 0 {
			t.Fatalf("ready at 0: %v", got)
		}
		f.wakes.Store(0)
		f.set(5 * sec)
		if f.wakes.Load() != 1 {
			t.Errorf("%d wake-ups on the first /clock, want 1", f.wakes.Load())
		}
		dispatch(t, f.q)
		dispatch(t, f.q) // nothing more at the same instant
		if len(calls) != len(periods) {
			t.Fatalf("%d calls, want %d (each timer once)", len(calls), len(periods))
		}
		for i, p := range periods {
			if calls[i].ActualCallTime != rosAt(5*sec) || calls[i].ExpectedCallTime != rosAt(int64(p)) {
				t.Errorf("timer %v: info %+v, want actual 5 s, expected %d", p, calls[i], int64(p))
			}
			next := ((5*sec)/int64(p) + 1) * int64(p)
			if got := ts[i].NextCallTime(); got != next {
				t.Errorf("timer %v: next = %d, want %d (phase kept)", p, got, next)
			}
		}
	})
	t.Run("R23/first clock 0", func(t *testing.T) {
		f := newROS(t, true, 0)
		n := 0
		tm := newTimer(t, f.q, time.Second, func(timer.Info) { n++ })
		f.set(0)
		for ns := int64(0); ns < sec; ns += sec / 10 {
			f.set(ns)
			dispatch(t, f.q)
		}
		if n != 0 {
			t.Fatalf("%d calls before one period", n)
		}
		f.set(sec)
		dispatch(t, f.q)
		if n != 1 || tm.NextCallTime() != 2*sec {
			t.Errorf("at 1 s: %d calls, next %d; want 1, 2 s", n, tm.NextCallTime())
		}
	})
}

// dispatch calls the ready timers of q the way the executor does.
func dispatch(t testing.TB, q *timer.Queue) int {
	t.Helper()
	n := 0
	for _, tm := range q.AppendReady(nil) {
		if tm.IsReady() {
			mustCall(t, tm)
			n++
		}
	}
	return n
}

// R24: cancel and reset (rcl:rcl/test/rcl/test_timer.cpp:502-560, rcl:rcl/test/rcl/test_timer.cpp:882-912, derived from rcl:rcl/src/rcl/timer.c:426-479, derived from rcl:rcl/src/rcl/timer.c:328-381,
// rclpy:rclpy/test/test_timer.py:172-198).
func TestR24CancelReset(t *testing.T) {
	fc := virtualclock.New()
	q := timer.NewQueue(fc.Steady())
	// rcl:rcl/test/rcl/test_timer.cpp:502-520, rclpy:rclpy/test/test_timer.py:185-192
	t.Run("R24/autostart false", func(t *testing.T) {
		tm, err := q.New(time.Second, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		if !tm.IsCanceled() {
			t.Error("autostart=false: not canceled")
		}
		if _, ok := tm.TimeUntilNextCall(); ok {
			t.Error("time_until of a canceled timer: ok")
		}
		tm.Reset() // rclpy:rclpy/test/test_timer.py:194-198
		if tm.IsCanceled() {
			t.Error("rclpy:rclpy/test/test_timer.py:194-198: canceled after reset")
		}
		tm.Cancel()
		tm.Cancel() // idempotent
		if !tm.IsCanceled() {
			t.Error("rclpy:rclpy/test/test_timer.py:194-198: not canceled after cancel")
		}
	})
	// rcl:rcl/test/rcl/test_timer.cpp:550-560, derived from rcl:rcl/src/rcl/timer.c:328-381
	t.Run("R24/canceled timer", func(t *testing.T) {
		tm := newTimer(t, q, 500, nil)
		tm.Cancel()
		fc.Advance(time.Second)
		if tm.IsReady() {
			t.Error("canceled timer ready")
		}
		if _, ok := tm.TimeUntilNextCall(); ok {
			t.Error("rcl:rcl/test/rcl/test_timer.cpp:550-560: time_until ok on a canceled timer")
		}
		if d := tm.TimeSinceLastCall(); d != time.Second {
			t.Errorf("derived from rcl:rcl/src/rcl/timer.c:328-381: time_since_last_call = %v, want 1s", d)
		}
		if got := q.AppendReady(nil); len(got) != 0 {
			t.Errorf("ready = %v", got)
		}
	})
	// rcl:rcl/test/rcl/test_timer.cpp:892-912
	t.Run("R24/reset", func(t *testing.T) {
		n := 0
		tm := newTimer(t, q, time.Second, func(timer.Info) { n++ })
		mustCall(t, tm)
		mustCall(t, tm)
		x := until(t, tm)
		tm.Reset()
		y := until(t, tm)
		if !(y < x) || y != sec {
			t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:892-904: x %d, y %d; want y = 1 s < x", x, y)
		}
		tm.Cancel()
		if _, err := tm.Call(); !errors.Is(err, timer.ErrCanceled) || n != 2 {
			t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:906-912: err %v, count %d; want ErrCanceled, 2", err, n)
		}
		tm.Reset()
		mustCall(t, tm)
		if n != 3 {
			t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:906-912: count %d, want 3", n)
		}
	})
	// derived from rcl:rcl/src/rcl/timer.c:426-479
	t.Run("R24/reset keeps last_call", func(t *testing.T) {
		f := newROS(t, true, 1000)
		tm := newTimer(t, f.q, 100, nil)
		f.set(1050)
		tm.Reset()
		if next, d := tm.NextCallTime(), tm.TimeSinceLastCall(); next != 1150 || d != 50 {
			t.Errorf("next %d, since last %v; want 1150, 50ns", next, d)
		}
	})
	t.Run("R24/canceled timer never fires", func(t *testing.T) {
		n := 0
		tm := newTimer(t, q, time.Millisecond, func(timer.Info) { n++ })
		tm.Cancel()
		for range 10 {
			fc.Advance(time.Millisecond)
			dispatch(t, q)
		}
		if n != 0 {
			t.Errorf("%d calls of a canceled timer", n)
		}
		tm.Reset()
		fc.Advance(time.Millisecond)
		dispatch(t, q)
		if n != 1 {
			t.Errorf("%d calls after reset, want 1", n)
		}
	})
}

// R21: ExchangePeriod swaps the period without moving the deadline
// (derived from rcl:rcl/src/rcl/timer.c:383-406, rcl:rcl/test/rcl/test_timer.cpp:980-989).
func TestR21ExchangePeriod(t *testing.T) {
	f := newROS(t, true, 1000)
	tm := newTimer(t, f.q, 100, nil)
	old, err := tm.ExchangePeriod(300)
	if err != nil || old != 100 || tm.Period() != 300 {
		t.Fatalf("ExchangePeriod(300) = %v, %v; period %v", old, err, tm.Period())
	}
	if got := until(t, tm); got != 100 {
		t.Errorf("time_until = %d, want 100 (deadline not moved)", got)
	}
	f.set(1100)
	mustCall(t, tm)
	if got := tm.NextCallTime(); got != 1400 {
		t.Errorf("next = %d, want 1400", got)
	}
	tm.Reset()
	if got := tm.NextCallTime(); got != 1400 {
		t.Errorf("after reset: next = %d, want 1400", got)
	}
}

// R21: expected and actual call times (rcl:rcl/test/rcl/test_timer.cpp:998-1068, rclpy@rolling:rclpy/test/test_timer.py:250-322).
func TestR21Info(t *testing.T) {
	fc := virtualclock.New()
	ros := newROS(t, false, 0)
	for _, tc := range []struct {
		name string
		q    *timer.Queue
		adv  func(time.Duration)
		ct   simclock.ClockType
	}{
		{"steady", timer.NewQueue(fc.Steady()), fc.Advance, simclock.SteadyTime},
		{"system", timer.NewQueue(fc.System()), fc.Advance, simclock.SystemTime},
		{"ros", ros.q, func(d time.Duration) { ros.fc.Advance(d) }, simclock.ROSTime},
	} {
		t.Run("R21/"+tc.name, func(t *testing.T) {
			const p = 10 * time.Millisecond
			var infos []timer.Info
			tm := newTimer(t, tc.q, p, func(i timer.Info) { infos = append(infos, i) })
			tm.Reset()
			e0 := mustCall(t, tm)
			// rcl:rcl/test/rcl/test_timer.cpp:998-1013
			tc.adv(time.Duration(until(t, tm)))
			i1 := mustCall(t, tm)
			if ns(i1.ExpectedCallTime) != ns(e0.ExpectedCallTime)+int64(p) || ns(i1.ActualCallTime) < ns(i1.ExpectedCallTime) {
				t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:998-1013: %+v after %+v", i1, e0)
			}
			// rcl:rcl/test/rcl/test_timer.cpp:1040-1057: late by one period.
			tc.adv(time.Duration(until(t, tm)) + p)
			i2 := mustCall(t, tm)
			if late, _ := i2.ActualCallTime.Sub(i2.ExpectedCallTime); late < p {
				t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:1040-1057: actual - expected = %v, want >= %v", late, p)
			}
			// rcl:rcl/test/rcl/test_timer.cpp:1059-1068: the missed period was skipped.
			tc.adv(time.Duration(until(t, tm)))
			i3 := mustCall(t, tm)
			if ns(i3.ExpectedCallTime) != ns(i2.ExpectedCallTime)+2*int64(p) {
				t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:1059-1068: expected = %v, want %d", i3.ExpectedCallTime, ns(i2.ExpectedCallTime)+2*int64(p))
			}
			// rcl:rcl/test/rcl/test_timer.cpp:1076-1085
			before := tm.TimeSinceLastCall()
			tc.adv(time.Millisecond)
			if after := tm.TimeSinceLastCall(); after <= before {
				t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:1076-1085: time_since_last_call %v then %v", before, after)
			}
			// rclpy@rolling:rclpy/test/test_timer.py:250-322: the clock type is the timer's.
			for _, i := range append(infos, e0, i1) {
				if i.ActualCallTime.ClockType() != tc.ct || i.ExpectedCallTime.ClockType() != tc.ct || ns(i.ActualCallTime) <= 0 || ns(i.ExpectedCallTime) <= 0 {
					t.Errorf("rclpy@rolling:rclpy/test/test_timer.py:250-322: info %+v, want clock type %v and times > 0", i, tc.ct)
				}
			}
			// rcl:rcl/test/rcl/test_timer.cpp:1015-1030
			tm.Cancel()
			if _, err := tm.Call(); !errors.Is(err, timer.ErrCanceled) {
				t.Errorf("rcl:rcl/test/rcl/test_timer.cpp:1015-1030: err = %v", err)
			}
			if len(infos) != 4 {
				t.Errorf("callback ran %d times, want 4", len(infos))
			}
		})
	}
}

// spinFor runs e for d of virtual steady time and leaves the fake clock
// exactly d later: a stop timer on its own queue bounds the wait, and
// SpinUntil returns before calling anything due at the deadline.
func spinFor(t testing.TB, e *executor.Executor, fc *virtualclock.Clock, d time.Duration) {
	t.Helper()
	deadline := fc.SteadyNow() + int64(d)
	stop := timer.NewQueue(fc.Steady())
	if _, err := stop.New(d, nil, true); err != nil {
		t.Fatal(err)
	}
	e.AddQueue(stop)
	defer e.RemoveQueue(stop)
	if err := e.SpinUntil(context.Background(), func() bool { return fc.SteadyNow() >= deadline }); err != nil {
		t.Fatal(err)
	}
	if got := fc.SteadyNow(); got != deadline {
		t.Fatalf("spinFor: clock at %d, want %d", got, deadline)
	}
}

// rclpy:rclpy/test/test_timer.py:43-171: rclpy's timer tests on the virtual-time executor.
func TestPMExecutor(t *testing.T) {
	for _, p := range []time.Duration{100 * time.Millisecond, 10 * time.Millisecond, time.Millisecond} {
		t.Run(p.String(), func(t *testing.T) {
			fc := virtualclock.New()
			e := executor.New(executor.Config{Virtual: fc})
			defer e.Close()
			q := timer.NewQueue(fc.Steady())
			e.AddQueue(q)
			n := 0
			tm := newTimer(t, q, p, func(timer.Info) { n++ })
			spinFor(t, e, fc, p/2)
			if n != 0 {
				t.Errorf("rclpy:rclpy/test/test_timer.py:43-69: %d calls in p/2", n)
			}
			tm.Reset()
			n = 0
			spinFor(t, e, fc, 4*p+p/2)
			if n != 4 {
				t.Errorf("rclpy:rclpy/test/test_timer.py:72-101: %d calls in 4.5 p, want 4", n)
			}
			tm.Reset()
			n = 0
			spinFor(t, e, fc, 2*p+p/2)
			if n != 2 || tm.IsCanceled() {
				t.Errorf("rclpy:rclpy/test/test_timer.py:104-125: %d calls in 2.5 p, canceled %v; want 2, false", n, tm.IsCanceled())
			}
			tm.Cancel()
			n = 0
			spinFor(t, e, fc, 2*p+p/2)
			if n != 0 || !tm.IsCanceled() {
				t.Errorf("rclpy:rclpy/test/test_timer.py:127-135: %d calls, canceled %v; want 0, true", n, tm.IsCanceled())
			}
			tm.Reset()
			spinFor(t, e, fc, 2*p+p/2)
			if n != 2 || tm.IsCanceled() {
				t.Errorf("rclpy:rclpy/test/test_timer.py:137-143: %d calls, canceled %v; want 2, false", n, tm.IsCanceled())
			}
		})
	}
	// rclpy:rclpy/test/test_timer.py:154-174
	t.Run("time until next call", func(t *testing.T) {
		fc := virtualclock.New()
		e := executor.New(executor.Config{Virtual: fc})
		defer e.Close()
		q := timer.NewQueue(fc.Steady())
		e.AddQueue(q)
		tm := newTimer(t, q, time.Second, nil)
		spinFor(t, e, fc, 100*time.Millisecond)
		if got := until(t, tm); got > sec || got != 900*int64(time.Millisecond) {
			t.Errorf("rclpy:rclpy/test/test_timer.py:154-168: time_until = %d, want 0.9 s", got)
		}
		tm.Reset()
		if got := until(t, tm); tm.IsCanceled() || got != sec {
			t.Errorf("rclpy:rclpy/test/test_timer.py:169-171: time_until %d, canceled %v", got, tm.IsCanceled())
		}
		tm.Cancel()
		if _, ok := tm.TimeUntilNextCall(); ok || !tm.IsCanceled() {
			t.Error("rclpy:rclpy/test/test_timer.py:172-174: time_until of a canceled timer is not None")
		}
	})
}

// Remove takes a timer out for good; a removed timer is never ready in
// its queue again.
func TestQueueRemove(t *testing.T) {
	fc := virtualclock.New()
	q := timer.NewQueue(fc.Steady())
	a := newTimer(t, q, time.Millisecond, nil)
	b := newTimer(t, q, time.Millisecond, nil)
	q.Remove(a)
	q.Remove(a) // idempotent
	fc.Advance(time.Second)
	if got := q.AppendReady(nil); len(got) != 1 || got[0] != b || q.Len() != 1 {
		t.Errorf("ready = %v, len %d; want [b], 1", got, q.Len())
	}
}

// refTimer is one timer of the brute-force reference: rcl's timer.c
// state and arithmetic, scanned in O(n).
type refTimer struct {
	period, last, next, credit int64
	canceled, removed          bool
}

func (r *refTimer) call(now int64) timer.Info {
	// rcl's credit can put next before the epoch; Info reports it as 0.
	info := timer.Info{ExpectedCallTime: rosAt(max(r.next, 0)), ActualCallTime: rosAt(now)}
	r.last = now
	r.next += r.period
	if r.next <= now {
		if r.period == 0 {
			r.next = now
		} else {
			r.next += (1 + (now-r.next)/r.period) * r.period
		}
	}
	return info
}

// refJump is rcl's _rcl_timer_time_jump for every timer; it reports
// whether a wait set would be woken for an armed timer.
func refJump(ts []*refTimer, change simclock.ClockChange, before, after int64) (wake bool) {
	clockChange := change == simclock.ROSTimeActivated || change == simclock.ROSTimeDeactivated
	for _, r := range ts {
		if r.removed {
			continue
		}
		if clockChange && before != 0 {
			r.credit = r.next - before
		}
	}
	for _, r := range ts {
		switch {
		case r.removed:
		case clockChange:
			if after == 0 {
				continue
			}
			credit := r.credit
			r.credit = 0
			if credit != 0 {
				r.next = after - credit + r.period
				r.last = after - credit
			}
		case r.next <= after:
			wake = wake || !r.canceled
		case after < r.last:
			r.next = after + r.period
			r.last = after
		}
	}
	return wake
}

// TestHeapVsBruteForce drives 10 000 ROS-clock timers with random periods
// through a random mix of /clock steps, forward and backward jumps,
// activation and deactivation of sim time, cancels, resets, period
// exchanges, early calls and removals, and checks that the heap queue
// calls exactly what an O(n) scan with rcl's arithmetic calls, in the
// same order and with the same Info.
func TestHeapVsBruteForce(t *testing.T) {
	n, steps := 10_000, 3_000
	if testing.Short() {
		n, steps = 1_000, 1_000
	}
	if raceEnabled {
		steps = 1_000
	}
	rng := rand.New(rand.NewPCG(1, 2))
	f := newROS(t, true, 0)
	active, override := true, int64(0)
	now := func() int64 {
		if active {
			return override
		}
		return f.fc.System().Now().Nanoseconds()
	}
	var ts []*timer.Timer
	var ref []*refTimer
	index := map[*timer.Timer]int{}
	for i := range n {
		p := int64(time.Millisecond) + rng.Int64N(5*sec)
		switch {
		case i < 2:
			p = 0
		case i%97 == 0:
			p = int64(100 * time.Millisecond) // ties
		}
		tm := newTimer(t, f.q, time.Duration(p), nil)
		index[tm] = i
		ts = append(ts, tm)
		ref = append(ref, &refTimer{period: p, last: now(), next: now() + p})
	}
	jump := func(change simclock.ClockChange, apply func(), before int64) {
		f.wakes.Store(0)
		apply()
		if refJump(ref, change, before, now()) && f.wakes.Load() == 0 {
			t.Fatalf("no wake-up after a jump to %d that passed a deadline", now())
		}
	}
	setOverride := func(v int64) {
		v = max(v, 0)
		before := override
		override = v
		if !active {
			f.set(v) // stored silently
			return
		}
		if v == before {
			f.set(v) // no jump
			return
		}
		jump(simclock.ROSTimeNoChange, func() { f.set(v) }, before)
	}
	live := func() int {
		for {
			if i := rng.IntN(n); !ref[i].removed {
				return i
			}
		}
	}
	calls := 0
	for step := range steps {
		switch op := rng.IntN(100); {
		case op < 66: // the next deadline, as a simulator's /clock would reach it
			next, cur := int64(math.MaxInt64), now()
			for _, r := range ref {
				if !r.removed && !r.canceled && r.next > cur {
					next = min(next, r.next)
				}
			}
			if next == math.MaxInt64 {
				next = now() + sec
			}
			if rng.IntN(4) == 0 {
				next += rng.Int64N(int64(10 * time.Millisecond))
			}
			if active {
				setOverride(next)
			} else {
				f.fc.Advance(time.Duration(next - now()))
			}
		case op < 72: // backward jump
			if active {
				setOverride(now() - rng.Int64N(3*sec))
			} else {
				back, _ := simclock.TimeFromNanoseconds[simclock.System](now() - rng.Int64N(3*sec))
				f.fc.SetSystem(back) // not a jump: ignored by both
			}
		case op < 75: // forward jump
			if active {
				setOverride(now() + rng.Int64N(sec/2))
			} else {
				f.fc.Advance(time.Duration(rng.Int64N(sec / 2)))
			}
		case op < 80:
			i := live()
			ts[i].Cancel()
			ref[i].canceled = true
		case op < 85:
			i := live()
			ts[i].Reset()
			ref[i].next, ref[i].canceled = now()+ref[i].period, false
		case op < 88:
			i := live()
			p := rng.Int64N(3 * sec)
			old, err := ts[i].ExchangePeriod(time.Duration(p))
			if err != nil || int64(old) != ref[i].period {
				t.Fatalf("ExchangePeriod: %v, %v; want old %d", old, err, ref[i].period)
			}
			ref[i].period = p
		case op < 91: // an early call
			i := live()
			info, err := ts[i].Call()
			if ref[i].canceled {
				if !errors.Is(err, timer.ErrCanceled) {
					t.Fatalf("Call on canceled: %v", err)
				}
				break
			}
			if want := ref[i].call(now()); err != nil || info != want {
				t.Fatalf("step %d: early call of %d: %+v, %v; want %+v", step, i, info, err, want)
			}
		case op < 92:
			i := live()
			f.q.Remove(ts[i])
			ref[i].removed = true
		case op < 94: // sim time off and on, sometimes with a new value first
			before := now()
			if active {
				jump(simclock.ROSTimeDeactivated, func() { f.ros.DisableROSTimeOverride(); active = false }, before)
				f.fc.Advance(time.Duration(rng.Int64N(2 * sec)))
			} else {
				if rng.IntN(2) == 0 {
					setOverride(override + rng.Int64N(5*sec))
				}
				if rng.IntN(8) == 0 {
					setOverride(0)
				}
				jump(simclock.ROSTimeActivated, func() { f.ros.EnableROSTimeOverride(); active = true }, before)
			}
		default: // the same value again: no jump
			if active {
				setOverride(override)
			}
		}

		// One executor round: the ready timers in creation order.
		var want []int
		cur := now()
		for i, r := range ref {
			if !r.removed && !r.canceled && cur >= r.next {
				want = append(want, i)
			}
		}
		got := f.q.AppendReady(nil)
		if len(got) != len(want) {
			for i, r := range ref {
				if !r.removed && (ts[i].NextCallTime() != r.next || ts[i].IsCanceled() != r.canceled) {
					t.Logf("timer %d: %v; want next %d last %d canceled %v", i, ts[i], r.next, r.last, r.canceled)
					break
				}
			}
			t.Fatalf("step %d at %d: %d ready, want %d", step, now(), len(got), len(want))
		}
		for k, tm := range got {
			i := index[tm]
			if i != want[k] {
				t.Fatalf("step %d: ready[%d] = timer %d, want %d", step, k, i, want[k])
			}
			info := mustCall(t, tm)
			if w := ref[i].call(cur); info != w {
				t.Fatalf("step %d: timer %d: info %+v, want %+v", step, i, info, w)
			}
			calls++
		}
		if step%100 == 0 || step == steps-1 {
			for i, r := range ref {
				if r.removed {
					continue
				}
				tm := ts[i]
				if tm.NextCallTime() != r.next || tm.IsCanceled() != r.canceled ||
					int64(tm.TimeSinceLastCall()) != cur-r.last || tm.Period() != time.Duration(r.period) {
					t.Fatalf("step %d: timer %d: %v since last %v; want next %d, last %d, canceled %v",
						step, i, tm, tm.TimeSinceLastCall(), r.next, r.last, r.canceled)
				}
			}
			next, ok := f.q.Next()
			wantNext, wantOK := int64(math.MaxInt64), false
			for _, r := range ref {
				if !r.removed && !r.canceled {
					wantNext, wantOK = min(wantNext, r.next), true
				}
			}
			if ok != wantOK || (ok && next != wantNext) {
				t.Fatalf("step %d: Next = %d, %v; want %d, %v", step, next, ok, wantNext, wantOK)
			}
		}
	}
	if calls < steps/2 {
		t.Errorf("only %d calls in %d steps: the test does not exercise the queue", calls, steps)
	}
	t.Logf("%d timers, %d steps, %d calls", n, steps, calls)
}

// rcl's credit (R22) can put a deadline before the clock's epoch: a 3 s
// timer whose period is exchanged for 1 s (the deadline does not move,
// rcl:rcl/src/rcl/timer.c:383-406), then sim time switched on with the ROS value at 100 ms, gets
// next = 100 ms - 3 s + 1 s = -1.9 s (rcl/src/rcl/timer.c,
// _rcl_timer_time_jump; derived). The timer keeps rcl's value and phase;
// Info, whose times are never negative, reports the deadline as 0.
func TestCreditBeforeEpoch(t *testing.T) {
	f := newROS(t, false, 0)
	tm := newTimer(t, f.q, 3*time.Second, nil)
	if _, err := tm.ExchangePeriod(time.Second); err != nil {
		t.Fatal(err)
	}
	f.set(int64(100 * time.Millisecond)) // stored silently: the override is off
	f.ros.EnableROSTimeOverride()
	if got, want := tm.NextCallTime(), int64(-1900*time.Millisecond); got != want || !tm.IsReady() {
		t.Fatalf("after activation: next %d, ready %v; want %d, ready", got, tm.IsReady(), want)
	}
	info := mustCall(t, tm)
	if info.ExpectedCallTime != rosAt(0) || info.ActualCallTime != rosAt(int64(100*time.Millisecond)) {
		t.Errorf("Info %+v, want expected 0 (clamped), actual 100 ms", info)
	}
	if got, want := tm.NextCallTime(), int64(1100*time.Millisecond); got != want {
		t.Errorf("next after the call = %d, want %d (rcl's phase: -1.9 s + 3 periods)", got, want)
	}
}
