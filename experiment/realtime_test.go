package experiment

import (
	"context"
	"testing"
)

// A real-time run on the in-process bus, checked against what that run
// measured, never against how fast the machine is. In one executor the
// simulator publishes at most one /clock per round and the subject takes
// it in the same round, so no message is lost whatever the load, and
// everything driven by /clock (the sim timers, every window) equals the
// virtual run. The wall timer is not: under load its missed periods are
// skipped (rcl), so it is bounded by the deadlines before the first
// /clock, measured in this run, and it runs at least once (the round that
// publishes the first /clock calls it first).
func TestRealtimeAgreesWithVirtual(t *testing.T) {
	if testing.Short() {
		t.Skip("a real-time run takes about 8 s")
	}
	virtual, err := RunStartup(context.Background(), DefaultStartup(), nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultStartup()
	cfg.Mode = Realtime
	real, err := RunStartup(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range virtual {
		v, r := virtual[i], real[i]
		if v.Ctor != r.Ctor {
			t.Errorf("S=%v ctor: virtual %+v realtime %+v", v.S, v.Ctor, r.Ctor)
		}
		wt := r.WallTimer
		if wt.CallsNow0 < 1 || wt.CallsNow0 > wt.PredictedCallsNow0 || wt.ExcNow0 != wt.CallsNow0 {
			t.Errorf("S=%v wall timer before the first /clock: %d calls (%d raised), want 1..%d (the deadlines before it arrived, %v)",
				v.S, wt.CallsNow0, wt.ExcNow0, wt.PredictedCallsNow0, r.PreClockWall)
		}
		if r.PreClockWall < cfg.MatchDelay+cfg.PreClock {
			t.Errorf("S=%v: first /clock after %v s, before the simulator's %v wait", v.S, r.PreClockWall, cfg.MatchDelay+cfg.PreClock)
		}
		if r.Published != v.Published || r.Lost != 0 {
			t.Errorf("S=%v: realtime received %d /clock messages (%d lost), virtual %d", v.S, r.Published, r.Lost, v.Published)
		}
		for j := range v.SimTimers {
			if v.SimTimers[j] != r.SimTimers[j] {
				t.Errorf("S=%v sim timer: virtual %+v realtime %+v", v.S, v.SimTimers[j], r.SimTimers[j])
			}
		}
		for j := range v.Windows {
			vw, rw := v.Windows[j], r.Windows[j]
			if vw.Exceptions != rw.Exceptions || vw.Zeros != rw.Zeros || vw.Positives != rw.Positives {
				t.Errorf("S=%v W=%v %v Hz: virtual %d/%d/%d realtime %d/%d/%d", v.S, vw.W, vw.Hz,
					vw.Exceptions, vw.Zeros, vw.Positives, rw.Exceptions, rw.Zeros, rw.Positives)
			}
			if rw.Exceptions != rw.ReceivedExceptions || rw.Zeros != rw.ReceivedZeros {
				t.Errorf("S=%v W=%v %v Hz: measured %d/%d, predicted from the received /clock %d/%d", v.S, rw.W, rw.Hz,
					rw.Exceptions, rw.Zeros, rw.ReceivedExceptions, rw.ReceivedZeros)
			}
		}
	}
}
