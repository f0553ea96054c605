package timemsg

import (
	"fmt"
	"math"
	"time"

	"github.com/simclock/simclock"
)

// FromTime converts t to a message, splitting with floor division (R8).
// A time whose seconds do not fit in int32 (from 2038-01-19 on) is
// simclock.ErrOutOfRange, never a silent wrap.
func FromTime[K simclock.Kind](t simclock.Time[K]) (Time, error) {
	return FromAnyTime(t.Any())
}

// FromAnyTime converts t to a message; the clock type is dropped, as in
// rclpy's to_msg (R8, R30).
func FromAnyTime(t simclock.AnyTime) (Time, error) {
	sec, nsec, err := split(t.Nanoseconds())
	if err != nil {
		return Time{}, fmt.Errorf("timemsg: %v to builtin_interfaces/Time: %w", t, err)
	}
	return Time{Sec: sec, Nanosec: nsec}, nil
}

// FromDuration converts d to a message with floor division, so -0.5 s is
// {sec: -1, nanosec: 500000000} (R8). Seconds outside int32 are
// simclock.ErrOutOfRange (rclpy wraps; rclcpp saturates).
func FromDuration(d time.Duration) (Duration, error) {
	sec, nsec, err := split(int64(d))
	if err != nil {
		return Duration{}, fmt.Errorf("timemsg: duration %v to builtin_interfaces/Duration: %w", d, err)
	}
	return Duration{Sec: sec, Nanosec: nsec}, nil
}

func split(ns int64) (int32, uint32, error) {
	sec, rem := ns/1e9, ns%1e9
	if rem < 0 {
		sec, rem = sec-1, rem+1e9
	}
	if sec < math.MinInt32 || sec > math.MaxInt32 {
		return 0, 0, simclock.ErrOutOfRange
	}
	return int32(sec), uint32(rem), nil
}

// ToTime converts m to a Time of kind K: sec*1e9 + nanosec (R8). A
// negative sec is simclock.ErrNegativeTime, as rclpy's from_msg raises.
// A nanosec of 1e9 or more is added, as upstream does; decoders flag it.
func ToTime[K simclock.Kind](m Time) (simclock.Time[K], error) {
	if m.Sec < 0 {
		return simclock.Time[K]{}, fmt.Errorf("timemsg: %v: seconds value must not be negative: %w", m, simclock.ErrNegativeTime)
	}
	return simclock.TimeFromNanoseconds[K](m.Nanoseconds())
}

// ToAnyTime converts m to a time of clock type ct. rclpy's
// Time.from_msg(m) is ToAnyTime(m, simclock.ROSTime): a message forgets
// its clock type and comes back ROS (R30).
func ToAnyTime(m Time, ct simclock.ClockType) (simclock.AnyTime, error) {
	if m.Sec < 0 {
		return simclock.AnyTime{}, fmt.Errorf("timemsg: %v: seconds value must not be negative: %w", m, simclock.ErrNegativeTime)
	}
	return simclock.AnyTimeFromNanoseconds(m.Nanoseconds(), ct)
}

// ToDuration converts m to a duration: sec*1e9 + nanosec, so
// {sec: -1, nanosec: 500000000} is -0.5 s (R8). It never fails.
func ToDuration(m Duration) time.Duration { return time.Duration(m.Nanoseconds()) }

// ClockFrom returns the Clock message carrying t.
func ClockFrom(t simclock.Time[simclock.ROS]) (Clock, error) {
	m, err := FromTime(t)
	return Clock{Clock: m}, err
}
