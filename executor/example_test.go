package executor_test

import (
	"context"
	"fmt"
	"time"

	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/virtualclock"
)

// In virtual time the executor never sleeps: it moves the fake clock to
// the next deadline and calls the timer, so a simulated minute takes
// microseconds and every run is identical.
func ExampleExecutor_virtualTime() {
	fake := virtualclock.New()
	exec := executor.New(executor.Config{Virtual: fake})
	defer exec.Close()
	q := timer.NewQueue(exec.Steady())
	exec.AddQueue(q)

	calls := 0
	q.New(250*time.Millisecond, func(timer.Info) { calls++ }, true)
	q.New(time.Minute, func(timer.Info) { exec.Stop() }, true)

	began := fake.SteadyNow()
	exec.Spin(context.Background())
	fmt.Println(calls, "calls in", time.Duration(fake.SteadyNow()-began), "of virtual time")
	// Output:
	// 240 calls in 1m0s of virtual time
}

// SpinOnce runs one callback, waiting up to its timeout for one to be
// ready (rclcpp's spin_once, rclpy's spin_once): the loop a porter of
// "while ok: executor.spin_once(timeout_sec=0.1)" writes. A timeout is not
// an error; in virtual time the wait moves the fake clock.
func ExampleExecutor_SpinOnce() {
	fake := virtualclock.New()
	exec := executor.New(executor.Config{Virtual: fake})
	defer exec.Close()
	q := timer.NewQueue(exec.Steady())
	exec.AddQueue(q)
	began := fake.SteadyNow()
	q.New(250*time.Millisecond, func(timer.Info) {
		fmt.Println("tick at", time.Duration(fake.SteadyNow()-began))
	}, true)

	ctx := context.Background()
	for range 4 {
		ran, err := exec.SpinOnce(ctx, 100*time.Millisecond)
		fmt.Println("ran:", ran, "err:", err)
	}
	// Output:
	// ran: false err: <nil>
	// ran: false err: <nil>
	// tick at 250ms
	// ran: true err: <nil>
	// ran: false err: <nil>
}

// Stop is rclcpp's cancel(): it ends the spin in progress, and the same
// executor spins again later. A second spin while one runs is refused
// with ErrAlreadySpinning instead of racing the first.
func ExampleExecutor_Stop() {
	exec := executor.New(executor.Config{Virtual: virtualclock.New()})
	defer exec.Close()
	q := timer.NewQueue(exec.Steady())
	exec.AddQueue(q)
	calls := 0
	q.New(time.Second, func(timer.Info) {
		calls++
		if calls%2 == 0 {
			exec.Stop()
		}
		_, err := exec.SpinSome(context.Background()) // a nested spin
		if calls == 1 {
			fmt.Println(err)
			fmt.Println("spinning:", exec.IsSpinning())
		}
	}, true)

	for range 2 {
		err := exec.Spin(context.Background())
		fmt.Println("Spin returned", err, "after", calls, "calls; spinning:", exec.IsSpinning())
	}
	// Output:
	// executor: SpinSome called while already spinning
	// spinning: true
	// Spin returned <nil> after 2 calls; spinning: false
	// Spin returned <nil> after 4 calls; spinning: false
}

// SpinSome runs one round: every timer ready now and one sample per
// subscription (rclcpp's spin_some). It never waits, so a test drains an
// executor with it.
func ExampleExecutor_SpinSome() {
	fake := virtualclock.New()
	exec := executor.New(executor.Config{Virtual: fake})
	defer exec.Close()
	q := timer.NewQueue(exec.Steady())
	exec.AddQueue(q)
	for i := range 3 {
		q.New(time.Second, func(timer.Info) { fmt.Println("timer", i) }, true)
	}
	fake.Advance(time.Second)
	ran, _ := exec.SpinSome(context.Background())
	fmt.Println("ran:", ran)
	ran, _ = exec.SpinSome(context.Background())
	fmt.Println("ran:", ran)
	// Output:
	// timer 0
	// timer 1
	// timer 2
	// ran: true
	// ran: false
}

// IsSpinning is rclcpp's is_spinning(): true from the start of a spin
// method to its return, callbacks included.
func ExampleExecutor_IsSpinning() {
	fake := virtualclock.New()
	exec := executor.New(executor.Config{Virtual: fake})
	defer exec.Close()
	q := timer.NewQueue(exec.Steady())
	exec.AddQueue(q)
	q.New(time.Second, func(timer.Info) { fmt.Println("in a callback:", exec.IsSpinning()) }, true)
	fmt.Println("before:", exec.IsSpinning())
	exec.SpinOnce(context.Background(), -1)
	fmt.Println("after:", exec.IsSpinning())
	// Output:
	// before: false
	// in a callback: true
	// after: false
}
