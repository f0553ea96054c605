package simclock_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/internal/timetest"
)

// record registers pre and post callbacks on c that append what they see,
// with the clock's reading, to log.
func record(t *testing.T, c *simclock.ROSClock, name string, th simclock.JumpThreshold, log *[]string) {
	t.Helper()
	_, err := c.OnJump(th, simclock.JumpCallbacks{
		Pre:  func(j simclock.TimeJump) { *log = append(*log, name+" pre "+jumpText(j)+" at "+secs(c)) },
		Post: func(j simclock.TimeJump) { *log = append(*log, name+" post "+jumpText(j)+" at "+secs(c)) },
	})
	if err != nil {
		t.Fatal(err)
	}
}

func secs(c *simclock.ROSClock) string {
	return strconv.FormatFloat(float64(c.Now().Nanoseconds())/1e9, 'g', -1, 64) + "s"
}

func jumpText(j simclock.TimeJump) string {
	switch j.ClockChange {
	case simclock.ROSTimeActivated:
		return "activated"
	case simclock.ROSTimeDeactivated:
		return "deactivated"
	}
	return j.Delta.String()
}

// Clocks sharing a cell read one value, and each clock's callbacks see
// exactly the jumps their thresholds select (R12-R14), clock by clock in
// joining order.
func TestShareJumpCallbacks(t *testing.T) {
	leader := simclock.NewROSClock()
	a, b := simclock.NewROSClock(), simclock.NewROSClock()
	var log []string
	record(t, a, "a", simclock.AnyJump, &log)
	record(t, b, "b", simclock.JumpThreshold{MinForward: 2 * time.Second}, &log)
	leader.SetROSTimeOverride(timetest.ROS(5e9)) // stored silently: disabled
	a.Share(leader)
	b.Share(leader)
	// a caught up with the leader as if set on it: the value silently, no activation.
	if len(log) != 0 {
		t.Fatalf("callbacks on joining a disabled cell: %q", log)
	}
	leader.EnableROSTimeOverride()
	leader.SetROSTimeOverride(timetest.ROS(6e9)) // +1 s: a only
	leader.SetROSTimeOverride(timetest.ROS(9e9)) // +3 s: a and b
	a.SetROSTimeOverride(timetest.ROS(8e9))      // -1 s through a member: a only
	want := []string{
		"a pre activated at 1.700000000s", "a post activated at 5s",
		"a pre 1s at 5s", "a post 1s at 6s",
		"a pre 3s at 6s", "b pre 3s at 6s", "a post 3s at 9s", "b post 3s at 9s",
		"a pre -1s at 9s", "a post -1s at 8s",
	}
	// a's reading before activation is system time: only compare the rest.
	log[0] = want[0]
	if !slices.Equal(log, want) {
		t.Errorf("callbacks:\n%q\nwant\n%q", log, want)
	}
	if b.Now() != timetest.ROS(8e9) || leader.Now() != timetest.ROS(8e9) {
		t.Errorf("shared readings %v %v, want 8s", b.Now(), leader.Now())
	}

	// A clock that joins an enabled cell is moved by its own callbacks.
	c := simclock.NewROSClock()
	log = nil
	record(t, c, "c", simclock.AnyJump, &log)
	c.Share(leader)
	if want := []string{"c pre activated at", "c post activated at 8s"}; len(log) != 2 || log[1] != want[1] {
		t.Errorf("joining: %q, want %q", log, want)
	}

	// Unshare: the clock keeps the time and stops following.
	b.Unshare()
	leader.SetROSTimeOverride(timetest.ROS(20e9))
	if b.Now() != timetest.ROS(8e9) || c.Now() != timetest.ROS(20e9) {
		t.Errorf("after Unshare: b %v (want 8s), c %v (want 20s)", b.Now(), c.Now())
	}
}

// A sleeper on a clock that moves to another cell returns
// ErrTimeSourceChanged (R15), as when sim time is switched.
func TestShareWakesSleepers(t *testing.T) {
	leader, c := simclock.NewROSClock(), simclock.NewROSClock()
	leader.EnableROSTimeOverride()
	c.EnableROSTimeOverride()
	done := make(chan error, 1)
	go func() { done <- c.SleepUntil(context.Background(), timetest.ROS(10e9)) }()
	// Share only once it sleeps: a sleep that starts after Share waits on
	// the leader's cell, where nothing changes (a loaded machine once
	// started it 10 ms late, and the test waited for ever).
	for simclock.Waiters(c) == 0 {
		time.Sleep(time.Millisecond)
	}
	c.Share(leader)
	select {
	case err := <-done:
		if !errors.Is(err, simclock.ErrTimeSourceChanged) {
			t.Errorf("SleepUntil = %v, want ErrTimeSourceChanged", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("sleeper not woken by Share")
	}
}

// An alarm fires once, on the first forward jump that reaches its time,
// never on backward jumps or activation, and follows its clock into a
// shared cell.
func TestAlarm(t *testing.T) {
	c := simclock.NewROSClock()
	c.EnableROSTimeOverride()
	fired := 0
	a := c.NewAlarm(func() { fired++ })
	a.Set(5e9)
	c.SetROSTimeOverride(timetest.ROS(4e9))
	c.SetROSTimeOverride(timetest.ROS(1e9))
	if fired != 0 {
		t.Fatalf("fired %d times before 5 s", fired)
	}
	c.SetROSTimeOverride(timetest.ROS(6e9))
	c.SetROSTimeOverride(timetest.ROS(7e9))
	if fired != 1 {
		t.Fatalf("fired %d times, want once", fired)
	}
	a.Set(10e9)
	leader := simclock.NewROSClock()
	leader.EnableROSTimeOverride()
	c.Share(leader) // c goes back to 0: a backward jump, no fire
	leader.SetROSTimeOverride(timetest.ROS(11e9))
	if fired != 2 {
		t.Fatalf("alarm did not follow the clock into the shared cell: fired %d", fired)
	}
	a.Set(12e9)
	a.Stop()
	leader.SetROSTimeOverride(timetest.ROS(13e9))
	a.Close()
	if fired != 2 {
		t.Errorf("stopped alarm fired")
	}
}
