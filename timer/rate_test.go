package timer_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/virtualclock"
)

// manualClock is a clock the test moves by hand; SleepUntil records the
// target and jumps there at once (virtual time, no sleeping).
type manualClock[K simclock.Kind] struct {
	now   int64
	slept []int64
	err   error // returned by SleepUntil when set
}

func (c *manualClock[K]) Now() simclock.Time[K] {
	t, _ := simclock.TimeFromNanoseconds[K](c.now)
	return t
}

func (c *manualClock[K]) SleepUntil(ctx context.Context, t simclock.Time[K]) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if c.err != nil {
		return c.err
	}
	c.slept = append(c.slept, t.Nanoseconds())
	c.now = max(c.now, t.Nanoseconds())
	return nil
}

// rclcpp's Rate::sleep, step by step (rclcpp:rclcpp/src/rclcpp/rate.cpp:42-90,
// rclcpp:rclcpp/test/rclcpp/test_rate.cpp:41-93).
func TestRateAlgorithm(t *testing.T) {
	ctx := context.Background()
	type step struct {
		at        int64 // clock before the call; -1 keeps it
		reset     bool
		wantOK    bool
		wantSlept int64 // the sleep target, or -1 for no sleep
	}
	for _, tc := range []struct {
		rule, name string
		period     int64
		steps      []step
	}{
		{"derived from rclcpp:rclcpp/src/rclcpp/rate.cpp:42-90", "late then on time", 100, []step{
			{150, false, false, -1}, // next 100 <= 150: no sleep, last 100
			{160, false, true, 200},
		}},
		{"derived from rclcpp:rclcpp/src/rclcpp/rate.cpp:42-90", "more than a cycle missed re-phases", 100, []step{
			{350, false, false, -1}, // 350 > 100 + 100: last := 450
			{-1, false, true, 450},  // now 350 < last 450: next = now + period
		}},
		{"rclcpp:rclcpp/test/rclcpp/test_rate.cpp:41-77", "phase kept across work", int64(time.Second), []step{
			{-1, false, true, int64(time.Second)},
			{int64(1500 * time.Millisecond), false, true, 2 * sec},
		}},
		{"rclcpp:rclcpp/test/rclcpp/test_rate.cpp:79-86", "reset restarts the cycle", int64(time.Second), []step{
			{int64(500 * time.Millisecond), true, true, int64(1500 * time.Millisecond)},
		}},
		{"rclcpp:rclcpp/test/rclcpp/test_rate.cpp:88-93", "late by half a cycle: false at once", int64(time.Second), []step{
			{int64(1500 * time.Millisecond), false, false, -1},
			{-1, false, true, 2 * sec},
		}},
		{"rclcpp:rclcpp/src/rclcpp/rate.cpp:42-90", "exactly on the deadline is late", 100, []step{
			{100, false, false, -1},
			{-1, false, true, 200},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) { // tc.rule says where the case comes from
			c := &manualClock[simclock.System]{}
			r, err := timer.NewRateEvery[simclock.System](c, time.Duration(tc.period))
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range tc.steps {
				if s.at >= 0 {
					c.now = s.at
				}
				if s.reset {
					r.Reset()
				}
				c.slept = nil
				ok, err := r.Sleep(ctx)
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				var slept int64 = -1
				if len(c.slept) > 0 {
					slept = c.slept[0]
				}
				if ok != s.wantOK || slept != s.wantSlept || len(c.slept) > 1 {
					t.Errorf("step %d at %d: Sleep = %v, slept until %v; want %v, %d", i, s.at, ok, c.slept, s.wantOK, s.wantSlept)
				}
			}
		})
	}
}

