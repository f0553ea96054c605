package doctor

import "time"

// StampClass is what a stamp is, compared with the current /clock and the
// wall clock.
type StampClass uint8

// Stamp classes.
const (
	// Sim is within the tolerance of the current /clock.
	Sim StampClass = iota
	// Wall is near the wall clock (and not near /clock): the publisher
	// stamps with system time.
	Wall
	// Zero is exactly 0.
	Zero
	// Stale is behind /clock beyond the tolerance.
	Stale
	// Future is ahead of /clock beyond the tolerance.
	Future
	numClasses
)

// String returns "sim", "wall", "zero", "stale" or "future".
func (c StampClass) String() string {
	return [...]string{"sim", "wall", "zero", "stale", "future"}[c]
}

// Classify says what stamp is, given the sim time at that moment (when
// there is a /clock) and the wall time, both in nanoseconds since the
// epoch. A stamp within tol of sim is Sim, even when sim happens to be
// near the wall clock; else within wallTol of wall is Wall. ok is false
// when there is no /clock to compare with and the stamp is not wall time
// (nothing can be said).
func Classify(stamp, sim int64, haveSim bool, wall int64, tol, wallTol time.Duration) (c StampClass, ok bool) {
	switch {
	case stamp == 0:
		return Zero, true
	case haveSim && absDiff(stamp, sim) <= int64(tol):
		return Sim, true
	case absDiff(stamp, wall) <= int64(wallTol):
		return Wall, true
	case !haveSim:
		return 0, false
	case stamp < sim:
		return Stale, true
	default:
		return Future, true
	}
}

func absDiff(a, b int64) int64 {
	if a > b {
		if d := a - b; d >= 0 {
			return d
		}
		return 1<<63 - 1
	}
	if d := b - a; d >= 0 {
		return d
	}
	return 1<<63 - 1
}

// StampCounts counts classified stamps.
type StampCounts [numClasses]int

// Total is the number of stamps counted.
func (s StampCounts) Total() int {
	n := 0
	for _, c := range s {
		n += c
	}
	return n
}

// Base is the time base of the stamps: "sim" (sim, stale and future
// stamps are all on /clock's time base), "wall", "zero", "mixed" when more
// than one of these, or "unknown" when there are none.
func (s StampCounts) Base() string {
	bases := map[string]bool{}
	if s[Sim]+s[Stale]+s[Future] > 0 {
		bases["sim"] = true
	}
	if s[Wall] > 0 {
		bases["wall"] = true
	}
	if s[Zero] > 0 {
		bases["zero"] = true
	}
	switch len(bases) {
	case 0:
		return BaseUnknown
	case 1:
		for b := range bases {
			return b
		}
	}
	return BaseMixed
}

// Stamp bases of a topic in reports, besides "sim", "wall" and "zero".
const (
	BaseMixed   = "mixed"
	BaseUnknown = "unknown" // no definition of the type, or no sample yet
	BaseNone    = "none"    // the type carries no builtin_interfaces/Time
)
