package timemsg_test

import (
	"fmt"
	"time"

	"github.com/simclock/simclock/timemsg"
)

// A message stamp plus or minus a duration, as rclcpp's operators on a
// builtin_interfaces/Time do; a stamp before 0 is an error rather than
// rclcpp's {sec: -1, ...}.
func ExampleTime_Add() {
	stamp := timemsg.Time{Sec: 0, Nanosec: 100_000_000}
	later, err := stamp.Add(1100 * time.Millisecond)
	fmt.Println(later, err)
	_, err = stamp.Minus(1100 * time.Millisecond)
	fmt.Println(err)
	// Output:
	// {sec: 1, nanosec: 200000000} <nil>
	// timemsg: {sec: 0, nanosec: 100000000} - 1.1s = -1s: negative time
}
