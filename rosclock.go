package simclock

import (
	"context"
	"fmt"
	"math"
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
// The override lives in a cell that several clocks can share (Share): the
// clocks of the nodes that follow one time source read one cell, so a
// /clock update is one store whatever the number of clocks. Each clock
// keeps its own system clock and its own jump callbacks, which still see
// exactly the jumps rcl gives them (R12-R14).
//
// Now is lock-free: readers never wait for writers. Changes to the
// override are serialised, each running its jump callbacks pre → apply →
// post (R12-R14). All methods are safe for concurrent use.
type ROSClock struct {
	system Clock[System]
	steady Clock[Steady]

	cell atomic.Pointer[timeCell] // the cell read; its own unless shared

	// Guarded by cellsMu.
	handlers []*jumpHandler // registration order
	alarms   []*Alarm
}

// cellsMu serialises what changes rarely: registering and removing jump
// callbacks and alarms' owners, and moving clocks between cells.
var cellsMu sync.Mutex

// A timeCell is what ROS clocks read and a time source writes: the
// override state, the jump callbacks of every clock reading it, its
// sleepers and its alarms.
type timeCell struct {
	active     atomic.Bool
	override   atomic.Int64
	generation atomic.Uint64 // counts activations and deactivations

	jumpMu   sync.Mutex // jumpMu serialises override changes and their callbacks
	selected []*jumpHandler
	firing   []*Alarm

	members  []*ROSClock                  // guarded by cellsMu; in joining order
	handlers atomic.Pointer[handlerLists] // rebuilt under cellsMu on every change

	nwatchers atomic.Int32 // len(watchers), read without mu by jump

	mu          sync.Mutex // mu guards the fields below
	watchers    map[uint64]context.CancelFunc
	nextWatcher uint64
	alarms      alarmHeap
	nextAlarm   atomic.Int64 // earliest armed alarm; math.MaxInt64 when none
}

// handlerLists are a cell's jump handlers by the jumps they can select,
// member by member in joining order, each member's in registration
// order: a jump only looks at the list of its kind.
type handlerLists struct {
	change, forward, backward []*jumpHandler
}

func newCell() *timeCell {
	cell := &timeCell{}
	cell.handlers.Store(&handlerLists{})
	cell.nextAlarm.Store(math.MaxInt64)
	return cell
}

// rebuild recomputes cell's handler lists. The caller holds cellsMu.
func (cell *timeCell) rebuild() {
	hl := &handlerLists{}
	for _, c := range cell.members {
		for _, h := range c.handlers {
			if h.threshold.OnClockChange {
				hl.change = append(hl.change, h)
			}
			if h.threshold.MinForward > 0 {
				hl.forward = append(hl.forward, h)
			}
			if h.threshold.MinBackward < 0 {
				hl.backward = append(hl.backward, h)
			}
		}
	}
	cell.handlers.Store(hl)
}

// NewROSClock returns a ROS clock over the OS system and steady clocks,
// with the override disabled.
func NewROSClock() *ROSClock { return NewROSClockOn(SystemClock{}, SteadyClock{}) }

// NewROSClockOn returns a ROS clock that reads system when the override is
// disabled and measures WaitUntilStarted timeouts on steady. Tests pass
// the fakes of package virtualclock to run in virtual time.
func NewROSClockOn(system Clock[System], steady Clock[Steady]) *ROSClock {
	c := &ROSClock{system: system, steady: steady}
	cell := newCell()
	cell.members = []*ROSClock{c}
	c.cell.Store(cell)
	return c
}

// Now returns the current ROS time.
func (c *ROSClock) Now() Time[ROS] {
	cell := c.cell.Load()
	if cell.active.Load() {
		return Time[ROS]{ns: cell.override.Load()}
	}
	return Time[ROS]{ns: c.system.Now().ns}
}

// ROSTimeActive reports whether the override is enabled (rclcpp's
// ros_time_is_active).
func (c *ROSClock) ROSTimeActive() bool { return c.cell.Load().active.Load() }

// Started reports whether the clock reads more than 0 (R11): false for a
// ROS clock with sim time on and no /clock yet.
func (c *ROSClock) Started() bool { return c.Now().ns > 0 }

// OnJump registers callbacks for the jumps th selects and returns a
// function that removes them (idempotent). Callbacks are called in
// registration order; with a shared cell, clock by clock in the order
// the clocks joined it.
func (c *ROSClock) OnJump(th JumpThreshold, cb JumpCallbacks) (remove func(), err error) {
	if err := th.Validate(); err != nil {
		return nil, err
	}
	if cb.Pre == nil && cb.Post == nil {
		return nil, errNoCallback
	}
	h := &jumpHandler{threshold: th, callbacks: cb}
	cellsMu.Lock()
	c.handlers = append(c.handlers, h)
	c.cell.Load().rebuild()
	cellsMu.Unlock()
	return func() {
		cellsMu.Lock()
		c.handlers = slices.DeleteFunc(c.handlers, func(x *jumpHandler) bool { return x == h })
		c.cell.Load().rebuild()
		cellsMu.Unlock()
	}, nil
}

// Share makes c read leader's cell: from now on c reads what leader
// reads, and a change of either's override changes both. c's jump
// callbacks first see c move to leader's state (its override value, then
// its activation), exactly as if the two changes were set on c, and then
// see every change of the shared cell. A time source shares one cell
// among the clocks it feeds, so applying /clock costs the same for one
// clock or a hundred. Sleepers on c return ErrTimeSourceChanged.
func (c *ROSClock) Share(leader *ROSClock) {
	for {
		cell := leader.cell.Load()
		own := c.cell.Load()
		if cell == own {
			return
		}
		// Hold the shared cell still while c catches up with it.
		cell.jumpMu.Lock()
		if leader.cell.Load() != cell {
			cell.jumpMu.Unlock()
			continue
		}
		c.SetROSTimeOverride(Time[ROS]{ns: cell.override.Load()})
		c.setActive(cell.active.Load())
		cellsMu.Lock()
		c.move(own, cell)
		cellsMu.Unlock()
		cell.jumpMu.Unlock()
		return
	}
}

// Unshare gives c a cell of its own again, with the shared cell's current
// state: c reads the same time, and changes of the other clocks no longer
// reach it. Sleepers on c return ErrTimeSourceChanged.
func (c *ROSClock) Unshare() {
	old := c.lockCell() // jumpMu before cellsMu, as in Share and in callbacks
	defer old.jumpMu.Unlock()
	cellsMu.Lock()
	defer cellsMu.Unlock()
	if len(old.members) == 1 {
		return
	}
	cell := newCell()
	cell.active.Store(old.active.Load())
	cell.override.Store(old.override.Load())
	c.move(old, cell)
}

// move takes c from cell from to cell to, with its jump callbacks, alarms
// and sleepers (who wake and return ErrTimeSourceChanged). The caller
// holds cellsMu and to's or from's jumpMu.
func (c *ROSClock) move(from, to *timeCell) {
	from.members = slices.DeleteFunc(slices.Clone(from.members), func(x *ROSClock) bool { return x == c })
	to.members = append(slices.Clone(to.members), c)
	from.mu.Lock()
	to.mu.Lock()
	for _, a := range c.alarms {
		if a.index >= 0 {
			from.alarms.remove(a)
			to.alarms.push(a)
		}
	}
	from.nextAlarm.Store(from.alarms.min())
	to.nextAlarm.Store(to.alarms.min())
	c.cell.Store(to)
	to.mu.Unlock()
	from.mu.Unlock()
	from.rebuild()
	to.rebuild()
	from.wakeWatchers() // c's sleepers re-check, and see the change
}

// EnableROSTimeOverride switches the clock to its override value. When it
// was disabled, callbacks with OnClockChange see ROS_TIME_ACTIVATED before
// and after the switch; when already enabled nothing happens (R13).
func (c *ROSClock) EnableROSTimeOverride() { c.setActive(true) }

// DisableROSTimeOverride switches the clock back to system time, with
// ROS_TIME_DEACTIVATED callbacks (R13). The stored override is kept.
func (c *ROSClock) DisableROSTimeOverride() { c.setActive(false) }

// lockCell locks the jumpMu of c's current cell and returns the cell.
func (c *ROSClock) lockCell() *timeCell {
	for {
		cell := c.cell.Load()
		cell.jumpMu.Lock()
		if c.cell.Load() == cell {
			return cell
		}
		cell.jumpMu.Unlock()
	}
}

func (c *ROSClock) setActive(on bool) {
	cell := c.lockCell()
	defer cell.jumpMu.Unlock()
	if cell.active.Load() == on {
		return
	}
	jump := TimeJump{ClockChange: ROSTimeDeactivated}
	if on {
		jump.ClockChange = ROSTimeActivated
	}
	cell.jump(jump, change{setActive: true, active: on})
}

// SetROSTimeOverride sets the override value. While the override is
// enabled, callbacks see ROS_TIME_NO_CHANGE with delta = new - old when
// the delta passes their threshold (R14); while disabled the value is
// stored silently. On a shared cell it sets every clock that shares it.
func (c *ROSClock) SetROSTimeOverride(t Time[ROS]) {
	cell := c.lockCell()
	defer cell.jumpMu.Unlock()
	if !cell.active.Load() {
		cell.override.Store(t.ns)
		return
	}
	delta := time.Duration(t.ns - cell.override.Load())
	cell.jump(TimeJump{ClockChange: ROSTimeNoChange, Delta: delta}, change{override: t.ns})
}

// ROSTimeOverride returns the stored override value, whether or not the
// override is enabled.
func (c *ROSClock) ROSTimeOverride() Time[ROS] { return Time[ROS]{ns: c.cell.Load().override.Load()} }

// change is what a jump applies between its pre and post callbacks: an
// activation state or an override value.
type change struct {
	setActive bool
	active    bool
	override  int64
}

// jump runs pre callbacks, applies ch, wakes sleepers and due alarms,
// then runs post callbacks. The caller must hold cell.jumpMu. It does not
// allocate once the scratch slices have grown, and a forward jump with no
// forward callback and no alarm due costs the same for any number of
// clocks.
func (cell *timeCell) jump(j TimeJump, ch change) {
	hl := cell.handlers.Load()
	var candidates []*jumpHandler
	switch {
	case j.ClockChange == ROSTimeActivated || j.ClockChange == ROSTimeDeactivated:
		candidates = hl.change
	case j.Delta > 0:
		candidates = hl.forward
	case j.Delta < 0:
		candidates = hl.backward
	}
	selected := cell.selected[:0]
	for _, h := range candidates {
		if h.threshold.matches(j) {
			selected = append(selected, h)
		}
	}
	cell.selected = selected
	for _, h := range selected {
		if h.callbacks.Pre != nil {
			h.callbacks.Pre(j)
		}
	}
	if ch.setActive {
		cell.active.Store(ch.active)
		cell.generation.Add(1)
	} else {
		cell.override.Store(ch.override)
	}
	cell.wakeWatchers()
	for _, h := range selected {
		if h.callbacks.Post != nil {
			h.callbacks.Post(j)
		}
	}
	clear(selected)
	if !ch.setActive && j.Delta > 0 && ch.override >= cell.nextAlarm.Load() {
		cell.fireAlarms(ch.override)
	}
}

// waiters returns how many goroutines wait on the clock right now, in
// SleepUntil, SleepFor, SleepForAfterStart or WaitUntilStarted. Tests
// (through export_test.go) use it to publish /clock only once a sleeper
// has read the clock and waits, as virtualclock.Clock.Sleepers does for
// fake system and steady time. Clocks that share a time source share
// their waiters, so it counts the sleepers of all of them.
func (c *ROSClock) waiters() int {
	cell := c.cell.Load()
	cell.mu.Lock()
	defer cell.mu.Unlock()
	return len(cell.watchers)
}

// watch registers cancel to be called at the next change of the cell and
// returns its key for unwatch.
func (cell *timeCell) watch(cancel context.CancelFunc) uint64 {
	cell.mu.Lock()
	defer cell.mu.Unlock()
	if cell.watchers == nil {
		cell.watchers = make(map[uint64]context.CancelFunc)
	}
	cell.nextWatcher++
	cell.watchers[cell.nextWatcher] = cancel
	cell.nwatchers.Store(int32(len(cell.watchers)))
	return cell.nextWatcher
}

func (cell *timeCell) unwatch(key uint64) {
	cell.mu.Lock()
	delete(cell.watchers, key)
	cell.nwatchers.Store(int32(len(cell.watchers)))
	cell.mu.Unlock()
}

// wakeWatchers cancels every registered watcher. A watcher registers
// before it reads the clock, and jump stores the new value before it
// counts watchers, so either the watcher sees the value or it is counted
// here (atomics are sequentially consistent).
func (cell *timeCell) wakeWatchers() {
	if cell.nwatchers.Load() == 0 {
		return
	}
	cell.mu.Lock()
	watchers := cell.watchers
	cell.watchers = nil
	cell.nwatchers.Store(0)
	cell.mu.Unlock()
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
	cell0 := c.cell.Load()
	gen := cell0.generation.Load()
	// done reports why the sleep is over, if it is: the time source
	// changed (first), or the target is reached.
	done := func() (bool, error) {
		if cell := c.cell.Load(); cell != cell0 || cell.generation.Load() != gen {
			return true, fmt.Errorf("simclock: sleep until %v: %w", t, ErrTimeSourceChanged)
		}
		return c.Now().ns >= t.ns, nil
	}
	for {
		// Checked before registering as a waiter (so a sleeper that is
		// done never shows in waiters) and again after (so a change
		// between the two is not missed).
		if over, err := done(); over {
			return err
		}
		wake, cancel := context.WithCancel(ctx)
		cell := c.cell.Load()
		key := cell.watch(cancel)
		if over, err := done(); over {
			cell.unwatch(key)
			cancel()
			return err
		}
		if cell.active.Load() {
			<-wake.Done()
		} else {
			// The loop re-checks why the sleep ended.
			_ = c.system.SleepUntil(wake, Time[System](t))
		}
		cell.unwatch(key)
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
// then sleeps d from the time it read then. With a simulator whose first
// /clock is 100 s, SleepFor(ctx, 5*time.Second) called before it returns
// at 100 s (its deadline was 0 + 5 s); SleepForAfterStart returns at
// 105 s. Once the clock has started it
// is SleepFor. It returns ctx's error (wrapped) or ErrTimeSourceChanged as
// SleepFor does; waiting for the start has no timeout of its own, so
// bound it with ctx.
func (c *ROSClock) SleepForAfterStart(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("simclock: sleep for %v after start: %w", d, err)
	}
	if !c.Started() {
		// As rclcpp's wait_until_started, which sleeps until Time(1 ns)
		// (rclcpp:rclcpp/src/rclcpp/clock.cpp:221-237).
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
	// because it's invalid", rclcpp:rclcpp/src/rclcpp/clock.cpp:221-274).
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
		cell := c.cell.Load()
		key := cell.watch(cancel)
		if c.Started() {
			cell.unwatch(key)
			cancel()
			return true, nil
		}
		if cell.active.Load() {
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
		cell.unwatch(key)
		cancel()
		if ctxErr := ctx.Err(); ctxErr != nil {
			return c.Started(), fmt.Errorf("simclock: wait until started: %w", ctxErr)
		}
		if err == nil && !c.steady.Now().Before(deadline) {
			return c.Started(), nil
		}
	}
}
