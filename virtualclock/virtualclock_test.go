package virtualclock_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/virtualclock"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func steadyAt(ns int64) simclock.Time[simclock.Steady] {
	t, err := simclock.TimeFromNanoseconds[simclock.Steady](ns)
	if err != nil {
		panic(err)
	}
	return t
}

func systemAt(ns int64) simclock.Time[simclock.System] {
	t, err := simclock.TimeFromNanoseconds[simclock.System](ns)
	if err != nil {
		panic(err)
	}
	return t
}

// sleep starts SleepUntil on clk in a goroutine and returns its result.
func sleep[K simclock.Kind](ctx context.Context, clk simclock.Clock[K], t simclock.Time[K]) <-chan error {
	ch := make(chan error, 1)
	go func() { ch <- clk.SleepUntil(ctx, t) }()
	return ch
}

func waitSleepers(t *testing.T, c *virtualclock.Clock, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if err := c.WaitForSleepers(ctx, n); err != nil {
		t.Fatal(err)
	}
}

func recv(t *testing.T, ch <-chan error) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("sleeper did not wake")
		return nil
	}
}

func pending(ch <-chan error) bool {
	select {
	case <-ch:
		return false
	default:
		return true
	}
}

func TestEpochsAreFixedAndStarted(t *testing.T) {
	c := virtualclock.New()
	if got := c.Steady().Now().Nanoseconds(); got != virtualclock.StartSteady || got != c.SteadyNow() {
		t.Errorf("steady starts at %d, want %d", got, virtualclock.StartSteady)
	}
	if got := c.System().Now().Nanoseconds(); got != virtualclock.StartSystem {
		t.Errorf("system starts at %d, want %d", got, virtualclock.StartSystem)
	}
	if c.Steady().Now().IsZero() || c.System().Now().IsZero() {
		t.Error("a new fake must be started (R11)")
	}
}

func TestAdvanceMovesBothAndIgnoresNegative(t *testing.T) {
	c := virtualclock.New()
	c.Advance(time.Second)
	c.Advance(-time.Hour)
	if got := c.Steady().Now().Nanoseconds(); got != virtualclock.StartSteady+int64(time.Second) {
		t.Errorf("steady %d", got)
	}
	if got := c.System().Now().Nanoseconds(); got != virtualclock.StartSystem+int64(time.Second) {
		t.Errorf("system %d", got)
	}
	c.AdvanceTo(steadyAt(virtualclock.StartSteady)) // in the past: no-op
	c.AdvanceTo(steadyAt(virtualclock.StartSteady + 5*int64(time.Second)))
	if got := c.System().Now().Nanoseconds(); got != virtualclock.StartSystem+5*int64(time.Second) {
		t.Errorf("AdvanceTo moved system to %d", got)
	}
}

func TestSetSystemLeavesSteady(t *testing.T) {
	c := virtualclock.New()
	c.SetSystem(systemAt(42))
	if c.System().Now().Nanoseconds() != 42 || c.SteadyNow() != virtualclock.StartSteady {
		t.Errorf("system %v steady %d", c.System().Now(), c.SteadyNow())
	}
}

func TestSleepersWakeAtTheirDeadlines(t *testing.T) {
	c := virtualclock.New()
	ctx := t.Context()
	early := sleep(ctx, c.Steady(), steadyAt(virtualclock.StartSteady+int64(time.Second)))
	late := sleep(ctx, c.Steady(), steadyAt(virtualclock.StartSteady+2*int64(time.Second)))
	wall := sleep(ctx, c.System(), systemAt(virtualclock.StartSystem+int64(time.Second)))
	waitSleepers(t, c, 3)

	c.Advance(999 * time.Millisecond)
	if !pending(early) || !pending(late) || !pending(wall) {
		t.Fatal("a sleeper woke before its deadline")
	}
	c.Advance(time.Millisecond)
	if err := recv(t, early); err != nil {
		t.Errorf("steady sleeper: %v", err)
	}
	if err := recv(t, wall); err != nil {
		t.Errorf("system sleeper: %v", err)
	}
	if !pending(late) || c.Sleepers() != 1 {
		t.Fatalf("late sleeper woke early (%d sleepers)", c.Sleepers())
	}
	c.Advance(time.Second)
	if err := recv(t, late); err != nil {
		t.Errorf("late sleeper: %v", err)
	}
	if c.Sleepers() != 0 {
		t.Errorf("%d sleepers left", c.Sleepers())
	}
}

func TestSystemStepWakesOnlySystemSleepers(t *testing.T) {
	c := virtualclock.New()
	ctx := t.Context()
	steady := sleep(ctx, c.Steady(), steadyAt(virtualclock.StartSteady+int64(time.Second)))
	wall := sleep(ctx, c.System(), systemAt(virtualclock.StartSystem+int64(time.Hour)))
	waitSleepers(t, c, 2)
	c.SetSystem(systemAt(0)) // backwards: nobody wakes
	if !pending(wall) || !pending(steady) {
		t.Fatal("a backward system step woke a sleeper")
	}
	c.SetSystem(systemAt(virtualclock.StartSystem + int64(2*time.Hour)))
	if err := recv(t, wall); err != nil {
		t.Errorf("system sleeper: %v", err)
	}
	if !pending(steady) {
		t.Fatal("a system step woke a steady sleeper")
	}
	c.Advance(time.Second)
	if err := recv(t, steady); err != nil {
		t.Errorf("steady sleeper: %v", err)
	}
}

func TestSleepInThePastReturnsAtOnce(t *testing.T) {
	c := virtualclock.New()
	if err := c.Steady().SleepUntil(t.Context(), steadyAt(0)); err != nil {
		t.Error(err)
	}
	if c.Sleepers() != 0 {
		t.Errorf("%d sleepers", c.Sleepers())
	}
}

func TestCancelRemovesSleeper(t *testing.T) {
	c := virtualclock.New()
	ctx, cancel := context.WithCancel(t.Context())
	ch := sleep(ctx, c.Steady(), steadyAt(virtualclock.StartSteady+int64(time.Hour)))
	waitSleepers(t, c, 1)
	cancel()
	if err := recv(t, ch); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
	if c.Sleepers() != 0 {
		t.Errorf("%d sleepers after cancel", c.Sleepers())
	}
}

func TestWaitForSleepersHonoursContext(t *testing.T) {
	c := virtualclock.New()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := c.WaitForSleepers(ctx, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
	if err := c.WaitForSleepers(t.Context(), 0); err != nil {
		t.Errorf("zero sleepers: %v", err)
	}
}
