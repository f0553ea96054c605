// Package guard makes the sim-time pitfalls of R27-R29 impossible or
// loud: "the time W ago" that refuses instead of failing or returning 0,
// a dt tracker that never reports the first /clock as a 125 s step, and a
// time-indexed history whose lookup at time 0 is an explicit choice.
package guard

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/simclock/simclock"
)

// Reasons a window start is refused (R27). They are distinct so callers
// can tell "no /clock yet" from "the window is not full yet".
var (
	// ErrNotStarted: the clock reads 0, the value of a ROS clock with sim
	// time on before the first /clock (R10, R26).
	ErrNotStarted = errors.New("clock not started: time is 0")
	// ErrBoundary: now equals the window exactly, so now - W is time 0,
	// which tf2 reads as "latest" (R25, R28).
	ErrBoundary = errors.New("window starts exactly at time 0")
	// ErrTooEarly: 0 < now < W, so now - W would be negative (R4).
	ErrTooEarly = errors.New("window reaches back before time 0")
)

// Ago returns now - w when that is a real instant, and refuses otherwise:
// it skips whenever now_ns <= w_ns (R27), the guard that catches both the
// unstarted clock and the boundary tick. "now == 0 || now < W" lets the
// boundary through with time 0.
func Ago[K simclock.Kind](now simclock.Time[K], w time.Duration) (simclock.Time[K], error) {
	switch ns := now.Nanoseconds(); {
	case ns == 0:
		return simclock.Time[K]{}, ErrNotStarted
	case ns < int64(w):
		return simclock.Time[K]{}, ErrTooEarly
	case ns == int64(w):
		return simclock.Time[K]{}, ErrBoundary
	}
	return now.Minus(w)
}

// A Window computes "the time W ago" on a clock and reports each kind of
// refusal once through OnRefuse, instead of a log line per tick.
type Window[K simclock.Kind] struct {
	clock    simclock.Clock[K]
	w        time.Duration
	onRefuse func(error)

	mu      sync.Mutex // mu guards the field below
	refused map[error]bool
}

// NewWindow returns a window of w on clock. onRefuse (nil allowed) is
// called the first time each reason is met.
func NewWindow[K simclock.Kind](clock simclock.Clock[K], w time.Duration, onRefuse func(error)) *Window[K] {
	return &Window[K]{clock: clock, w: w, onRefuse: onRefuse, refused: make(map[error]bool)}
}

// Start returns now - W, or the reason it is refused (ErrNotStarted,
// ErrTooEarly, ErrBoundary), wrapped with the times involved.
func (w *Window[K]) Start() (simclock.Time[K], error) {
	now := w.clock.Now()
	t, err := Ago(now, w.w)
	if err == nil {
		return t, nil
	}
	w.mu.Lock()
	first := !w.refused[err]
	w.refused[err] = true
	w.mu.Unlock()
	wrapped := fmt.Errorf("guard: %v before %v: %w", w.w, now, err)
	if first && w.onRefuse != nil {
		w.onRefuse(wrapped)
	}
	return simclock.Time[K]{}, wrapped
}
