package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/experiment"
)

func newExperimentCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "experiment",
		Short: "Reproduce ROS 2 sim-time hazards on simclock's runtime",
		Long: `Reproduce ROS 2 sim-time hazards on simclock's own runtime, deterministically in
virtual time or in real time, with the closed-form prediction beside each count.

  startup     now() - W before and after the first /clock, for several start times S
  clocktypes  the clock-type pitfall table (Time() vs Time.from_msg vs now())
  dtspike     a baseline stored before the first /clock turns the first dt into 125 s`,
	}
	cmd.AddCommand(newStartupCmd(env), newClockTypesCmd(env), newDtSpikeCmd(env), newStartupSimulatorCmd(env))
	return cmd
}

type startupOptions struct {
	cfg       experiment.StartupConfig
	timerHz   []float64
	format    string
	plot      string
	runs      int
	transport string
}

func newStartupCmd(env *Env) *cobra.Command {
	opts := startupOptions{cfg: experiment.DefaultStartup()}
	cmd := &cobra.Command{
		Use:   "startup",
		Short: "How many callbacks computing now() - W fail, return 0, or succeed, for each start time S",
		Long: `Run the startup experiment: a fake simulator publishes /clock from S (10 ms of
sim time every 5 ms of wall time, after a 0.5 s wait once the subscription
matched); a sim-time subject computes now() - 1 s in its constructor and in a
20 Hz steady timer, and records now() in 10 Hz and 20 Hz sim-clock timers. Every
recorded now() is replayed for each window W, raw and behind two guards, beside
the prediction of 'simclock predict'.

Examples:
  simclock experiment startup
  simclock experiment startup --start 0,2.5 --windows 1 --timer-hz 30 --format json
  simclock experiment startup --mode realtime --plot startup.svg`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(opts.format); err != nil {
				return err
			}
			if opts.runs < 1 {
				return flagErrorf("--runs %d: want at least 1", opts.runs)
			}
			opts.cfg.TimerHz = opts.timerHz
			if err := opts.cfg.Validate(); err != nil {
				return flagErrorf("%v", err)
			}
			return runStartup(cmd.Context(), env, &opts)
		},
	}
	f := cmd.Flags()
	c := &opts.cfg
	f.Var(secondsList{&c.Starts}, "start", "simulator start times S (seconds or durations, comma-separated)")
	f.Var(secondsList{&c.Windows}, "windows", "windows W replayed on every recorded now()")
	f.Float64SliceVar(&opts.timerHz, "timer-hz", []float64{10, 20}, "rates of the subject's sim-clock timers")
	f.Float64Var(&c.WallTimerHz, "wall-timer-hz", c.WallTimerHz, "rate of the subject's steady timer computing now() - 1 s")
	f.Var(secondsValue{&c.ClockStep}, "clock-step", "sim time per /clock message")
	f.Var(secondsValue{&c.ClockPeriod}, "clock-period", "wall time between /clock messages")
	f.IntVar(&c.ClockEvery, "clock-every", c.ClockEvery, "publish one /clock message in N (sparser than the timers)")
	f.Var(secondsValue{&c.PreClock}, "pre-clock", "wall time the simulator waits after the subscription matched")
	f.Var(secondsValue{&c.MatchDelay}, "match-delay", "wall time from subject creation to the subscription matching")
	f.Var(secondsValue{&c.Duration}, "duration", "sim time after S at which the run ends")
	f.IntVar(&c.ClockDepth, "clock-depth", 1, "depth of the subject's /clock subscription (ROS uses 1; deeper loses nothing on a busy machine)")
	f.StringVar((*string)(&c.Mode), "mode", string(experiment.Virtual), "virtual (deterministic, no sleeping) or realtime")
	f.StringVar(&opts.transport, "transport", transportInproc, "inproc, or dds (simulator and subject in separate processes)")
	f.IntVar(&opts.runs, "runs", 1, "repeat the experiment N times and report whether every count was identical")
	f.StringVar(&opts.plot, "plot", "", "write an SVG timeline of every scenario to this file")
	addFormatFlag(f, &opts.format)
	return cmd
}

