//go:build unix

package benchround

import (
	"time"

	"golang.org/x/sys/unix"
)

// cpuTime is the CPU time every thread of this process has used so far.
func cpuTime() time.Duration {
	return clockTime(unix.CLOCK_PROCESS_CPUTIME_ID, "CLOCK_PROCESS_CPUTIME_ID")
}

// threadCPUTime is the CPU time the calling OS thread has used so far:
// the caller locks its goroutine to the thread (runtime.LockOSThread)
// between two readings.
func threadCPUTime() time.Duration {
	return clockTime(unix.CLOCK_THREAD_CPUTIME_ID, "CLOCK_THREAD_CPUTIME_ID")
}

func clockTime(id int32, name string) time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(id, &ts); err != nil {
		panic("benchround: " + name + ": " + err.Error())
	}
	return time.Duration(ts.Nano())
}
