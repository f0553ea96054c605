package timer

import (
	"cmp"
	"container/heap"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/simclock/simclock"
)

// A Queue holds the timers of one clock in deadline order. Create one per
// clock with NewQueue; the executor polls it with Next and Ready.
type Queue struct {
	now       func() int64
	clockType simclock.ClockType
	ros       *simclock.ROSClock // non-nil for ROS clocks
	removeCB  func()
	alarm     *simclock.Alarm // ROS clocks: fires when a forward jump passes the earliest deadline

	mu   sync.Mutex // mu guards the fields below and every timer's state
	heap timerHeap
	// staleEpoch is set while some timer's last call may be after the
	// clock's now: after sim time was enabled while the ROS value was 0
	// (deadlines are still system times), or after a clock change whose
	// credit was 0 (nothing rewritten) or negative (an overdue timer gets
	// last_call = now - credit > now). The next jump then runs rcl's full
	// per-timer check instead of looking at the heap's minimum only.
	staleEpoch bool
	wakeFn     func()
	// alarmAt is the time the alarm is armed for (armed), or the deadline
	// it last fired for (fired): a passed deadline wakes the executor
	// once (R22) and stays ready until a timer is called or changed.
	alarmAt      int64
	armed, fired bool
}

// jumpThreshold selects what the queue's jump callback handles: clock
// changes and backward jumps. Forward jumps (rcl's min_forward 1 ns)
// reach the queue through its alarm instead, only when they pass its
// earliest deadline, so one /clock update does not visit every queue.
var jumpThreshold = simclock.JumpThreshold{OnClockChange: true, MinBackward: -1}

// NewQueue returns a queue for timers on clock. On a *simclock.ROSClock
// the queue registers one jump callback and one alarm (R22) and applies
// rcl's per-timer jump rules to all its timers.
func NewQueue[K simclock.Kind](clock simclock.Clock[K]) *Queue {
	q := &Queue{now: func() int64 { return clock.Now().Nanoseconds() }}
	var k K
	q.clockType = k.ClockType()
	if ros, ok := any(clock).(*simclock.ROSClock); ok {
		q.ros = ros
		q.removeCB, _ = ros.OnJump(jumpThreshold, simclock.JumpCallbacks{Pre: q.preJump, Post: q.postJump})
		q.alarm = ros.NewAlarm(q.forwardJump)
	}
	return q
}

// ClockType returns the type of the queue's clock.
func (q *Queue) ClockType() simclock.ClockType { return q.clockType }

// ROSClock returns the queue's ROS clock, or nil for other clocks.
func (q *Queue) ROSClock() *simclock.ROSClock { return q.ros }

// Now reads the queue's clock in nanoseconds.
func (q *Queue) Now() int64 { return q.now() }

// SetWake registers f to be called when a timer may have become ready
// outside a call: a reset, a new timer, or a jump of the clock. The
// executor uses it to stop waiting. f must not block.
func (q *Queue) SetWake(f func()) {
	q.mu.Lock()
	q.wakeFn = f
	q.mu.Unlock()
}

func (q *Queue) poke() {
	q.mu.Lock()
	f := q.wakeFn
	q.mu.Unlock()
	if f != nil {
		f()
	}
}

// Close unregisters the queue's jump callback and alarm.
func (q *Queue) Close() {
	if q.removeCB != nil {
		q.removeCB()
		q.alarm.Close()
	}
}

// rearmLocked sets the alarm to the earliest deadline, or to any forward
// jump while the epoch is stale, unless it already fired for that
// deadline. The caller must hold q.mu.
func (q *Queue) rearmLocked() {
	if q.alarm == nil {
		return
	}
	at, want := int64(math.MinInt64), true
	if !q.staleEpoch {
		want = len(q.heap) > 0 && !q.heap[0].canceled && q.heap[0].nextCall != never
		if want {
			at = q.heap[0].nextCall
		}
	}
	switch {
	case !want:
		if q.armed {
			q.alarm.Stop()
			q.armed = false
		}
	case q.armed && at == q.alarmAt:
	case q.fired && at == q.alarmAt && !q.staleEpoch:
	default:
		q.alarm.Set(at)
		q.alarmAt, q.armed, q.fired = at, true, false
	}
}

