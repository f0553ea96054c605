package executor_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/inproc"
	"github.com/simclock/simclock/virtualclock"
)

// spinMethods calls each spin method once, as a second spin would.
var spinMethods = []struct {
	name string
	spin func(context.Context, *executor.Executor) error
}{
	{"Spin", func(ctx context.Context, e *executor.Executor) error { return e.Spin(ctx) }},
	{"SpinUntil", func(ctx context.Context, e *executor.Executor) error {
		return e.SpinUntil(ctx, func() bool { return true })
	}},
	{"SpinOnce", func(ctx context.Context, e *executor.Executor) error { _, err := e.SpinOnce(ctx, 0); return err }},
	{"SpinSome", func(ctx context.Context, e *executor.Executor) error { _, err := e.SpinSome(ctx); return err }},
}

// configs are the executors the concurrency tests run on: virtual and
// real time, one worker and two.
func configs() []struct {
	name string
	cfg  func() executor.Config
} {
	return []struct {
		name string
		cfg  func() executor.Config
	}{
		{"virtual", func() executor.Config { return executor.Config{Virtual: virtualclock.New()} }},
		{"virtual/workers=2", func() executor.Config { return executor.Config{Virtual: virtualclock.New(), Workers: 2} }},
		{"real", func() executor.Config { return executor.Config{} }},
		{"real/workers=2", func() executor.Config { return executor.Config{Workers: 2} }},
	}
}

// A second spin while one runs is refused at once, with the method's name,
// and changes nothing; Stop then ends the first spin and the executor
// counts as spinning until it has returned. Ported from rclcpp's
// test_executors.cpp, spinWhileAlreadySpinning (there the second spin()
// throws std::runtime_error "spin() called while already spinning"),
// for every spin method. No sleeps: the first spin is held inside a
// callback while the others try.
func TestSpinWhileAlreadySpinning(t *testing.T) {
	for _, c := range configs() {
		t.Run(c.name, func(t *testing.T) {
			e := executor.New(c.cfg())
			defer e.Close()
			q := timer.NewQueue(e.Steady())
			e.AddQueue(q)
			inside, release := make(chan struct{}), make(chan struct{})
			var calls atomic.Int32
			newTimer(t, q, time.Millisecond, func(timer.Info) {
				if calls.Add(1) == 1 {
					close(inside)
					<-release
				}
			})
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a safety net
			defer cancel()
			spun := make(chan error, 1)
			go func() { spun <- e.Spin(ctx) }()
			<-inside
			if !e.IsSpinning() {
				t.Error("IsSpinning false inside a callback of Spin")
			}
			for _, m := range spinMethods {
				err := m.spin(ctx, e)
				if !errors.Is(err, executor.ErrAlreadySpinning) {
					t.Errorf("%s while spinning = %v, want ErrAlreadySpinning", m.name, err)
				} else if want := "executor: " + m.name + " called while already spinning"; err.Error() != want {
					t.Errorf("%s while spinning: %q, want %q", m.name, err, want)
				}
			}
			e.Stop()
			if !e.IsSpinning() {
				t.Error("IsSpinning false after Stop, before the stopped spin returned")
			}
			if err := (spinMethods[0].spin(ctx, e)); !errors.Is(err, executor.ErrAlreadySpinning) {
				t.Errorf("Spin after Stop, before the stopped spin returned = %v, want ErrAlreadySpinning", err)
			}
			close(release)
			if err := <-spun; err != nil {
				t.Errorf("the first Spin = %v, want nil after Stop", err)
			}
			if e.IsSpinning() {
				t.Error("IsSpinning true after Spin returned")
			}
			if n := calls.Load(); n != 1 {
				t.Errorf("%d calls; the refused spins ran callbacks", n)
			}
			// And it spins again.
			if err := e.SpinUntil(ctx, func() bool { return calls.Load() >= 3 }); err != nil {
				t.Errorf("SpinUntil after Stop = %v", err)
			}
		})
	}
}

// A spin method called from inside a callback is refused, as rclcpp's
// test_executor.cpp checks for spin_some_in_spin_some,
// spin_once_in_spin_once and
// spin_until_future_complete_in_spin_until_future_complete; the outer
// spin goes on.
func TestSpinInsideCallback(t *testing.T) {
	for _, m := range spinMethods {
		t.Run(m.name, func(t *testing.T) {
			fc := virtualclock.New()
			e := executor.New(executor.Config{Virtual: fc})
			defer e.Close()
			q := timer.NewQueue(e.Steady())
			e.AddQueue(q)
			ctx := context.Background()
			var inner error
			calls := 0
			newTimer(t, q, time.Millisecond, func(timer.Info) {
				if calls++; calls == 1 {
					inner = m.spin(ctx, e)
				} else {
					e.Stop() // ends the outer Spin
				}
			})
			fc.Advance(time.Millisecond)
			var err error
			switch m.name {
			case "Spin":
				err = e.Spin(ctx)
			case "SpinUntil":
				err = e.SpinUntil(ctx, func() bool { return calls >= 2 })
			case "SpinOnce":
				_, err = e.SpinOnce(ctx, 0)
			case "SpinSome":
				_, err = e.SpinSome(ctx)
			}
			if err != nil {
				t.Fatalf("outer %s = %v", m.name, err)
			}
			if want := "executor: " + m.name + " called while already spinning"; inner == nil || inner.Error() != want {
				t.Errorf("%s inside a callback = %v, want %q", m.name, inner, want)
			}
		})
	}
}

