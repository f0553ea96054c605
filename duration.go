package simclock

import (
	"fmt"
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

// InfiniteDuration is RMW_DURATION_INFINITE, rclpy's Duration.Infinite:
// 2^63-1 ns.
const InfiniteDuration = time.Duration(1<<63 - 1)
