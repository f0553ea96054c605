package cli

import (
	"fmt"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/simclock/simclock/experiment"
)

type predictOptions struct {
	in         experiment.PredictInput
	clockEvery int
	format     string
}

func newPredictCmd(env *Env) *cobra.Command {
	opts := predictOptions{in: experiment.PredictInput{
		Window:    time.Second,
		Hz:        10,
		ClockStep: 10 * time.Millisecond,
		Duration:  2500 * time.Millisecond,
	}, clockEvery: 1}
	cmd := &cobra.Command{
		Use:   "predict",
		Short: "Predict in closed form how many sim-timer ticks make now() - W fail or return 0",
		Long: `Predict, without running anything, what a sim-clock timer at f Hz created before
the first /clock sees when it computes now() - W, if the simulator's first
/clock carries S: how many ticks raise, how many return time 0, and the first
usable tick, with the reasoning in plain words (R23, R25, R26, R27).

Examples:
  simclock predict --start 0 --window 1 --hz 10
  simclock predict --start 0.5 --window 1 --hz 20 --format json
  simclock predict --start 0 --window 0.25 --hz 30 --clock-every 4`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(opts.format); err != nil {
				return err
			}
			if opts.clockEvery < 1 {
				return flagErrorf("--clock-every %d: must be at least 1", opts.clockEvery)
			}
			in := opts.in
			in.ClockStep *= time.Duration(opts.clockEvery)
			if err := in.Check(); err != nil {
				return flagErrorf("%v", err)
			}
			p := experiment.Predict(in)
			if opts.format == formatJSON {
				out := newJSONLines(env.Stdout)
				out.Write(map[string]any{"kind": "env", "schema": 1, "command": "predict", "version": Version, "go": runtime.Version()})
				var first *float64
				if p.FirstPositiveNow != nil {
					v := float64(*p.FirstPositiveNow) / 1e9
					first = &v
				}
				return out.Write(map[string]any{
					"kind": "prediction", "S_s": in.Start.Seconds(), "W_s": in.Window.Seconds(), "hz": in.Hz,
					"period_ns": int64(p.Period), "clock_step_s": in.ClockStep.Seconds(), "duration_s": in.Duration.Seconds(),
					"ticks": len(p.Ticks), "exceptions": p.Exceptions, "zeros": p.Zeros, "positives": p.Positives,
					"first_positive_now_s": first, "closed_form": p.ClosedForm, "reasoning": p.Reasoning,
				})
			}
			w := env.Stdout
			fmt.Fprintf(w, "S = %s, W = %v, f = %g Hz, /clock every %v of sim time, run of %v:\n\n", experiment.FormatSeconds(int64(in.Start)), in.Window, in.Hz, in.ClockStep, in.Duration)
			for _, line := range p.Reasoning {
				fmt.Fprintf(w, "  - %s\n", line)
			}
			fmt.Fprintf(w, "\nerrors %d, zeros %d, positive %d of %d ticks\n", p.Exceptions, p.Zeros, p.Positives, len(p.Ticks))
			return nil
		},
	}
	f := cmd.Flags()
	f.Var(secondsValue{&opts.in.Start}, "start", "first /clock value S")
	f.Var(secondsValue{&opts.in.Window}, "window", "window W of now() - W")
	f.Float64Var(&opts.in.Hz, "hz", opts.in.Hz, "rate f of the sim-clock timer")
	f.Var(secondsValue{&opts.in.ClockStep}, "clock-step", "sim time between /clock messages")
	f.IntVar(&opts.clockEvery, "clock-every", 1, "publish one /clock message in N (multiplies --clock-step)")
	f.Var(secondsValue{&opts.in.Duration}, "duration", "sim time after S at which the run ends")
	addFormatFlag(f, &opts.format)
	return cmd
}
