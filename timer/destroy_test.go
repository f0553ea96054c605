package timer_test

import (
	"errors"
	"testing"
	"time"

	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/virtualclock"
)

// rclpy's test_destruction.py, test_destroy_timers and
// test_destroy_timer_asap: two timers, one destroyed, one left; a
// destroyed timer cannot be used (rclpy raises InvalidHandle, Call returns
// ErrDestroyed) and does not come back with Reset.
func TestDestroy(t *testing.T) {
	fc := virtualclock.New()
	q := timer.NewQueue(fc.Steady())
	calls := 0
	t1 := newTimer(t, q, 100*time.Millisecond, func(timer.Info) { calls++ })
	newTimer(t, q, time.Second, nil)
	if q.Len() != 2 {
		t.Fatalf("Len = %d, want 2", q.Len())
	}
	t1.Destroy()
	if q.Len() != 1 {
		t.Errorf("Len after Destroy = %d, want 1", q.Len())
	}
	if _, err := t1.Call(); !errors.Is(err, timer.ErrDestroyed) {
		t.Errorf("Call on a destroyed timer = %v, want ErrDestroyed", err)
	}
	t1.Reset()
	t1.Destroy() // idempotent
	fc.Advance(time.Second)
	if !t1.IsCanceled() || t1.IsReady() || q.Len() != 1 || calls != 0 {
		t.Errorf("after Reset of a destroyed timer: canceled %v, ready %v, Len %d, calls %d; want true, false, 1, 0",
			t1.IsCanceled(), t1.IsReady(), q.Len(), calls)
	}
	if _, ok := t1.TimeUntilNextCall(); ok {
		t.Error("TimeUntilNextCall ok for a destroyed timer")
	}
	if got := q.AppendReady(nil); len(got) != 1 || got[0] == t1 {
		t.Errorf("ready = %v, want the other timer only", got)
	}

	// Remove is Destroy, for the queue's own timers only.
	other := timer.NewQueue(fc.Steady())
	t2 := newTimer(t, q, time.Second, nil)
	other.Remove(t2)
	if t2.IsCanceled() || q.Len() != 2 {
		t.Errorf("Remove from another queue touched the timer: canceled %v, Len %d", t2.IsCanceled(), q.Len())
	}
	q.Remove(t2)
	if _, err := t2.Call(); !errors.Is(err, timer.ErrDestroyed) || q.Len() != 1 {
		t.Errorf("after Remove: Call = %v, Len %d; want ErrDestroyed, 1", err, q.Len())
	}
}

// A timer replaced by a new one and destroyed leaves nothing behind: a
// watchdog re-armed a thousand times is one timer in its queue. (Before
// Destroy, a replaced timer was at best canceled, and stayed queued.)
func TestDestroyReplacedTimer(t *testing.T) {
	fc := virtualclock.New()
	q := timer.NewQueue(fc.Steady())
	var watchdog *timer.Timer
	for range 1000 {
		if watchdog != nil {
			watchdog.Destroy()
		}
		watchdog = newTimer(t, q, time.Second, nil)
		fc.Advance(time.Millisecond)
	}
	if q.Len() != 1 {
		t.Errorf("Len = %d after 1000 replacements, want 1", q.Len())
	}
	if next, ok := q.Next(); !ok || next != watchdog.NextCallTime() {
		t.Errorf("Next = %d, %v; want the last watchdog's %d", next, ok, watchdog.NextCallTime())
	}
}
