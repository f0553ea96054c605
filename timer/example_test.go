package timer_test

import (
	"fmt"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/virtualclock"
)

// A timer's first call is due one period after creation; a late call
// skips the missed periods instead of replaying them, keeping the phase
// (R19, R21).
func ExampleQueue_New() {
	fake := virtualclock.New()
	q := timer.NewQueue(fake.Steady())
	start := fake.SteadyNow()
	t, _ := q.New(100*time.Millisecond, func(info timer.Info) {
		fmt.Printf("due %v, ran %v\n", time.Duration(info.ExpectedCallTime.Nanoseconds()-start), time.Duration(info.ActualCallTime.Nanoseconds()-start))
	}, true)

	fake.Advance(100 * time.Millisecond)
	t.Call()
	fake.Advance(350 * time.Millisecond) // the executor was busy: three periods late
	t.Call()
	next, _ := t.TimeUntilNextCall()
	fmt.Println("next call in", next)
	// Output:
	// due 100ms, ran 100ms
	// due 200ms, ran 450ms
	// next call in 50ms
}

// On a ROS clock with sim time, a timer created before the first /clock
// fires once when /clock jumps past its deadline (R23).
func ExampleNewQueue_simTime() {
	fake := virtualclock.New()
	ros := simclock.NewROSClockOn(fake.System(), fake.Steady())
	ros.EnableROSTimeOverride()
	q := timer.NewQueue[simclock.ROS](ros)
	t, _ := q.New(time.Second, nil, true)
	fmt.Println("ready at 0:", t.IsReady())

	first, _ := simclock.NewTime[simclock.ROS](100, 0)
	ros.SetROSTimeOverride(first)
	fmt.Println("ready at 100 s:", t.IsReady())
	info, _ := t.Call()
	fmt.Println("due", info.ExpectedCallTime)
	fmt.Println("ran", info.ActualCallTime)
	next, _ := t.TimeUntilNextCall()
	fmt.Println("next call in", next)
	// Output:
	// ready at 0: false
	// ready at 100 s: true
	// due Time(nanoseconds=1000000000, clock_type=ROS_TIME)
	// ran Time(nanoseconds=100000000000, clock_type=ROS_TIME)
	// next call in 1s
}

// An Info carries typed times on the timer's clock, as rclcpp's TimerInfo
// does: subtract them (a late call), or get a Time of the clock's kind
// with simclock.As.
func ExampleInfo() {
	fake := virtualclock.New()
	ros := simclock.NewROSClockOn(fake.System(), fake.Steady())
	ros.EnableROSTimeOverride()
	q := timer.NewQueue[simclock.ROS](ros)
	defer q.Close()
	t, _ := q.New(time.Second, nil, true)
	at, _ := simclock.NewTime[simclock.ROS](1.25, 0)
	ros.SetROSTimeOverride(at)

	info, _ := t.Call()
	late, _ := info.ActualCallTime.Sub(info.ExpectedCallTime)
	due, err := simclock.As[simclock.ROS](info.ExpectedCallTime)
	fmt.Println("late by", late)
	fmt.Println("due", due.Seconds(), "s on", due.ClockType(), err)
	_, err = simclock.As[simclock.Steady](info.ExpectedCallTime)
	fmt.Println(err)
	// Output:
	// late by 250ms
	// due 1 s on ROS_TIME <nil>
	// can't convert times with different clock types (ROS_TIME and STEADY_TIME)
}

// Destroy takes a timer out of its queue for good (rclpy's
// destroy_timer): here a one-shot timer destroys itself, and a watchdog is
// replaced rather than left queued.
func ExampleTimer_Destroy() {
	fake := virtualclock.New()
	q := timer.NewQueue(fake.Steady())
	var once *timer.Timer
	once, _ = q.New(time.Second, func(timer.Info) {
		fmt.Println("once")
		once.Destroy()
	}, true)
	watchdog, _ := q.New(5*time.Second, nil, true)
	watchdog.Destroy() // re-armed: the old one goes, the new one stays
	watchdog, _ = q.New(5*time.Second, nil, true)
	fmt.Println("timers:", q.Len())

	fake.Advance(time.Second)
	for _, t := range q.AppendReady(nil) {
		t.Call()
	}
	_, err := once.Call()
	fmt.Println(err)
	fmt.Println("timers:", q.Len())
	// Output:
	// timers: 2
	// once
	// timer is destroyed
	// timers: 1
}