// New creates a timer with the given period and callback (nil allowed),
// started (R19) unless autostart is false, in which case it is created
// canceled until Reset.
func (q *Queue) New(period time.Duration, callback func(Info), autostart bool) (*Timer, error) {
	if period < 0 {
		return nil, ErrNegativePeriod
	}
	now := q.now()
	q.mu.Lock()
	t := &Timer{q: q, seq: timerSeq.Add(1), period: int64(period), lastCall: now, nextCall: deadline(now, int64(period)),
		canceled: !autostart, callback: callback}
	heap.Push(&q.heap, t)
	q.rearmLocked()
	q.mu.Unlock()
	q.poke()
	return t, nil
}

// Remove takes t out of the queue for good.
func (q *Queue) Remove(t *Timer) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if t.index >= 0 && t.index < len(q.heap) && q.heap[t.index] == t {
		heap.Remove(&q.heap, t.index)
		t.index = -1
		q.rearmLocked()
	}
}

// Len returns the number of timers in the queue.
func (q *Queue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.heap)
}

// Next returns the earliest next call time of a non-canceled timer, in
// nanoseconds on the queue's clock. ok is false when no timer is armed,
// or when every armed timer's deadline is never (an infinite period).
func (q *Queue) Next() (deadline int64, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.heap) == 0 || q.heap[0].canceled || q.heap[0].nextCall == never {
		return 0, false
	}
	return q.heap[0].nextCall, true
}

// AppendReady appends every timer that is ready at the queue's current
// time to dst, in creation order, and returns it.
func (q *Queue) AppendReady(dst []*Timer) []*Timer {
	now := q.now()
	q.mu.Lock()
	defer q.mu.Unlock()
	start := len(dst)
	dst = q.appendReadyLocked(dst, 0, now)
	sortBySeq(dst[start:])
	return dst
}

// appendReadyLocked walks the heap from index i, visiting only the
// subtrees whose root is due. The caller must hold q.mu.
func (q *Queue) appendReadyLocked(dst []*Timer, i int, now int64) []*Timer {
	if i >= len(q.heap) {
		return dst
	}
	t := q.heap[i]
	if !t.readyAt(now) {
		// The heap orders by deadline, canceled last: nothing below is
		// ready either.
		return dst
	}
	dst = append(dst, t)
	dst = q.appendReadyLocked(dst, 2*i+1, now)
	return q.appendReadyLocked(dst, 2*i+2, now)
}

// SortByCreation orders timers by creation, across all queues: the
// executor's dispatch order.
func SortByCreation(ts []*Timer) { sortBySeq(ts) }

func sortBySeq(ts []*Timer) {
	slices.SortFunc(ts, func(a, b *Timer) int { return cmp.Compare(a.seq, b.seq) })
}

// timerSeq numbers timers across all queues in creation order.
var timerSeq atomic.Uint64

// fixLocked restores heap order after t's deadline or state changed. The
// caller must hold q.mu.
func (q *Queue) fixLocked(t *Timer) {
	q.fired = false // a call or a change: the next passed deadline wakes again
	if t.index >= 0 && t.index < len(q.heap) && q.heap[t.index] == t {
		heap.Fix(&q.heap, t.index)
		q.rearmLocked()
	}
}

// preJump is rcl's pre-jump timer callback: on activation or deactivation
// it stores the time remaining until the next call as a "credit" (the
// comment in rcl calls it elapsed time; it is the remaining time).
func (q *Queue) preJump(j simclock.TimeJump) {
	if j.ClockChange != simclock.ROSTimeActivated && j.ClockChange != simclock.ROSTimeDeactivated {
		return
	}
	now := q.now() // still in the old epoch
	if now == 0 {
		return
	}
	q.mu.Lock()
	for _, t := range q.heap {
		t.credit = t.nextCall - now
	}
	q.mu.Unlock()
}