// rclcpp's test_executor.cpp, is_spinning: false before, true inside a
// callback of spin_some, false after.
func TestIsSpinning(t *testing.T) {
	fc := virtualclock.New()
	e := executor.New(executor.Config{Virtual: fc})
	defer e.Close()
	q := timer.NewQueue(e.Steady())
	e.AddQueue(q)
	if e.IsSpinning() {
		t.Fatal("IsSpinning before any spin")
	}
	var during *bool
	newTimer(t, q, time.Millisecond, func(timer.Info) { v := e.IsSpinning(); during = &v })
	fc.Advance(time.Millisecond)
	if !spinSome(t, e) {
		t.Fatal("SpinSome ran no callback")
	}
	if during == nil || !*during {
		t.Errorf("IsSpinning inside the callback = %v, want true", during)
	}
	if e.IsSpinning() {
		t.Error("IsSpinning after SpinSome returned")
	}
}

// rclcpp's test_executors.cpp, emptyExecutor: spin() on an executor with
// nothing to do, in real time, is ended by cancel() from another thread.
// Stop ends only a spin in progress, so it is repeated until the spin,
// which the goroutine may not have begun yet, returns: no sleep decides
// the outcome.
func TestStopEmptyExecutor(t *testing.T) {
	e := executor.New(executor.Config{})
	defer e.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a safety net
	defer cancel()
	spun := make(chan error, 1)
	go func() { spun <- e.Spin(ctx) }()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		e.Stop()
		select {
		case err := <-spun:
			if err != nil {
				t.Fatalf("Spin = %v, want nil after Stop", err)
			}
			if e.IsSpinning() {
				t.Error("IsSpinning after Spin returned")
			}
			return
		case <-tick.C:
		}
	}
}

// Many goroutines calling every spin method at once on one executor: at
// most one spin runs at a time (with one worker no two callbacks overlap;
// with two no callback overlaps itself), every other call returns
// ErrAlreadySpinning, and -race sees no race. Before spins were refused,
// two concurrent Spins raced on the round's scratch slice and, with
// Workers: 2, sometimes dereferenced a nil timer.
func TestConcurrentSpins(t *testing.T) {
	for _, c := range configs() {
		if c.cfg().Virtual != nil {
			continue // virtual time is for one goroutine; real time is what races
		}
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg()
			e := executor.New(cfg)
			defer e.Close()
			q := timer.NewQueue(e.Steady())
			e.AddQueue(q)
			tr := inproc.NewBus().Connect("t")
			defer tr.Close()
			pub, sub := pubSub(t, tr, "/x")

			var running, overlaps, calls atomic.Int32
			enter := func(own *atomic.Int32) {
				if own.Add(1) > 1 {
					overlaps.Add(1)
				}
				if n := running.Add(1); n > 1 && cfg.Workers <= 1 {
					overlaps.Add(1)
				}
			}
			leave := func(own *atomic.Int32) { running.Add(-1); own.Add(-1) }
			for i := range 4 {
				var own atomic.Int32
				newTimer(t, q, 0, func(timer.Info) { // period 0: always ready
					enter(&own)
					defer leave(&own)
					if calls.Add(1)%16 == 0 {
						e.Stop() // ends whichever spin is running
					}
					if i == 0 {
						_ = pub.Publish(context.Background(), []byte("s"))
					}
				})
			}
			var subOwn atomic.Int32
			e.Subscribe(sub, func(transport.Sample) { enter(&subOwn); leave(&subOwn) })

			ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a safety net
			defer cancel()
			var ok, refused atomic.Int32
			var wg sync.WaitGroup
			for g := range 6 {
				wg.Go(func() {
					for i := range 40 {
						var err error
						switch (g + i) % 5 {
						case 0:
							err = e.Spin(ctx)
						case 1:
							rounds := 0
							err = e.SpinUntil(ctx, func() bool { rounds++; return rounds > 3 })
						case 2:
							_, err = e.SpinOnce(ctx, 0)
						case 3:
							_, err = e.SpinOnce(ctx, time.Millisecond)
						case 4:
							_, err = e.SpinSome(ctx)
						}
						switch {
						case err == nil:
							ok.Add(1)
						case errors.Is(err, executor.ErrAlreadySpinning):
							refused.Add(1)
						default:
							t.Errorf("goroutine %d call %d: %v", g, i, err)
							return
						}
					}
				})
			}
			wg.Wait()
			if n := overlaps.Load(); n != 0 {
				t.Errorf("%d overlapping callbacks", n)
			}
			if ok.Load() == 0 || calls.Load() == 0 {
				t.Errorf("%d spins ran, %d callbacks; want some", ok.Load(), calls.Load())
			}
			if e.IsSpinning() {
				t.Error("IsSpinning after every spin returned")
			}
			t.Logf("%d spins ran, %d refused, %d callbacks", ok.Load(), refused.Load(), calls.Load())
		})
	}
}

