package simclock_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/internal/timetest"
	"github.com/simclock/simclock/virtualclock"
)

// Cancellation first: a sleep with a done context fails even when its
// target has passed. rclcpp's Clock::sleep_until checks the context
// before anything ("context cannot be slept with because it's invalid",
// clock.cpp; test_clock.cpp's invalid-context cases, rclcpp:rclcpp/test/rclcpp/test_time.cpp:691-710), and
// rclpy's Clock.sleep_until raises NotInitializedException when
// context.ok() is false before looking at the time (clock.py;
// test_clock.py rclpy:rclpy/test/test_clock.py:253-256, rclpy:rclpy/test/test_clock.py:259-262).
func TestSleepCancellationFirst(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	fake := virtualclock.New()
	past := func(ns int64) int64 { return ns - int64(time.Second) }

	active := simclock.NewROSClockOn(fake.System(), fake.Steady())
	active.EnableROSTimeOverride()
	active.SetROSTimeOverride(timetest.ROS(10 * sec))
	inactive := simclock.NewROSClockOn(fake.System(), fake.Steady())
	notStarted := simclock.NewROSClockOn(fake.System(), fake.Steady())
	notStarted.EnableROSTimeOverride()

	cases := []struct {
		name, ref string
		sleep     func(ctx context.Context) error
	}{
		{"system clock, past target", "rclcpp:rclcpp/test/rclcpp/test_time.cpp:691-710", func(ctx context.Context) error {
			c := simclock.SystemClock{}
			return c.SleepUntil(ctx, sysNS(past(c.Now().Nanoseconds())))
		}},
		{"steady clock, past target", "rclcpp:rclcpp/test/rclcpp/test_time.cpp:691-710", func(ctx context.Context) error {
			c := simclock.SteadyClock{}
			return c.SleepUntil(ctx, steadyNS(past(c.Now().Nanoseconds())))
		}},
		{"virtual steady, past target", "rclpy:rclpy/test/test_clock.py:253-256", func(ctx context.Context) error {
			return fake.Steady().SleepUntil(ctx, steadyNS(0))
		}},
		{"virtual system, past target", "rclpy:rclpy/test/test_clock.py:253-256", func(ctx context.Context) error {
			return fake.System().SleepUntil(ctx, sysNS(0))
		}},
		{"ROS, sim time, past target", "rclpy:rclpy/test/test_clock.py:253-256, rclcpp:rclcpp/test/rclcpp/test_time.cpp:691-710", func(ctx context.Context) error {
			return active.SleepUntil(ctx, timetest.ROS(5*sec))
		}},
		{"ROS, sim time, reached target", "rclpy:rclpy/test/test_clock.py:253-256", func(ctx context.Context) error {
			return active.SleepUntil(ctx, timetest.ROS(10*sec))
		}},
		{"ROS, system time, past target", "rclpy:rclpy/test/test_clock.py:253-256", func(ctx context.Context) error {
			return inactive.SleepUntil(ctx, timetest.ROS(sec))
		}},
		{"ROS sleep_for 0", "rclpy:rclpy/test/test_clock.py:259-262, rclcpp:rclcpp/test/rclcpp/test_time.cpp:691-710", func(ctx context.Context) error { return active.SleepFor(ctx, 0) }},
		{"ROS sleep_for -1 s", "rclpy:rclpy/test/test_clock.py:259-262", func(ctx context.Context) error { return active.SleepFor(ctx, -time.Second) }},
		{"ROS sleep_for after start, started", "rclpy:rclpy/test/test_clock.py:259-262", func(ctx context.Context) error { return active.SleepForAfterStart(ctx, 0) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.sleep(canceled); !errors.Is(err, context.Canceled) {
				t.Errorf("%s: done context: got %v, want context.Canceled", tc.ref, err)
			}
			// The same call with a live context returns nil at once.
			if err := tc.sleep(context.Background()); err != nil {
				t.Errorf("%s: live context: %v", tc.ref, err)
			}
		})
	}
	// R11: wait_until_started checks the context first, too
	// (rclcpp:rclcpp/src/rclcpp/clock.cpp:239-274).
	if ok, err := active.WaitUntilStarted(canceled, time.Second); !ok || !errors.Is(err, context.Canceled) {
		t.Errorf("WaitUntilStarted on a started clock, done context: %v, %v; want true, context.Canceled", ok, err)
	}
	// Not started: the safe sleep_for fails on the done context before
	// it would wait for the first /clock.
	if err := notStarted.SleepForAfterStart(canceled, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("sleep_for after start, not started: got %v, want context.Canceled", err)
	}
}

// The two forms of sleep_for before the first /clock (R15), when the
// simulator starts at 100 s. rcl's form computed its
// deadline from 0 and wakes at the first /clock; the safe form sleeps 5 s
// of sim time from it.
func TestSleepForBeforeFirstClock(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // a safety net
	defer cancel()
	for _, safe := range []bool{false, true} {
		c := simclock.NewROSClock()
		c.EnableROSTimeOverride()
		woke := make(chan int64, 1)
		go func() {
			var err error
			if safe {
				err = c.SleepForAfterStart(ctx, 5*time.Second)
			} else {
				err = c.SleepFor(ctx, 5*time.Second)
			}
			if err != nil {
				t.Error(err)
			}
			woke <- c.Now().Nanoseconds()
		}()
		// /clock from 100 s in 1 s steps, each only while the sleeper
		// waits, so the clock stops moving once it returned.
		var at int64
		for s := int64(100); at == 0; s++ {
			for simclock.Waiters(c) == 0 && at == 0 {
				select {
				case at = <-woke:
				case <-ctx.Done():
					t.Fatal(ctx.Err())
				default:
					time.Sleep(50 * time.Microsecond)
				}
			}
			if at == 0 {
				c.SetROSTimeOverride(timetest.ROS(s * sec))
			}
		}
		switch {
		case !safe && at != 100*sec:
			t.Errorf("rcl form: woke at %v, want at the first /clock (100 s: the deadline was 0 + 5 s)", time.Duration(at))
		case safe && at != 105*sec:
			t.Errorf("safe form: woke at %v, want 5 s after the first /clock (105 s)", time.Duration(at))
		}
	}
}

func sysNS(ns int64) simclock.Time[simclock.System] {
	t, _ := simclock.TimeFromNanoseconds[simclock.System](ns)
	return t
}

func steadyNS(ns int64) simclock.Time[simclock.Steady] {
	t, _ := simclock.TimeFromNanoseconds[simclock.Steady](ns)
	return t
}
