package experiment

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/simclock/simclock"
)

// randomInput draws a prediction input with S anywhere up to 2^31 s (the
// last /clock value), periods down to 1 ns, and a run short enough to
// execute: at most ~200 ticks and 400 /clock messages.
func randomInput(r *rand.Rand) PredictInput {
	var T time.Duration
	switch r.IntN(3) {
	case 0:
		T = time.Duration(1 + r.Int64N(20)) // 1..20 ns
	case 1:
		T = time.Duration(1 + r.Int64N(int64(time.Millisecond)))
	default:
		T = time.Duration(1 + r.Int64N(int64(time.Second)))
	}
	hz := 1e9 / float64(T)
	T = periodOf(hz) // the period the rate really gives
	D := time.Duration(1 + r.Int64N(int64(200*T)))
	Δ := max(D/400, time.Duration(1+r.Int64N(int64(max(T/3, 1))*3)))
	var S time.Duration
	switch r.IntN(4) {
	case 0:
		S = 0
	case 1:
		S = time.Duration(r.Int64N(int64(10 * T)))
	case 2:
		S = time.Duration(r.Int64N(int64(simclock.MaxMessageDuration - D)))
	default:
		S = simclock.MaxMessageDuration - D // the very last /clock values
	}
	W := time.Duration(1 + r.Int64N(int64(max(S+D, 1))))
	if r.IntN(2) == 0 && S > 0 {
		W = S // the boundary tick
	}
	return PredictInput{Start: S, Window: W, Hz: hz, ClockStep: Δ, Duration: D}
}

// Predict agrees with rcl's timer replayed on every /clock value of the
// grid (TicksFromClock), at every magnitude.
func TestPropertyPredictMatchesReplay(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 2026))
	for range 3000 {
		in := randomInput(r)
		if err := in.Check(); err != nil {
			t.Fatalf("%+v: %v", in, err)
		}
		var values []int64
		for v := in.Start; v < in.Start+in.Duration; v += in.ClockStep {
			values = append(values, int64(v))
		}
		p := Predict(in)
		want := TicksFromClock(values, p.Period)
		if !slices.Equal(p.Ticks, want) {
			t.Fatalf("%+v (T=%v): Predict %d ticks %v..., replay %d %v...", in, p.Period, len(p.Ticks), head(p.Ticks), len(want), head(want))
		}
	}
}

// Predict agrees with the runtime (the startup experiment in virtual
// time: simulator, subject node, executor, time source, timers) tick for
// tick and count for count, at every magnitude.
func TestPropertyPredictMatchesRuntime(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 14))
	n := 300
	if testing.Short() {
		n = 40
	}
	for range n {
		in := randomInput(r)
		cfg := DefaultStartup()
		cfg.Starts = []time.Duration{in.Start}
		cfg.Windows = []time.Duration{in.Window}
		cfg.TimerHz = []float64{in.Hz}
		cfg.ClockStep = in.ClockStep
		cfg.Duration = in.Duration
		cfg.KeepTicks = true
		res, err := RunStartup(context.Background(), cfg, nil)
		if err != nil {
			t.Fatalf("%+v: %v", in, err)
		}
		var ticks []int64
		for _, tk := range res[0].Ticks {
			if tk.Timer != "wall" {
				ticks = append(ticks, tk.NowNs)
			}
		}
		p := Predict(in)
		w := res[0].Windows[0]
		if !slices.Equal(ticks, p.Ticks) || w.Exceptions != p.Exceptions || w.Zeros != p.Zeros || !w.Matched() {
			t.Fatalf("%+v (T=%v): runtime %d ticks %v... (%d/%d), Predict %d ticks %v... (%d/%d)", in, p.Period,
				len(ticks), head(ticks), w.Exceptions, w.Zeros, len(p.Ticks), head(p.Ticks), p.Exceptions, p.Zeros)
		}
	}
}

func head(s []int64) []int64 { return s[:min(len(s), 4)] }

// The cost of Predict and of the virtual startup experiment is flat in S:
// each iteration runs S = 100 s and S = 1.7e9 s and reports the ratio of
// their times, measured in the same run.
func BenchmarkPredictOverS(b *testing.B) {
	in := PredictInput{Window: time.Second, Hz: 10, ClockStep: 10 * time.Millisecond, Duration: 2500 * time.Millisecond}
	var small, large time.Duration
	for b.Loop() {
		in.Start = 100 * time.Second
		t0 := time.Now()
		Predict(in)
		in.Start = 1_700_000_000 * time.Second
		t1 := time.Now()
		Predict(in)
		small, large = small+t1.Sub(t0), large+time.Since(t1)
	}
	b.ReportMetric(float64(large)/float64(small), "ratio_S1.7e9/S100")
}

func BenchmarkStartupVirtualOverS(b *testing.B) {
	cfg := DefaultStartup()
	var small, large time.Duration
	for b.Loop() {
		cfg.Starts = []time.Duration{100 * time.Second}
		t0 := time.Now()
		if _, err := RunStartup(context.Background(), cfg, nil); err != nil {
			b.Fatal(err)
		}
		cfg.Starts = []time.Duration{1_700_000_000 * time.Second}
		t1 := time.Now()
		if _, err := RunStartup(context.Background(), cfg, nil); err != nil {
			b.Fatal(err)
		}
		small, large = small+t1.Sub(t0), large+time.Since(t1)
	}
	b.ReportMetric(float64(large)/float64(small), "ratio_S1.7e9/S100")
}
