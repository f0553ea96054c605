//go:build soak

package experiment

import (
	"context"
	"testing"
)

// Real-time behaviour that depends on the machine's speed, for a quiet
// machine: go test -tags soak -run Soak ./experiment. Every wall-timer
// period before the first /clock runs (none skipped), and repeated runs
// give the virtual counts exactly. It reports how many wall calls a
// loaded machine skipped instead of failing the ordinary suite on them.
func TestSoakRealtimeWallTimer(t *testing.T) {
	virtual, err := RunStartup(context.Background(), DefaultStartup(), nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultStartup()
	cfg.Mode = Realtime
	for run := range 5 {
		real, err := RunStartup(context.Background(), cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range real {
			v := virtual[i]
			if r.WallTimer.CallsNow0 != v.WallTimer.CallsNow0 || r.WallTimer.CallsNow0 != r.WallTimer.PredictedCallsNow0 {
				t.Errorf("run %d S=%v: %d wall calls before the first /clock, virtual %d, predicted from the arrival %d",
					run, r.S, r.WallTimer.CallsNow0, v.WallTimer.CallsNow0, r.WallTimer.PredictedCallsNow0)
			}
			t.Logf("run %d S=%v: first /clock after %.3f s, RTF %.3f, wall calls after it %d (virtual %d)",
				run, r.S, r.PreClockWall.Seconds(), r.MeasuredRTF, r.WallTimer.CallsAfterClock, v.WallTimer.CallsAfterClock)
		}
	}
}