// postJump is rcl's post-jump timer callback (R22, R23).
func (q *Queue) postJump(j simclock.TimeJump) {
	now := q.now() // the new epoch
	q.mu.Lock()
	wake := false
	switch {
	case j.ClockChange == simclock.ROSTimeActivated || j.ClockChange == simclock.ROSTimeDeactivated:
		if now == 0 {
			// The credit stays stored for a later change, and the timers
			// keep deadlines from the old epoch until the first value
			// arrives (R22: activation while the ROS value is still 0).
			q.staleEpoch = len(q.heap) > 0
			break
		}
		stale := false
		for _, t := range q.heap {
			credit := t.credit
			t.credit = 0
			if credit != 0 && t.nextCall != never {
				// Net effect: time until next call = period - remaining.
				t.nextCall = deadline(now-credit, t.period)
				t.lastCall = now - credit
			}
			stale = stale || now < t.lastCall
		}
		q.staleEpoch = stale
		heap.Init(&q.heap)
		wake = true
	case j.Delta < 0:
		wake = q.checkAllLocked(now)
	default:
		// Forward jumps come through forwardJump.
	}
	q.rearmLocked()
	f := q.wakeFn
	q.mu.Unlock()
	if wake && f != nil {
		f()
	}
}

// forwardJump is the queue's alarm: a forward jump passed the earliest
// deadline, or any forward jump while the epoch is stale (rcl's full
// per-timer check then runs).
func (q *Queue) forwardJump() {
	now := q.now()
	q.mu.Lock()
	q.armed, q.fired = false, true
	var wake bool
	if q.staleEpoch {
		wake = q.checkAllLocked(now)
	} else {
		// Same epoch: no last call can be in the future, so only a
		// passed deadline matters, and only the heap's minimum can tell.
		wake = len(q.heap) > 0 && q.heap[0].readyAt(now)
	}
	q.rearmLocked()
	f := q.wakeFn
	q.mu.Unlock()
	if wake && f != nil {
		f()
	}
}

// checkAllLocked is rcl's per-timer check after a backward jump or a
// jump in a stale epoch: a deadline passed wakes; a last call in the
// future (a backward jump, or a last call stamped in the old epoch of an
// activation at 0) restarts a full period from now. As in rcl, canceled
// timers are rewritten too: their last call must not stay in the future,
// or a later jump would reset them again after a Reset. The caller must
// hold q.mu.
func (q *Queue) checkAllLocked(now int64) (wake bool) {
	changed, stale := false, false
	for _, t := range q.heap {
		if t.nextCall <= now && t.nextCall != never {
			wake = wake || !t.canceled
			// rcl leaves such a timer alone, even with a last call
			// still in the future; keep checking until it is gone.
			stale = stale || now < t.lastCall
		} else if now < t.lastCall {
			t.nextCall = deadline(now, t.period)
			t.lastCall = now
			changed = true
		}
	}
	q.staleEpoch = stale
	if changed {
		heap.Init(&q.heap)
		wake = true
	}
	return wake
}

// timerHeap orders timers by next call time, canceled timers last, ties
// by creation order.
type timerHeap []*Timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	a, b := h[i], h[j]
	ka, kb := key(a), key(b)
	if ka != kb {
		return ka < kb
	}
	return a.seq < b.seq
}

func key(t *Timer) int64 {
	if t.canceled {
		return math.MaxInt64
	}
	return t.nextCall
}

func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}
func (h *timerHeap) Push(x any) {
	t := x.(*Timer)
	t.index = len(*h)
	*h = append(*h, t)
}
func (h *timerHeap) Pop() any {
	old := *h
	n := len(old)
	t := old[n-1]
	old[n-1] = nil
	t.index = -1
	*h = old[:n-1]
	return t
}
