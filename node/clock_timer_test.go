package node_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/node"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport/inproc"
)

// rclcpp's test_create_timer.cpp: timer_executes (a 0 ms timer on the
// node's clock runs in spin_some and cancels itself),
// call_timer_with_bad_arguments (a negative or very negative period is
// refused; nanoseconds::max() - 1 µs and 0 are fine; here also a nil
// clock, rclcpp's null pointers) and timer_without_autostart (canceled,
// no next call until reset).
func TestCreateTimerOnUpstream(t *testing.T) {
	w := newWorld(t)
	n := w.node("test_create_timer_node", node.Options{})
	t.Run("timer_executes", func(t *testing.T) {
		got := false
		var tm *timer.Timer
		tm, err := node.CreateTimerOn(n, n.Clock(), 0, func(timer.Info) { got = true; tm.Cancel() })
		if err != nil {
			t.Fatal(err)
		}
		w.spinSome()
		if !got || !tm.IsCanceled() {
			t.Errorf("callback ran %v, canceled %v; want both", got, tm.IsCanceled())
		}
	})
	t.Run("call_timer_with_bad_arguments", func(t *testing.T) {
		for _, tc := range []struct {
			period time.Duration
			err    error
		}{
			{-time.Millisecond, timer.ErrNegativePeriod},
			{simclock.MinDuration, timer.ErrNegativePeriod},
			{simclock.MaxDuration - time.Microsecond, nil},
			{0, nil},
		} {
			tm, err := node.CreateTimerOn(n, n.Clock(), tc.period, func(timer.Info) {})
			if !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Errorf("period %v: %v, want %v", tc.period, err, tc.err)
			}
			if tm != nil {
				tm.Destroy()
			}
		}
		if _, err := node.CreateTimerOn[simclock.ROS](n, nil, time.Second, nil); !errors.Is(err, node.ErrNilClock) {
			t.Errorf("nil clock: %v, want ErrNilClock", err)
		}
		var nilROS *simclock.ROSClock
		if _, err := node.CreateTimerOn(n, nilROS, time.Second, nil); !errors.Is(err, node.ErrNilClock) {
			t.Errorf("nil *ROSClock: %v, want ErrNilClock", err)
		}
	})
	t.Run("timer_without_autostart", func(t *testing.T) {
		tm, err := node.CreateTimerOn(n, n.Clock(), 0, func(timer.Info) {}, node.Autostart(false))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := tm.TimeUntilNextCall(); ok || !tm.IsCanceled() {
			t.Errorf("without autostart: time until next ok %v, canceled %v; want false, true", ok, tm.IsCanceled())
		}
		tm.Reset()
		if _, ok := tm.TimeUntilNextCall(); !ok || tm.IsCanceled() {
			t.Errorf("after Reset: ok %v, canceled %v; want true, false", ok, tm.IsCanceled())
		}
		tm.Destroy()
	})
}

// A timer on a ROS clock the program drives itself, not the node's: it
// follows that clock's override (R19-R22), the executor dispatches it,
// and Close takes it off. Timers on the node's own clocks go to the
// node's queues (the R23 warning included).
func TestCreateTimerOnUserClock(t *testing.T) {
	w := newWorld(t)
	var warnings []error
	n := w.node("subject", node.Options{UseSimTime: true, OnWarning: func(err error) { warnings = append(warnings, err) }})
	replay := simclock.NewROSClockOn(w.e.System(), w.e.Steady())
	replay.EnableROSTimeOverride()
	set := func(ns int64) {
		v, err := simclock.TimeFromNanoseconds[simclock.ROS](ns)
		if err != nil {
			t.Fatal(err)
		}
		replay.SetROSTimeOverride(v)
	}
	set(10 * sec)
	var got []int64
	tm, err := node.CreateTimerOn(n, replay, time.Second, func(i timer.Info) { got = append(got, i.ActualCallTime.Nanoseconds()) })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := node.CreateTimerOn(n, replay, 5*time.Second, nil); err != nil { // the same clock's queue
		t.Fatal(err)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings for a timer on another clock: %v", warnings)
	}
	w.drain()
	set(11500 * int64(time.Millisecond)) // past the deadline: fires once (R22)
	w.drain()
	set(10200 * int64(time.Millisecond)) // back before the last call: a full period from now (R22)
	w.drain()
	set(11200 * int64(time.Millisecond))
	w.drain()
	want := []int64{11500 * int64(time.Millisecond), 11200 * int64(time.Millisecond)}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("calls at %v, want %v", got, want)
	}
	if next := tm.NextCallTime(); next != 12200*int64(time.Millisecond) {
		t.Errorf("next = %d, want 12.2 s", next)
	}

	// The node's own clocks: CreateTimer's warning, a wall timer.
	if _, err := node.CreateTimerOn(n, n.Clock(), time.Second, nil); err != nil || len(warnings) != 1 || !errors.Is(warnings[0], node.ErrUnstartedTimer) {
		t.Errorf("on the node's ROS clock: %v, warnings %v; want CreateTimer's R23 warning", err, warnings)
	}
	wall := 0
	if _, err := node.CreateTimerOn(n, w.e.Steady(), time.Second, func(timer.Info) { wall++ }); err != nil {
		t.Fatal(err)
	}
	w.fc.Advance(time.Second)
	w.drain()
	if wall != 1 {
		t.Errorf("%d calls of the steady timer after 1 s, want 1", wall)
	}

	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
	set(20 * sec)
	w.drain()
	if len(got) != 2 {
		t.Errorf("a timer ran after Close: %v", got)
	}
	if _, err := node.CreateTimerOn(n, replay, time.Second, nil); !errors.Is(err, node.ErrClosed) {
		t.Errorf("after Close: %v, want ErrClosed", err)
	}
}

// In real time, a jump of the caller's ROS clock from another goroutine
// wakes the spinning executor, which runs the timer at once: no sleep
// and no timing assertion, the spin ends when the callback has run.
func TestCreateTimerOnUserClockRealTime(t *testing.T) {
	e := executor.New(executor.Config{})
	defer e.Close()
	tr := inproc.NewBus().Connect("n")
	defer tr.Close()
	n, err := node.New("n", e, tr, node.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	c := simclock.NewROSClock()
	c.EnableROSTimeOverride() // reads 0 until set
	var at atomic.Int64
	if _, err := node.CreateTimerOn(n, c, time.Hour, func(i timer.Info) { at.Store(i.ActualCallTime.Nanoseconds()); e.Stop() }); err != nil {
		t.Fatal(err)
	}
	later, _ := simclock.NewTime[simclock.ROS](7200, 0)
	go func() {
		for !e.IsSpinning() {
			time.Sleep(100 * time.Microsecond) // waits for an event; decides nothing
		}
		c.SetROSTimeOverride(later)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a safety net
	defer cancel()
	if err := e.Spin(ctx); err != nil {
		t.Fatal(err)
	}
	if at.Load() != later.Nanoseconds() {
		t.Errorf("the timer ran at %d, want %d", at.Load(), later.Nanoseconds())
	}
}
