package dds

import (
	"time"
	_ "unsafe" // for go:linkname
)

// A yielder keeps a goroutine that blocks in Cyclone's waitset between
// samples in the Go scheduler's sight. Such a goroutine never passes
// through the scheduler: it runs Go code, calls into C, runs Go code
// again, always on the P it holds, so the P's scheduling tick stands
// still. Once sysmon has seen the tick stand for 10 ms it counts the
// goroutine as running too long and, since a goroutine in a cgo call
// cannot be preempted, takes the P whenever it finds the goroutine
// waiting in C (runtime.retake, forcePreemptNS; Go 1.26). At 500 Hz that
// was every sample: sysmon took the P and started an M that found
// nothing to do, and the thread that the sample woke had no P, took an
// idle one under the scheduler's lock and woke sysmon from its deep
// sleep before it could take the sample (a simclock node 8.8 context
// switches per /clock round trip, the C pong 6.0; 5.4 with the yielder).
// Yielding before blocking moves the tick; doing it at most once per
// yieldEvery, not before every wait, keeps its own cost off most samples.
//
// The yield is the runtime's goyield, not runtime.Gosched: Gosched puts
// the goroutine on the global run queue and wakes an idle M (wakep),
// which spins on the other CPU, finds nothing or takes the goroutine to
// its own thread, and sleeps again, an extra thread wake-up per yield
// right after the echo's send, when the receiving side needs the CPUs.
// goyield puts it on its own P's run queue and wakes nobody, so the same
// thread picks it up again. (C ping -> node at 500 Hz, perf sched:
// wake-ups of one Go thread by another 0.41 per sample with Gosched, 0.02
// with goyield; docs/perf-notes.md.)
type yielder struct{ last time.Time }

// goyield is runtime.goyield, which the runtime keeps for linkname users
// ("Do not remove or change the type signature", go.dev/issue/67401).
//
//go:linkname goyield runtime.goyield
func goyield()

// yieldEvery is well under sysmon's 10 ms, so that the tick moves between
// any two of its looks 10 ms apart while samples come faster than that.
const yieldEvery = 4 * time.Millisecond

// beforeBlock yields to the scheduler when the calling goroutine has not
// done so for yieldEvery. One goroutine at a time may use a yielder.
func (y *yielder) beforeBlock() {
	if now := time.Now(); now.Sub(y.last) >= yieldEvery {
		goyield()
		y.last = now
	}
}
