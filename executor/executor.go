// Package executor runs timer and subscription callbacks on one goroutine,
// in real time or in virtual time.
//
// # Dispatch order
//
// The executor works in rounds. Each round it
//
//  1. calls every timer that is ready at the start of the round, across
//     all queues, in timer creation order (rclpy's order: timers first);
//  2. then takes at most one sample from each subscription, in
//     subscription creation order, and calls its handler.
//
// A sample published by a timer callback is therefore handled in the same
// round, and a timer made ready by that sample (a /clock message moving
// ROS time) is called in the next round. (With Config.Workers above 1 a
// round's callbacks run concurrently, and a sample published during the
// round may be handled in the next one.)
//
// # Spinning
//
// The spin methods follow rclcpp's Executor (rclcpp/src/rclcpp/executor.cpp
// and executors/single_threaded_executor.cpp, Jazzy) and rclpy's
// (rclpy/executors.py):
//
//	rclcpp                        rclpy                         simclock
//	spin()                        spin()                        Spin(ctx)
//	spin_until_future_complete()  spin_until_future_complete()  SpinUntil(ctx, done)
//	spin_once(timeout)            spin_once(timeout_sec)        SpinOnce(ctx, timeout)
//	spin_some()                   -                             SpinSome(ctx)
//	cancel()                      -                             Stop()
//	is_spinning()                 -                             IsSpinning()
//
// One spin at a time: a spin method called while another runs, from
// another goroutine or from inside a callback, returns ErrAlreadySpinning
// at once and touches nothing, as rclcpp throws "spin() called while
// already spinning". Stop ends the current spin only; the executor may
// spin again afterwards, as after rclcpp's cancel(). Unlike rclcpp, whose
// cancel() clears the very flag that refuses a second spin (so a spin
// started between cancel() and the canceled spin's return runs alongside
// it), the executor counts as spinning until the canceled spin has
// returned.
//
// # Real and virtual time
//
// In real time the executor sleeps on the steady clock until the next
// deadline, a new sample, or a jump of a ROS clock. When its
// subscriptions offer a wait set (transport.Waitable: the dds transport's
// Cyclone waitset), or Config.WaitSet gives one, it sleeps in that set,
// until the next timer's deadline too, on the spinning goroutine's own
// thread, so that a sample wakes the thread that takes and handles it,
// with no waiter goroutine per subscription and no hand-off between
// threads (a /clock sample reaches a node's clock with one wake-up, as in
// a C program waiting in a waitset); timers, pokes, Stop and the end of
// the context wake it through the set's guard. In virtual time
// (Config.Virtual set) it never sleeps: when no work is ready it advances
// the fake clock straight to the next deadline. Virtual runs are
// single-threaded and deterministic: the same inputs give the same calls
// at the same virtual instants on every run.
package executor

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/virtualclock"
)

// ErrIdle is returned by a virtual-time Spin when nothing is left to do:
// no armed timer on a clock that moves by itself and no queued sample.
var ErrIdle = errors.New("executor: nothing left to run")

// ErrAlreadySpinning is returned, wrapped with the name of the method
// ("executor: Spin called while already spinning"), by a spin method
// called while the executor spins: rclcpp's "spin() called while already
// spinning" (single_threaded_executor.cpp, executor.cpp).
var ErrAlreadySpinning = errors.New("called while already spinning")

// Config configures an executor. The zero value runs in real time on the
// OS clocks.
type Config struct {
	// Virtual, when set, runs the executor in virtual time on this
	// clock (package virtualclock: the deterministic steady and system
	// clocks the experiments, and the tests of pub and monitor, run on).
	Virtual *virtualclock.Clock
	// Workers, when above 1, runs the callbacks of one round on up to
	// that many goroutines at once, like rclcpp's MultiThreadedExecutor
	// with every callback in a reentrant group: the round's callbacks
	// may run concurrently (no one callback twice at once), and the next
	// round starts when all of them returned. The callbacks must then
	// guard their shared state. Within a round the start order stays the
	// documented one, but the finish order is not fixed, so a virtual run
	// with Workers > 1 is no longer deterministic.
	Workers int
	// WaitSet, when set in real time, gives the executor a wait set from
	// the start (transport.Waitable: the dds transport), so that it sleeps
	// in it even while it has no subscription of its own: an executor
	// that only runs timers (a /clock publisher) then wakes from the
	// transport's wait at each deadline, on its own thread, not from a Go
	// timer, which costs the runtime's poller thread and a second thread
	// a wake-up each (docs/perf-notes.md). Without it the wait set comes
	// from the first Waitable subscription.
	WaitSet transport.Waitable
}

