package experiment

import (
	"testing"
	"time"
)

// FuzzPredict: any input either is refused by Check or yields a
// consistent prediction: ticks strictly increasing, on the clock grid,
// inside the run; the outcome counts add up; the closed form, where it
// claims to apply, agrees with the enumeration.
func FuzzPredict(f *testing.F) {
	f.Add(int64(0), int64(1e9), 10.0, int64(10e6), int64(2500e6))
	f.Add(int64(500e6), int64(1e9), 20.0, int64(10e6), int64(2500e6))
	f.Add(int64(0), int64(250e6), 30.0, int64(40e6), int64(2500e6))
	f.Add(int64(100e9), int64(2e9), 1.0, int64(7e6), int64(3e9))
	f.Add(int64(0), int64(1), 1e9, int64(1), int64(1))
	f.Fuzz(func(t *testing.T, start, window int64, hz float64, step, duration int64) {
		in := PredictInput{Start: time.Duration(start), Window: time.Duration(window), Hz: hz,
			ClockStep: time.Duration(step), Duration: time.Duration(duration)}
		if start > 1e12 || duration > 1e12 { // keep sums far from int64 overflow
			t.Skip()
		}
		if in.Check() != nil {
			return
		}
		p := Predict(in)
		if p.Exceptions+p.Zeros+p.Positives != len(p.Ticks) {
			t.Fatalf("%+v: counts %d+%d+%d != %d ticks", in, p.Exceptions, p.Zeros, p.Positives, len(p.Ticks))
		}
		for i, tick := range p.Ticks {
			if tick < start || tick >= start+duration || (tick-start)%step != 0 {
				t.Fatalf("%+v: tick %d outside the run or off the clock grid", in, tick)
			}
			if i > 0 && tick <= p.Ticks[i-1] {
				t.Fatalf("%+v: ticks not increasing at %d", in, i)
			}
		}
		for _, line := range p.Reasoning {
			if len(line) >= 8 && line[:8] == "WARNING:" {
				t.Fatalf("%+v: %s", in, line)
			}
		}
	})
}
