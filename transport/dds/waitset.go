package dds

import (
	"fmt"
	"sync"
	"time"

	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/dds/internal/ddsc"
)

// waitSet is transport.WaitSet on one Cyclone waitset, owned by the
// library so that the readers of every participant of this process can
// join it. An executor waits in it between rounds: a sample wakes the
// executor's own thread, which takes it, as ddsperf's waitset mode and a
// C application do, with no waiter goroutine per subscription and no
// hand-off between threads.
type waitSet struct {
	ws, guard ddsc.Entity

	mu     sync.Mutex // mu guards the fields below
	closed bool
	subs   map[ddsc.Entity]*subscription // by reader

	ready []ddsc.Entity // scratch of Wait, used by the one waiting goroutine
	yield yielder       // used by the one waiting goroutine
}

var (
	_ transport.Waitable = (*subscription)(nil)
	_ transport.Waitable = (*Transport)(nil)
)

// NewWaitSet makes a wait set that every subscription of this package can
// join, whatever its participant (transport.Waitable).
func (s *subscription) NewWaitSet() (transport.WaitSet, error) { return newWaitSet() }

// NewWaitSet makes a wait set that every subscription of this package can
// join (transport.Waitable): for an executor that waits for its timers
// before it has a subscription (executor.Config.WaitSet).
func (t *Transport) NewWaitSet() (transport.WaitSet, error) { return newWaitSet() }

func newWaitSet() (transport.WaitSet, error) {
	ws, guard, err := ddsc.NewWaitSet()
	if err != nil {
		return nil, fmt.Errorf("dds: wait set: %w", err)
	}
	return &waitSet{ws: ws, guard: guard, subs: map[ddsc.Entity]*subscription{}, ready: make([]ddsc.Entity, 16)}, nil
}

// Add attaches sub's reader. From then on the wait set keeps sub's pending
// flag, so that Take calls into C only for a reader that signalled data.
func (w *waitSet) Add(sub transport.Subscription) bool {
	s, ok := sub.(*subscription)
	if !ok {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return false
	}
	if _, in := w.subs[s.r]; in {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || ddsc.WaitSetAttach(w.ws, s.r) != nil {
		return false
	}
	s.inSets++
	s.pending.Store(true) // samples may have come before: make Take look
	w.subs[s.r] = s
	return true
}

// Remove detaches sub's reader.
func (w *waitSet) Remove(sub transport.Subscription) {
	s, ok := sub.(*subscription)
	if !ok {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.subs[s.r] != s {
		return
	}
	delete(w.subs, s.r)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inSets--
	if !s.closed && !w.closed {
		ddsc.WaitSetDetach(w.ws, s.r) //nolint:errcheck // a deleted reader left the waitset already
	}
}

// Wait blocks in the waitset on the calling goroutine's thread and marks
// the subscriptions whose readers have data as pending.
func (w *waitSet) Wait(timeout time.Duration) error {
	if timeout < 0 {
		timeout = waitForever
	}
	w.yield.beforeBlock()
	n, _, err := ddsc.WaitSetWait(w.ws, w.guard, timeout, w.ready)
	if err != nil {
		return fmt.Errorf("dds: wait: %w", err)
	}
	if n == 0 {
		return nil
	}
	w.mu.Lock()
	for _, r := range w.ready[:n] {
		if s := w.subs[r]; s != nil {
			s.pending.Store(true)
		}
	}
	w.mu.Unlock()
	return nil
}

// Wake triggers the guard condition.
func (w *waitSet) Wake() {
	ddsc.Trigger(w.guard) //nolint:errcheck // fails only once the set is closed
}

// Close deletes the waitset and its guard condition.
func (w *waitSet) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	w.closed = true
	for _, s := range w.subs {
		s.mu.Lock()
		s.inSets--
		s.mu.Unlock()
	}
	clear(w.subs)
	ddsc.Delete(w.ws)    //nolint:errcheck // nothing to do about it
	ddsc.Delete(w.guard) //nolint:errcheck // idem
	return nil
}
