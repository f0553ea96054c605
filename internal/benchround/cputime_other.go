//go:build !unix

package benchround

import "time"

var start = time.Now()

// cpuTime falls back to wall time where the process clock is unknown.
func cpuTime() time.Duration { return time.Since(start) }

// threadCPUTime falls back to wall time where the thread clock is
// unknown.
func threadCPUTime() time.Duration { return time.Since(start) }
