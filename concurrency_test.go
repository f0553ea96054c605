package simclock_test

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/internal/timetest"
	"github.com/simclock/simclock/virtualclock"
)

// counter counts the pre and post calls of one jump-callback registration.
type counter struct{ pre, post atomic.Int64 }

func (n *counter) callbacks() simclock.JumpCallbacks {
	return simclock.JumpCallbacks{
		Pre:  func(simclock.TimeJump) { n.pre.Add(1) },
		Post: func(simclock.TimeJump) { n.post.Add(1) },
	}
}

// churn registers and removes callbacks until stop is closed, keeping up
// to 16 registered, and returns their counters. Every registration must
// see as many posts as pres: a jump picks its callbacks once.
func churn(t *testing.T, c *simclock.ROSClock, stop <-chan struct{}, wg *sync.WaitGroup) *[]*counter {
	var all []*counter
	started := make(chan struct{})
	wg.Go(func() {
		var live []func()
		defer func() {
			for _, remove := range live {
				remove()
			}
		}()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			n := new(counter)
			remove, err := c.OnJump(simclock.AnyJump, n.callbacks())
			if err != nil {
				t.Error(err)
				close(started)
				return
			}
			all = append(all, n)
			live = append(live, remove)
			if len(live) > 16 {
				live[0]()
				live[0]() // idempotent
				live = live[1:]
			}
			if i == 16 {
				close(started)
			}
			runtime.Gosched()
		}
	})
	<-started
	return &all
}

// R10, R12-R15 under -race: readers never see time go back while a
// writer moves the override forward, and every jump is counted exactly.
func TestConcurrentNowWhileSettingOverride(t *testing.T) {
	const (
		readers = 8
		sets    = 2000
		step    = int64(time.Millisecond)
	)
	c, _ := newFakeROSClock()
	c.EnableROSTimeOverride()
	var perm counter
	if _, err := c.OnJump(simclock.JumpThreshold{MinForward: 1}, perm.callbacks()); err != nil {
		t.Fatal(err)
	}

	stop := make(chan struct{})
	var wg, churnWG sync.WaitGroup
	for range readers {
		wg.Go(func() {
			prev := int64(0)
			for {
				select {
				case <-stop:
					return
				default:
				}
				ns := c.Now().Nanoseconds()
				if ns < prev || ns > sets*step {
					t.Errorf("reading %d after %d (last set %d)", ns, prev, sets*step)
					return
				}
				if (ns > 0) != c.Started() && ns == c.Now().Nanoseconds() {
					t.Errorf("Started() disagrees with Now() = %d", ns)
					return
				}
				prev = ns
				runtime.Gosched()
			}
		})
	}
	// Sleepers on the override wake when it reaches their targets.
	sleepErrs := make(chan error, 4)
	for i := range 4 {
		wg.Go(func() {
			sleepErrs <- c.SleepUntil(t.Context(), timetest.ROS(int64(i+1)*sets/4*step))
		})
	}
	registered := churn(t, c, stop, &churnWG)

	for i := int64(1); i <= sets; i++ {
		c.SetROSTimeOverride(timetest.ROS(i * step))
		if i%50 == 0 {
			runtime.Gosched()
		}
	}
	for range 4 {
		if err := <-sleepErrs; err != nil {
			t.Errorf("SleepUntil: %v", err)
		}
	}
	close(stop)
	wg.Wait()
	churnWG.Wait()

	if got := c.Now().Nanoseconds(); got != sets*step {
		t.Errorf("Now() = %d, want %d", got, sets*step)
	}
	if perm.pre.Load() != sets || perm.post.Load() != sets {
		t.Errorf("permanent callback: %d pre, %d post; want %d each", perm.pre.Load(), perm.post.Load(), sets)
	}
	var calls int64
	for _, n := range *registered {
		if n.pre.Load() != n.post.Load() {
			t.Errorf("a churned callback saw %d pre and %d post calls", n.pre.Load(), n.post.Load())
		}
		calls += n.post.Load()
	}
	t.Logf("%d callbacks registered and removed during %d jumps; %d of their calls", len(*registered), sets, calls)
}

