package simclock

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// A ROSClock reads ROS time (R10): system time while its ROS-time override
// is disabled, and the override value while enabled, which stays 0 until
// a value is set (0 means "not started", R11). A time source enables the
// override when use_sim_time is on and sets it from /clock.
//
// Now is lock-free: readers never wait for writers. Changes to the
// override are serialised, each running its jump callbacks pre → apply →
// post (R12-R14). All methods are safe for concurrent use.
type ROSClock struct {
	system Clock[System]
	steady Clock[Steady]

	active      atomic.Bool
	override    atomic.Int64
	generation  atomic.Uint64 // counts activations and deactivations
	jumpMu      sync.Mutex    // jumpMu serialises override changes and their callbacks
	scratch     []*jumpHandler
	mu          sync.Mutex // mu guards the fields below
	handlers    []*jumpHandler
	watchers    map[uint64]context.CancelFunc
	nextWatcher uint64
}

// NewROSClock returns a ROS clock over the OS system and steady clocks,
// with the override disabled.
func NewROSClock() *ROSClock { return NewROSClockOn(SystemClock{}, SteadyClock{}) }

// NewROSClockOn returns a ROS clock that reads system when the override is
// disabled and measures WaitUntilStarted timeouts on steady. Tests pass
// the fakes of package clocktest to run in virtual time.
func NewROSClockOn(system Clock[System], steady Clock[Steady]) *ROSClock {
	return &ROSClock{system: system, steady: steady}
}

// Now returns the current ROS time.
func (c *ROSClock) Now() Time[ROS] {
	if c.active.Load() {
		return Time[ROS]{ns: c.override.Load()}
	}
	return Time[ROS]{ns: c.system.Now().ns}
}

// ROSTimeActive reports whether the override is enabled (rclcpp's
// ros_time_is_active).
func (c *ROSClock) ROSTimeActive() bool { return c.active.Load() }

// Started reports whether the clock reads more than 0 (R11): false for a
// ROS clock with sim time on and no /clock yet.
func (c *ROSClock) Started() bool { return c.Now().ns > 0 }

// OnJump registers callbacks for the jumps th selects and returns a
// function that removes them (idempotent). Callbacks are called in
// registration order.
func (c *ROSClock) OnJump(th JumpThreshold, cb JumpCallbacks) (remove func(), err error) {
	if err := th.Validate(); err != nil {
		return nil, err
	}
	if cb.Pre == nil && cb.Post == nil {
		return nil, errNoCallback
	}
	h := &jumpHandler{threshold: th, callbacks: cb}
	c.mu.Lock()
	c.handlers = append(c.handlers, h)
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		c.handlers = slices.DeleteFunc(c.handlers, func(x *jumpHandler) bool { return x == h })
		c.mu.Unlock()
	}, nil
}

// EnableROSTimeOverride switches the clock to its override value. When it
// was disabled, callbacks with OnClockChange see ROS_TIME_ACTIVATED before
// and after the switch; when already enabled nothing happens (R13).
func (c *ROSClock) EnableROSTimeOverride() { c.setActive(true) }

// DisableROSTimeOverride switches the clock back to system time, with
// ROS_TIME_DEACTIVATED callbacks (R13). The stored override is kept.
func (c *ROSClock) DisableROSTimeOverride() { c.setActive(false) }

func (c *ROSClock) setActive(on bool) {
	c.jumpMu.Lock()
	defer c.jumpMu.Unlock()
	if c.active.Load() == on {
		return
	}
	jump := TimeJump{ClockChange: ROSTimeDeactivated}
	if on {
		jump.ClockChange = ROSTimeActivated
	}
	c.jump(jump, change{setActive: true, active: on})
}