// Periods from rates, and bad rates (rclcpp:rclcpp/include/rclcpp/rate.hpp:139-146,
// rclcpp:rclcpp/test/rclcpp/test_rate.cpp:271-288, rclcpp:rclcpp/test/rclcpp/test_rate.cpp:350-370,
// rclpy:rclpy/rclpy/node.py:177).
func TestRatePeriod(t *testing.T) {
	c := &manualClock[simclock.Steady]{}
	for _, tc := range []struct {
		rule string
		hz   float64
		want time.Duration
	}{
		{"rclcpp:rclcpp/test/rclcpp/test_rate.cpp:271-288", 1, time.Second},
		{"rclcpp:rclcpp/test/rclcpp/test_rate.cpp:271-288", 2, 500 * time.Millisecond},
		{"rclcpp:rclcpp/test/rclcpp/test_rate.cpp:271-288", 0.5, 2 * time.Second},
		{"rclcpp:rclcpp/test/rclcpp/test_rate.cpp:271-288", 4, 250 * time.Millisecond},
		{"derived from rclpy:rclpy/rclpy/node.py:177", 3, 333333333},
		{"derived from rclpy:rclpy/rclpy/node.py:177", 7, 142857142},
	} {
		r, err := timer.NewRate[simclock.Steady](c, tc.hz)
		if err != nil || r.Period() != tc.want {
			t.Errorf("%s: NewRate(%v) period %v, %v; want %v", tc.rule, tc.hz, r.Period(), err, tc.want)
		}
	}
	for _, hz := range []float64{0, -1, math.NaN(), math.Inf(-1), 1e-300} {
		if _, err := timer.NewRate[simclock.Steady](c, hz); !errors.Is(err, timer.ErrBadRate) {
			t.Errorf("rclcpp:rclcpp/test/rclcpp/test_rate.cpp:350-370: NewRate(%v): err = %v, want ErrBadRate", hz, err)
		}
	}
	for _, p := range []time.Duration{0, -1} {
		if _, err := timer.NewRateEvery[simclock.Steady](c, p); !errors.Is(err, timer.ErrBadRate) {
			t.Errorf("rclcpp:rclcpp/test/rclcpp/test_rate.cpp:350-370: NewRateEvery(%v): err = %v, want ErrBadRate", p, err)
		}
	}
}

// A Rate on the fake steady clock sleeps until an advance reaches the end
// of the cycle, and a canceled context ends the sleep.
func TestRateSteadyFake(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // a safety net, not a timing assert
	defer cancel()
	fc := virtualclock.New()
	r, err := timer.NewRateEvery(fc.Steady(), 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	start := fc.SteadyNow()
	done := make(chan error, 1)
	go func() {
		ok, err := r.Sleep(ctx)
		if err == nil && !ok {
			err = errors.New("Sleep = false, want true")
		}
		done <- err
	}()
	if err := fc.WaitForSleepers(ctx, 1); err != nil {
		t.Fatal(err)
	}
	fc.Advance(100 * time.Millisecond)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := fc.SteadyNow() - start; got != int64(100*time.Millisecond) {
		t.Errorf("woke after %v, want 100ms", time.Duration(got))
	}

	sleepCtx, stop := context.WithCancel(ctx)
	go func() {
		_, err := r.Sleep(sleepCtx)
		done <- err
	}()
	if err := fc.WaitForSleepers(ctx, 1); err != nil {
		t.Fatal(err)
	}
	stop()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Sleep with a canceled context: err = %v, want context.Canceled", err)
	}
}

// signalClock reports each SleepUntil target before sleeping, so the test
// knows the sleeper is waiting before it publishes time.
type signalClock struct {
	*simclock.ROSClock
	entered chan int64
}

func (c signalClock) SleepUntil(ctx context.Context, t simclock.Time[simclock.ROS]) error {
	c.entered <- t.Nanoseconds()
	return c.ROSClock.SleepUntil(ctx, t)
}

