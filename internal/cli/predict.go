package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/simclock/simclock/experiment"
	"github.com/simclock/simclock/internal/report"
	"github.com/simclock/simclock/internal/units"
)

// predictOptions are the inputs of simclock predict.
type predictOptions struct {
	env        *Env
	in         experiment.PredictInput // the flags
	clockEvery int
	format     string

	input experiment.PredictInput // in, with --clock-every applied and checked
}

func newPredictCmd(env *Env, runF func(context.Context, *predictOptions) error) *cobra.Command {
	opts := &predictOptions{env: env, in: experiment.PredictInput{
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
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.clockEvery < 1 {
				return flagErrorf("--clock-every %d: must be at least 1", opts.clockEvery)
			}
			in := opts.in
			in.ClockStep *= time.Duration(opts.clockEvery)
			if err := in.Check(); err != nil {
				// predict is not an experiment: the package's prefix would
				// name the wrong command.
				return flagErrorf("%s", strings.TrimPrefix(err.Error(), "experiment: "))
			}
			if in.Start > units.MaxClockSeconds*time.Second+999999999 {
				return flagErrorf("--start %s: past the largest time a Clock message carries (%d s)", units.Exact(int64(in.Start)), units.MaxClockSeconds)
			}
			opts.input = in
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runPredict(opts)
		},
	}
	f := cmd.Flags()
	f.Var(units.Duration(&opts.in.Start, units.NonNegative), "start", "first /clock value S")
	f.Var(units.Duration(&opts.in.Window, units.NonNegative), "window", "window W of now() - W")
	f.Float64Var(&opts.in.Hz, "hz", opts.in.Hz, "rate f of the sim-clock timer")
	f.Var(units.Duration(&opts.in.ClockStep, units.Positive), "clock-step", "sim time between /clock messages")
	f.IntVar(&opts.clockEvery, "clock-every", 1, "publish one /clock message in N (multiplies --clock-step)")
	f.Var(units.Duration(&opts.in.Duration, units.Positive), "duration", "length of each run in sim time after S (not wall-clock time)")
	addFormatFlag(f, &opts.format)
	return cmd
}

// runPredict prints the prediction for o.input.
func runPredict(o *predictOptions) error {
	in := o.input
	p := experiment.Predict(in)
	if o.format == formatJSON {
		out := report.NewJSONLines(o.env.Stdout)
		out.Write("env", newEnvHeader("predict")) //nolint:errcheck // stdout
		return out.Write("prediction", predictionLine{S: in.Start, W: in.Window, Hz: in.Hz, Period: p.Period,
			ClockStep: in.ClockStep, Duration: in.Duration, Ticks: len(p.Ticks), Exceptions: p.Exceptions,
			Zeros: p.Zeros, Positives: p.Positives, FirstPositiveNow: p.FirstPositiveNow, ClosedForm: p.ClosedForm,
			Reasoning: p.Reasoning})
	}
	w := o.env.Stdout
	paragraph(w, fmt.Sprintf("S = %s s, W = %s s, f = %g Hz, /clock every %s s of sim time, run of %s s:",
		experimentSeconds(in.Start), experimentSeconds(in.Window), in.Hz, experimentSeconds(in.ClockStep), experimentSeconds(in.Duration)))
	fmt.Fprintln(w)
	for _, line := range p.Reasoning {
		for _, l := range wrap("  - "+line, tableWidth, "    ") {
			fmt.Fprintln(w, l)
		}
	}
	fmt.Fprintf(w, "\nerrors %d, zeros %d, positive %d of %d ticks\n", p.Exceptions, p.Zeros, p.Positives, len(p.Ticks))
	return nil
}

// predictionLine is the "prediction" JSON line of simclock predict.
type predictionLine struct {
	S                time.Duration `json:"S_ns"`
	W                time.Duration `json:"W_ns"`
	Hz               float64       `json:"hz"`
	Period           time.Duration `json:"period_ns"`
	ClockStep        time.Duration `json:"clock_step_ns"`
	Duration         time.Duration `json:"duration_ns"`
	Ticks            int           `json:"ticks"`
	Exceptions       int           `json:"exceptions"`
	Zeros            int           `json:"zeros"`
	Positives        int           `json:"positives"`
	FirstPositiveNow *int64        `json:"first_positive_now_ns"`
	ClosedForm       bool          `json:"closed_form"`
	Reasoning        []string      `json:"reasoning"`
}
