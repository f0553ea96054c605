package timesource_test

import (
	"testing"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport"
)

// 100 clocks follow one time source through a shared cell: every clock
// reads each /clock, every clock's jump callbacks see every jump their
// threshold selects, and a queue is woken exactly when a /clock passes
// its earliest deadline, once, until its timer is called (R22, R23).
func TestFanOutSharedCell(t *testing.T) {
	f := newFixture(t)
	pub := f.publisher(transport.ClockPublisherQoS)
	const n = 100
	clocks := make([]*simclock.ROSClock, n)
	queues := make([]*timer.Queue, n)
	wakes := make([]int, n)
	jumps := make([]int, n)
	for i := range n {
		c := f.newClock()
		f.ts.AttachClock(c)
		clocks[i] = c
		q := timer.NewQueue[simclock.ROS](c)
		t.Cleanup(q.Close)
		q.SetWake(func() { wakes[i]++ })
		queues[i] = q
		if _, err := c.OnJump(simclock.JumpThreshold{MinForward: time.Millisecond}, simclock.JumpCallbacks{Post: func(simclock.TimeJump) { jumps[i]++ }}); err != nil {
			t.Fatal(err)
		}
	}
	f.setSim(true)
	// Timer i is due at (i+1) ms of sim time; created at 0 (R23).
	tms := make([]*timer.Timer, n)
	for i, q := range queues {
		tm, err := q.New(time.Duration(i+1)*time.Millisecond, nil, true)
		if err != nil {
			t.Fatal(err)
		}
		tms[i] = tm
	}
	clear(wakes)
	for ms := 1; ms <= n; ms++ {
		f.publish(pub, 0, uint32(ms)*1e6)
		f.spin()
		for i, c := range clocks {
			if got := c.Now().Nanoseconds(); got != int64(ms)*1e6 {
				t.Fatalf("clock %d reads %d at %d ms", i, got, ms)
			}
			// Queue i's deadline is (i+1) ms: woken once, when reached.
			want := 0
			if ms >= i+1 {
				want = 1
			}
			if wakes[i] != want {
				t.Fatalf("at %d ms queue %d woken %d times, want %d", ms, i, wakes[i], want)
			}
			if jumps[i] != ms {
				t.Fatalf("at %d ms clock %d saw %d jumps, want %d", ms, i, jumps[i], ms)
			}
		}
	}
	// Calling timer 0 moves its deadline to 2 ms, already passed: the
	// next /clock wakes its queue again.
	if _, err := tms[0].Call(); err != nil {
		t.Fatal(err)
	}
	f.publish(pub, 0, (n+1)*1e6)
	f.spin()
	if wakes[0] != 2 || wakes[1] != 1 {
		t.Errorf("after a call: wakes %d and %d, want 2 and 1", wakes[0], wakes[1])
	}
	// A detached clock keeps its time and stops following.
	f.ts.DetachClock(clocks[7])
	f.publish(pub, 1, 0)
	f.spin()
	if clocks[7].Now().Nanoseconds() != (n+1)*1e6 || clocks[8].Now().Nanoseconds() != sec {
		t.Errorf("detached clock reads %v, attached %v", clocks[7].Now(), clocks[8].Now())
	}
}
