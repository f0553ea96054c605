package simclock

import (
	"fmt"
	"math"
	"time"
)

// A Time is an instant on one kind of clock: nanoseconds since that
// clock's epoch (R1). Times are small comparable values; pass them by
// value. The zero Time is 0 ns, which ROS treats as "clock not started"
// (R10); test for it with IsZero.
//
// A Time is never negative: every constructor and every arithmetic method
// that could produce a negative value returns ErrNegativeTime instead.
type Time[K Kind] struct {
	ns int64
}

// NewTime returns rclpy's Time(seconds=sec, nanoseconds=nsec): the two are
// added, each truncated toward zero (R2), so NewTime(2, 500_000_000) is
// 2.5 s and NewTime(1.001, 0) is 1000999999 ns. Negative inputs are
// ErrNegativeTime (checked on the inputs, as rclpy does, so -1e-12 s is
// rejected); a total of 2^63 ns or more is ErrOverflow.
func NewTime[K Kind](sec float64, nsec int64) (Time[K], error) {
	ns, err := checkedTimeNanos(sec, nsec)
	return Time[K]{ns: ns}, err
}

// MaxTime returns rclcpp's Time::max() on a clock of kind K
// (rclcpp/src/rclcpp/time.cpp): INT32_MAX s + 999999999 ns, the latest
// time a builtin_interfaces/Time message holds (2038-01-19T03:14:07.999999999Z
// as system time). rclcpp code uses it as "no deadline" in a message. It
// is not the latest Time simclock holds (2^63-1 ns, in 2262): one
// nanosecond later no longer converts to a message (timemsg returns
// ErrOutOfRange where rclcpp wraps the seconds to INT32_MIN).
func MaxTime[K Kind]() Time[K] { return Time[K]{ns: maxMessageTime} }

// maxMessageTime is (INT32_MAX s, 999999999 ns) in nanoseconds.
const maxMessageTime = math.MaxInt32*int64(time.Second) + 999_999_999

// TimeFromNanoseconds returns the time ns nanoseconds after the epoch of
// kind K. A negative ns is ErrNegativeTime.
func TimeFromNanoseconds[K Kind](ns int64) (Time[K], error) {
	if ns < 0 {
		return Time[K]{}, fmt.Errorf("simclock: %d ns: %w", ns, ErrNegativeTime)
	}
	return Time[K]{ns: ns}, nil
}

func checkedTimeNanos(sec float64, nsec int64) (int64, error) {
	if sec < 0 { // -0.0 passes, as in rclpy
		return 0, fmt.Errorf("simclock: seconds value %v: %w", sec, ErrNegativeTime)
	}
	if nsec < 0 {
		return 0, fmt.Errorf("simclock: nanoseconds value %d: %w", nsec, ErrNegativeTime)
	}
	ns, err := totalNanos(sec, nsec)
	if err != nil {
		return 0, fmt.Errorf("simclock: time of %v s + %d ns: %w", sec, nsec, err)
	}
	return ns, nil
}

// Nanoseconds returns t as nanoseconds since its clock's epoch.
func (t Time[K]) Nanoseconds() int64 { return t.ns }

// Seconds returns t in seconds as a float64 (lossy past 2^53 ns).
func (t Time[K]) Seconds() float64 { return float64(t.ns) / 1e9 }

// SecondsNanoseconds splits t into whole seconds and the nanoseconds past
// them, as rclpy's seconds_nanoseconds() does.
func (t Time[K]) SecondsNanoseconds() (sec int64, nsec int64) { return t.ns / 1e9, t.ns % 1e9 }

// ClockType returns the clock type of kind K.
func (t Time[K]) ClockType() ClockType { return kindOf[K]() }

// IsZero reports whether t is 0 ns: on a ROS clock with sim time, "not
// started yet" (R10, R11).
func (t Time[K]) IsZero() bool { return t.ns == 0 }

// Add returns t+d, keeping t's clock type (R4). A negative result is
// ErrNegativeTime; past 2^63-1 ns is ErrOverflow.
func (t Time[K]) Add(d time.Duration) (Time[K], error) {
	ns, err := addInt64(t.ns, int64(d))
	if err != nil {
		return Time[K]{}, err
	}
	if ns < 0 {
		return Time[K]{}, ErrNegativeTime
	}
	return Time[K]{ns: ns}, nil
}

// Minus returns t-d, rclpy's "time - duration" (R4). A result of exactly 0
// is valid; a negative one is ErrNegativeTime ("Subtraction leads to
// negative time."); subtracting a negative duration past 2^63-1 ns is
// ErrOverflow. For "the time W ago" in code that may run before the first
// /clock, see package guard.
func (t Time[K]) Minus(d time.Duration) (Time[K], error) {
	ns, err := subInt64(t.ns, int64(d))
	if err != nil {
		return Time[K]{}, err
	}
	if ns < 0 {
		return Time[K]{}, ErrNegativeTime
	}
	return Time[K]{ns: ns}, nil
}

// Sub returns the duration t-u, which may be negative (R5). It never
// fails: both times lie in [0, 2^63), so the difference fits.
func (t Time[K]) Sub(u Time[K]) time.Duration { return time.Duration(t.ns - u.ns) }

// Before reports whether t is before u.
func (t Time[K]) Before(u Time[K]) bool { return t.ns < u.ns }

// After reports whether t is after u.
func (t Time[K]) After(u Time[K]) bool { return t.ns > u.ns }

