// Package simclock is the ROS 2 time system in Go: times, durations, clock
// types and clocks with the semantics of rcl, rclpy and rclcpp (Jazzy), and
// guarantees the Python and C++ client libraries cannot give.
//
// It imports only the standard library. Timers, the executor, the /clock
// time source, transports and tools live in sibling packages.
//
// # Clock types
//
// Every ROS time belongs to one clock type (R1): ROS_TIME, SYSTEM_TIME or
// STEADY_TIME. rclpy refuses to compare or subtract times of different
// types at run time (R5, R6). simclock makes that a compile error: a
// [Time] is generic over its clock kind, so Time[ROS] and Time[System]
// are different types:
//
//	var a simclock.Time[simclock.ROS]
//	var b simclock.Time[simclock.System]
//	a.Sub(b) // does not compile
//
// Messages and tools that only learn the clock type at run time use
// [AnyTime], whose operations return [ErrClockTypeMismatch] exactly where
// rclpy raises TypeError.
//
// Durations are [time.Duration]: signed nanoseconds with no clock type
// (R1), so every Go API that takes a duration takes ROS durations too.
//
// # Sim time
//
// A [ROSClock] reads system time until its ROS-time override is enabled;
// then it reads the last override value, which is 0 until the first /clock
// message arrives (R10). Zero means "not started" (R11). Jump callbacks
// (R12-R14) tell timers and sleepers when the override is enabled,
// disabled or moved.
//
// # Pitfalls (R25-R30)
//
// Before the first /clock, now() is 0, so now() - 1s fails and a baseline
// stored then is 0. Time.Minus returns [ErrNegativeTime] instead of
// raising; package guard offers the safe forms ("time W ago", dt tracking,
// strict history lookup).
package simclock
