package simclock_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/internal/benchround"
	"github.com/simclock/simclock/internal/timetest"
)

// Sinks keep results alive so the compiler cannot drop the work.
var (
	sinkTime     simclock.Time[simclock.ROS]
	sinkAny      simclock.AnyTime
	sinkDuration time.Duration
	sinkInt      int
	sinkInt64    int64
	sinkBool     bool
	sinkErr      error
)

// Time arithmetic and comparisons (R4-R7): 0 allocations per op.
func BenchmarkTimeArithmetic(b *testing.B) {
	t1, t2 := timetest.ROS(1_700_000_000*sec), timetest.ROS(1_700_000_001*sec)
	a1, a2 := t1.Any(), t2.Any()
	benches := []struct {
		name string
		fn   func()
	}{
		{"Time.Add", func() { sinkTime, sinkErr = t1.Add(time.Millisecond) }},
		{"Time.Minus", func() { sinkTime, sinkErr = t1.Minus(time.Millisecond) }},
		{"Time.Sub", func() { sinkDuration = t2.Sub(t1) }},
		{"Time.Compare", func() { sinkInt = t1.Compare(t2) }},
		{"Time.Before", func() { sinkBool = t1.Before(t2) }},
		{"Time.Equal", func() { sinkBool = t1.Equal(t2) }},
		{"AnyTime.Add", func() { sinkAny, sinkErr = a1.Add(time.Millisecond) }},
		{"AnyTime.Sub", func() { sinkDuration, sinkErr = a2.Sub(a1) }},
		{"AnyTime.Compare", func() { sinkInt, sinkErr = a1.Compare(a2) }},
		{"AnyTime.Equal", func() { sinkBool, sinkErr = a1.Equal(a2) }},
		{"NewTime", func() { sinkTime, sinkErr = simclock.NewTime[simclock.ROS](1.001, 5) }},
		{"DurationOf", func() { sinkDuration, sinkErr = simclock.DurationOf(-0.5, 0) }},
		{"Time.Add_overflow_error", func() { sinkTime, sinkErr = timetest.ROS(1<<63 - 1).Add(1) }},
	}
	for _, bb := range benches {
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				bb.fn()
			}
		})
	}
}

// startWriter sets c's override at 1 kHz (and the same value in rcl,
// the baseline, and shadow) until the returned stop is called.
func startWriter(c *simclock.ROSClock, rcl *rclClock, shadow *atomic.Int64) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for ns := int64(1); ; ns++ {
			select {
			case <-done:
				return
			case <-tick.C:
				c.SetROSTimeOverride(timetest.ROS(ns * int64(time.Millisecond)))
				rcl.now.Store(ns * int64(time.Millisecond))
				shadow.Store(ns * int64(time.Millisecond))
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

// rclClock is rcl's ROS clock read written as plainly as it can be
// (rcl/src/rcl/time.c, rcl_get_ros_time: if the atomic "active" flag is
// set, load the atomic override time, else read the system time): the
// same work as ROSClock.Now with sim time on, the baseline of its rows.
type rclClock struct {
	active atomic.Bool
	now    atomic.Int64
}

func (r *rclClock) read() int64 {
	if r.active.Load() {
		return r.now.Load()
	}
	return time.Now().UnixNano()
}

// BenchmarkNowOverride measures ROSClock.Now with the override enabled,
// read by 1 and by 8 goroutines at once while one writer sets the
// override at 1 kHz, against two baselines run alternately with it in
// 2 ms segments (internal/benchround; -benchtime Nx is N rounds):
// "rcl", rcl's read written plainly (rclClock), and "atomic", a bare
// atomic.Int64 load. ratio_rcl is Now's time per read over rcl's, the
// median of the per-round ratios. With 1 reader the time is the reader's
// thread CPU time (benchround.Config.ThreadCPU: a loaded machine's waits
// for a core are left out); with 8 readers it is the segment's wall time
// over the reads of all eight.
func BenchmarkNowOverride(b *testing.B) {
	c := simclock.NewROSClock()
	c.EnableROSTimeOverride()
	rcl := &rclClock{}
	rcl.active.Store(true)
	var shadow atomic.Int64
	stopWriter := startWriter(c, rcl, &shadow)
	defer stopWriter()
	side := func(name string, read func()) benchround.Side {
		return benchround.Side{Name: name, Run: func(n int) {
			for range n {
				read()
			}
		}}
	}
	for _, readers := range []int{1, 8} {
		b.Run(fmt.Sprintf("readers=%d", readers), func(b *testing.B) {
			benchround.Run(b, benchround.Config{Goroutines: readers, ThreadCPU: readers == 1},
				side("", func() { sinkTime = c.Now() }),
				side("rcl", func() { sinkInt64 = rcl.read() }),
				side("atomic", func() { sinkInt64 = shadow.Load() }))
		})
	}
}

// SetROSTimeOverride with 10 jump callbacks that all fire (R14): the
// writer's path, pre → store → wake → post. Target: 0 allocs/op.
func BenchmarkSetROSTimeOverride(b *testing.B) {
	for _, n := range []int{0, 10} {
		b.Run(fmt.Sprintf("callbacks=%d", n), func(b *testing.B) {
			c := simclock.NewROSClock()
			c.EnableROSTimeOverride()
			var calls atomic.Int64
			for range n {
				_, err := c.OnJump(simclock.AnyJump, simclock.JumpCallbacks{
					Pre:  func(simclock.TimeJump) { calls.Add(1) },
					Post: func(simclock.TimeJump) { calls.Add(1) },
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			ns := int64(0)
			b.ReportAllocs()
			for b.Loop() {
				ns++
				c.SetROSTimeOverride(timetest.ROS(ns))
			}
			if want := 2 * int64(n) * ns; calls.Load() != want {
				b.Fatalf("%d callback calls, want %d", calls.Load(), want)
			}
		})
	}
}
