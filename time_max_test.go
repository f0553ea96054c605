package simclock_test

import (
	"errors"
	"testing"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/timemsg"
)

// rclcpp's test_time.cpp, max_time (rclcpp:rclcpp/test/rclcpp/test_time.cpp:365-374): Time::max(t) equals
// Time(INT32_MAX, 999999999, t) for ROS and system time, and is the
// largest time a message carries; one nanosecond more does not convert
// (rclcpp wraps it to INT32_MIN seconds). Its cross-type comparisons
// (rclcpp:rclcpp/test/rclcpp/test_time.cpp:376-386) are in TestConformanceR5Sub and TestConformanceR6Compare.
func TestMaxTime(t *testing.T) {
	want := int64(2147483647)*int64(time.Second) + 999_999_999
	ros, sys := simclock.MaxTime[simclock.ROS](), simclock.MaxTime[simclock.System]()
	for _, got := range []simclock.AnyTime{ros.Any(), sys.Any()} {
		if got.Nanoseconds() != want {
			t.Errorf("MaxTime = %v, want %d ns", got, want)
		}
	}
	if ros.ClockType() != simclock.ROSTime || sys.ClockType() != simclock.SystemTime {
		t.Errorf("clock types %v, %v", ros.ClockType(), sys.ClockType())
	}
	built, err := simclock.NewTime[simclock.ROS](2147483647, 999_999_999)
	if err != nil || !built.Equal(ros) {
		t.Errorf("NewTime(INT32_MAX, 999999999) = %v, %v; want MaxTime", built, err)
	}
	m, err := timemsg.FromTime(ros)
	if err != nil || m != (timemsg.Time{Sec: 2147483647, Nanosec: 999_999_999}) {
		t.Errorf("MaxTime to a message = %v, %v", m, err)
	}
	after, err := ros.Add(1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := timemsg.FromTime(after); !errors.Is(err, simclock.ErrOutOfRange) {
		t.Errorf("MaxTime + 1 ns to a message = %v, want ErrOutOfRange", err)
	}
}
