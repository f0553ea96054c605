package experiment_test

import (
	"context"
	"fmt"
	"time"

	"github.com/simclock/simclock/experiment"
)

// Predict answers "how many ticks of a 10 Hz sim timer computing
// now() - 1 s fail, return time 0, or succeed?" for a simulator whose
// first /clock is 0 (R25).
func ExamplePredict() {
	p := experiment.Predict(experiment.PredictInput{Start: 0, Window: time.Second, Hz: 10,
		ClockStep: 10 * time.Millisecond, Duration: 2500 * time.Millisecond})
	fmt.Println(p.Exceptions, "raise,", p.Zeros, "return time 0,", p.Positives, "succeed")
	fmt.Println("first usable tick at", time.Duration(*p.FirstPositiveNow))
	// Output:
	// 9 raise, 1 return time 0, 14 succeed
	// first usable tick at 1.1s
}

// RunStartup measures the same on simclock's runtime, in virtual time.
func ExampleRunStartup() {
	cfg := experiment.DefaultStartup()
	cfg.Starts = []time.Duration{0, 100 * time.Second}
	cfg.Windows = []time.Duration{time.Second}
	cfg.TimerHz = []float64{10}
	results, _ := experiment.RunStartup(context.Background(), cfg, nil)
	for _, r := range results {
		w := r.Windows[0]
		fmt.Printf("S=%s: constructor now()=%d, %d raise, %d zero, prediction matched: %v\n",
			experiment.FormatSeconds(int64(r.S)), r.Ctor.NowNs, w.Exceptions, w.Zeros, w.Matched())
	}
	// Output:
	// S=0 s: constructor now()=0, 9 raise, 1 zero, prediction matched: true
	// S=100 s: constructor now()=0, 0 raise, 0 zero, prediction matched: true
}
