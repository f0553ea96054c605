package simclock_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/virtualclock"
)

// Times of one clock kind are a type of their own: the compiler rejects
// arithmetic between ROS and system times, so rclpy's run-time TypeError
// cannot happen in typed code.
func Example_typedClockSafety() {
	stamp, _ := simclock.NewTime[simclock.ROS](100, 500_000_000)
	later, _ := stamp.Add(2 * time.Second)
	fmt.Println(later.Sub(stamp))
	fmt.Println(later.After(stamp))

	// var wall simclock.Time[simclock.System]
	// later.Sub(wall) // does not compile: Time[System] is not Time[ROS]

	// Output:
	// 2s
	// true
}

// The README's tour of the values: seconds and nanoseconds add, a
// subtraction below 0 is an error value, a difference is a Duration.
func Example_readmeTour() {
	stamp, err := simclock.NewTime[simclock.ROS](2, 500_000_000) // 2.5 s: seconds and nanoseconds add (R2)
	fmt.Println(stamp.Nanoseconds(), err)
	var notStarted simclock.Time[simclock.ROS] // what now() reads before the first /clock
	_, err = notStarted.Minus(time.Second)     // ErrNegativeTime, an error value (R4)
	fmt.Println(errors.Is(err, simclock.ErrNegativeTime))
	later, err := stamp.Add(2 * time.Second)
	d := later.Sub(stamp) // may be negative, never fails (R5)
	fmt.Println(d, stamp.Sub(later), err)
	// Output:
	// 2500000000 <nil>
	// true
	// 2s -2s <nil>
}

// The rclpy pitfall of R30: a SYSTEM time round-tripped through a message
// comes back as ROS time, and comparing the two fails although the
// nanoseconds are equal. The dynamic API reports it as an error value.
func Example_clockTypeMismatch() {
	original, _ := simclock.NewAnyTime(1.5, 0, simclock.SystemTime) // rclpy: Time(seconds=1.5)
	m, _ := timemsg.FromAnyTime(original)                           // to_msg()
	back, _ := timemsg.ToAnyTime(m, simclock.ROSTime)               // Time.from_msg(m)

	fmt.Println(m)
	fmt.Println(back)
	_, err := original.Equal(back)
	fmt.Println(err)
	fmt.Println(errors.Is(err, simclock.ErrClockTypeMismatch))
	// Output:
	// {sec: 1, nanosec: 500000000}
	// Time(nanoseconds=1500000000, clock_type=ROS_TIME)
	// can't compare times with different clock types (SYSTEM_TIME and ROS_TIME)
	// true
}

// NewTime adds seconds and nanoseconds, each truncated toward zero, and
// checks the range (R2).
func ExampleNewTime() {
	t, _ := simclock.NewTime[simclock.ROS](2, 500_000_000)
	fmt.Println(t.Nanoseconds())
	t, _ = simclock.NewTime[simclock.ROS](1.001, 0)
	fmt.Println(t.Nanoseconds()) // the float product truncates, as in rclpy
	_, err := simclock.NewTime[simclock.ROS](-1, 0)
	fmt.Println(errors.Is(err, simclock.ErrNegativeTime))
	_, err = simclock.NewTime[simclock.ROS](1e10, 0)
	fmt.Println(errors.Is(err, simclock.ErrOverflow))
	// Output:
	// 2500000000
	// 1000999999
	// true
	// true
}

// Minus is rclpy's "now() - Duration": before the first /clock now() is
// 0 and the subtraction fails with an error value instead of raising. A
// result of exactly 0 is valid, which is the boundary tick of R25.
func ExampleTime_Minus() {
	var notStarted simclock.Time[simclock.ROS] // what now() reads before the first /clock
	_, err := notStarted.Minus(time.Second)
	fmt.Println(err)

	oneSecond, _ := simclock.NewTime[simclock.ROS](1, 0)
	zero, err := oneSecond.Minus(time.Second)
	fmt.Println(zero.IsZero(), err)
	// Output:
	// negative time
	// true <nil>
}

// A ROS clock reads system time until the override is enabled, then 0
// until the first value arrives (R10, R11).
func ExampleROSClock() {
	fake := virtualclock.New()
	c := simclock.NewROSClockOn(fake.System(), fake.Steady())
	fmt.Println(c.Started(), c.Now().Nanoseconds() == virtualclock.StartSystem)

	c.EnableROSTimeOverride() // use_sim_time: true
	fmt.Println(c.Started(), c.Now().Nanoseconds())

	t, _ := simclock.NewTime[simclock.ROS](100, 0)
	c.SetROSTimeOverride(t) // a /clock message
	fmt.Println(c.Started(), c.Now().Seconds())
	// Output:
	// true true
	// false 0
	// true 100
}

