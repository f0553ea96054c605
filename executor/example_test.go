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
