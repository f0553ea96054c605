package executor

import (
	"math"
	"testing"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/virtualclock"
)

// The real-time wait must not wrap: a deadline beyond int64 steady time
// saturates (the executor then sleeps until woken) instead of turning
// into a deadline in the past, which made wait return at once, round
// after round: a busy loop. An infinite period gives no deadline at all.
func TestNextSteadyDeadlineSaturates(t *testing.T) {
	fc := virtualclock.New()
	zero, _ := simclock.TimeFromNanoseconds[simclock.System](0)
	fc.SetSystem(zero)
	e := New(Config{Virtual: fc})
	defer e.Close()

	infinite := timer.NewQueue(fc.Steady())
	if _, err := infinite.New(simclock.InfiniteDuration, nil, true); err != nil {
		t.Fatal(err)
	}
	e.AddQueue(infinite)
	if d, ok := e.nextSteadyDeadline(); ok {
		t.Fatalf("an infinite period gives the deadline %v", d)
	}

	// A system timer 2^63-2 ns after system time 0: finite, but the
	// steady instant it maps to is past int64.
	far := timer.NewQueue(fc.System())
	if _, err := far.New(simclock.MaxDuration-1, nil, true); err != nil {
		t.Fatal(err)
	}
	e.AddQueue(far)
	d, ok := e.nextSteadyDeadline()
	if !ok || d.Nanoseconds() != math.MaxInt64 {
		t.Fatalf("far deadline = %v, %v; want the saturated %d", d, ok, int64(math.MaxInt64))
	}
	if d.Nanoseconds() <= fc.SteadyNow() {
		t.Fatal("the far deadline is in the past")
	}
}