// An Executor dispatches callbacks. Add work with AddQueue and Subscribe,
// then call a spin method (Spin, SpinUntil, SpinOnce, SpinSome), which
// runs the callbacks on the calling goroutine (and, with Config.Workers,
// on helpers it waits for). Every method is safe for concurrent use; a
// second concurrent spin is refused with ErrAlreadySpinning.
type Executor struct {
	fake   *virtualclock.Clock
	steady simclock.Clock[simclock.Steady]
	system simclock.Clock[simclock.System]
	wake   chan struct{} // capacity 1: a pending wake-up coalesces later ones

	mu     sync.Mutex // mu guards the fields below
	queues []*timer.Queue
	subs   []*subscription

	ready   []*timer.Timer // scratch, used only by the spinning goroutine
	workers int

	spinMu   sync.Mutex  // spinMu guards spinning, so that a Stop never reaches a later spin
	spinning bool        // a spin method is running
	canceled atomic.Bool // Stop was called during the current spin

	// In real time the executor waits in its transport's own wait
	// primitive when its subscriptions offer one (transport.Waitable: the
	// dds transport's Cyclone waitset), so that a sample wakes the
	// spinning goroutine itself. waitSet is nil until the first such
	// subscription; sleeping is set while the spinning goroutine waits in
	// it, so that poke wakes it (a guard condition) only then.
	waitSet  atomic.Pointer[waitSetRef]
	sleeping atomic.Bool
}

type waitSetRef struct{ transport.WaitSet }

type subscription struct {
	sub      transport.Subscription
	handle   func(transport.Sample)
	stop     chan struct{} // closed once, by halt
	stopOnce sync.Once
	done     chan struct{}
	unwake   func() // undoes a transport.WakeSetter's SetWake; may be nil
}

// halt stops the forwarding goroutine and waits for it. Both remove and
// Close call it, in either order.
func (s *subscription) halt() {
	s.stopOnce.Do(func() {
		close(s.stop)
		if s.unwake != nil {
			s.unwake()
		}
	})
	<-s.done
}

// New returns an executor.
func New(cfg Config) *Executor {
	e := &Executor{fake: cfg.Virtual, wake: make(chan struct{}, 1), workers: max(cfg.Workers, 1)}
	if cfg.Virtual != nil {
		e.steady, e.system = cfg.Virtual.Steady(), cfg.Virtual.System()
	} else {
		e.steady, e.system = simclock.SteadyClock{}, simclock.SystemClock{}
		if cfg.WaitSet != nil {
			if ws, err := cfg.WaitSet.NewWaitSet(); err == nil { // else a Go timer, as without one
				e.waitSet.Store(&waitSetRef{ws})
			}
		}
	}
	return e
}

// Steady returns the steady clock the executor runs on (the fake one in
// virtual time).
func (e *Executor) Steady() simclock.Clock[simclock.Steady] { return e.steady }

// System returns the system clock the executor runs on.
func (e *Executor) System() simclock.Clock[simclock.System] { return e.system }

// Virtual reports whether the executor runs in virtual time.
func (e *Executor) Virtual() bool { return e.fake != nil }

// AddQueue adds a timer queue. The executor calls its ready timers and is
// woken by its jumps and resets.
func (e *Executor) AddQueue(q *timer.Queue) {
	q.SetWake(e.poke)
	e.mu.Lock()
	e.queues = append(e.queues, q)
	e.mu.Unlock()
	e.poke()
}