// SpinOnce runs one callback per call, timers first in creation order,
// then subscriptions in subscription order (rclcpp's
// get_next_ready_executable), and never more: three ready timers and two
// samples take five calls; the sixth, with a timeout of 0, runs nothing,
// does not wait and does not move virtual time.
func TestSpinOnceOneCallback(t *testing.T) {
	fc := virtualclock.New()
	e := executor.New(executor.Config{Virtual: fc})
	defer e.Close()
	steady, system := timer.NewQueue(fc.Steady()), timer.NewQueue(fc.System())
	e.AddQueue(steady)
	e.AddQueue(system)
	tr := inproc.NewBus().Connect("t")
	defer tr.Close()
	pubA, subA := pubSub(t, tr, "/a")
	pubB, subB := pubSub(t, tr, "/b")
	var log []string
	newTimer(t, system, time.Millisecond, func(timer.Info) { log = append(log, "timer 1") })
	newTimer(t, steady, time.Millisecond, func(timer.Info) { log = append(log, "timer 2") })
	newTimer(t, system, time.Millisecond, func(timer.Info) { log = append(log, "timer 3") })
	e.Subscribe(subB, func(s transport.Sample) { log = append(log, "sub /b "+string(s.Data)) })
	e.Subscribe(subA, func(s transport.Sample) { log = append(log, "sub /a "+string(s.Data)) })
	publish(t, pubA, "a1")
	publish(t, pubB, "b1")
	fc.Advance(time.Millisecond)
	ctx := context.Background()
	for i := range 5 {
		n := len(log)
		if ran, err := e.SpinOnce(ctx, 0); !ran || err != nil || len(log) != n+1 {
			t.Fatalf("SpinOnce %d = %v, %v with %d callbacks; want one callback", i+1, ran, err, len(log)-n)
		}
	}
	want := []string{"timer 1", "timer 2", "timer 3", "sub /b b1", "sub /a a1"}
	if diff := cmp.Diff(want, log); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	before := fc.SteadyNow()
	if ran, err := e.SpinOnce(ctx, 0); ran || err != nil || fc.SteadyNow() != before {
		t.Errorf("SpinOnce(0) with nothing ready = %v, %v, virtual time moved %v; want false, nil, 0",
			ran, err, time.Duration(fc.SteadyNow()-before))
	}
}

