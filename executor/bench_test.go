package executor_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/virtualclock"
)

// BenchmarkDispatch measures timer dispatch in virtual time: each
// iteration is one executor round (advance the fake clock to the next
// deadline, call every ready timer). Timers have random periods of 1 ms
// to 1 s on the steady clock; the metric is timer callbacks per second.
func BenchmarkDispatch(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprintf("timers=%d", n), func(b *testing.B) {
			fc := virtualclock.New()
			e := executor.New(executor.Config{Virtual: fc})
			q := timer.NewQueue(fc.Steady())
			e.AddQueue(q)
			rng := rand.New(rand.NewPCG(1, 1))
			var calls int64
			cb := func(timer.Info) { calls++ }
			for range n {
				if _, err := q.New(time.Duration(1+rng.IntN(1000))*time.Millisecond, cb, true); err != nil {
					b.Fatal(err)
				}
			}
			ctx := context.Background()
			var target int64
			done := func() bool { return calls >= target }
			b.ReportAllocs()
			for b.Loop() {
				target = calls + 1
				if err := e.SpinUntil(ctx, done); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(calls)/b.Elapsed().Seconds(), "callbacks/s")
			b.ReportMetric(float64(calls)/float64(b.N), "callbacks/round")
		})
	}
}
