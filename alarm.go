package simclock

import (
	"container/heap"
	"math"
)

// An Alarm calls a function once when its ROS clock's override moves
// forward to or past a set time: how a timer queue learns that its
// earliest deadline passed without a jump callback of its own, so that
// a /clock update costs O(1) however many queues follow the clock (R22's
// forward-jump wake-up). It fires on the goroutine that set the
// override, after the jump's post callbacks; activation, deactivation
// and backward jumps do not fire it. Create one with ROSClock.NewAlarm.
type Alarm struct {
	c     *ROSClock
	f     func()
	at    int64 // guarded by the cell's mu
	index int   // position in the cell's heap, -1 when not armed
}

// NewAlarm returns an unarmed alarm on c that calls f when it fires. f
// runs with the same restrictions as a jump callback: it must not change
// the override of c's cell.
func (c *ROSClock) NewAlarm(f func()) *Alarm {
	a := &Alarm{c: c, f: f, index: -1}
	cellsMu.Lock()
	c.alarms = append(c.alarms, a)
	cellsMu.Unlock()
	return a
}

// Set arms the alarm for the first forward jump to t nanoseconds or
// later (replacing any earlier setting). A t already reached fires at the
// next forward jump.
func (a *Alarm) Set(t int64) {
	cell := a.lockCell()
	a.at = t
	if a.index >= 0 {
		heap.Fix(&cell.alarms, a.index)
	} else {
		cell.alarms.push(a)
	}
	cell.nextAlarm.Store(cell.alarms.min())
	cell.mu.Unlock()
}

// Stop disarms the alarm.
func (a *Alarm) Stop() {
	cell := a.lockCell()
	if a.index >= 0 {
		cell.alarms.remove(a)
		cell.nextAlarm.Store(cell.alarms.min())
	}
	cell.mu.Unlock()
}

// Close disarms the alarm for good and forgets it.
func (a *Alarm) Close() {
	a.Stop()
	cellsMu.Lock()
	for i, x := range a.c.alarms {
		if x == a {
			a.c.alarms = append(a.c.alarms[:i:i], a.c.alarms[i+1:]...)
			break
		}
	}
	cellsMu.Unlock()
}

// lockCell locks the mu of the alarm's clock's current cell.
func (a *Alarm) lockCell() *timeCell {
	for {
		cell := a.c.cell.Load()
		cell.mu.Lock()
		if a.c.cell.Load() == cell {
			return cell
		}
		cell.mu.Unlock()
	}
}

// fireAlarms disarms and calls every alarm set at or before t. The caller
// holds cell.jumpMu.
func (cell *timeCell) fireAlarms(t int64) {
	cell.mu.Lock()
	firing := cell.firing[:0]
	for len(cell.alarms) > 0 && cell.alarms[0].at <= t {
		firing = append(firing, heap.Pop(&cell.alarms).(*Alarm))
	}
	cell.nextAlarm.Store(cell.alarms.min())
	cell.mu.Unlock()
	for _, a := range firing {
		a.f()
	}
	clear(firing)
	cell.firing = firing[:0]
}

// alarmHeap orders armed alarms by time.
type alarmHeap []*Alarm

func (h alarmHeap) Len() int           { return len(h) }
func (h alarmHeap) Less(i, j int) bool { return h[i].at < h[j].at }
func (h alarmHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}
func (h *alarmHeap) Push(x any) {
	a := x.(*Alarm)
	a.index = len(*h)
	*h = append(*h, a)
}
func (h *alarmHeap) Pop() any {
	old := *h
	a := old[len(old)-1]
	old[len(old)-1] = nil
	a.index = -1
	*h = old[:len(old)-1]
	return a
}

func (h *alarmHeap) push(a *Alarm)   { heap.Push(h, a) }
func (h *alarmHeap) remove(a *Alarm) { heap.Remove(h, a.index) }

func (h alarmHeap) min() int64 {
	if len(h) == 0 {
		return math.MaxInt64
	}
	return h[0].at
}