// RemoveQueue stops dispatching q's timers.
func (e *Executor) RemoveQueue(q *timer.Queue) {
	q.SetWake(nil)
	e.mu.Lock()
	for i, x := range e.queues {
		if x == q {
			e.queues = append(e.queues[:i:i], e.queues[i+1:]...)
			break
		}
	}
	e.mu.Unlock()
}

// Subscribe makes the executor call handle for each sample sub receives.
// In real time, when sub is a transport.Waitable (the dds transport), the
// spinning goroutine waits for it in the transport's wait set itself;
// otherwise, when sub is a transport.WakeSetter, sub wakes the executor
// from its own waiter, and else a goroutine forwards sub's notifications.
// remove stops watching sub (and Close stops all of them).
func (e *Executor) Subscribe(sub transport.Subscription, handle func(transport.Sample)) (remove func()) {
	s := &subscription{sub: sub, handle: handle, stop: make(chan struct{}), done: make(chan struct{})}
	ws, direct := sub.(transport.WakeSetter)
	var set *waitSetRef
	if e.fake == nil {
		set = e.joinWaitSet(sub)
	}
	switch {
	case set != nil:
		s.unwake = func() { set.Remove(sub) }
		close(s.done)
	case e.fake == nil && direct:
		// The transport wakes the executor itself: no goroutine here.
		ws.SetWake(e.poke)
		s.unwake = func() { ws.SetWake(nil) }
		close(s.done)
	case e.fake == nil:
		go func() {
			defer close(s.done)
			for {
				select {
				case <-s.stop:
					return
				case <-sub.Notify():
					e.poke()
				}
			}
		}()
	default:
		close(s.done)
	}
	e.mu.Lock()
	e.subs = append(e.subs, s)
	e.mu.Unlock()
	e.poke()
	return func() {
		e.mu.Lock()
		for i, x := range e.subs {
			if x == s {
				e.subs = append(e.subs[:i:i], e.subs[i+1:]...)
				break
			}
		}
		e.mu.Unlock()
		s.halt()
	}
}

// joinWaitSet adds sub to the executor's wait set, making the set from
// sub when it is the first transport.Waitable, and returns the set, or
// nil when sub cannot join one.
func (e *Executor) joinWaitSet(sub transport.Subscription) *waitSetRef {
	e.mu.Lock()
	defer e.mu.Unlock()
	ref := e.waitSet.Load()
	if ref == nil {
		w, ok := sub.(transport.Waitable)
		if !ok {
			return nil
		}
		ws, err := w.NewWaitSet()
		if err != nil {
			return nil // watched through its notifications instead
		}
		ref = &waitSetRef{ws}
		e.waitSet.Store(ref)
	}
	if !ref.Add(sub) {
		return nil
	}
	return ref
}

// Close stops every forwarding goroutine and frees the wait set. The
// executor must not be spinning.
func (e *Executor) Close() error {
	e.mu.Lock()
	subs := e.subs
	e.subs = nil
	e.mu.Unlock()
	for _, s := range subs {
		s.halt()
	}
	e.mu.Lock()
	ref := e.waitSet.Swap(nil)
	e.mu.Unlock()
	if ref != nil {
		return ref.Close()
	}
	return nil
}

// poke wakes a waiting spin: on the wake channel, and through the wait
// set when the spinning goroutine sleeps in it. The wait sets sleeping
// before it looks at the channel a last time, so a poke after that look
// sees sleeping and wakes the wait set.
func (e *Executor) poke() {
	select {
	case e.wake <- struct{}{}:
	default:
	}
	if e.sleeping.Load() {
		if ref := e.waitSet.Load(); ref != nil {
			ref.Wake()
		}
	}
}