// Rate.Sleep on a ROS clock in sim time: it is woken by override updates
// (R15), returns at the end of the cycle in ROS time, and returns false
// at once when /clock has already passed it.
func TestRateROSSimTime(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // a safety net
	defer cancel()
	f := newROS(t, true, 10*sec)
	c := signalClock{ROSClock: f.ros, entered: make(chan int64, 1)}
	const period = 100 * time.Millisecond
	r, err := timer.NewRateEvery[simclock.ROS](c, period)
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		ok  bool
		err error
		at  int64
	}
	sleep := func() chan result {
		ch := make(chan result, 1)
		go func() {
			ok, err := r.Sleep(ctx)
			ch <- result{ok, err, f.ros.Now().Nanoseconds()}
		}()
		return ch
	}
	v := 10 * sec
	for cycle := int64(1); cycle <= 3; cycle++ {
		ch := sleep()
		target := <-c.entered
		if want := 10*sec + cycle*int64(period); target != want {
			t.Fatalf("cycle %d: sleeps until %d, want %d", cycle, target, want)
		}
		// /clock in 10 ms steps up to the target and no further.
		for v < target {
			v += int64(10 * time.Millisecond)
			f.set(v)
		}
		res := <-ch
		if res.err != nil || !res.ok || res.at != target {
			t.Fatalf("cycle %d: Sleep = %v, %v at %d; want true at %d", cycle, res.ok, res.err, res.at, target)
		}
	}

	// /clock jumps 3 cycles ahead: false at once, no sleep, re-phased.
	v += 3 * int64(period)
	f.set(v)
	ok, err := r.Sleep(ctx)
	if ok || err != nil {
		t.Fatalf("late Sleep = %v, %v; want false, nil", ok, err)
	}
	select {
	case got := <-c.entered:
		t.Fatalf("late Sleep slept until %d", got)
	default:
	}
	ch := sleep()
	if target := <-c.entered; target != v+int64(period) {
		t.Errorf("after re-phase: sleeps until %d, want now + period = %d", target, v+int64(period))
	}
	f.set(v + int64(period))
	if res := <-ch; !res.ok || res.err != nil {
		t.Errorf("after re-phase: Sleep = %v, %v; want true", res.ok, res.err)
	}
}

// Sleep passes on the clock's error, such as a ROS clock's
// ErrTimeSourceChanged (R15), and reports false.
func TestRateSleepError(t *testing.T) {
	c := &manualClock[simclock.ROS]{err: simclock.ErrTimeSourceChanged}
	r, err := timer.NewRateEvery[simclock.ROS](c, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := r.Sleep(context.Background()); ok || !errors.Is(err, simclock.ErrTimeSourceChanged) {
		t.Errorf("Sleep = %v, %v; want false, ErrTimeSourceChanged", ok, err)
	}
}

// A loop behind schedule sees its cancellation: Sleep on a late cycle
// returns at once without sleeping, and with a done context it reports
// the cancellation instead of (false, nil). Upstream: rclpy's Rate.sleep
// raises ROSInterruptException when the context is shut down "before or
// during" the sleep (rclpy:rclpy/rclpy/timer.py:118-177); an rclcpp loop checks rclcpp::ok()
// each cycle, so it stops too.
func TestRateLateCycleSeesCancellation(t *testing.T) {
	fc := virtualclock.New()
	r, err := timer.NewRateEvery(fc.Steady(), 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	fc.Advance(350 * time.Millisecond) // three cycles late
	if ok, err := r.Sleep(ctx); ok || err != nil {
		t.Fatalf("late cycle, live context: Sleep = %v, %v; want false, nil", ok, err)
	}
	cancel()
	fc.Advance(350 * time.Millisecond)
	if ok, err := r.Sleep(ctx); ok || !errors.Is(err, context.Canceled) {
		t.Fatalf("late cycle, canceled context: Sleep = %v, %v; want false, context.Canceled", ok, err)
	}
	// An on-time cycle with a done context fails too, without sleeping.
	r.Reset()
	if ok, err := r.Sleep(ctx); ok || !errors.Is(err, context.Canceled) {
		t.Fatalf("on-time cycle, canceled context: Sleep = %v, %v", ok, err)
	}
	if fc.Sleepers() != 0 {
		t.Fatal("a canceled Sleep left a sleeper")
	}
}
