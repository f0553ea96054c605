package guard

import (
	"time"

	"github.com/simclock/simclock"
)

// Skip says why a DtTracker produced no dt.
type Skip uint8

// Reasons a step has no dt.
const (
	// NoSkip: the step has a dt.
	NoSkip Skip = iota
	// NoBaseline: the first sample, or the previous one was taken before
	// the clock started.
	NoBaseline
	// NotStarted: the clock has not started (now <= 0, or no /clock yet).
	NotStarted
	// BackwardJump: time went back (a looped bag, a reset simulation).
	BackwardJump
	// Paused: time did not move (a paused simulation); dt would be 0.
	Paused
)

// String says why a step was skipped, or "ok".
func (s Skip) String() string {
	switch s {
	case NoSkip:
		return "ok"
	case NoBaseline:
		return "no baseline"
	case NotStarted:
		return "not started"
	case BackwardJump:
		return "backward jump"
	case Paused:
		return "paused"
	}
	return "unknown"
}

// A Step is the result of one DtTracker update.
type Step struct {
	Dt   time.Duration // valid when Skip == NoSkip; the jump size for BackwardJump
	Skip Skip
}

// OK reports whether the step has a usable dt.
func (s Step) OK() bool { return s.Skip == NoSkip }

// A DtTracker turns successive readings of a clock into time steps that
// are safe to integrate and differentiate (R29): it skips when the
// previous or current reading was taken before the clock started, reports
// backward jumps as such, and always moves the baseline to now, so a
// baseline stored before the first /clock never yields a 125 s step.
//
// By default "started" means the reading is > 0. A simulation that truly
// starts at 0 would then lose its first sample; set Started (for example
// to a time source's FirstClockReceived) to decide by "a /clock has
// arrived" instead, which loses nothing. A DtTracker is not safe for
// concurrent use.
type DtTracker[K simclock.Kind] struct {
	// Started, when set, replaces the now > 0 test.
	Started func() bool

	prev      simclock.Time[K]
	prevValid bool
}

// Update records now and returns the step since the previous reading.
func (d *DtTracker[K]) Update(now simclock.Time[K]) Step {
	valid := now.Nanoseconds() > 0
	if d.Started != nil {
		valid = d.Started()
	}
	prev, prevValid := d.prev, d.prevValid
	d.prev, d.prevValid = now, valid // always move the baseline
	switch {
	case !valid:
		return Step{Skip: NotStarted}
	case !prevValid:
		return Step{Skip: NoBaseline}
	}
	dt := now.Sub(prev)
	switch {
	case dt < 0:
		return Step{Dt: dt, Skip: BackwardJump}
	case dt == 0:
		return Step{Skip: Paused}
	}
	return Step{Dt: dt}
}

// Reset forgets the baseline.
func (d *DtTracker[K]) Reset() { d.prev, d.prevValid = simclock.Time[K]{}, false }