// Stop ends the current spin, as rclcpp's Executor::cancel() does: the
// spin returns (nil) as soon as the callback that is running returns, and
// no further callback of its round runs. A callback may call it. Stop
// ends only the spin in progress: the executor may spin again, and a Stop
// while nothing spins does nothing. To stop a spin that has not started
// yet, cancel its context instead.
func (e *Executor) Stop() {
	e.spinMu.Lock()
	if e.spinning {
		e.canceled.Store(true)
	}
	e.spinMu.Unlock()
	e.poke()
}

// IsSpinning reports whether a spin method is running, as rclcpp's
// is_spinning(). A spin that Stop ended counts as spinning until it has
// returned (see the package doc).
func (e *Executor) IsSpinning() bool {
	e.spinMu.Lock()
	defer e.spinMu.Unlock()
	return e.spinning
}

// begin marks the executor spinning for the method name, or returns
// ErrAlreadySpinning. end undoes it.
func (e *Executor) begin(name string) error {
	e.spinMu.Lock()
	defer e.spinMu.Unlock()
	if e.spinning {
		return fmt.Errorf("executor: %s %w", name, ErrAlreadySpinning)
	}
	e.spinning = true
	e.canceled.Store(false)
	return nil
}

func (e *Executor) end() {
	e.spinMu.Lock()
	e.spinning = false
	e.canceled.Store(false)
	e.spinMu.Unlock()
}

// SpinSome runs one round (see the package doc) and reports whether any
// callback ran. It never waits: it is rclcpp's spin_some(), which collects
// the ready work once and executes it (executor.cpp, spin_some_impl). It
// returns ErrAlreadySpinning while another spin runs, and ctx's error
// (wrapped) when ctx is done before the round starts.
func (e *Executor) SpinSome(ctx context.Context) (ran bool, err error) {
	if err := e.begin("SpinSome"); err != nil {
		return false, err
	}
	defer e.end()
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("executor: %w", err)
	}
	return e.round(), nil
}

// SpinOnce runs one callback: the first ready timer in creation order, or
// else one sample of the first subscription that has one, waiting up to
// timeout for one to become ready. It is rclcpp's spin_once(timeout) and
// rclpy's spin_once(timeout_sec) (executor.cpp, get_next_executable;
// executors.py): a timeout of 0 does not wait, a negative one waits until
// work is ready. It reports whether a callback ran; a timeout is not an
// error (ran is false), nor is a Stop from another goroutine. It returns
// ErrAlreadySpinning while another spin runs, ctx's error (wrapped) when
// ctx is done first, and, in virtual time with a negative timeout,
// ErrIdle when nothing can ever become ready. In virtual time the wait
// moves the fake clock, to the next deadline or by the timeout.
func (e *Executor) SpinOnce(ctx context.Context, timeout time.Duration) (ran bool, err error) {
	if err := e.begin("SpinOnce"); err != nil {
		return false, err
	}
	defer e.end()
	defer e.watchContext(ctx)()
	var limit simclock.Time[simclock.Steady]
	if timeout > 0 {
		ns := simclock.SaturatingAdd(time.Duration(e.steady.Now().Nanoseconds()), timeout)
		limit, _ = simclock.TimeFromNanoseconds[simclock.Steady](int64(ns))
	}
	for {
		if err := ctx.Err(); err != nil {
			return false, fmt.Errorf("executor: %w", err)
		}
		if e.canceled.Load() {
			return false, nil
		}
		if e.runOne() {
			return true, nil
		}
		if timeout == 0 || (timeout > 0 && e.steady.Now().Nanoseconds() >= limit.Nanoseconds()) {
			return false, nil
		}
		if err := e.wait(ctx, limit, timeout > 0); err != nil {
			return false, err
		}
	}
}

// runOne calls one callback, in rclcpp's order (get_next_ready_executable:
// timers, then subscriptions), and reports whether one ran.
func (e *Executor) runOne() bool {
	e.mu.Lock()
	queues, subs := e.queues, e.subs // copy-on-write, see round
	e.mu.Unlock()
	ready := e.collectReady(queues)
	defer e.release(ready)
	for _, t := range ready {
		if !t.IsReady() {
			continue
		}
		if _, err := t.Call(); err == nil {
			return true
		}
	}
	for _, s := range subs {
		if sample, ok := s.sub.Take(); ok {
			s.handle(sample)
			return true
		}
	}
	return false
}

