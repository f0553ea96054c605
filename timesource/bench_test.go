package timesource_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/internal/benchround"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/timesource"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/inproc"
	"github.com/simclock/simclock/virtualclock"
)

// BenchmarkIngest measures /clock updates applied per second: decode,
// set on every attached ROS clock, run the clocks' jump callbacks (the
// timer queues' R22 check). Each update moves time 1 ms forward. Timers
// (random periods of 1 ms to 10 s) are spread over the clocks' queues.
// Two baselines run in the same process: "bare_ingest", the same work
// written as plainly as it can be for one clock (decode the CDR bytes,
// check them, store the time in an atomic, compare it with the earliest
// timer deadline and signal a waiting executor when it is due), and
// "atomic_store", a bare atomic store, the floor any override update
// pays. allocs/op is allocations per update (target 0).
func BenchmarkIngest(b *testing.B) {
	b.Run("baseline=atomic_store", func(b *testing.B) {
		var v atomic.Int64
		var i int64
		b.ReportAllocs()
		for b.Loop() {
			i += int64(time.Millisecond)
			v.Store(i)
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "updates/s")
	})
	b.Run("baseline=bare_ingest", func(b *testing.B) {
		step := bareIngest(b)
		b.ReportAllocs()
		for b.Loop() {
			step(1)
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "updates/s")
	})
	for _, clocks := range []int{1, 10, 100} {
		for _, timers := range []int{1_000, 100_000} {
			b.Run(fmt.Sprintf("clocks=%d/timers=%d", clocks, timers), func(b *testing.B) {
				step, check := ingest(b, clocks, timers)
				defer check()
				b.ReportAllocs()
				for b.Loop() {
					step(1)
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "updates/s")
			})
		}
	}
	// The README's rows: the figure and its baselines alternately in 2 ms
	// segments (internal/benchround; -benchtime Nx is N rounds), each
	// measured in its thread's CPU time (Config.ThreadCPU), ratio_bare
	// over bare_ingest and, for 100 clocks, ratio_one over 1 clock with
	// 1 000 timers; updates/s and bare_updates/s are the rounds' medians.
	for _, clocks := range []int{1, 100} {
		b.Run(fmt.Sprintf("interleaved/clocks=%d", clocks), func(b *testing.B) {
			fig, check := ingest(b, clocks, 1000*clocks)
			defer check()
			// Past every timer's first deadline (10 s), so that each side
			// starts from the state it keeps.
			fig(20_000)
			sides := []benchround.Side{{Run: fig}, {Name: "bare", Run: bareIngest(b)}}
			if clocks > 1 {
				one, checkOne := ingest(b, 1, 1000)
				defer checkOne()
				one(20_000)
				sides = append(sides, benchround.Side{Name: "one", Run: one})
			}
			res := benchround.Run(b, benchround.Config{ThreadCPU: true}, sides[0], sides[1:]...)
			if perOp := res.PerOp; perOp["fig"] > 0 {
				b.ReportMetric(1e9/perOp["fig"], "updates/s")
				b.ReportMetric(1e9/perOp["bare"], "bare_updates/s")
			}
		})
	}
	// End to end on the in-process bus and a virtual-time executor: one
	// publish and one round per update (the bus copies each payload).
	b.Run("inproc+executor/clocks=1/timers=1000", func(b *testing.B) {
		fc := virtualclock.New()
		e := executor.New(executor.Config{Virtual: fc})
		defer e.Close()
		bus := inproc.NewBus()
		tr, sim := bus.Connect("n"), bus.Connect("sim")
		defer tr.Close()
		defer sim.Close()
		ts := timesource.New(tr, e.Subscribe, timesource.Options{})
		defer ts.Close()
		c := simclock.NewROSClockOn(fc.System(), fc.Steady())
		ts.AttachClock(c)
		q := armTimers(b, c, 1_000, rand.New(rand.NewPCG(1, 1)))
		defer q.Close()
		if err := ts.SetUseSimTime(true); err != nil {
			b.Fatal(err)
		}
		pub, err := sim.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		buf := make([]byte, 0, timemsg.ClockSize)
		var ns int64
		b.ReportAllocs()
		for b.Loop() {
			ns += int64(time.Millisecond)
			buf = timemsg.AppendClock(buf[:0], timemsg.Clock{Clock: timemsg.Time{Sec: int32(ns / 1e9), Nanosec: uint32(ns % 1e9)}})
			if err := pub.Publish(ctx, buf); err != nil {
				b.Fatal(err)
			}
			if _, err := e.SpinSome(ctx); err != nil {
				b.Fatal(err)
			}
		}
		if got := c.Now().Nanoseconds(); got != ns {
			b.Fatalf("clock at %d, want %d", got, ns)
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "updates/s")
	})
}

