package experiment

import (
	"context"
	"testing"
)

// The realtime mode on the in-process bus gives the same sim-timer counts
// as virtual mode for the defaults. Wall-timer counts after the first
// /clock depend on how fast the machine runs, so only the counts before
// it are compared.
func TestRealtimeAgreesWithVirtual(t *testing.T) {
	if testing.Short() {
		t.Skip("realtime run takes about 10 s")
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
		if v.WallTimer.CallsNow0 != r.WallTimer.CallsNow0 || v.WallTimer.ExcNow0 != r.WallTimer.ExcNow0 {
			t.Errorf("S=%v wall timer before clock: virtual %+v realtime %+v", v.S, v.WallTimer, r.WallTimer)
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
		}
		if r.Published != v.Published {
			t.Errorf("S=%v: realtime published %d /clock messages, virtual %d", v.S, r.Published, v.Published)
		}
	}
}