// SetROSTimeOverride sets the override value. While the override is
// enabled, callbacks see ROS_TIME_NO_CHANGE with delta = new - old when
// the delta passes their threshold (R14); while disabled the value is
// stored silently.
func (c *ROSClock) SetROSTimeOverride(t Time[ROS]) {
	c.jumpMu.Lock()
	defer c.jumpMu.Unlock()
	if !c.active.Load() {
		c.override.Store(t.ns)
		return
	}
	delta := time.Duration(t.ns - c.override.Load())
	c.jump(TimeJump{ClockChange: ROSTimeNoChange, Delta: delta}, change{override: t.ns})
}

// ROSTimeOverride returns the stored override value, whether or not the
// override is enabled.
func (c *ROSClock) ROSTimeOverride() Time[ROS] { return Time[ROS]{ns: c.override.Load()} }

// change is what a jump applies between its pre and post callbacks: an
// activation state or an override value.
type change struct {
	setActive bool
	active    bool
	override  int64
}

// jump runs pre callbacks, applies ch, wakes sleepers, then runs post
// callbacks. The caller must hold c.jumpMu. It does not allocate once
// c.scratch has grown.
func (c *ROSClock) jump(j TimeJump, ch change) {
	c.mu.Lock()
	selected := c.scratch[:0]
	for _, h := range c.handlers {
		if h.threshold.matches(j) {
			selected = append(selected, h)
		}
	}
	c.scratch = selected
	c.mu.Unlock()
	for _, h := range selected {
		if h.callbacks.Pre != nil {
			h.callbacks.Pre(j)
		}
	}
	if ch.setActive {
		c.active.Store(ch.active)
		c.generation.Add(1)
	} else {
		c.override.Store(ch.override)
	}
	c.wakeWatchers()
	for _, h := range selected {
		if h.callbacks.Post != nil {
			h.callbacks.Post(j)
		}
	}
	clear(selected)
}

// Waiters returns how many goroutines wait on the clock right now, in
// SleepUntil, SleepFor, SleepForAfterStart or WaitUntilStarted. A test or
// a fake simulator uses it to publish /clock only once a sleeper has read
// the clock and waits, as virtualclock.Clock.Sleepers does for fake
// system and steady time.
func (c *ROSClock) Waiters() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.watchers)
}

// watch registers cancel to be called at the next change of the clock and
// returns its key for unwatch.
func (c *ROSClock) watch(cancel context.CancelFunc) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.watchers == nil {
		c.watchers = make(map[uint64]context.CancelFunc)
	}
	c.nextWatcher++
	c.watchers[c.nextWatcher] = cancel
	return c.nextWatcher
}

func (c *ROSClock) unwatch(key uint64) {
	c.mu.Lock()
	delete(c.watchers, key)
	c.mu.Unlock()
}

func (c *ROSClock) wakeWatchers() {
	c.mu.Lock()
	if len(c.watchers) == 0 {
		c.mu.Unlock()
		return
	}
	watchers := c.watchers
	c.watchers = nil
	c.mu.Unlock()
	for _, cancel := range watchers {
		cancel()
	}
}

// SleepUntil blocks until the clock reads t or later, following ROS time
// (R15): with the override enabled it wakes on each new override value,
// never by polling wall time; otherwise it sleeps on the system clock.
// It returns nil when the time is reached, ErrTimeSourceChanged when the
// override is enabled or disabled meanwhile, or ctx's error (wrapped) when
// ctx is done. Unlike rclpy, a t already reached returns at once; like
// both rclcpp and rclpy, a done ctx is checked first and fails even then
// (rclcpp's "context cannot be slept with because it's invalid", rclpy's
// NotInitializedException).
func (c *ROSClock) SleepUntil(ctx context.Context, t Time[ROS]) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("simclock: sleep until %v: %w", t, err)
	}
	gen := c.generation.Load()
	// done reports why the sleep is over, if it is: the time source
	// changed (first), or the target is reached.
	done := func() (bool, error) {
		if c.generation.Load() != gen {
			return true, fmt.Errorf("simclock: sleep until %v: %w", t, ErrTimeSourceChanged)
		}
		return c.Now().ns >= t.ns, nil
	}
	for {
		// Checked before registering as a waiter (so a sleeper that is
		// done never shows in Waiters) and again after (so a change
		// between the two is not missed).
		if over, err := done(); over {
			return err
		}
		wake, cancel := context.WithCancel(ctx)
		key := c.watch(cancel)
		if over, err := done(); over {
			c.unwatch(key)
			cancel()
			return err
		}
		if c.active.Load() {
			<-wake.Done()
		} else {
			// The loop re-checks why the sleep ended.
			_ = c.system.SleepUntil(wake, Time[System](t))
		}
		c.unwatch(key)
		cancel()
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("simclock: sleep until %v: %w", t, err)
		}
	}
}

