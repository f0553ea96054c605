package executor_test

import (
	"container/heap"
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/internal/benchround"
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

// BenchmarkDispatchInterleaved is the README's row: the executor's
// dispatch and a bare timer loop (bareTimers: a container/heap of
// deadlines on a virtual clock, each due entry's callback called through
// a func value, then pushed back one period later) alternately in 2 ms
// segments (internal/benchround; -benchtime Nx is N rounds), each side
// calling at least n callbacks per step; the time per callback counts
// every callback called. Both run on the benchmark's goroutine (virtual
// time: the executor advances its fake clock itself), so a segment is
// measured in its thread's CPU time (benchround.Config.ThreadCPU).
// ratio_bare is the median over the rounds of the executor's time per
// callback over the bare loop's.
func BenchmarkDispatchInterleaved(b *testing.B) {
	const n = 100_000
	fc := virtualclock.New()
	e := executor.New(executor.Config{Virtual: fc})
	defer e.Close()
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
	dispatch := func(k int) {
		target = calls + int64(k)
		if err := e.SpinUntil(ctx, done); err != nil {
			b.Fatal(err)
		}
	}
	bare, bareCalls := bareTimers(n)
	// Past every timer's first deadline (1 s) on both sides.
	dispatch(2 * n)
	bare(2 * n)
	res := benchround.Run(b, benchround.Config{ThreadCPU: true},
		benchround.Side{Run: dispatch, Ops: func() int64 { return calls }},
		benchround.Side{Name: "bare", Run: bare, Ops: bareCalls})
	if _, ok := res.Ratio["bare"]; ok {
		b.ReportMetric(res.PerOp["fig"], "ns/callback")
		b.ReportMetric(res.PerOp["bare"], "bare_ns/callback")
	}
}

// bareTimers returns the baseline's step for n timers with the
// benchmark's periods: call k callbacks, each when the virtual clock (an
// atomic, as virtualclock's) reaches its deadline.
func bareTimers(n int) (step func(k int), count func() int64) {
	rng := rand.New(rand.NewPCG(1, 1))
	h := make(deadlines, 0, n)
	var calls int64
	cb := func() { calls++ }
	for range n {
		p := int64(time.Duration(1+rng.IntN(1000)) * time.Millisecond)
		h = append(h, &deadline{next: p, period: p, callback: cb})
	}
	heap.Init(&h)
	var clock atomic.Int64
	return func(k int) {
		target := calls + int64(k)
		for calls < target {
			// One round: advance to the earliest deadline, pop every due
			// entry, call it, push it back one period later.
			clock.Store(h[0].next)
			now := clock.Load()
			for h[0].next <= now {
				d := heap.Pop(&h).(*deadline)
				d.callback()
				d.next += d.period
				heap.Push(&h, d)
			}
		}
	}, func() int64 { return calls }
}

func reportCalls(b *testing.B, calls int64) {
	b.ReportMetric(float64(calls)/b.Elapsed().Seconds(), "callbacks/s")
	b.ReportMetric(float64(calls)/float64(b.N), "callbacks/round")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(calls), "ns/callback")
}

type deadline struct {
	next, period int64
	callback     func()
}

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