func runStartup(ctx context.Context, env *Env, opts *startupOptions) error {
	began := time.Now()
	if opts.transport != transportInproc {
		if opts.transport != transportDDS {
			return flagErrorf("--transport %q: want inproc or dds", opts.transport)
		}
		if err := configureDDSStartup(ctx, env, &opts.cfg); err != nil {
			return err
		}
	}
	var runs [][]experiment.ScenarioResult
	for run := 0; run < opts.runs; run++ {
		progress := func(done, total int) {
			if env.StderrIsTTY {
				fmt.Fprintf(env.Stderr, "\rrun %d/%d: scenario %d/%d", run+1, opts.runs, done, total)
			}
		}
		res, err := experiment.RunStartup(ctx, opts.cfg, progress)
		if env.StderrIsTTY {
			fmt.Fprintln(env.Stderr)
		}
		if err != nil {
			return err
		}
		runs = append(runs, res)
	}
	results := runs[0]
	identical := true
	for _, other := range runs[1:] {
		identical = identical && sameCounts(results, other)
	}
	history := experiment.HistoryDemo()
	matched := true
	lost := 0
	for _, r := range results {
		lost += r.Lost
		for _, w := range r.Windows {
			matched = matched && w.Matched()
		}
	}
	if opts.plot != "" {
		f, err := os.Create(opts.plot)
		if err != nil {
			return err
		}
		mark := opts.cfg.CtorWindow
		if err := experiment.PlotStartupSVG(f, opts.cfg, results, mark); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	elapsed := time.Since(began).Seconds()
	if opts.format == formatJSON {
		out := newJSONLines(env.Stdout)
		out.Write(map[string]any{"kind": "env", "schema": 1, "command": "experiment startup", "version": Version,
			"mode": opts.cfg.Mode, "transport": opts.transport, "go": runtime.Version(), "runs": opts.runs})
		for _, r := range results {
			out.Write(r)
		}
		out.Write(history)
		summary := map[string]any{"kind": "summary", "scenarios": len(results), "all_predictions_matched": matched, "elapsed_wall_s": elapsed}
		if opts.runs > 1 {
			summary["runs"] = opts.runs
			summary["runs_identical"] = identical
		}
		if err := out.Write(summary); err != nil {
			return err
		}
	} else {
		printStartupText(env.Stdout, opts, results, history)
		verdict := "every prediction matched the measurement"
		if !matched {
			verdict = "SOME PREDICTIONS DID NOT MATCH (see the ✗ rows)"
			if lost > 0 {
				verdict += fmt.Sprintf("; %d /clock messages were lost (depth-1 best effort drops the older of two samples the subject had no time to take), so ticks moved", lost)
			}
		}
		fmt.Fprintf(env.Stdout, "\nVerdict: %s (%d scenarios, %s mode, %s, %.2fs).\n", verdict, len(results), opts.cfg.Mode, opts.transport, elapsed)
		if opts.runs > 1 {
			fmt.Fprintf(env.Stdout, "Runs: %d, counts identical across runs: %v (wall-clock measurements excluded).\n", opts.runs, identical)
		}
	}
	if !matched || !identical {
		return errFindings
	}
	return nil
}

// sameCounts compares two runs on everything but wall-clock
// measurements: the time to the first /clock, the RTF, and the wall
// timer's calls after the first /clock, which depend on how fast the
// machine ran in real time.
func sameCounts(a, b []experiment.ScenarioResult) bool {
	strip := func(rs []experiment.ScenarioResult) string {
		rs = slices.Clone(rs)
		for i := range rs {
			rs[i].PreClockWall, rs[i].MeasuredRTF = 0, 0
			rs[i].WallTimer.CallsAfterClock, rs[i].WallTimer.ExcAfterClock = 0, 0
		}
		j, _ := json.Marshal(rs)
		return string(j)
	}
	return strip(a) == strip(b)
}

func printStartupText(w io.Writer, opts *startupOptions, results []experiment.ScenarioResult, h experiment.HistoryResult) {
	cfg := opts.cfg
	fmt.Fprintf(w, "Startup experiment: /clock from S, %v of sim time every %v of wall time (one message in %d published), first message %v after the subscription matched; the subject has %v Hz sim-clock timers and a %v Hz steady timer.\n",
		cfg.ClockStep, cfg.ClockPeriod, cfg.ClockEvery, cfg.PreClock, cfg.TimerHz, cfg.WallTimerHz)

	fmt.Fprintf(w, "\nBefore the first /clock (R26: now() is 0 whatever S is)\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "S\tfirst /clock after\tctor now()\tctor now()-1s\twall timer calls at now()=0 (predicted)\traised\tafter first /clock\traised\tRTF\t/clock received (lost)")
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%.3fs\t%d\t%s\t%d (%d)\t%d\t%d\t%d\t%.3g\t%d (%d)\n", fsecs(r.S), r.PreClockWall, r.Ctor.NowNs, r.Ctor.Minus1s,
			r.WallTimer.CallsNow0, r.WallTimer.PredictedCallsNow0, r.WallTimer.ExcNow0, r.WallTimer.CallsAfterClock, r.WallTimer.ExcAfterClock, r.MeasuredRTF, r.Published, r.Lost)
	}
	tw.Flush()

	fmt.Fprintf(w, "\nSim-clock timers: now() - W per tick, measured (predicted) (R25)\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "S\tW\ttimer\tcalls\terrors\tzeros\tpositive\tfirst positive now\tmatch")
	for _, r := range results {
		for _, wr := range r.Windows {
			calls := 0
			for _, st := range r.SimTimers {
				if st.Hz == wr.Hz {
					calls = st.Calls
				}
			}
			first := "-"
			if wr.FirstPositiveNow != nil {
				first = fsecs(*wr.FirstPositiveNow)
			}
			mark := "✓"
			if !wr.Matched() {
				mark = "✗"
			}
			fmt.Fprintf(tw, "%s\t%s\t%g Hz\t%d\t%d (%d)\t%d (%d)\t%d\t%s\t%s\n", fsecs(r.S), fsecs(wr.W), wr.Hz, calls,
				wr.Exceptions, wr.PredictedExceptions, wr.Zeros, wr.PredictedZeros, wr.Positives, first, mark)
		}
	}
	tw.Flush()

	fmt.Fprintf(w, "\nGuards: what gets past (R27)\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "S\tW\ttimer\tno guard: errors/zeros\t'skip if now <= W'\t'skip if now == 0 or now < W'")
	for _, r := range results {
		for _, wr := range r.Windows {
			fmt.Fprintf(tw, "%s\t%s\t%g Hz\t%d/%d\t%d/%d\t%d/%d\n", fsecs(r.S), fsecs(wr.W), wr.Hz, wr.Exceptions, wr.Zeros,
				wr.GuardLE.Exceptions, wr.GuardLE.Zeros, wr.GuardEq0OrLt.Exceptions, wr.GuardEq0OrLt.Zeros)
		}
	}
	tw.Flush()

	fmt.Fprintf(w, "\nHistory lookup (R28): stamps %v s stored; lookup at time 0 returns the %gs entry (tf2's \"latest\"), lookup at 99 s returns %gs; strict mode: %s\n",
		h.StoredStamps, h.QueryZeroGot, h.Query99Got, h.StrictZeroErr)
}

// fsecs formats seconds for the text tables: the shortest decimal that
// reads back as x, without an exponent ("1700000000.005s", not
// "1.700000000005e+09s").
func fsecs(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) + "s" }

func newClockTypesCmd(env *Env) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "clocktypes",
		Short: "The clock-type pitfall table: which rclpy operations between times raise (R3, R5, R6, R30)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			// Fixed readings keep the table reproducible.
			sys, _ := simclock.NewTime[simclock.System](1_700_000_000, 0)
			steady, _ := simclock.NewTime[simclock.Steady](3600, 0)
			objects, rows := experiment.ClockTypes(sys, steady)
			agree := 0
			for _, r := range rows {
				if r.Agrees {
					agree++
				}
			}
			if format == formatJSON {
				out := newJSONLines(env.Stdout)
				out.Write(map[string]any{"kind": "env", "schema": 1, "command": "experiment clocktypes", "version": Version, "go": runtime.Version()})
				for _, o := range objects {
					out.Write(o)
				}
				for _, r := range rows {
					out.Write(r)
				}
				return out.Write(map[string]any{"kind": "summary", "operations": len(rows), "agree_with_rclpy": agree})
			}
			w := env.Stdout
			fmt.Fprintln(w, "Times built the rclpy ways:")
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			for _, o := range objects {
				fmt.Fprintf(tw, "  %s\t%s\t%s\n", o.Name, o.Python, o.Time)
			}
			tw.Flush()
			fmt.Fprintln(w, "\nOperations (simclock's dynamic API; the typed API does not even compile the mismatches):")
			tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "rule\trclpy expression\tsimclock\trclpy")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Rule, r.Python, r.Result, r.RclpyDoes)
			}
			tw.Flush()
			fmt.Fprintf(w, "\n%d of %d operations error exactly where rclpy raises.\n", agree, len(rows))
			if agree != len(rows) {
				return errFindings
			}
			return nil
		},
	}
	addFormatFlag(cmd.Flags(), &format)
	return cmd
}

