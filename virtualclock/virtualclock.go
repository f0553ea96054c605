// Package virtualclock provides a deterministic fake of the steady and
// system clocks, so timers, executors and simulations run in virtual time:
// no sleeps, no flakes, and the same result on every run.
//
// The fake never moves by itself. Advance moves both clocks together;
// SetSystem steps only the wall clock, as an NTP correction would. Every
// SleepUntil blocked on the fake wakes when an advance reaches its
// deadline; a woken goroutine reads the time the advance ended at, so a
// test that needs each sleeper to see its own deadline advances to one
// deadline at a time (the virtual-time executor never sleeps at all: it
// moves the clock to its next timer deadline and calls the timer itself).
package virtualclock

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/simclock/simclock"
)

// Fixed epochs of a new fake: steady reads 1 s and system reads
// 2023-11-14T22:13:20Z (1.7e9 s), so both are "started".
const (
	StartSteady = int64(time.Second)
	StartSystem = int64(1_700_000_000) * int64(time.Second)
)

// A Clock is a fake steady clock and a fake system clock on one virtual
// timeline. The zero value is not usable; call New. It is safe for
// concurrent use.
type Clock struct {
	mu      sync.Mutex // mu guards the fields below
	steady  int64
	system  int64
	waiters map[*waiter]struct{}
}

type waiter struct {
	system   bool  // deadline is on the system clock, else steady
	deadline int64 // ns
	done     chan struct{}
}

// New returns a fake clock at StartSteady / StartSystem.
func New() *Clock {
	return &Clock{steady: StartSteady, system: StartSystem, waiters: make(map[*waiter]struct{})}
}

// Steady returns the fake's steady clock.
func (c *Clock) Steady() simclock.Clock[simclock.Steady] { return steadyView{c} }

// System returns the fake's system clock.
func (c *Clock) System() simclock.Clock[simclock.System] { return systemView{c} }

// SteadyNow returns the steady reading in nanoseconds.
func (c *Clock) SteadyNow() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.steady
}

// Advance moves both clocks forward by d (d < 0 is ignored: steady time
// never goes back) and wakes every sleeper whose deadline is reached.
func (c *Clock) Advance(d time.Duration) {
	if d < 0 {
		return
	}
	c.mu.Lock()
	c.steady += int64(d)
	c.system += int64(d)
	c.wakeLocked()
	c.mu.Unlock()
}

// AdvanceTo moves both clocks forward until steady reads t (no-op when it
// already does).
func (c *Clock) AdvanceTo(t simclock.Time[simclock.Steady]) {
	c.mu.Lock()
	if d := t.Nanoseconds() - c.steady; d > 0 {
		c.steady += d
		c.system += d
		c.wakeLocked()
	}
	c.mu.Unlock()
}

// SetSystem steps the system clock to t, forward or backward, leaving
// steady time alone.
func (c *Clock) SetSystem(t simclock.Time[simclock.System]) {
	c.mu.Lock()
	c.system = t.Nanoseconds()
	c.wakeLocked()
	c.mu.Unlock()
}

// Sleepers returns how many goroutines are blocked in SleepUntil.
func (c *Clock) Sleepers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.waiters)
}

// WaitForSleepers blocks until at least n goroutines are blocked in
// SleepUntil, so a test can advance knowing they are waiting. It polls
// briefly in real time, since it waits for other goroutines to run.
func (c *Clock) WaitForSleepers(ctx context.Context, n int) error {
	for c.Sleepers() < n {
		select {
		case <-ctx.Done():
			return fmt.Errorf("virtualclock: waiting for %d sleepers (have %d): %w", n, c.Sleepers(), ctx.Err())
		case <-time.After(100 * time.Microsecond):
		}
	}
	return nil
}

// wakeLocked releases every waiter whose deadline is reached. The caller
// must hold c.mu.
func (c *Clock) wakeLocked() {
	for w := range c.waiters {
		now := c.steady
		if w.system {
			now = c.system
		}
		if now >= w.deadline {
			close(w.done)
			delete(c.waiters, w)
		}
	}
}

func (c *Clock) sleep(ctx context.Context, system bool, deadline int64) error {
	// A done ctx fails first, as the real clocks do (simclock.Clock).
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("virtualclock: sleep: %w", err)
	}
	c.mu.Lock()
	now := c.steady
	if system {
		now = c.system
	}
	if now >= deadline {
		c.mu.Unlock()
		return nil
	}
	w := &waiter{system: system, deadline: deadline, done: make(chan struct{})}
	c.waiters[w] = struct{}{}
	c.mu.Unlock()
	select {
	case <-w.done:
		return nil
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.waiters, w)
		c.mu.Unlock()
		return fmt.Errorf("virtualclock: sleep: %w", ctx.Err())
	}
}

type steadyView struct{ c *Clock }

func (v steadyView) Now() simclock.Time[simclock.Steady] {
	t, _ := simclock.TimeFromNanoseconds[simclock.Steady](v.c.SteadyNow())
	return t
}

func (v steadyView) SleepUntil(ctx context.Context, t simclock.Time[simclock.Steady]) error {
	return v.c.sleep(ctx, false, t.Nanoseconds())
}

type systemView struct{ c *Clock }

func (v systemView) Now() simclock.Time[simclock.System] {
	v.c.mu.Lock()
	ns := v.c.system
	v.c.mu.Unlock()
	t, _ := simclock.TimeFromNanoseconds[simclock.System](ns)
	return t
}

func (v systemView) SleepUntil(ctx context.Context, t simclock.Time[simclock.System]) error {
	return v.c.sleep(ctx, true, t.Nanoseconds())
}
