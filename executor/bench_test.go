package executor_test

import (
	"container/heap"
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
// "baseline=container_heap" does the same pops and pushes on a bare
// container/heap of deadlines in the same run: ns/callback of the two is
// the ratio scripts/bench reports (target ≤ 3).
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
			reportCalls(b, calls)
		})
	}
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprintf("baseline=container_heap/timers=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			h := make(deadlines, 0, n)
			for range n {
				p := int64(time.Duration(1+rng.IntN(1000)) * time.Millisecond)
				h = append(h, &deadline{next: p, period: p})
			}
			heap.Init(&h)
			var calls int64
			b.ReportAllocs()
			for b.Loop() {
				// One round: advance to the earliest deadline, pop every
				// due entry, push it back one period later.
				now := h[0].next
				for h[0].next <= now {
					d := heap.Pop(&h).(*deadline)
					calls++
					d.next += d.period
					heap.Push(&h, d)
				}
			}
			reportCalls(b, calls)
		})
	}
}

func reportCalls(b *testing.B, calls int64) {
	b.ReportMetric(float64(calls)/b.Elapsed().Seconds(), "callbacks/s")
	b.ReportMetric(float64(calls)/float64(b.N), "callbacks/round")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(calls), "ns/callback")
}

type deadline struct{ next, period int64 }

// deadlines is a heap of pointers, as the timer queue's is.
type deadlines []*deadline

func (h deadlines) Len() int           { return len(h) }
func (h deadlines) Less(i, j int) bool { return h[i].next < h[j].next }
func (h deadlines) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *deadlines) Push(x any)        { *h = append(*h, x.(*deadline)) }
func (h *deadlines) Pop() any {
	old := *h
	d := old[len(old)-1]
	*h = old[:len(old)-1]
	return d
}
