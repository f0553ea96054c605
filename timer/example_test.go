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
		fmt.Printf("due %v, ran %v\n", time.Duration(info.ExpectedCallTime-start), time.Duration(info.ActualCallTime-start))
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
	fmt.Printf("due %gs, ran %gs\n", float64(info.ExpectedCallTime)/1e9, float64(info.ActualCallTime)/1e9)
	next, _ := t.TimeUntilNextCall()
	fmt.Println("next call in", next)
	// Output:
	// ready at 0: false
	// ready at 100 s: true
	// due 1s, ran 100s
	// next call in 1s
}
