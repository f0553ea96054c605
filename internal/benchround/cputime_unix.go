//go:build unix

package benchround

import (
	"time"

	"golang.org/x/sys/unix"
)

// cpuTime is the CPU time every thread of this process has used so far.
func cpuTime() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		panic("benchround: CLOCK_PROCESS_CPUTIME_ID: " + err.Error())
	}
	return time.Duration(ts.Nano())
}