// collectReady returns the timers ready now, across all queues, in
// creation order, in the executor's scratch slice; release hands it back.
func (e *Executor) collectReady(queues []*timer.Queue) []*timer.Timer {
	ready := e.ready[:0]
	contributed := 0 // each queue's timers come sorted: one queue needs no merge
	for _, q := range queues {
		n := len(ready)
		if ready = q.AppendReady(ready); len(ready) > n {
			contributed++
		}
	}
	if contributed > 1 {
		timer.SortByCreation(ready)
	}
	return ready
}

func (e *Executor) release(ready []*timer.Timer) {
	clear(ready)
	e.ready = ready[:0]
}

// round runs one round (see the package doc) and reports whether any
// callback ran. The caller holds the spinning mark.
func (e *Executor) round() bool {
	e.mu.Lock()
	// The slices are copy-on-write (add appends past every snapshot's
	// length, remove builds a new array), so a snapshot needs no copy.
	queues, subs := e.queues, e.subs
	e.mu.Unlock()

	ready := e.collectReady(queues)
	if e.workers > 1 {
		worked := e.dispatchParallel(ready, subs)
		e.release(ready)
		return worked
	}
	worked := false
	for _, t := range ready {
		if e.canceled.Load() {
			break
		}
		// A callback earlier in the round may have canceled or reset it.
		if !t.IsReady() {
			continue
		}
		if _, err := t.Call(); err == nil {
			worked = true
		}
	}
	e.release(ready)

	for _, s := range subs {
		if e.canceled.Load() {
			break
		}
		if sample, ok := s.sub.Take(); ok {
			s.handle(sample)
			worked = true
		}
	}
	return worked
}

// dispatchParallel runs one round's callbacks on up to e.workers
// goroutines and waits for all of them. Callbacks start in the order of
// the package doc.
func (e *Executor) dispatchParallel(ready []*timer.Timer, subs []*subscription) bool {
	var (
		wg     sync.WaitGroup
		worked atomic.Bool
		slots  = make(chan struct{}, e.workers)
	)
	run := func(job func() bool) {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			if job() {
				worked.Store(true)
			}
		})
	}
	for _, t := range ready {
		if e.canceled.Load() {
			break
		}
		run(func() bool {
			if !t.IsReady() {
				return false
			}
			_, err := t.Call()
			return err == nil
		})
	}
	for _, s := range subs {
		if e.canceled.Load() {
			break
		}
		if sample, ok := s.sub.Take(); ok {
			run(func() bool { s.handle(sample); return true })
		}
	}
	wg.Wait()
	return worked.Load()
}

// Spin runs rounds until ctx is done (its error is returned, wrapped) or
// Stop is called (nil), as rclcpp's spin(). In virtual time it returns
// ErrIdle when nothing is left to do; use SpinUntil to stop at a
// condition. It returns ErrAlreadySpinning while another spin runs.
func (e *Executor) Spin(ctx context.Context) error {
	if err := e.begin("Spin"); err != nil {
		return err
	}
	defer e.end()
	defer e.watchContext(ctx)()
	return e.spinUntil(ctx, func() bool { return false })
}

// SpinUntil runs rounds until done() reports true (checked after every
// round), Stop is called (both return nil), ctx is done (its error is
// returned, wrapped), or, in virtual time, nothing is left to do
// (ErrIdle). It is rclcpp's spin_until_future_complete with done for the
// future. It returns ErrAlreadySpinning while another spin runs.
func (e *Executor) SpinUntil(ctx context.Context, done func() bool) error {
	if err := e.begin("SpinUntil"); err != nil {
		return err
	}
	defer e.end()
	defer e.watchContext(ctx)()
	return e.spinUntil(ctx, done)
}

