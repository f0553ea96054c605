package executor_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/inproc"
	"github.com/simclock/simclock/virtualclock"
)

var qos10 = transport.QoS{Depth: 10}

func newTimer(t testing.TB, q *timer.Queue, period time.Duration, cb func(timer.Info)) *timer.Timer {
	t.Helper()
	tm, err := q.New(period, cb, true)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

func pubSub(t testing.TB, tr transport.Transport, topic string) (transport.Publisher, transport.Subscription) {
	t.Helper()
	pub, err := tr.Publisher(topic, "std_msgs/msg/String", qos10)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := tr.Subscribe(topic, "std_msgs/msg/String", qos10)
	if err != nil {
		t.Fatal(err)
	}
	return pub, sub
}

func publish(t testing.TB, pub transport.Publisher, s string) {
	t.Helper()
	if err := pub.Publish(context.Background(), []byte(s)); err != nil {
		t.Fatal(err)
	}
}

// The documented order: each round calls the timers ready at its start in
// creation order across queues, then takes at most one sample per
// subscription in subscription order; a sample published by a timer is
// handled in the same round, and a timer made ready by a sample runs in
// the next round.
func TestDispatchOrder(t *testing.T) {
	fc := virtualclock.New()
	e := executor.New(executor.Config{Virtual: fc})
	defer e.Close()
	tr := inproc.NewBus().Connect("t")
	defer tr.Close()
	steady := timer.NewQueue(fc.Steady())
	system := timer.NewQueue(fc.System())
	ros := simclock.NewROSClockOn(fc.System(), fc.Steady())
	ros.EnableROSTimeOverride() // sim time at 0
	rosQ := timer.NewQueue[simclock.ROS](ros)
	defer rosQ.Close()
	for _, q := range []*timer.Queue{rosQ, steady, system} {
		e.AddQueue(q)
	}
	start := fc.SteadyNow()
	var log []string
	rec := func(s string) { log = append(log, fmt.Sprintf("%dms %s", (fc.SteadyNow()-start)/1e6, s)) }

	pubA, subA := pubSub(t, tr, "/a")
	pubB, subB := pubSub(t, tr, "/b")
	newTimer(t, system, 10*time.Millisecond, func(timer.Info) {
		rec("timer A (system)")
		publish(t, pubA, "a1")
		publish(t, pubA, "a2")
		publish(t, pubB, "b1")
	})
	newTimer(t, steady, 10*time.Millisecond, func(timer.Info) { rec("timer B (steady)") })
	newTimer(t, system, 10*time.Millisecond, func(timer.Info) { rec("timer C (system)") })
	newTimer(t, rosQ, time.Second, func(i timer.Info) { rec(fmt.Sprintf("timer D (ros) at %d", i.ActualCallTime.Nanoseconds())) })
	// Subscribed /b first: subscription order, not topic order.
	e.Subscribe(subB, func(s transport.Sample) { rec("sub /b " + string(s.Data)) })
	e.Subscribe(subA, func(s transport.Sample) {
		rec("sub /a " + string(s.Data))
		if string(s.Data) == "a1" {
			ros.SetROSTimeOverride(rosTime(t, int64(time.Second)))
		}
	})
	if spinSome(t, e) {
		t.Fatal("work at time 0")
	}
	fc.Advance(10 * time.Millisecond)
	for spinSome(t, e) {
	}
	want := []string{
		"10ms timer A (system)",
		"10ms timer B (steady)",
		"10ms timer C (system)",
		"10ms sub /b b1",
		"10ms sub /a a1",
		"10ms timer D (ros) at 1000000000",
		"10ms sub /a a2",
	}
	if diff := cmp.Diff(want, log); diff != "" {
		t.Errorf("dispatch order (-want +got):\n%s", diff)
	}
}

// spinSome runs one round, failing the test on an error.
func spinSome(t testing.TB, e *executor.Executor) bool {
	t.Helper()
	ran, err := e.SpinSome(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return ran
}

func rosTime(t testing.TB, ns int64) simclock.Time[simclock.ROS] {
	v, err := simclock.TimeFromNanoseconds[simclock.ROS](ns)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// A timer canceled or reset by an earlier callback of the same round is
// not called in that round (R24).
func TestCancelWithinRound(t *testing.T) {
	fc := virtualclock.New()
	e := executor.New(executor.Config{Virtual: fc})
	defer e.Close()
	q := timer.NewQueue(fc.Steady())
	e.AddQueue(q)
	var log []string
	var b, c *timer.Timer
	newTimer(t, q, time.Millisecond, func(timer.Info) { log = append(log, "a"); b.Cancel(); c.Reset() })
	b = newTimer(t, q, time.Millisecond, func(timer.Info) { log = append(log, "b") })
	c = newTimer(t, q, time.Millisecond, func(timer.Info) { log = append(log, "c") })
	fc.Advance(time.Millisecond)
	spinSome(t, e)
	if diff := cmp.Diff([]string{"a"}, log); diff != "" {
		t.Errorf("round (-want +got):\n%s", diff)
	}
}

// A callback may destroy its own timer or one later in the round: neither
// runs again, and with every timer destroyed a virtual-time executor is
// idle (rclpy's destroy_timer, as its test_executor.py uses it).
func TestDestroyWithinRound(t *testing.T) {
	fc := virtualclock.New()
	e := executor.New(executor.Config{Virtual: fc})
	defer e.Close()
	q := timer.NewQueue(fc.Steady())
	e.AddQueue(q)
	var log []string
	var a, b *timer.Timer
	a = newTimer(t, q, time.Millisecond, func(timer.Info) { log = append(log, "a"); a.Destroy(); b.Destroy() })
	b = newTimer(t, q, time.Millisecond, func(timer.Info) { log = append(log, "b") })
	if err := e.Spin(context.Background()); !errors.Is(err, executor.ErrIdle) {
		t.Errorf("Spin = %v, want ErrIdle once every timer is destroyed", err)
	}
	if diff := cmp.Diff([]string{"a"}, log); diff != "" || q.Len() != 0 {
		t.Errorf("calls (-want +got):\n%s; Len %d, want 0", diff, q.Len())
	}
}

// scenario runs a small randomised system in virtual time and returns
// what happened when: timers of several periods on the steady, system and
// a ROS clock driven by a /clock-like publisher, and subscriptions.
func scenario(t *testing.T, seed uint64) []string {
	fc := virtualclock.New()
	e := executor.New(executor.Config{Virtual: fc})
	defer e.Close()
	bus := inproc.NewBus()
	tr := bus.Connect("s")
	defer tr.Close()
	rng := rand.New(rand.NewPCG(seed, seed))
	ros := simclock.NewROSClockOn(fc.System(), fc.Steady())
	ros.EnableROSTimeOverride()
	qs := []*timer.Queue{timer.NewQueue(fc.Steady()), timer.NewQueue(fc.System()), timer.NewQueue[simclock.ROS](ros)}
	defer qs[2].Close()
	for _, q := range qs {
		e.AddQueue(q)
	}
	start := fc.SteadyNow()
	var log []string
	rec := func(format string, args ...any) {
		log = append(log, fmt.Sprintf("%d %d ", fc.SteadyNow()-start, ros.Now().Nanoseconds())+fmt.Sprintf(format, args...))
	}
	pub, sub := pubSub(t, tr, "/data")
	clockPub, clockSub := pubSub(t, tr, "/tick")
	for i := range 20 {
		p := time.Duration(1+rng.IntN(50)) * time.Millisecond
		q := qs[rng.IntN(len(qs))]
		newTimer(t, q, p, func(info timer.Info) {
			rec("timer %d exp %d", i, info.ExpectedCallTime.Nanoseconds())
			if rng.IntN(3) == 0 {
				publish(t, pub, fmt.Sprint(i))
			}
		})
	}
	var simNow int64
	newTimer(t, qs[0], 5*time.Millisecond, func(timer.Info) {
		simNow += int64(time.Duration(1+rng.IntN(10)) * time.Millisecond)
		publish(t, clockPub, fmt.Sprint(simNow))
	})
	e.Subscribe(sub, func(s transport.Sample) { rec("data %s", s.Data) })
	e.Subscribe(clockSub, func(s transport.Sample) {
		var v int64
		fmt.Sscan(string(s.Data), &v)
		ros.SetROSTimeOverride(rosTime(t, v))
	})
	end := start + int64(500*time.Millisecond)
	if err := e.SpinUntil(context.Background(), func() bool { return fc.SteadyNow() >= end }); err != nil {
		t.Fatal(err)
	}
	return log
}

// Virtual time is deterministic: the same scenario twice gives the same
// calls at the same virtual instants.
func TestVirtualDeterminism(t *testing.T) {
	a, b := scenario(t, 7), scenario(t, 7)
	if len(a) < 100 {
		t.Fatalf("only %d events: the scenario does not exercise the executor", len(a))
	}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two runs differ (-first +second):\n%s", diff)
	}
}

// In virtual time Spin returns ErrIdle when nothing is left: no armed
// timer on a clock that moves by itself and no queued sample.
func TestErrIdle(t *testing.T) {
	ctx := context.Background()
	t.Run("empty", func(t *testing.T) {
		e := executor.New(executor.Config{Virtual: virtualclock.New()})
		if err := e.Spin(ctx); !errors.Is(err, executor.ErrIdle) {
			t.Errorf("Spin = %v, want ErrIdle", err)
		}
	})
	t.Run("canceled timers only", func(t *testing.T) {
		fc := virtualclock.New()
		e := executor.New(executor.Config{Virtual: fc})
		q := timer.NewQueue(fc.Steady())
		e.AddQueue(q)
		n := 0
		tm := newTimer(t, q, time.Millisecond, func(timer.Info) { n++ })
		if err := e.SpinUntil(ctx, func() bool { return n == 3 }); err != nil {
			t.Fatal(err)
		}
		tm.Cancel()
		if err := e.Spin(ctx); !errors.Is(err, executor.ErrIdle) {
			t.Errorf("Spin = %v, want ErrIdle", err)
		}
		if n != 3 {
			t.Errorf("%d calls, want 3", n)
		}
	})
	t.Run("sim-time ROS timer waits for /clock", func(t *testing.T) {
		fc := virtualclock.New()
		e := executor.New(executor.Config{Virtual: fc})
		ros := simclock.NewROSClockOn(fc.System(), fc.Steady())
		ros.EnableROSTimeOverride()
		q := timer.NewQueue[simclock.ROS](ros)
		defer q.Close()
		e.AddQueue(q)
		newTimer(t, q, time.Second, nil)
		before := fc.SteadyNow()
		if err := e.Spin(ctx); !errors.Is(err, executor.ErrIdle) {
			t.Errorf("Spin = %v, want ErrIdle", err)
		}
		if fc.SteadyNow() != before {
			t.Error("virtual time moved for a sim-time timer")
		}
	})
	t.Run("samples first", func(t *testing.T) {
		e := executor.New(executor.Config{Virtual: virtualclock.New()})
		tr := inproc.NewBus().Connect("t")
		defer tr.Close()
		pub, sub := pubSub(t, tr, "/x")
		var got []string
		e.Subscribe(sub, func(s transport.Sample) { got = append(got, string(s.Data)) })
		publish(t, pub, "1")
		publish(t, pub, "2")
		if err := e.Spin(ctx); !errors.Is(err, executor.ErrIdle) {
			t.Errorf("Spin = %v, want ErrIdle", err)
		}
		if diff := cmp.Diff([]string{"1", "2"}, got); diff != "" {
			t.Errorf("samples (-want +got):\n%s", diff)
		}
	})
}

// A canceled context ends a spin with its error, wrapped; Stop ends it
// right after the running callback (the rest of the round does not run),
// and the executor spins again afterwards, as after rclcpp's cancel()
// (test_timer.cpp, test_run_cancel_executor). A Stop while nothing spins
// does nothing.
func TestSpinStop(t *testing.T) {
	fc := virtualclock.New()
	e := executor.New(executor.Config{Virtual: fc})
	q := timer.NewQueue(fc.Steady())
	e.AddQueue(q)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	counter := newTimer(t, q, time.Millisecond, func(timer.Info) {
		if n++; n == 5 {
			cancel()
		}
	})
	if err := e.Spin(ctx); !errors.Is(err, context.Canceled) || n != 5 {
		t.Errorf("Spin = %v after %d calls; want context.Canceled after 5", err, n)
	}
	counter.Cancel()

	var order []string
	stops := 1
	newTimer(t, q, time.Millisecond, func(timer.Info) {
		order = append(order, "stop")
		if stops > 0 {
			stops--
			e.Stop()
		}
	})
	b := newTimer(t, q, time.Millisecond, func(timer.Info) { order = append(order, "after") })
	bg := context.Background()
	if err := e.Spin(bg); err != nil {
		t.Errorf("Spin ended by Stop = %v, want nil", err)
	}
	if diff := cmp.Diff([]string{"stop"}, order); diff != "" {
		t.Errorf("the spin Stop ended (-want +got):\n%s", diff)
	}
	if e.IsSpinning() || b.IsCanceled() {
		t.Errorf("after Stop: IsSpinning %v, the timer canceled %v; want false, false", e.IsSpinning(), b.IsCanceled())
	}
	// The same executor spins again; the timer Stop cut off runs first.
	if err := e.SpinUntil(bg, func() bool { return len(order) >= 4 }); err != nil {
		t.Fatalf("SpinUntil after Stop = %v", err)
	}
	if diff := cmp.Diff([]string{"stop", "after", "stop", "after"}, order); diff != "" {
		t.Errorf("the spin after Stop (-want +got):\n%s", diff)
	}
	e.Stop() // nothing spins: no effect on the next spin
	if err := e.SpinUntil(bg, func() bool { return len(order) >= 6 }); err != nil || len(order) != 6 {
		t.Errorf("SpinUntil after an idle Stop = %v with %d calls, want nil with 6", err, len(order))
	}
}

// Subscribe's remove stops dispatch, RemoveQueue stops timers, and in
// real time both stop their goroutines (goleak checks).
func TestSubscribeRemove(t *testing.T) {
	for _, virtual := range []bool{true, false} {
		t.Run(fmt.Sprintf("virtual=%v", virtual), func(t *testing.T) {
			fc := virtualclock.New()
			cfg := executor.Config{}
			if virtual {
				cfg.Virtual = fc
			}
			e := executor.New(cfg)
			defer e.Close()
			if e.Virtual() != virtual {
				t.Errorf("Virtual = %v", e.Virtual())
			}
			tr := inproc.NewBus().Connect("t")
			defer tr.Close()
			pub, sub := pubSub(t, tr, "/x")
			_, sub2 := pubSub(t, tr, "/y")
			n := 0
			remove := e.Subscribe(sub, func(transport.Sample) { n++ })
			e.Subscribe(sub2, func(transport.Sample) {}) // stopped by Close
			publish(t, pub, "1")
			if !spinSome(t, e) || n != 1 {
				t.Fatalf("sample not handled: n = %d", n)
			}
			remove()
			remove() // idempotent
			publish(t, pub, "2")
			if spinSome(t, e) || n != 1 {
				t.Errorf("sample handled after remove: n = %d", n)
			}
			q := timer.NewQueue(e.Steady())
			e.AddQueue(q)
			calls := 0
			newTimer(t, q, 0, func(timer.Info) { calls++ })
			spinSome(t, e)
			e.RemoveQueue(q)
			spinSome(t, e)
			if calls != 1 {
				t.Errorf("%d calls of a period-0 timer over two rounds with RemoveQueue between, want 1", calls)
			}
		})
	}
}

// Real time on the real steady clock: a short run checked against its own
// measurement (no machine-speed asserts), samples from another goroutine, and a ROS-clock
// jump from another goroutine waking the executor.
func TestRealTime(t *testing.T) {
	e := executor.New(executor.Config{})
	defer e.Close()
	if e.Virtual() {
		t.Fatal("Virtual() with no fake")
	}
	e1 := executor.New(executor.Config{}) // its own timers: the second part must not see them
	defer e1.Close()
	q := timer.NewQueue(e1.Steady())
	e1.AddQueue(q)
	var ticks atomic.Int64
	var lastExpected int64
	start := e1.Steady().Now().Nanoseconds()
	newTimer(t, q, 10*time.Millisecond, func(info timer.Info) {
		ticks.Add(1)
		// Missed periods are skipped, never replayed: each call is due
		// on a later period than the one before, and runs after it is due.
		late, err := info.ActualCallTime.Sub(info.ExpectedCallTime)
		if info.ActualCallTime.ClockType() != simclock.SteadyTime || err != nil || late < 0 || info.ExpectedCallTime.Nanoseconds() <= lastExpected {
			t.Errorf("info %+v after a call due at %d", info, lastExpected)
		}
		lastExpected = info.ExpectedCallTime.Nanoseconds()
		if ticks.Load() == 3 {
			e1.Stop()
		}
	})
	// Bounded by the run's own measurement, not the machine's speed: the
	// third call stops the spin (the context is a safety net).
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := e1.Spin(ctx); err != nil {
		t.Errorf("Spin = %v, want nil after Stop", err)
	}
	elapsed := e1.Steady().Now().Nanoseconds() - start
	if n := ticks.Load(); n != 3 || int64(n) > elapsed/int64(10*time.Millisecond) {
		t.Errorf("%d ticks of a 10 ms timer in %v", n, time.Duration(elapsed))
	}

	// Samples published by another goroutine wake the executor.
	tr := inproc.NewBus().Connect("t")
	defer tr.Close()
	pub, sub := pubSub(t, tr, "/x")
	got := 0
	e.Subscribe(sub, func(transport.Sample) { got++ })
	ros := simclock.NewROSClock()
	ros.EnableROSTimeOverride()
	rosQ := timer.NewQueue[simclock.ROS](ros)
	defer rosQ.Close()
	e.AddQueue(rosQ)
	var rosAt atomic.Int64
	newTimer(t, rosQ, time.Second, func(i timer.Info) { rosAt.Store(i.ActualCallTime.Nanoseconds()) })
	two := rosTime(t, 2*int64(time.Second))
	go func() {
		for i := range 5 {
			_ = pub.Publish(context.Background(), []byte{byte(i)})
		}
		ros.SetROSTimeOverride(two)
	}()
	ctx2, cancel2 := context.WithTimeout(context.Background(), 5*time.Second) // a safety net
	defer cancel2()
	if err := e.SpinUntil(ctx2, func() bool { return got == 5 && rosAt.Load() != 0 }); err != nil {
		t.Fatalf("SpinUntil: %v (got %d samples, ROS timer at %d)", err, got, rosAt.Load())
	}
	if rosAt.Load() != 2*int64(time.Second) {
		t.Errorf("ROS timer ran at %d, want 2 s", rosAt.Load())
	}
}

// Close and a subscription's remove may come in either order, and Close
// may be called twice.
func TestCloseThenRemove(t *testing.T) {
	for _, virtual := range []bool{true, false} {
		t.Run(fmt.Sprintf("virtual=%v", virtual), func(t *testing.T) {
			cfg := executor.Config{}
			if virtual {
				cfg.Virtual = virtualclock.New()
			}
			e := executor.New(cfg)
			tr := inproc.NewBus().Connect("t")
			defer tr.Close()
			_, sub := pubSub(t, tr, "/x")
			remove := e.Subscribe(sub, func(transport.Sample) {})
			if err := e.Close(); err != nil {
				t.Fatal(err)
			}
			remove()
			if err := e.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