// Equal reports whether t and u are the same instant.
func (t Time[K]) Equal(u Time[K]) bool { return t.ns == u.ns }

// Compare returns -1, 0 or +1 as t is before, equal to or after u.
func (t Time[K]) Compare(u Time[K]) int {
	switch {
	case t.ns < u.ns:
		return -1
	case t.ns > u.ns:
		return 1
	}
	return 0
}

// Any returns t with its clock type carried at run time.
func (t Time[K]) Any() AnyTime { return AnyTime{ns: t.ns, ct: kindOf[K]()} }

// String formats t like rclpy's repr:
// "Time(nanoseconds=1500000000, clock_type=SYSTEM_TIME)".
func (t Time[K]) String() string { return t.Any().String() }

// An AnyTime is a Time whose clock type is known only at run time, as in
// messages, bags and tools. Its operations check clock types and return a
// *ClockTypeError (ErrClockTypeMismatch) exactly where rclpy raises
// TypeError (R5, R6). The zero AnyTime has clock type Uninitialized.
type AnyTime struct {
	ns int64
	ct ClockType
}

// NewAnyTime is NewTime with the clock type given at run time. An invalid
// clock type is ErrOutOfRange.
func NewAnyTime(sec float64, nsec int64, ct ClockType) (AnyTime, error) {
	if !ct.Valid() {
		return AnyTime{}, fmt.Errorf("simclock: clock type %v: %w", ct, ErrOutOfRange)
	}
	ns, err := checkedTimeNanos(sec, nsec)
	if err != nil {
		return AnyTime{}, err
	}
	return AnyTime{ns: ns, ct: ct}, nil
}

// AnyTimeFromNanoseconds returns ns nanoseconds on a clock of type ct.
func AnyTimeFromNanoseconds(ns int64, ct ClockType) (AnyTime, error) {
	if !ct.Valid() {
		return AnyTime{}, fmt.Errorf("simclock: clock type %v: %w", ct, ErrOutOfRange)
	}
	if ns < 0 {
		return AnyTime{}, fmt.Errorf("simclock: %d ns: %w", ns, ErrNegativeTime)
	}
	return AnyTime{ns: ns, ct: ct}, nil
}

// As returns t as a Time of kind K, or a *ClockTypeError when t's clock
// type is not K's.
func As[K Kind](t AnyTime) (Time[K], error) {
	if want := kindOf[K](); t.ct != want {
		return Time[K]{}, &ClockTypeError{Op: "convert", Left: t.ct, Right: want}
	}
	return Time[K]{ns: t.ns}, nil
}

// Nanoseconds returns t as nanoseconds since its clock's epoch.
func (t AnyTime) Nanoseconds() int64 { return t.ns }

// Seconds returns t in seconds as a float64.
func (t AnyTime) Seconds() float64 { return float64(t.ns) / 1e9 }

// ClockType returns t's clock type.
func (t AnyTime) ClockType() ClockType { return t.ct }

// IsZero reports whether t is 0 ns.
func (t AnyTime) IsZero() bool { return t.ns == 0 }

// Add returns t+d with t's clock type (R4).
func (t AnyTime) Add(d time.Duration) (AnyTime, error) {
	ns, err := addInt64(t.ns, int64(d))
	if err != nil {
		return AnyTime{}, err
	}
	if ns < 0 {
		return AnyTime{}, ErrNegativeTime
	}
	return AnyTime{ns: ns, ct: t.ct}, nil
}

// Minus returns t-d with t's clock type (R4); see Time.Minus.
func (t AnyTime) Minus(d time.Duration) (AnyTime, error) {
	ns, err := subInt64(t.ns, int64(d))
	if err != nil {
		return AnyTime{}, err
	}
	if ns < 0 {
		return AnyTime{}, ErrNegativeTime
	}
	return AnyTime{ns: ns, ct: t.ct}, nil
}

// Sub returns t-u, which may be negative; different clock types are an
// error (R5).
func (t AnyTime) Sub(u AnyTime) (time.Duration, error) {
	if t.ct != u.ct {
		return 0, &ClockTypeError{Op: "subtract", Left: t.ct, Right: u.ct}
	}
	return time.Duration(t.ns - u.ns), nil
}

// Compare returns -1, 0 or +1 as t is before, equal to or after u.
// Different clock types are an error, even when both are 0 ns (R6).
func (t AnyTime) Compare(u AnyTime) (int, error) {
	if t.ct != u.ct {
		return 0, &ClockTypeError{Op: "compare", Left: t.ct, Right: u.ct}
	}
	return Time[ROS]{ns: t.ns}.Compare(Time[ROS]{ns: u.ns}), nil
}

// Equal reports whether t and u are the same instant; different clock
// types are an error, as rclpy's == raises (R6).
func (t AnyTime) Equal(u AnyTime) (bool, error) {
	c, err := t.Compare(u)
	return c == 0 && err == nil, err
}

// Before reports whether t is before u (R6).
func (t AnyTime) Before(u AnyTime) (bool, error) {
	c, err := t.Compare(u)
	return c < 0 && err == nil, err
}

// After reports whether t is after u (R6).
func (t AnyTime) After(u AnyTime) (bool, error) {
	c, err := t.Compare(u)
	return c > 0 && err == nil, err
}

// String formats t like rclpy's repr:
// "Time(nanoseconds=1500000000, clock_type=SYSTEM_TIME)".
func (t AnyTime) String() string {
	return fmt.Sprintf("Time(nanoseconds=%d, clock_type=%s)", t.ns, t.ct)
}
