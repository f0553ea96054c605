package guard

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/simclock/simclock"
)

// Errors of History lookups.
var (
	// ErrZeroTime rejects a lookup at time 0 in strict mode: in tf2 time 0
	// means "latest", which is how a boundary tick silently gets the
	// newest transform instead of the one W ago (R28).
	ErrZeroTime = errors.New("lookup at time 0")
	// ErrEmpty: nothing has been stored.
	ErrEmpty = errors.New("history is empty")
	// ErrExtrapolation: the time is before the oldest or after the newest
	// entry.
	ErrExtrapolation = errors.New("lookup would extrapolate")
)

// An Entry is one stamped value.
type Entry[K simclock.Kind, V any] struct {
	Stamp simclock.Time[K]
	Value V
}

// A History is a time-indexed buffer in the shape of a tf2 buffer: values
// stored by stamp, looked up by time. Lookup returns the newest entry
// stamped at or before the time (no interpolation). A lookup at time 0
// is an error in strict mode, and means "latest" only when Strict is
// false, as in tf2. It is safe for concurrent use.
type History[K simclock.Kind, V any] struct {
	// Strict refuses lookups at time 0 with ErrZeroTime.
	Strict bool
	// Capacity bounds the number of entries; the oldest are dropped. 0
	// means unbounded.
	Capacity int

	mu      sync.Mutex // mu guards entries
	entries []Entry[K, V]
}

// Add stores v at stamp, replacing a value with the same stamp.
func (h *History[K, V]) Add(stamp simclock.Time[K], v V) {
	h.mu.Lock()
	defer h.mu.Unlock()
	i, found := slices.BinarySearchFunc(h.entries, stamp, func(e Entry[K, V], t simclock.Time[K]) int { return e.Stamp.Compare(t) })
	if found {
		h.entries[i].Value = v
		return
	}
	h.entries = slices.Insert(h.entries, i, Entry[K, V]{Stamp: stamp, Value: v})
	if h.Capacity > 0 && len(h.entries) > h.Capacity {
		h.entries = slices.Delete(h.entries, 0, len(h.entries)-h.Capacity)
	}
}

// Lookup returns the entry for time t (see History).
func (h *History[K, V]) Lookup(t simclock.Time[K]) (Entry[K, V], error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.entries) == 0 {
		return Entry[K, V]{}, ErrEmpty
	}
	if t.IsZero() {
		if h.Strict {
			return Entry[K, V]{}, fmt.Errorf("guard: history: %w (tf2 would return the latest entry)", ErrZeroTime)
		}
		return h.entries[len(h.entries)-1], nil
	}
	oldest, newest := h.entries[0].Stamp, h.entries[len(h.entries)-1].Stamp
	if t.Before(oldest) || t.After(newest) {
		return Entry[K, V]{}, fmt.Errorf("guard: history: %v outside [%v, %v]: %w", t, oldest, newest, ErrExtrapolation)
	}
	i, found := slices.BinarySearchFunc(h.entries, t, func(e Entry[K, V], t simclock.Time[K]) int { return e.Stamp.Compare(t) })
	if !found {
		i--
	}
	return h.entries[i], nil
}

// Len returns the number of entries.
func (h *History[K, V]) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.entries)
}