func newDtSpikeCmd(env *Env) *cobra.Command {
	var format string
	cfg := experiment.DefaultDtSpike()
	cmd := &cobra.Command{
		Use:   "dtspike",
		Short: "R29 worked through: a baseline stored before the first /clock makes the first dt the whole first /clock value",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			if err := cfg.Validate(); err != nil {
				return flagErrorf("%v", err)
			}
			rows, err := experiment.RunDtSpike(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			if format == formatJSON {
				out := newJSONLines(env.Stdout)
				out.Write(map[string]any{"kind": "env", "schema": 1, "command": "experiment dtspike", "version": Version, "go": runtime.Version(),
					"first_clock_s": cfg.FirstClock.Seconds(), "period_s": cfg.Period.Seconds(), "speed_mps": cfg.Speed, "timeout_s": cfg.Timeout.Seconds()})
				for _, r := range rows {
					out.Write(r)
				}
				return nil
			}
			w := env.Stdout
			fmt.Fprintf(w, "First /clock at %gs, control loop every %gs of sim time, robot at %g m/s, %gs watchdog; the baseline was stored in the constructor, before the first /clock.\n\n",
				cfg.FirstClock.Seconds(), cfg.Period.Seconds(), cfg.Speed, cfg.Timeout.Seconds())
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "tick\tnow\tnaive dt\tnaive distance\tnaive speed\tnaive timeout\tguarded dt\tguarded distance\tguarded speed\tguarded timeout\ttrue distance")
			for _, r := range rows {
				gdt := fmt.Sprintf("%gs", r.GuardDtS)
				if r.GuardSkip != "ok" {
					gdt = "skip (" + r.GuardSkip + ")"
				}
				fmt.Fprintf(tw, "%d\t%gs\t%gs\t%gm\t%gm/s\t%v\t%s\t%gm\t%gm/s\t%v\t%gm\n", r.Tick, r.NowS, r.NaiveDtS, r.NaiveDistM, r.NaiveSpeedMS, r.NaiveTimeout,
					gdt, r.GuardDistM, r.GuardSpeedMS, r.GuardTimeout, r.TrueDistanceM)
			}
			tw.Flush()
			fmt.Fprintln(w, "\nThe naive first dt passes a 'dt < 0' check, inflates the integral, deflates the finite-difference speed and trips the watchdog; the guard (skip when prev <= 0 or now <= 0, always move the baseline) loses one sample and nothing else (R29).")
			return nil
		},
	}
	f := cmd.Flags()
	f.Var(secondsValue{&cfg.FirstClock}, "first-clock", "first /clock value")
	f.Var(secondsValue{&cfg.Period}, "period", "control loop period (sim time)")
	f.Float64Var(&cfg.Speed, "speed", cfg.Speed, "robot speed in m/s")
	f.Var(secondsValue{&cfg.Timeout}, "timeout", "watchdog timeout")
	f.IntVar(&cfg.Ticks, "ticks", cfg.Ticks, "loop iterations to show")
	addFormatFlag(f, &format)
	return cmd
}