// SpinOnce's timeout in virtual time: the wait moves the fake clock, to
// the next deadline when it comes first, else by exactly the timeout. A
// negative timeout waits until work is ready, and is ErrIdle when nothing
// can ever be. Its rclpy counterpart is test_executor.py's
// func_execution: a 0.1 s timer runs within spin_once(timeout_sec=1.23).
func TestSpinOnceTimeout(t *testing.T) {
	fc := virtualclock.New()
	e := executor.New(executor.Config{Virtual: fc})
	defer e.Close()
	q := timer.NewQueue(fc.Steady())
	e.AddQueue(q)
	ctx := context.Background()
	start := fc.SteadyNow()
	elapsed := func() time.Duration { return time.Duration(fc.SteadyNow() - start) }
	var at []time.Duration
	tm := newTimer(t, q, 100*time.Millisecond, func(timer.Info) { at = append(at, elapsed()) })

	if ran, err := e.SpinOnce(ctx, 1230*time.Millisecond); !ran || err != nil || elapsed() != 100*time.Millisecond {
		t.Errorf("SpinOnce(1.23 s) = %v, %v at %v; want the 0.1 s timer run at 100ms", ran, err, elapsed())
	}
	if ran, err := e.SpinOnce(ctx, 30*time.Millisecond); ran || err != nil || elapsed() != 130*time.Millisecond {
		t.Errorf("SpinOnce(30 ms) = %v, %v at %v; want a timeout at 130ms", ran, err, elapsed())
	}
	if ran, err := e.SpinOnce(ctx, -1); !ran || err != nil || elapsed() != 200*time.Millisecond {
		t.Errorf("SpinOnce(-1) = %v, %v at %v; want the timer at 200ms", ran, err, elapsed())
	}
	if diff := cmp.Diff([]time.Duration{100 * time.Millisecond, 200 * time.Millisecond}, at); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	tm.Cancel()
	if ran, err := e.SpinOnce(ctx, time.Second); ran || err != nil || elapsed() != 1200*time.Millisecond {
		t.Errorf("SpinOnce(1 s) with no timer = %v, %v at %v; want a timeout at 1.2s", ran, err, elapsed())
	}
	if ran, err := e.SpinOnce(ctx, -1); ran || !errors.Is(err, executor.ErrIdle) {
		t.Errorf("SpinOnce(-1) with nothing armed = %v, %v; want ErrIdle", ran, err)
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if ran, err := e.SpinOnce(canceled, -1); ran || !errors.Is(err, context.Canceled) {
		t.Errorf("SpinOnce with a done context = %v, %v; want context.Canceled", ran, err)
	}
}

// rclpy's test_executor.py, test_remove_node: a timer taken off the
// executor does not run in spin_once(timeout_sec=0.2).
func TestSpinOnceAfterRemoveQueue(t *testing.T) {
	fc := virtualclock.New()
	e := executor.New(executor.Config{Virtual: fc})
	defer e.Close()
	q := timer.NewQueue(fc.Steady())
	e.AddQueue(q)
	called := false
	newTimer(t, q, 100*time.Millisecond, func(timer.Info) { called = true })
	e.RemoveQueue(q)
	if ran, err := e.SpinOnce(context.Background(), 200*time.Millisecond); ran || err != nil || called {
		t.Errorf("SpinOnce = %v, %v, called %v; want nothing run", ran, err, called)
	}
}

// In real time SpinOnce(-1) is woken by a sample from another goroutine,
// a Stop from another goroutine ends it (it reports no callback), and a
// short timeout with nothing to do returns. Nothing here depends on the
// machine's speed: each step waits for an event, not for a duration.
func TestSpinOnceRealTime(t *testing.T) {
	e := executor.New(executor.Config{})
	defer e.Close()
	tr := inproc.NewBus().Connect("t")
	defer tr.Close()
	pub, sub := pubSub(t, tr, "/x")
	var got []string
	e.Subscribe(sub, func(s transport.Sample) { got = append(got, string(s.Data)) })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a safety net
	defer cancel()

	go func() {
		if err := pub.Publish(context.Background(), []byte("hello")); err != nil {
			t.Error(err)
		}
	}()
	if ran, err := e.SpinOnce(ctx, -1); !ran || err != nil {
		t.Fatalf("SpinOnce(-1) = %v, %v; want the sample handled", ran, err)
	}
	if diff := cmp.Diff([]string{"hello"}, got); diff != "" {
		t.Errorf("samples (-want +got):\n%s", diff)
	}

	if ran, err := e.SpinOnce(ctx, time.Millisecond); ran || err != nil {
		t.Errorf("SpinOnce(1 ms) with nothing to do = %v, %v; want false, nil", ran, err)
	}

	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for !e.IsSpinning() {
			time.Sleep(100 * time.Microsecond) // waits for an event; decides nothing
		}
		e.Stop()
	}()
	if ran, err := e.SpinOnce(ctx, -1); ran || err != nil {
		t.Errorf("SpinOnce(-1) ended by Stop = %v, %v; want false, nil", ran, err)
	}
	<-stopped
}

// rclcpp's test_executors.cpp, spinSome: with nothing to do spin_some
// returns at once; one ready entity runs once; two ready entities run
// once each. A round never waits and, in virtual time, never moves the
// clock.
func TestSpinSome(t *testing.T) {
	fc := virtualclock.New()
	e := executor.New(executor.Config{Virtual: fc})
	defer e.Close()
	tr := inproc.NewBus().Connect("t")
	defer tr.Close()
	pub1, sub1 := pubSub(t, tr, "/one")
	pub2, sub2 := pubSub(t, tr, "/two")
	count := map[string]int{}
	e.Subscribe(sub1, func(transport.Sample) { count["one"]++ })
	before := fc.SteadyNow()
	if spinSome(t, e) || fc.SteadyNow() != before {
		t.Fatal("SpinSome with nothing to do ran a callback or moved the clock")
	}
	publish(t, pub1, "x")
	if !spinSome(t, e) || count["one"] != 1 {
		t.Errorf("one ready: %v", count)
	}
	e.Subscribe(sub2, func(transport.Sample) { count["two"]++ })
	publish(t, pub1, "x")
	publish(t, pub2, "x")
	if !spinSome(t, e) || fmt.Sprint(count) != "map[one:2 two:1]" {
		t.Errorf("two ready: %v", count)
	}
	if fc.SteadyNow() != before {
		t.Error("SpinSome moved virtual time")
	}
}
