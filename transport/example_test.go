package transport_test

import (
	"fmt"
	"time"

	"github.com/simclock/simclock/transport"
)

// A transport that speaks to an rmw-style API converts QoS durations with
// rclcpp's rules: whole seconds and nanoseconds, no negative values, and
// anything from 2^63-1 ns on is "infinite".
func ExampleRMWTimeFromDuration() {
	deadline, err := transport.RMWTimeFromDuration(1500 * time.Millisecond)
	fmt.Println(deadline, err)
	_, err = transport.RMWTimeFromDuration(-time.Second)
	fmt.Println(err)
	lease := transport.RMWTime{Sec: 1 << 40}
	fmt.Println(lease.Duration() == time.Duration(1<<63-1), lease.Equal(transport.RMWDurationInfinite))
	fmt.Println(transport.RMWTime{Nsec: 2_500_000_000}.Normalize())
	// Output:
	// {sec: 1, nsec: 500000000} <nil>
	// transport: -1s: rmw_time_t cannot be negative
	// true true
	// {sec: 2, nsec: 500000000}
}
