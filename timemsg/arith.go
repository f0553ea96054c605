package timemsg

import (
	"fmt"
	"time"

	"github.com/simclock/simclock"
)

// Add returns the stamp t+d, as rclcpp's free operator+ on a
// builtin_interfaces/Time and an rclcpp::Duration does
// (rclcpp/src/rclcpp/duration.cpp, Jazzy): in nanoseconds, sec*1e9 +
// nanosec + d, split back with floor division (R8), so a non-normalised
// nanosec is added and the result is normalised. A negative t.Sec is
// simclock.ErrNegativeTime (rclcpp: "message time is negative"); a sum
// past int64 is simclock.ErrOverflow ("addition leads to int64_t
// overflow").
//
// Two results differ from rclcpp on purpose. A negative result is
// simclock.ErrNegativeTime, as simclock.Time.Minus and rclpy's Time -
// Duration give, where rclcpp returns a negative stamp ({sec: -1, ...})
// that every reader of it (rclcpp's Time(msg), rclpy's Time.from_msg)
// then refuses. Seconds past int32 are simclock.ErrOutOfRange, where
// rclcpp wraps them.
func (t Time) Add(d time.Duration) (Time, error) {
	return t.shift(d, '+')
}

// Minus returns the stamp t-d, as rclcpp's free operator- on a
// builtin_interfaces/Time and an rclcpp::Duration does; see Add for the
// errors and the two differences from rclcpp.
func (t Time) Minus(d time.Duration) (Time, error) {
	return t.shift(d, '-')
}

func (t Time) shift(d time.Duration, op byte) (Time, error) {
	if t.Sec < 0 {
		return Time{}, fmt.Errorf("timemsg: %v %c %v: message time is negative: %w", t, op, d, simclock.ErrNegativeTime)
	}
	var ns time.Duration
	var err error
	if op == '+' {
		ns, err = simclock.AddDurations(time.Duration(t.Nanoseconds()), d)
	} else {
		ns, err = simclock.SubDurations(time.Duration(t.Nanoseconds()), d)
	}
	if err != nil {
		return Time{}, fmt.Errorf("timemsg: %v %c %v: %w", t, op, d, simclock.ErrOverflow)
	}
	if ns < 0 {
		return Time{}, fmt.Errorf("timemsg: %v %c %v = %v: %w", t, op, d, ns, simclock.ErrNegativeTime)
	}
	sec, nsec, err := split(int64(ns))
	if err != nil {
		return Time{}, fmt.Errorf("timemsg: %v %c %v: seconds past int32: %w", t, op, d, err)
	}
	return Time{Sec: sec, Nanosec: nsec}, nil
}
