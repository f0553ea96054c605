package timer

import (
	"cmp"
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

	mu    sync.Mutex // mu guards the fields below and every timer's state
	heap  timerHeap
	ready []entry // AppendReady's scratch
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
		want = len(q.heap) > 0 && !q.heap[0].t.canceled && q.heap[0].t.nextCall != never
		if want {
			at = q.heap[0].t.nextCall
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
	q.heap.push(t)
	q.rearmLocked()
	q.mu.Unlock()
	q.poke()
	return t, nil
}

// Remove destroys t, a timer of q (see Timer.Destroy).
func (q *Queue) Remove(t *Timer) {
	if t.q == q {
		t.Destroy()
	}
}

// removeLocked takes t out of the heap, if it is there. The caller must
// hold q.mu.
func (q *Queue) removeLocked(t *Timer) {
	if t.index >= 0 && t.index < len(q.heap) && q.heap[t.index].t == t {
		q.heap.remove(t.index)
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
	if len(q.heap) == 0 || q.heap[0].t.canceled || q.heap[0].t.nextCall == never {
		return 0, false
	}
	return q.heap[0].t.nextCall, true
}

// AppendReady appends every timer that is ready at the queue's current
// time to dst, in creation order, and returns it.
func (q *Queue) AppendReady(dst []*Timer) []*Timer {
	now := q.now()
	q.mu.Lock()
	defer q.mu.Unlock()
	// Collect and sort the heap's entries, whose creation order is
	// inline, rather than the timers they point to.
	ready := q.appendReadyLocked(q.ready[:0], 0, now)
	slices.SortFunc(ready, func(a, b entry) int { return cmp.Compare(a.seq, b.seq) })
	for _, e := range ready {
		dst = append(dst, e.t)
	}
	clear(ready)
	q.ready = ready[:0]
	return dst
}

// appendReadyLocked walks the heap from index i, visiting only the
// subtrees whose root is due. The caller must hold q.mu.
func (q *Queue) appendReadyLocked(dst []entry, i int, now int64) []entry {
	if i >= len(q.heap) {
		return dst
	}
	e := q.heap[i]
	if e.key > now || e.key == never {
		// The heap orders by deadline, canceled last (key never): nothing
		// below is ready either.
		return dst
	}
	dst = append(dst, e)
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
	if t.index >= 0 && t.index < len(q.heap) && q.heap[t.index].t == t {
		q.heap.fix(t.index)
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
	for _, e := range q.heap {
		t := e.t
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
		for _, e := range q.heap {
			t := e.t
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
		q.heap.init()
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
		wake = len(q.heap) > 0 && q.heap[0].t.readyAt(now)
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
	for _, e := range q.heap {
		t := e.t
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
		q.heap.init()
		wake = true
	}
	return wake
}

// timerHeap orders timers by next call time, canceled timers last, ties
// by creation order. Each entry carries its ordering key, so sifting
// compares values in the heap's own array instead of following a pointer
// to every timer it looks at (100 000 timers do not fit in cache).
type timerHeap []entry

type entry struct {
	key int64  // nextCall, or MaxInt64 when canceled
	seq uint64 // creation order
	t   *Timer
}

func key(t *Timer) int64 {
	if t.canceled {
		return math.MaxInt64
	}
	return t.nextCall
}

func (h timerHeap) less(i, j int) bool {
	a, b := &h[i], &h[j]
	if a.key != b.key {
		return a.key < b.key
	}
	return a.seq < b.seq
}

func (h timerHeap) swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].t.index = i
	h[j].t.index = j
}

func (h timerHeap) up(j int) {
	for j > 0 {
		i := (j - 1) / 2
		if !h.less(j, i) {
			break
		}
		h.swap(i, j)
		j = i
	}
}

func (h timerHeap) down(i0 int) bool {
	i, n := i0, len(h)
	for {
		j := 2*i + 1
		if j >= n || j < 0 {
			break
		}
		if r := j + 1; r < n && h.less(r, j) {
			j = r
		}
		if !h.less(j, i) {
			break
		}
		h.swap(i, j)
		i = j
	}
	return i > i0
}

func (h *timerHeap) push(t *Timer) {
	t.index = len(*h)
	*h = append(*h, entry{key: key(t), seq: t.seq, t: t})
	h.up(len(*h) - 1)
}

// remove takes out the entry at i and returns its timer.
func (h *timerHeap) remove(i int) *Timer {
	old := *h
	n := len(old) - 1
	if n != i {
		old.swap(i, n)
	}
	t := old[n].t
	old[n] = entry{}
	*h = old[:n]
	if n != i && !(*h).down(i) {
		(*h).up(i)
	}
	t.index = -1
	return t
}

// fix re-reads the key of the timer at i and restores the order.
func (h timerHeap) fix(i int) {
	h[i].key = key(h[i].t)
	if !h.down(i) {
		h.up(i)
	}
}

// init re-reads every key and restores the order.
func (h timerHeap) init() {
	for i := range h {
		h[i].key = key(h[i].t)
		h[i].t.index = i
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}