// R10, R13 and R15 under -race: while the override is switched on and off,
// every reading is the system time or an override value, each switch fires
// exactly one ACTIVATED or DEACTIVATED pair, and callbacks see the state
// before (pre) and after (post) the switch.
func TestConcurrentEnableDisable(t *testing.T) {
	const (
		readers = 4
		toggles = 500
	)
	c, fake := newFakeROSClock()
	var activated, deactivated atomic.Int64
	var wrong atomic.Int64
	_, err := c.OnJump(simclock.JumpThreshold{OnClockChange: true}, simclock.JumpCallbacks{
		Pre: func(j simclock.TimeJump) {
			if c.ROSTimeActive() != (j.ClockChange == simclock.ROSTimeDeactivated) || j.Delta != 0 {
				wrong.Add(1)
			}
		},
		Post: func(j simclock.TimeJump) {
			if c.ROSTimeActive() != (j.ClockChange == simclock.ROSTimeActivated) || j.Delta != 0 {
				wrong.Add(1)
			}
			switch j.ClockChange {
			case simclock.ROSTimeActivated:
				activated.Add(1)
			case simclock.ROSTimeDeactivated:
				deactivated.Add(1)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}

	stop := make(chan struct{})
	var wg, churnWG sync.WaitGroup
	for range readers {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				ns := c.Now().Nanoseconds()
				if ns < virtualclock.StartSystem && (ns < 0 || ns > toggles*sec) {
					t.Errorf("reading %d is neither system time nor an override value", ns)
					return
				}
				runtime.Gosched()
			}
		})
	}
	// Sleepers end with ErrTimeSourceChanged at the first switch they see.
	sleepErrs := make(chan error, 4)
	for range 4 {
		wg.Go(func() {
			for {
				err := c.SleepFor(t.Context(), time.Hour)
				select {
				case <-stop:
					sleepErrs <- nil
					return
				default:
				}
				if !errors.Is(err, simclock.ErrTimeSourceChanged) {
					sleepErrs <- err
					return
				}
			}
		})
	}
	registered := churn(t, c, stop, &churnWG)

	for i := int64(1); i <= toggles; i++ {
		c.EnableROSTimeOverride()
		c.SetROSTimeOverride(timetest.ROS(i * sec))
		c.DisableROSTimeOverride()
		if i%20 == 0 {
			runtime.Gosched()
		}
	}
	close(stop)
	// The last sleepers may be on the system clock: move it past their hour.
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	for range 4 {
		var err error
		for done := false; !done; {
			select {
			case err = <-sleepErrs:
				done = true
			case <-ctx.Done():
				t.Fatal("sleepers did not end")
			case <-time.After(time.Millisecond):
				fake.Advance(time.Hour)
			}
		}
		if err != nil {
			t.Errorf("SleepFor: %v, want ErrTimeSourceChanged or nil", err)
		}
	}
	wg.Wait()
	churnWG.Wait()

	if activated.Load() != toggles || deactivated.Load() != toggles {
		t.Errorf("%d ACTIVATED, %d DEACTIVATED; want %d each", activated.Load(), deactivated.Load(), toggles)
	}
	if wrong.Load() != 0 {
		t.Errorf("%d callbacks saw the wrong state or a non-zero delta", wrong.Load())
	}
	var calls int64
	for _, n := range *registered {
		if n.pre.Load() != n.post.Load() {
			t.Errorf("a churned callback saw %d pre and %d post calls", n.pre.Load(), n.post.Load())
		}
		calls += n.post.Load()
	}
	t.Logf("%d callbacks registered and removed during %d switches; %d of their calls", len(*registered), 2*toggles, calls)
	if c.ROSTimeActive() || c.ROSTimeOverride().Nanoseconds() != toggles*sec {
		t.Errorf("final state: active %v, override %v", c.ROSTimeActive(), c.ROSTimeOverride())
	}
}