// Jump callbacks see clock changes and jumps past their thresholds, before
// and after the clock changes (R12-R14).
func ExampleROSClock_OnJump() {
	fake := virtualclock.New()
	c := simclock.NewROSClockOn(fake.System(), fake.Steady())
	remove, _ := c.OnJump(simclock.JumpThreshold{OnClockChange: true, MinForward: time.Second},
		simclock.JumpCallbacks{Post: func(j simclock.TimeJump) { fmt.Println(j.ClockChange, j.Delta) }})
	defer remove()

	c.EnableROSTimeOverride()
	for _, sec := range []float64{0.5, 125, 125.5} {
		t, _ := simclock.NewTime[simclock.ROS](sec, 0)
		c.SetROSTimeOverride(t)
	}
	// Output:
	// ROS_TIME_ACTIVATED 0s
	// ROS_TIME_NO_CHANGE 2m4.5s
}

// WaitUntilStarted waits for the first /clock, with its timeout measured
// on the steady clock (R11).
func ExampleROSClock_WaitUntilStarted() {
	fake := virtualclock.New()
	c := simclock.NewROSClockOn(fake.System(), fake.Steady())
	c.EnableROSTimeOverride()

	go func() {
		_ = fake.WaitForSleepers(context.Background(), 1)
		t, _ := simclock.NewTime[simclock.ROS](42, 0)
		c.SetROSTimeOverride(t)
	}()
	started, err := c.WaitUntilStarted(context.Background(), 5*time.Second)
	fmt.Println(started, err, c.Now().Seconds())
	// Output:
	// true <nil> 42
}

// SleepUntil follows ROS time and reports a change of time source as an
// error of its own (R15).
func ExampleROSClock_SleepUntil() {
	fake := virtualclock.New()
	c := simclock.NewROSClockOn(fake.System(), fake.Steady())
	c.EnableROSTimeOverride()
	done := make(chan struct{})
	go func() { // a simulator publishing /clock
		defer close(done)
		for s := 1.0; s <= 10; s++ {
			t, _ := simclock.NewTime[simclock.ROS](s, 0)
			c.SetROSTimeOverride(t)
			time.Sleep(time.Millisecond)
		}
	}()
	until, _ := simclock.NewTime[simclock.ROS](3, 0)
	fmt.Println(c.SleepUntil(context.Background(), until), c.Now().Seconds() >= 3)
	<-done

	// With sim time off the clock sleeps on system time; turning sim time
	// on meanwhile ends the sleep with ErrTimeSourceChanged.
	c.DisableROSTimeOverride()
	go func() {
		_ = fake.WaitForSleepers(context.Background(), 1)
		c.EnableROSTimeOverride()
	}()
	inAnHour, _ := c.Now().Add(time.Hour)
	err := c.SleepUntil(context.Background(), inAnHour)
	fmt.Println(errors.Is(err, simclock.ErrTimeSourceChanged))
	// Output:
	// <nil> true
	// true
}

// DurationOf builds a duration the way rclpy's Duration(seconds=,
// nanoseconds=) does; negative durations are allowed (R7).
func ExampleDurationOf() {
	d, _ := simclock.DurationOf(-0.5, 0)
	fmt.Println(d)
	m, _ := timemsg.FromDuration(d) // floor division (R8)
	fmt.Println(m)
	// Output:
	// -500ms
	// {sec: -1, nanosec: 500000000}
}

// MaxTime is rclcpp's Time::max(): the latest time a message carries,
// often used as "no deadline" in a message.
func ExampleMaxTime() {
	never := simclock.MaxTime[simclock.ROS]()
	m, _ := timemsg.FromTime(never)
	fmt.Println(never)
	fmt.Println(m)
	later, _ := never.Add(time.Nanosecond)
	_, err := timemsg.FromTime(later)
	fmt.Println(err)
	// Output:
	// Time(nanoseconds=2147483647999999999, clock_type=ROS_TIME)
	// {sec: 2147483647, nanosec: 999999999}
	// timemsg: Time(nanoseconds=2147483648000000000, clock_type=ROS_TIME) to builtin_interfaces/Time: value out of range
}

// SubDurations is exact at the int64 boundary, where rclcpp's bounds check
// throws one nanosecond early and misses 0 - MinDuration.
func ExampleSubDurations() {
	d, err := simclock.SubDurations(-1, simclock.MaxDuration)
	fmt.Println(d == simclock.MinDuration, err) // rclcpp: underflow_error
	_, err = simclock.SubDurations(0, simclock.MinDuration)
	fmt.Println(err) // rclcpp: wraps to MinDuration
	// Output:
	// true <nil>
	// simclock: 0s - -2562047h47m16.854775808s: nanoseconds overflow int64
}