func (e *Executor) spinUntil(ctx context.Context, done func() bool) error {
	for {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("executor: %w", err)
		}
		if e.canceled.Load() || done() {
			return nil
		}
		if e.round() {
			continue
		}
		if e.canceled.Load() || done() {
			return nil
		}
		if err := e.wait(ctx, simclock.Time[simclock.Steady]{}, false); err != nil {
			return err
		}
	}
}

// wait blocks until work may be ready, or, when hasLimit, until the
// steady clock reaches limit: in virtual time by advancing the fake clock
// to the next deadline.
func (e *Executor) wait(ctx context.Context, limit simclock.Time[simclock.Steady], hasLimit bool) error {
	if e.fake != nil {
		// A pending poke means a sample or jump arrived: run another round.
		select {
		case <-e.wake:
			return nil
		default:
		}
		next, ok := e.nextSteadyDeadline()
		if hasLimit && (!ok || limit.Before(next)) {
			next, ok = limit, true
		}
		if !ok {
			return ErrIdle
		}
		e.fake.AdvanceTo(next)
		return nil
	}
	next, ok := e.nextSteadyDeadline()
	if hasLimit && (!ok || limit.Before(next)) {
		next, ok = limit, true
	}
	d := time.Duration(-1) // no deadline
	if ok {
		if d = time.Duration(next.Nanoseconds() - e.steady.Now().Nanoseconds()); d <= 0 {
			return nil
		}
	}
	if ref := e.waitSet.Load(); ref != nil {
		return e.waitIn(ctx, ref, d)
	}
	var timeout <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-ctx.Done():
		return fmt.Errorf("executor: %w", ctx.Err())
	case <-e.wake:
	case <-timeout:
	}
	return nil
}

// waitIn waits in the wait set, for at most d when d is not negative.
// The spin registered a poke for ctx's end (see watchContext).
func (e *Executor) waitIn(ctx context.Context, ref *waitSetRef, d time.Duration) error {
	e.sleeping.Store(true)
	select {
	case <-e.wake: // a poke came before sleeping was set
		e.sleeping.Store(false)
		return nil
	default:
	}
	err := ref.Wait(d)
	e.sleeping.Store(false)
	select { // a poke that woke this wait, or came since: the round sees its work
	case <-e.wake:
	default:
	}
	if err != nil {
		return fmt.Errorf("executor: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("executor: %w", err)
	}
	return nil
}

// watchContext makes the end of ctx wake a spin that waits in the wait
// set, whose wait cannot select on ctx.Done; the returned function
// undoes it.
func (e *Executor) watchContext(ctx context.Context) (stop func() bool) {
	if e.fake != nil || ctx.Done() == nil {
		return func() bool { return true }
	}
	return context.AfterFunc(ctx, e.poke)
}

// nextSteadyDeadline converts the earliest timer deadline of every queue
// to steady time, reading each queue's own clock (a timer may be on any
// clock, not only the executor's). ROS queues with sim time active have no
// deadline of their own: they move only when /clock does.
func (e *Executor) nextSteadyDeadline() (simclock.Time[simclock.Steady], bool) {
	e.mu.Lock()
	queues := e.queues // copy-on-write, see round
	e.mu.Unlock()
	steadyNow := e.steady.Now().Nanoseconds()
	best := int64(math.MaxInt64)
	found := false
	for _, q := range queues {
		deadline, ok := q.Next()
		if !ok {
			continue
		}
		if ros := q.ROSClock(); q.ClockType() == simclock.ROSTime && (ros == nil || ros.ROSTimeActive()) {
			continue
		}
		wait := deadline - q.Now()
		// Saturate: a far deadline must not wrap into the past (a busy loop).
		at := int64(simclock.SaturatingAdd(time.Duration(steadyNow), time.Duration(max(wait, 0))))
		if !found || at < best {
			best, found = at, true
		}
	}
	if !found {
		return simclock.Time[simclock.Steady]{}, false
	}
	t, _ := simclock.TimeFromNanoseconds[simclock.Steady](best)
	return t, true
}