func armTimers(b *testing.B, c *simclock.ROSClock, n int, rng *rand.Rand) *timer.Queue {
	q := timer.NewQueue[simclock.ROS](c)
	for range n {
		if _, err := q.New(time.Duration(1+rng.Int64N(int64(10*time.Second))), nil, true); err != nil {
			b.Fatal(err)
		}
	}
	return q
}

// ingest sets up clocks ROS clocks with timers timers spread over their
// queues, attached to one time source, and returns step, which applies n
// /clock updates (each 1 ms later than the last) through the source's
// Handle, and check, which fails b unless every clock reads the last.
func ingest(b *testing.B, clocks, timers int) (step func(n int), check func()) {
	fc := virtualclock.New()
	tr := inproc.NewBus().Connect("n")
	b.Cleanup(func() { tr.Close() }) //nolint:errcheck // benchmark teardown
	// Handle is called directly: no subscription dispatch in the loop.
	ts := timesource.New(tr, func(transport.Subscription, func(transport.Sample)) func() { return func() {} }, timesource.Options{})
	b.Cleanup(func() { ts.Close() }) //nolint:errcheck // benchmark teardown
	rng := rand.New(rand.NewPCG(1, 1))
	var cs []*simclock.ROSClock
	for i := range clocks {
		c := simclock.NewROSClockOn(fc.System(), fc.Steady())
		ts.AttachClock(c)
		cs = append(cs, c)
		n := timers / clocks
		if i < timers%clocks {
			n++
		}
		q := armTimers(b, c, n, rng)
		b.Cleanup(func() { q.Close() }) //nolint:errcheck // benchmark teardown
	}
	if err := ts.SetUseSimTime(true); err != nil {
		b.Fatal(err)
	}
	s := transport.Sample{Data: make([]byte, 0, timemsg.ClockSize), Publisher: "sim/pub1"}
	var ns int64
	step = func(n int) {
		for range n {
			ns += int64(time.Millisecond)
			s.Data = timemsg.AppendClock(s.Data[:0], timemsg.Clock{Clock: timemsg.Time{Sec: int32(ns / 1e9), Nanosec: uint32(ns % 1e9)}})
			ts.Handle(s)
		}
	}
	check = func() {
		for _, c := range cs {
			if got := c.Now().Nanoseconds(); got != ns {
				b.Fatalf("clock at %d, want %d", got, ns)
			}
		}
		if st := ts.Stats(); st.Applied != st.Received || st.Malformed != 0 {
			b.Fatalf("Stats %+v", st)
		}
	}
	return step, check
}

// bareIngest returns the baseline's step: n updates of the same work
// written as plainly as it can be for one clock (decode the CDR bytes,
// check them, store the time in an atomic, compare it with the earliest
// of 1 000 timer deadlines and signal a waiting executor when it is due).
func bareIngest(b *testing.B) func(n int) {
	var cell atomic.Int64
	wake := make(chan struct{}, 1) // a waiting executor's wake-up
	// The earliest of 1 000 timer deadlines, as a heap's top.
	rng := rand.New(rand.NewPCG(1, 1))
	earliest := int64(math.MaxInt64)
	for range 1000 {
		earliest = min(earliest, 1+rng.Int64N(int64(10*time.Second)))
	}
	data := make([]byte, 0, timemsg.ClockSize)
	var ns int64
	return func(n int) {
		for range n {
			ns += int64(time.Millisecond)
			data = timemsg.AppendClock(data[:0], timemsg.Clock{Clock: timemsg.Time{Sec: int32(ns / 1e9), Nanosec: uint32(ns % 1e9)}})
			// Decode and check: the 4-byte encapsulation header, then
			// sec and nanosec little endian, nanosec below 1e9.
			if len(data) < 12 || data[0] != 0 || data[1] != 1 {
				b.Fatal("bad header")
			}
			sec, nsec := int64(int32(binary.LittleEndian.Uint32(data[4:]))), int64(binary.LittleEndian.Uint32(data[8:]))
			if nsec >= 1e9 || sec < 0 {
				b.Fatal("bad time")
			}
			t := sec*1e9 + nsec
			if t < cell.Load() {
				b.Fatal("backwards")
			}
			cell.Store(t)
			if earliest <= t { // a timer is due: wake the executor
				select {
				case wake <- struct{}{}:
				default:
				}
			}
		}
	}
}
