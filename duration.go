package simclock

import (
	"fmt"
	"math"
	"math/big"
	"time"
)

// DurationOf returns rclpy's Duration(seconds=sec, nanoseconds=nsec):
// trunc(sec*1e9) + nsec, negative allowed (R7). A total outside int64 is
// ErrOverflow; a NaN is ErrOutOfRange.
func DurationOf(sec float64, nsec int64) (time.Duration, error) {
	ns, err := totalNanos(sec, nsec)
	if err != nil {
		return 0, fmt.Errorf("simclock: duration of %v s + %d ns: %w", sec, nsec, err)
	}
	return time.Duration(ns), nil
}

// Duration limits. A time.Duration is int64 nanoseconds, whose + and *
// wrap silently (MaxDuration + 1ns == MinDuration); AddDurations,
// SubDurations and ScaleDuration check instead.
const (
	// MaxDuration is the longest duration, 2^63-1 ns (about 292 years).
	MaxDuration = time.Duration(math.MaxInt64)
	// MinDuration is the most negative duration, -2^63 ns.
	MinDuration = time.Duration(math.MinInt64)
	// InfiniteDuration is RMW_DURATION_INFINITE, rclpy's Duration.Infinite:
	// 2^63-1 ns, the same value as MaxDuration. As a timer period it
	// means "never, until the period is exchanged" (rclcpp's
	// Duration::max() idiom): the timer's deadline saturates at the end
	// of representable time and is never reached (see package timer).
	InfiniteDuration = MaxDuration
	// MaxMessageDuration is rclcpp's Duration::max(), the longest duration
	// a builtin_interfaces/Duration message holds with a normalised
	// nanosec field: INT32_MAX s + 999999999 ns (about 68 years).
	MaxMessageDuration = time.Duration(math.MaxInt32*int64(time.Second) + 999_999_999)
)

// AddDurations returns a+b, or an error matching ErrOverflow when the sum
// does not fit in int64 nanoseconds (rclcpp's "addition leads to int64_t
// overflow" and "underflow").
//
// The check is exact, where rclcpp's is not (rclcpp/src/rclcpp/duration.cpp,
// bounds_check_duration_sum, Jazzy): rclcpp compares |a| + |b| with
// INT64_MAX, but the most negative duration is INT64_MAX + 1 ns long, so
// -1 ns + -MaxDuration, which is exactly MinDuration, throws "underflow"
// there and is MinDuration here.
func AddDurations(a, b time.Duration) (time.Duration, error) {
	s, err := addInt64(int64(a), int64(b))
	if err != nil {
		return 0, fmt.Errorf("simclock: %v + %v: %w", a, b, err)
	}
	return time.Duration(s), nil
}

// SubDurations returns a-b, or an error matching ErrOverflow when the
// difference does not fit in int64 nanoseconds (rclcpp's "duration
// subtraction leads to int64_t overflow" and "underflow").
//
// The check is exact, where rclcpp's is not (rclcpp/src/rclcpp/duration.cpp,
// bounds_check_duration_difference, Jazzy): -1 ns - MaxDuration is exactly
// MinDuration here, where rclcpp throws "underflow" one nanosecond too
// early (its test_duration.cpp expects that throw); and 0 - MinDuration,
// which does not fit, is ErrOverflow here, where rclcpp's check skips a
// left operand of 0 and the result wraps to MinDuration.
func SubDurations(a, b time.Duration) (time.Duration, error) {
	s, err := subInt64(int64(a), int64(b))
	if err != nil {
		return 0, fmt.Errorf("simclock: %v - %v: %w", a, b, err)
	}
	return time.Duration(s), nil
}

// ScaleDuration returns d*k exactly, or an error matching ErrOverflow when
// the product does not fit in int64 nanoseconds (rclpy Rolling's
// Duration * int, range-checked).
func ScaleDuration(d time.Duration, k int64) (time.Duration, error) {
	p, err := mulInt64(int64(d), k)
	if err != nil {
		return 0, fmt.Errorf("simclock: %v * %d: %w", d, k, err)
	}
	return time.Duration(p), nil
}

// ScaleDurationFloat returns d*f truncated toward zero, computed exactly
// (rclcpp's Duration * double, rclpy Rolling's int(ns * f) without the
// double rounding of ns). A NaN or infinite f is ErrOutOfRange (rclcpp's
// "abnormal scale"); a product outside int64 is ErrOverflow.
func ScaleDurationFloat(d time.Duration, f float64) (time.Duration, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("simclock: %v * %v: %w", d, f, ErrOutOfRange)
	}
	// 64 + 53 significant bits: the product is exact at this precision.
	p := new(big.Float).SetPrec(128).SetInt64(int64(d))
	p.Mul(p, new(big.Float).SetPrec(128).SetFloat64(f))
	bi, _ := p.Int(nil) // truncates toward zero
	if !bi.IsInt64() {
		return 0, fmt.Errorf("simclock: %v * %v: %w", d, f, ErrOverflow)
	}
	return time.Duration(bi.Int64()), nil
}

// mulInt64 returns a*b or ErrOverflow.
func mulInt64(a, b int64) (int64, error) {
	if a == 0 || b == 0 {
		return 0, nil
	}
	p := a * b
	// MinInt64 * -1 wraps to itself; every other overflow fails the division check.
	if (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) || p/b != a {
		return 0, ErrOverflow
	}
	return p, nil
}
