package experiment

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// The reference experiment in virtual time: every count matches the
// prediction, and the hand-derived values of R25/R26 hold.
func TestStartupDefaultsMatchPredictions(t *testing.T) {
	res, err := RunStartup(context.Background(), DefaultStartup(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 4 {
		t.Fatalf("got %d scenarios, want 4", len(res))
	}
	for _, r := range res {
		// R26: the constructor and the wall timer see 0 whatever S.
		if r.Ctor.NowNs != 0 || r.Ctor.Minus1s != OutcomeError {
			t.Errorf("S=%v: R26 ctor now=%d %s, want 0 error", r.S, r.Ctor.NowNs, r.Ctor.Minus1s)
		}
		// 0.52 s before the first /clock at 20 Hz: ticks at 0.05..0.50.
		if r.WallTimer.CallsNow0 != 10 || r.WallTimer.ExcNow0 != 10 || r.WallTimer.PredictedCallsNow0 != 10 {
			t.Errorf("S=%v: R26 wall timer before clock: %+v, want 10 calls 10 raised", r.S, r.WallTimer)
		}
		if r.PreClockWall != 520*time.Millisecond {
			t.Errorf("S=%v: first /clock after %v s, want 0.52", r.S, r.PreClockWall)
		}
		if r.MeasuredRTF != 2 {
			t.Errorf("S=%v: RTF %v, want 2", r.S, r.MeasuredRTF)
		}
		for _, w := range r.Windows {
			if !w.Matched() {
				t.Errorf("S=%v W=%v %v Hz: measured %d/%d, predicted %d/%d", r.S, w.W, w.Hz, w.Exceptions, w.Zeros, w.PredictedExceptions, w.PredictedZeros)
			}
			// R27: the correct guard lets nothing through.
			if w.GuardLE != (GuardOutcome{}) {
				t.Errorf("S=%v W=%v: R27 guard now<=W let %+v through", r.S, w.W, w.GuardLE)
			}
			// R27: "now == 0 or now < W" lets exactly the zero ticks through.
			if w.GuardEq0OrLt.Zeros != w.Zeros || w.GuardEq0OrLt.Exceptions != 0 {
				t.Errorf("S=%v W=%v: guard eq0_or_lt %+v, want 0 errors and %d zeros", r.S, w.W, w.GuardEq0OrLt, w.Zeros)
			}
		}
	}
	// R25 by hand for S = 0: 10 Hz, W = 1 s: ceil(10)-1 = 9 errors, one zero.
	w := res[0].Windows[2]
	if w.W != time.Second || w.Hz != 10 || w.Exceptions != 9 || w.Zeros != 1 {
		t.Errorf("R25 S=0 W=1 f=10: got %+v, want 9 errors and 1 zero", w)
	}
	// R25, non-whole W·f: W = 0.25 s at 10 Hz: ceil(2.5)-1 = 2 errors, no zero.
	w = res[0].Windows[0]
	if w.W != 250*time.Millisecond || w.Hz != 10 || w.Exceptions != 2 || w.Zeros != 0 {
		t.Errorf("R25 S=0 W=0.25 f=10: got %+v, want 2 errors and 0 zeros", w)
	}
	// R23: with S = 100 s the first tick of every sim timer is at 100 s.
	for _, st := range res[3].SimTimers {
		if st.FirstNow != 100e9 || st.CallsBeforeFirstClock != 0 {
			t.Errorf("R23 S=100 %v Hz: first now %v, before clock %d", st.Hz, st.FirstNow, st.CallsBeforeFirstClock)
		}
	}
}

// Two virtual-time runs give byte-identical results.
func TestStartupVirtualIsDeterministic(t *testing.T) {
	run := func() string {
		cfg := DefaultStartup()
		cfg.KeepTicks = true
		res, err := RunStartup(context.Background(), cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res)
		ticks, _ := json.Marshal(res[0].Ticks)
		return string(b) + string(ticks)
	}
	if a, b := run(), run(); a != b {
		t.Fatalf("two virtual runs differ:\n%s\n%s", a, b)
	}
}

// Predictions against measurements over a grid of S, W, f, and sparse
// /clock (R25, R26 and the S offset cases).
func TestPredictMatchesMeasurementGrid(t *testing.T) {
	starts := []time.Duration{0, 100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond, time.Second, 1500 * time.Millisecond, 2 * time.Second, 100 * time.Second}
	windows := []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second}
	for _, every := range []int{1, 3, 7, 10} {
		for _, hz := range [][]float64{{1, 4, 10}, {20, 30}} {
			cfg := DefaultStartup()
			cfg.Starts, cfg.Windows, cfg.TimerHz, cfg.ClockEvery = starts, windows, hz, every
			cfg.Duration = 3 * time.Second
			res, err := RunStartup(context.Background(), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res {
				for _, w := range r.Windows {
					if !w.Matched() {
						t.Errorf("every=%d S=%v W=%v f=%v: measured %d errors %d zeros, predicted %d, %d",
							every, r.S, w.W, w.Hz, w.Exceptions, w.Zeros, w.PredictedExceptions, w.PredictedZeros)
					}
				}
			}
		}
	}
}

// The closed forms agree with the enumeration wherever they claim to
// apply, and R25's formula holds for S = 0.
func TestClosedFormAgreesWithEnumeration(t *testing.T) {
	for _, hz := range []float64{1, 2, 4, 5, 10, 20, 25, 50} {
		for _, wMs := range []int64{100, 250, 500, 750, 1000, 1250, 2000} {
			for _, sMs := range []int64{0, 50, 100, 250, 500, 1000, 1500, 2000, 3000} {
				in := PredictInput{Start: time.Duration(sMs) * time.Millisecond, Window: time.Duration(wMs) * time.Millisecond,
					Hz: hz, ClockStep: 10 * time.Millisecond, Duration: 5 * time.Second}
				p := Predict(in)
				for _, line := range p.Reasoning {
					if len(line) > 8 && line[:8] == "WARNING:" {
						t.Errorf("%+v: %s", in, line)
					}
				}
				if sMs == 0 && p.ClosedForm {
					T := int64(p.Period)
					W := wMs * 1e6
					wantE := int((W+T-1)/T) - 1 // ceil(W·f) - 1
					wantZ := 0
					if W%T == 0 {
						wantZ = 1
					}
					if p.Exceptions != wantE || p.Zeros != wantZ {
						t.Errorf("R25 f=%v W=%vms: got %d/%d, want %d/%d", hz, wMs, p.Exceptions, p.Zeros, wantE, wantZ)
					}
				}
			}
		}
	}
}

// With 0 < S ≤ W and S a whole number of periods the errors are (W-S)·f.
func TestPredictStartOffsetFormula(t *testing.T) {
	for _, c := range []struct{ s, w, hz float64 }{{0.5, 1, 10}, {0.5, 1, 20}, {1, 2, 10}, {1, 1, 10}, {0.2, 2, 5}} {
		p := Predict(PredictInput{Start: time.Duration(c.s * 1e9), Window: time.Duration(c.w * 1e9), Hz: c.hz, ClockStep: 10 * time.Millisecond, Duration: 3 * time.Second})
		want := int((c.w-c.s)*c.hz + 0.5)
		if p.Exceptions != want {
			t.Errorf("S=%v W=%v f=%v: %d errors, want (W-S)·f = %d", c.s, c.w, c.hz, p.Exceptions, want)
		}
	}
}

func TestStartupConfigValidate(t *testing.T) {
	for name, mutate := range map[string]func(*StartupConfig){
		"no starts":      func(c *StartupConfig) { c.Starts = nil },
		"zero step":      func(c *StartupConfig) { c.ClockStep = 0 },
		"negative start": func(c *StartupConfig) { c.Starts = []time.Duration{-1} },
		"zero window":    func(c *StartupConfig) { c.Windows = []time.Duration{0} },
		"bad mode":       func(c *StartupConfig) { c.Mode = "later" },
		"zero hz":        func(c *StartupConfig) { c.TimerHz = []float64{0} },
		"clock every 0":  func(c *StartupConfig) { c.ClockEvery = 0 },
	} {
		cfg := DefaultStartup()
		mutate(&cfg)
		if err := cfg.Validate(); err == nil {
			t.Errorf("%s: Validate accepted it", name)
		}
	}
}

func TestHistoryDemo(t *testing.T) {
	h := HistoryDemo()
	if h.QueryZeroGot != 100e9 || h.Query99Got != 99e9 || h.StrictZeroErr == "" {
		t.Errorf("R28 history demo: %+v, want lookup(0)=100, lookup(99)=99, strict error", h)
	}
}

func TestClockTypesAgreeWithRclpy(t *testing.T) {
	objs, rows := ClockTypes(mustSys(t, 1.7e9), mustSteady(t, 3600))
	if len(objs) != 8 || len(rows) < 22 {
		t.Fatalf("got %d objects and %d operations, want 8 and 22", len(objs), len(rows))
	}
	for _, r := range rows {
		if !r.Agrees {
			t.Errorf("%s %s: simclock %s (%s), rclpy %s", r.Rule, r.Python, r.Result, r.Error, r.RclpyDoes)
		}
	}
	// R30: the round-tripped SYSTEM time comes back ROS and cannot be compared.
	if rows[0].Result != "ErrClockTypeMismatch" {
		t.Errorf("R30 row: %+v", rows[0])
	}
}

func TestDtSpike(t *testing.T) {
	rows, err := RunDtSpike(context.Background(), DefaultDtSpike())
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 6 {
		t.Fatalf("got %d rows", len(rows))
	}
	first := rows[0]
	// R29: the first naive dt is the whole first /clock value.
	if first.NowNs != 125e9 || first.NaiveDt != 125*time.Second || first.NaiveDistM != 62.5 || !first.NaiveTimeout {
		t.Errorf("R29 naive first tick: %+v", first)
	}
	if first.GuardSkip != "no baseline" || first.GuardDistM != 0 || first.GuardTimeout {
		t.Errorf("R29 guarded first tick: %+v", first)
	}
	for _, r := range rows[1:] {
		if r.GuardDt != 500*time.Millisecond || r.GuardSpeedMS != 0.5 || r.GuardTimeout {
			t.Errorf("R29 guarded tick %d: %+v", r.Tick, r)
		}
		if got, want := r.GuardDistM, r.TrueDistanceM; fmt.Sprintf("%.9f", got) != fmt.Sprintf("%.9f", want) {
			t.Errorf("tick %d: guarded distance %v, true %v", r.Tick, got, want)
		}
	}
}
