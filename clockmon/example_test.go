package clockmon_test

import (
	"fmt"
	"time"

	"github.com/simclock/simclock/clockmon"
	"github.com/simclock/simclock/timemsg"
)

// A publisher restarts its clock from an earlier time (a rosbag2 --loop):
// the monitor reports the backward jump and keeps measuring the real-time
// factor across it.
func ExampleMonitor() {
	m := clockmon.New(clockmon.Config{}, 0)
	clock := func(sec int32, nsec uint32) []byte {
		return timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: sec, Nanosec: nsec}})
	}
	wall := time.Duration(0)
	for i := range 50 { // 100 Hz, twice real time, from 100 s
		m.Observe(wall, clock(100, uint32(i)*20_000_000), "pub")
		wall += 10 * time.Millisecond
	}
	m.Observe(wall, clock(10, 0), "pub") // loop restart
	r := m.Report(wall+time.Millisecond, nil)
	fmt.Printf("sim %s, rtf %.1f, %d backward jump\n", clockmon.FormatSim(r.SimNs), *r.MeasuredRTF, r.BackwardJumps)
	fmt.Println(r.Warnings[0])
	// Output:
	// sim 10.000000000, rtf 2.0, 1 backward jump
	// sim time jumped backwards 1 time(s), last 100.980000000 -> 10.000000000
}
