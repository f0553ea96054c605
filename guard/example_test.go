package guard_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/guard"
)

func at(sec float64) simclock.Time[simclock.ROS] {
	t, _ := simclock.NewTime[simclock.ROS](sec, 0)
	return t
}

// Ago refuses the window start whenever now <= W (R27), saying why.
func ExampleAgo() {
	for _, now := range []float64{0, 0.5, 1, 1.5} {
		start, err := guard.Ago(at(now), time.Second)
		fmt.Printf("now %gs: %v %v\n", now, start.Seconds(), err)
	}
	// Output:
	// now 0s: 0 clock not started: time is 0
	// now 0.5s: 0 window reaches back before time 0
	// now 1s: 0 window starts exactly at time 0
	// now 1.5s: 0.5 <nil>
}

// A DtTracker never reports the first /clock value as a time step (R29).
func ExampleDtTracker() {
	var dt guard.DtTracker[simclock.ROS]
	for _, now := range []float64{0, 125, 125.5, 126, 125} { // stored in a constructor, then /clock
		step := dt.Update(at(now))
		fmt.Printf("now %gs: dt %v (%v)\n", now, step.Dt, step.Skip)
	}
	// Output:
	// now 0s: dt 0s (not started)
	// now 125s: dt 0s (no baseline)
	// now 125.5s: dt 500ms (ok)
	// now 126s: dt 500ms (ok)
	// now 125s: dt -1s (backward jump)
}

// A strict History refuses a lookup at time 0, which tf2 would answer
// with the newest entry (R28).
func ExampleHistory() {
	var tf, strict guard.History[simclock.ROS, string]
	strict.Strict = true
	for _, s := range []float64{98, 99, 100} {
		tf.Add(at(s), fmt.Sprintf("pose@%g", s))
		strict.Add(at(s), fmt.Sprintf("pose@%g", s))
	}
	e, _ := tf.Lookup(at(0))
	fmt.Println(e.Value)
	e, _ = tf.Lookup(at(99.5))
	fmt.Println(e.Value)
	_, err := strict.Lookup(at(0))
	fmt.Println(errors.Is(err, guard.ErrZeroTime))
	// Output:
	// pose@100
	// pose@99
	// true
}