// SleepFor sleeps for d of ROS time: SleepUntil(Now()+d). A d <= 0
// returns nil at once, as in rclcpp, unless ctx is done.
//
// This is rcl's form: the deadline is computed from Now(), so before the
// first /clock it is d after time 0, and the sleep ends at the first
// /clock value >= d (at once when the simulator starts past d). To sleep
// d of sim time counted from the first /clock, use SleepForAfterStart.
func (c *ROSClock) SleepFor(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("simclock: sleep for %v: %w", d, err)
	}
	if d <= 0 {
		return nil
	}
	until, err := c.Now().Add(d)
	if err != nil {
		return fmt.Errorf("simclock: sleep for %v: %w", d, err)
	}
	return c.SleepUntil(ctx, until)
}

// SleepForAfterStart is the safe form of SleepFor before the first
// /clock: it waits until the clock has started (reads more than 0, R11),
// then sleeps d from the time it read then. Once the clock has started it
// is SleepFor. It returns ctx's error (wrapped) or ErrTimeSourceChanged as
// SleepFor does; waiting for the start has no timeout of its own, so
// bound it with ctx.
func (c *ROSClock) SleepForAfterStart(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("simclock: sleep for %v after start: %w", d, err)
	}
	if !c.Started() {
		// R99: rclcpp's wait_until_started sleeps until Time(1 ns).
		if err := c.SleepUntil(ctx, Time[ROS]{ns: 1}); err != nil {
			return fmt.Errorf("simclock: sleep for %v after start: %w", d, err)
		}
	}
	return c.SleepFor(ctx, d)
}

// WaitUntilStarted waits until the clock reads more than 0 or timeout
// passes on the steady clock (R11), and reports whether it started. It
// is woken by each change of the clock rather than by polling. When ctx
// is done (checked first, even on a started clock) it returns Started()
// and ctx's error.
func (c *ROSClock) WaitUntilStarted(ctx context.Context, timeout time.Duration) (bool, error) {
	// rclcpp checks the context first ("context cannot be slept with
	// because it's invalid", R99, R100).
	if err := ctx.Err(); err != nil {
		return c.Started(), fmt.Errorf("simclock: wait until started: %w", err)
	}
	// A timeout <= 0 checks once, as rclcpp does; only overflow means "never".
	deadline, err := c.steady.Now().Add(max(timeout, 0))
	if err != nil {
		deadline = Time[Steady]{ns: 1<<63 - 1}
	}
	for {
		wake, cancel := context.WithCancel(ctx)
		key := c.watch(cancel)
		if c.Started() {
			c.unwatch(key)
			cancel()
			return true, nil
		}
		if c.active.Load() {
			// Time only moves when the override is set: wait for that or the deadline.
			err = c.steady.SleepUntil(wake, deadline)
		} else {
			// System time is > 0 except on a broken clock; re-check each tick.
			tick, _ := c.steady.Now().Add(10 * time.Millisecond)
			if tick.After(deadline) {
				tick = deadline
			}
			err = c.steady.SleepUntil(wake, tick)
		}
		c.unwatch(key)
		cancel()
		if ctxErr := ctx.Err(); ctxErr != nil {
			return c.Started(), fmt.Errorf("simclock: wait until started: %w", ctxErr)
		}
		if err == nil && !c.steady.Now().Before(deadline) {
			return c.Started(), nil
		}
	}
}
