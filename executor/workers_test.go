package executor_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/inproc"
)

// With Workers > 1 the callbacks of one round run at the same time: four
// timers due together all enter their callbacks before any returns. A
// barrier proves it without measuring time.
func TestWorkersRunARoundConcurrently(t *testing.T) {
	exec := executor.New(executor.Config{Workers: 4})
	defer exec.Close()
	q := timer.NewQueue(exec.Steady())
	exec.AddQueue(q)

	const n = 4
	var inside, maxInside atomic.Int32
	all := make(chan struct{})
	var once sync.Once
	var calls atomic.Int32
	for range n {
		q.New(20*time.Millisecond, func(timer.Info) {
			now := inside.Add(1)
			for {
				m := maxInside.Load()
				if now <= m || maxInside.CompareAndSwap(m, now) {
					break
				}
			}
			if now == n {
				once.Do(func() { close(all) })
			}
			select {
			case <-all:
			case <-time.After(5 * time.Second): // a failure, not a timing assertion
			}
			inside.Add(-1)
			if calls.Add(1) == n {
				exec.Stop()
			}
		}, true)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := exec.Spin(ctx); err != nil {
		t.Fatal(err)
	}
	if got := maxInside.Load(); got != n {
		t.Fatalf("at most %d callbacks ran at once, want %d", got, n)
	}
}

// A round waits for all its callbacks: a timer never runs twice at once,
// however slow its callback, and subscriptions are dispatched too.
func TestWorkersNoCallbackRunsTwiceAtOnce(t *testing.T) {
	exec := executor.New(executor.Config{Workers: 3})
	defer exec.Close()
	q := timer.NewQueue(exec.Steady())
	exec.AddQueue(q)
	bus := inproc.NewBus()
	tr := bus.Connect("test")
	defer tr.Close()
	pub, _ := tr.Publisher("/t", "std_msgs/msg/Empty", transport.QoS{Depth: 10})
	sub, _ := tr.Subscribe("/t", "std_msgs/msg/Empty", transport.QoS{Depth: 10})
	var received atomic.Int32
	exec.Subscribe(sub, func(transport.Sample) { received.Add(1) })

	var running, overlaps, calls atomic.Int32
	tm, _ := q.New(time.Millisecond, func(timer.Info) {
		if running.Add(1) > 1 {
			overlaps.Add(1)
		}
		time.Sleep(3 * time.Millisecond) // slower than its period
		pub.Publish(context.Background(), []byte{0, 1, 0, 0})
		running.Add(-1)
		if calls.Add(1) == 20 {
			exec.Stop()
		}
	}, true)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := exec.Spin(ctx); err != nil {
		t.Fatal(err)
	}
	if overlaps.Load() != 0 {
		t.Fatalf("the timer callback overlapped itself %d times", overlaps.Load())
	}
	// Drain what the last rounds left queued.
	tm.Cancel()
	for spinSome(t, exec) {
	}
	if received.Load() < 19 {
		t.Fatalf("received %d samples of 20 published", received.Load())
	}
}
