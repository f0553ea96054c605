package transport

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// RMWTime is rmw_time_t (rmw/include/rmw/time.h, Jazzy): an unsigned
// duration of Sec seconds and Nsec nanoseconds, the type of the QoS
// durations (deadline, lifespan, liveliness lease duration) a transport
// reads from and reports in an rmw QoS profile. Nsec may be 1e9 or more
// (not normalised), so compare with Equal, not ==.
type RMWTime struct {
	Sec  uint64
	Nsec uint64
}

// rmw's constants (rmw/include/rmw/time.h).
var (
	// RMWDurationInfinite is RMW_DURATION_INFINITE, 2^63-1 ns: what rmw
	// reports for a QoS duration that has no limit, and what every
	// RMWTime of 2^63-1 ns or more equals.
	RMWDurationInfinite = RMWTime{Sec: 9223372036, Nsec: 854775807}
	// RMWDurationUnspecified is RMW_DURATION_UNSPECIFIED, {0, 0}: "use
	// the middleware's default".
	RMWDurationUnspecified = RMWTime{}
)

// ErrNegativeRMWTime rejects a negative duration, which rmw_time_t cannot
// hold (rclcpp's "rmw_time_t cannot be negative").
var ErrNegativeRMWTime = errors.New("rmw_time_t cannot be negative")

// RMWTimeFromDuration converts d with rclcpp's Duration::to_rmw_time
// (rclcpp/src/rclcpp/duration.cpp): whole seconds and the nanoseconds
// past them, so the maximum duration (simclock.InfiniteDuration) is
// RMWDurationInfinite. A negative d is ErrNegativeRMWTime, as rclcpp
// throws; rmw's own rmw_time_from_nsec (rmw/src/time.c) silently returns
// RMW_DURATION_INFINITE for it instead, which turns a sign error into "no
// limit".
func RMWTimeFromDuration(d time.Duration) (RMWTime, error) {
	if d < 0 {
		return RMWTime{}, fmt.Errorf("transport: %v: %w", d, ErrNegativeRMWTime)
	}
	return RMWTime{Sec: uint64(d / time.Second), Nsec: uint64(d % time.Second)}, nil
}

// Duration returns t in nanoseconds, saturated at 2^63-1 ns (so every
// value past it, RMWDurationInfinite included, is the maximum duration),
// as rmw_time_total_nsec (rmw/src/time.c) and rclcpp's
// Duration::from_rmw_time do.
func (t RMWTime) Duration() time.Duration {
	const maxSec = math.MaxInt64 / uint64(time.Second)
	if t.Sec > maxSec {
		return math.MaxInt64
	}
	secNs := t.Sec * uint64(time.Second)
	if t.Nsec > math.MaxInt64-secNs {
		return math.MaxInt64
	}
	return time.Duration(secNs + t.Nsec)
}

// Equal reports whether t and u are the same duration, as rmw_time_equal
// compares them: by total nanoseconds, saturated, so {0, 1e9} equals
// {1, 0}.
func (t RMWTime) Equal(u RMWTime) bool { return t.Duration() == u.Duration() }

// Normalize returns t with Nsec below 1e9, as rmw_time_normalize does
// (through the total nanoseconds, so a value past 2^63-1 ns becomes
// RMWDurationInfinite).
func (t RMWTime) Normalize() RMWTime {
	n, _ := RMWTimeFromDuration(t.Duration()) // never negative
	return n
}

// String formats t as rmw's fields: {sec: 1, nsec: 500000000}.
func (t RMWTime) String() string { return fmt.Sprintf("{sec: %d, nsec: %d}", t.Sec, t.Nsec) }
