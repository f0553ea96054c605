package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/experiment"
	"github.com/simclock/simclock/internal/report"
	"github.com/simclock/simclock/internal/units"
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
	cmd.AddCommand(newStartupCmd(env, nil), newClockTypesCmd(env, nil), newDtSpikeCmd(env, nil), newStartupSimulatorCmd(env, nil))
	return cmd
}

// startupOptions are the inputs of simclock experiment startup.
type startupOptions struct {
	env       *Env
	cfg       experiment.StartupConfig
	timerHz   []float64
	format    string
	plot      string
	runs      int
	transport string
	wide      bool
}

func newStartupCmd(env *Env, runF func(context.Context, *startupOptions) error) *cobra.Command {
	opts := &startupOptions{env: env, cfg: experiment.DefaultStartup(), timerHz: []float64{10, 20}}
	cmd := &cobra.Command{
		Use:   "startup",
		Short: "How many callbacks computing now() - W fail, return 0 or succeed, per start S",
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
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.runs < 1 {
				return flagErrorf("--runs %d: want at least 1", opts.runs)
			}
			opts.cfg.TimerHz = opts.timerHz
			if err := opts.cfg.Validate(); err != nil {
				return flagErrorf("%v", err)
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runStartup(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	c := &opts.cfg
	f.Var(units.List(&c.Starts, units.NonNegative), "start", "simulator start times S, comma-separated")
	f.Var(units.List(&c.Windows, units.NonNegative), "windows", "windows W replayed on every recorded now(), comma-separated")
	f.Var(units.Rates(&opts.timerHz), "timer-hz", "rates of the subject's sim-clock timers")
	f.Float64Var(&c.WallTimerHz, "wall-timer-hz", c.WallTimerHz, "rate of the subject's steady timer computing now() - 1 s")
	f.Var(units.Duration(&c.ClockStep, units.Positive), "clock-step", "sim time per /clock message")
	f.Var(units.Duration(&c.ClockPeriod, units.Positive), "clock-period", "wall time between /clock messages")
	f.IntVar(&c.ClockEvery, "clock-every", c.ClockEvery, "publish one /clock message in N (sparser than the timers)")
	f.Var(units.Duration(&c.PreClock, units.NonNegative), "pre-clock", "wall time the simulator waits after the subscription matched")
	f.Var(units.Duration(&c.MatchDelay, units.NonNegative), "match-delay", "wall time from subject creation to the subscription matching")
	f.Var(units.Duration(&c.Duration, units.Positive), "duration", "length of each run in sim time after S (not wall-clock time)")
	f.IntVar(&c.ClockDepth, "clock-depth", 1, "depth of the subject's /clock subscription (ROS uses 1; deeper loses nothing on a busy machine)")
	addEnumFlag(f, (*string)(&c.Mode), "mode", string(experiment.Virtual), "virtual (deterministic, no sleeping) or realtime (the OS clocks)",
		string(experiment.Virtual), string(experiment.Realtime))
	addEnumFlag(f, &opts.transport, "transport", transportInproc, "inproc, or dds (simulator and subject in separate processes; scenario i on domain ROS_DOMAIN_ID+i)",
		transportInproc, transportDDS)
	f.IntVar(&opts.runs, "runs", 1, "repeat the experiment N times and report whether every count was identical")
	f.StringVar(&opts.plot, "plot", "", "write an SVG timeline of every scenario to this file")
	f.BoolVar(&opts.wide, "wide", false, "print every table column, even past 100 columns")
	addFormatFlag(f, &opts.format)
	return cmd
}

func runStartup(ctx context.Context, opts *startupOptions) error {
	env := opts.env
	began := time.Now()
	if opts.transport == transportDDS {
		if err := configureDDSStartup(ctx, env, &opts.cfg); err != nil {
			return err
		}
	}
	// The first run is reported; each later one is compared with it as it
	// ends, so memory does not grow with --runs, nor with --duration
	// (only --plot keeps every tick, of the first run).
	var results []experiment.ScenarioResult
	identical := true
	for run := 0; run < opts.runs; run++ {
		progress := func(done, total int) {
			if env.StderrIsTTY {
				fmt.Fprintf(env.Stderr, "\rrun %d/%d: scenario %d/%d", run+1, opts.runs, done, total)
			}
		}
		cfg := opts.cfg
		cfg.KeepTicks = run == 0 && opts.plot != ""
		res, err := experiment.RunStartup(ctx, cfg, progress)
		if env.StderrIsTTY {
			fmt.Fprintln(env.Stderr)
		}
		if err != nil {
			return err
		}
		if run == 0 {
			results = res
		} else {
			identical = identical && sameCounts(results, res)
		}
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
	elapsedWall := time.Since(began)
	if opts.format == formatJSON {
		out := report.NewJSONLines(env.Stdout)
		out.Write("env", struct { //nolint:errcheck // stdout
			envHeader
			Mode      experiment.Mode `json:"mode"`
			Transport string          `json:"transport"`
			Runs      int             `json:"runs"`
		}{newEnvHeader("experiment startup"), opts.cfg.Mode, opts.transport, opts.runs})
		for _, r := range results {
			out.Write("scenario", r)
		}
		out.Write("history_time_zero", history)
		summary := startupSummary{Scenarios: len(results), AllMatched: matched, ElapsedWall: elapsedWall}
		if opts.runs > 1 {
			summary.Runs, summary.RunsIdentical = opts.runs, &identical
		}
		if err := out.Write("summary", summary); err != nil {
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
		fmt.Fprintln(env.Stdout)
		paragraph(env.Stdout, fmt.Sprintf("Verdict: %s (%d scenario%s, %s mode, %s, %s s).", verdict, len(results), plural(len(results)), opts.cfg.Mode, opts.transport, span(elapsedWall)))
		if opts.runs > 1 {
			fmt.Fprintf(env.Stdout, "Runs: %d, counts identical across runs: %v (wall-clock measurements excluded).\n", opts.runs, identical)
		}
	}
	// The plot comes after the results, so an unwritable path loses
	// nothing: the table is printed and the error says what failed.
	if opts.plot != "" {
		if err := writeFileWith(opts.plot, func(w io.Writer) error { return experiment.PlotStartupSVG(w, opts.cfg, results) }); err != nil {
			return fmt.Errorf("--plot: %w (the results above are complete)", err)
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
	paragraph(w, fmt.Sprintf("Startup experiment: /clock from S, %s s of sim time every %s s of wall time (one message in %d published), first message %s s after the subscription matched; the subject has %s Hz sim-clock timers and a %g Hz steady timer.",
		span(cfg.ClockStep), span(cfg.ClockPeriod), cfg.ClockEvery, span(cfg.PreClock), joinRates(cfg.TimerHz), cfg.WallTimerHz))

	fmt.Fprintf(w, "\nBefore the first /clock (R26: now() is 0 whatever S is)\n")
	t := newTable("S (s)", "1st /clock (s)", "ctor now()?", "ctor now()-1s", "wall @0 (pred)", "raised", "wall after", "raised",
		"RTF", "/clock (lost)")
	for _, r := range results {
		t.row(setting(r.S), span(r.PreClockWall), fmt.Sprint(r.Ctor.NowNs), string(r.Ctor.Minus1s),
			fmt.Sprintf("%d (%d)", r.WallTimer.CallsNow0, r.WallTimer.PredictedCallsNow0), fmt.Sprint(r.WallTimer.ExcNow0),
			fmt.Sprint(r.WallTimer.CallsAfterClock), fmt.Sprint(r.WallTimer.ExcAfterClock), fmt.Sprintf("%.3g", r.MeasuredRTF),
			fmt.Sprintf("%d (%d)", r.Published, r.Lost))
	}
	t.write(w, opts.wide)

	fmt.Fprintf(w, "\nSim-clock timers: now() - W per tick, measured (predicted) (R25)\n")
	t = newTable("S (s)", "W (s)", "timer", "calls", "errors", "zeros", "positive", "first positive now (s)", "match")
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
				first = value(*wr.FirstPositiveNow)
			}
			mark := "✓"
			if !wr.Matched() {
				mark = "✗"
			}
			t.row(setting(r.S), setting(wr.W), fmt.Sprintf("%g Hz", wr.Hz), fmt.Sprint(calls),
				fmt.Sprintf("%d (%d)", wr.Exceptions, wr.PredictedExceptions), fmt.Sprintf("%d (%d)", wr.Zeros, wr.PredictedZeros),
				fmt.Sprint(wr.Positives), first, mark)
		}
	}
	t.write(w, opts.wide)

	fmt.Fprintf(w, "\nGuards: the errors/zeros that get past each (R27)\n")
	t = newTable("S (s)", "W (s)", "timer", "no guard", "skip if now <= W", "skip if now == 0 or now < W")
	for _, r := range results {
		for _, wr := range r.Windows {
			t.row(setting(r.S), setting(wr.W), fmt.Sprintf("%g Hz", wr.Hz), fmt.Sprintf("%d/%d", wr.Exceptions, wr.Zeros),
				fmt.Sprintf("%d/%d", wr.GuardLE.Exceptions, wr.GuardLE.Zeros), fmt.Sprintf("%d/%d", wr.GuardEq0OrLt.Exceptions, wr.GuardEq0OrLt.Zeros))
		}
	}
	t.write(w, opts.wide)

	fmt.Fprintln(w)
	stamps := make([]string, len(h.StoredStamps))
	for i, s := range h.StoredStamps {
		stamps[i] = fsecs(s)
	}
	paragraph(w, fmt.Sprintf("History lookup (R28): stamps %s stored; lookup at time 0 returns the %s entry (tf2's \"latest\"), lookup at 99 s returns %s; strict mode: %s",
		strings.Join(stamps, ", "), fsecs(h.QueryZeroGot), fsecs(h.Query99Got), h.StrictZeroErr))
}

// fsecs formats a setting or a time derived from settings exactly, in
// seconds with the unit and without an exponent or float rounding
// ("1700000000.005 s", not "1.700000000005e+09s"), for prose.
func fsecs[D ~int64](ns D) string { return experiment.FormatSeconds(int64(ns)) }

// setting is a table cell echoing a setting the user typed: exact seconds
// under a head that carries the unit ("0.5").
func setting[D ~int64](ns D) string { return units.Exact(int64(ns)) }

// joinRates writes timer rates as prose: "10 and 20", "10, 20 and 30".
func joinRates(hz []float64) string {
	parts := make([]string, len(hz))
	for i, f := range hz {
		parts[i] = strconv.FormatFloat(f, 'f', -1, 64)
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// spanBanner returns a line naming two groups of the columns of table
// (text as table.write prints it): the columns from the first "dt" head
// to the first "timeout" head, and from the second "dt" to the second
// "timeout". A table printed as records gets none.
func spanBanner(table, first, second string) string {
	head, _, _ := strings.Cut(table, "\n")
	var cols []int
	for i := 0; i+1 < len(head); i++ {
		if (i == 0 || head[i-1] == ' ') && (strings.HasPrefix(head[i:], "dt ") || strings.HasPrefix(head[i:], "timeout")) {
			cols = append(cols, i)
		}
	}
	if len(cols) != 4 {
		return ""
	}
	group := func(name string, from, to int) string {
		width := max(to-from, len(name)+4)
		dashes := width - len(name) - 2
		return strings.Repeat("-", dashes/2) + " " + name + " " + strings.Repeat("-", dashes-dashes/2)
	}
	line := strings.Repeat(" ", cols[0]) + group(first, cols[0], cols[1]+len("timeout"))
	line += strings.Repeat(" ", max(1, cols[2]-len(line))) + group(second, cols[2], cols[3]+len("timeout"))
	return line + "\n"
}

// meters writes a distance or a speed with millimetre decimals.
func meters(m float64) string { return strconv.FormatFloat(m, 'f', 3, 64) }

// clockTypesOptions are the inputs of simclock experiment clocktypes.
type clockTypesOptions struct {
	env    *Env
	format string
	wide   bool
}

func newClockTypesCmd(env *Env, runF func(context.Context, *clockTypesOptions) error) *cobra.Command {
	o := &clockTypesOptions{env: env}
	cmd := &cobra.Command{
		Use:   "clocktypes",
		Short: "Which rclpy operations between clock types raise (R3, R5, R6, R30)",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runClockTypes(cmd.Context(), o)
		},
	}
	addFormatFlag(cmd.Flags(), &o.format)
	cmd.Flags().BoolVar(&o.wide, "wide", false, "print every table column, even past 100 columns")
	return cmd
}

// runClockTypes prints the clock-type pitfall table.
func runClockTypes(ctx context.Context, o *clockTypesOptions) error {
	// Fixed readings keep the table reproducible.
	sys, _ := simclock.NewTime[simclock.System](1_700_000_000, 0)
	steady, _ := simclock.NewTime[simclock.Steady](3600, 0)
	objects, rows := experiment.ClockTypes(sys, steady)
	timerRows, err := experiment.ClockTypesTimer(ctx)
	if err != nil {
		return err
	}
	agree := 0
	for _, r := range rows {
		if r.Agrees {
			agree++
		}
	}
	if o.format == formatJSON {
		out := report.NewJSONLines(o.env.Stdout)
		out.Write("env", newEnvHeader("experiment clocktypes")) //nolint:errcheck // stdout
		for _, obj := range objects {
			out.Write("clocktype_object", obj)
		}
		for _, r := range rows {
			out.Write("clocktype_op", r)
		}
		for _, r := range timerRows {
			out.Write("clocktype_timer", r)
		}
		return out.Write("summary", struct {
			Operations int `json:"operations"`
			Agree      int `json:"agree_with_rclpy"`
		}{len(rows), agree})
	}
	w := o.env.Stdout
	fmt.Fprintln(w, "Times built the rclpy ways:")
	t := newTable("name", "rclpy", "value")
	for _, obj := range objects {
		t.row(obj.Name, obj.Python, obj.Time)
	}
	t.write(w, o.wide)
	fmt.Fprintln(w)
	paragraph(w, "Operations (simclock's dynamic API; the typed API does not even compile the mismatches):")
	t = newTable("rule", "rclpy expression", "simclock", "rclpy")
	for _, r := range rows {
		t.row(r.Rule, r.Python, r.Result, r.RclpyDoes)
	}
	t.write(w, o.wide)
	fmt.Fprintf(w, "\n%d of %d operations error exactly where rclpy raises.\n", agree, len(rows))
	fmt.Fprintln(w)
	paragraph(w, "Timer phase: a 0.05 s timer computing now() - last_used, five periods:")
	t = newTable("last_used", "type", "entered", "done", "errors", "escapes", "rclpy")
	for _, r := range timerRows {
		t.row(r.LastUsed, r.LastUsedClockType, fmt.Sprint(r.Entered), fmt.Sprint(r.Completed), fmt.Sprint(r.Errors), fmt.Sprint(r.EscapesSpin), r.Rclpy)
	}
	t.write(w, o.wide)
	fmt.Fprintln(w)
	paragraph(w, "simclock's timer callbacks cannot fail (func(timer.Info)): the mismatch is an error value the callback handles, so nothing escapes the executor's spin and one bad tick does not stop the node's other callbacks; in rclpy the TypeError escapes spin_once and ends rclpy.spin.")
	if agree != len(rows) {
		return errFindings
	}
	return nil
}

// dtSpikeOptions are the inputs of simclock experiment dtspike.
type dtSpikeOptions struct {
	env    *Env
	cfg    experiment.DtSpikeConfig
	format string
	wide   bool
}

func newDtSpikeCmd(env *Env, runF func(context.Context, *dtSpikeOptions) error) *cobra.Command {
	o := &dtSpikeOptions{env: env, cfg: experiment.DefaultDtSpike()}
	cmd := &cobra.Command{
		Use:   "dtspike",
		Short: "R29: a baseline stored before the first /clock makes the first dt huge",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFloat("speed", o.cfg.Speed, false); err != nil {
				return err
			}
			if err := o.cfg.Validate(); err != nil {
				return flagErrorf("%v", err)
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runDtSpike(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	cfg := &o.cfg
	f.Var(units.Duration(&cfg.FirstClock, units.NonNegative), "first-clock", "first /clock value")
	f.Var(units.Duration(&cfg.Period, units.Positive), "period", "control loop period (sim time)")
	f.Float64Var(&cfg.Speed, "speed", cfg.Speed, "robot speed in m/s")
	f.Var(units.Duration(&cfg.Timeout, units.Positive), "timeout", "watchdog timeout")
	f.IntVar(&cfg.Ticks, "ticks", cfg.Ticks, "loop iterations to show")
	addFormatFlag(f, &o.format)
	f.BoolVar(&o.wide, "wide", false, "print every table column, even past 100 columns")
	return cmd
}

// runDtSpike runs the dt-spike experiment and prints its tables.
func runDtSpike(ctx context.Context, o *dtSpikeOptions) error {
	cfg := o.cfg
	rows, err := experiment.RunDtSpike(ctx, cfg)
	if err != nil {
		return err
	}
	cases, err := experiment.DtSpikeCases(ctx, cfg)
	if err != nil {
		return err
	}
	if o.format == formatJSON {
		out := report.NewJSONLines(o.env.Stdout)
		out.Write("env", struct { //nolint:errcheck // stdout
			envHeader
			FirstClock time.Duration `json:"first_clock_ns"`
			Period     time.Duration `json:"period_ns"`
			Speed      float64       `json:"speed_mps"`
			Timeout    time.Duration `json:"timeout_ns"`
		}{newEnvHeader("experiment dtspike"), cfg.FirstClock, cfg.Period, cfg.Speed, cfg.Timeout})
		for _, c := range cases {
			out.Write("dtspike_case", c)
		}
		for _, r := range rows {
			out.Write("dtspike_tick", r)
		}
		return nil
	}
	w := o.env.Stdout
	paragraph(w, fmt.Sprintf("First /clock at %s s, control loop every %s s of sim time, robot at %g m/s, %s s watchdog; the baseline was stored in the constructor, before the first /clock.",
		experimentSeconds(cfg.FirstClock), experimentSeconds(cfg.Period), cfg.Speed, experimentSeconds(cfg.Timeout)))
	fmt.Fprintln(w)
	fmt.Fprintf(w, "One step worked three ways: the robot went from %s m to %s m (%g m/s for one %s s period).\n", meters(cases[0].PrevPositionM), meters(cases[0].PositionM), cfg.Speed, experimentSeconds(cfg.Period))
	fmt.Fprintln(w, "(times in s, distances in m, speeds in m/s)")
	ct := newTable("case", "prev", "now", "dt", "dt<0 skip", "distance", "speed", "watchdog late")
	for _, c := range cases {
		speed := "x/0"
		if c.SpeedMPS != nil {
			speed = meters(*c.SpeedMPS)
		}
		exceeded := "-"
		if c.WatchdogTrips {
			exceeded = span(c.WatchdogExceeded)
		}
		ct.row(c.Case, value(c.PrevTimeNs), value(c.NowNs), span(c.Dt), fmt.Sprint(!c.PassesDtCheck),
			meters(c.DistanceM), speed, exceeded)
	}
	ct.write(w, o.wide)
	fmt.Fprintln(w)
	t := newTable("tick", "now", "dt", "dist", "speed", "timeout", "dt", "dist", "speed", "timeout", "true dist")
	for _, r := range rows {
		gdt := span(r.GuardDt)
		if r.GuardSkip != "ok" {
			gdt = "skip"
		}
		t.row(fmt.Sprint(r.Tick), value(r.NowNs), span(r.NaiveDt), meters(r.NaiveDistM),
			meters(r.NaiveSpeedMS), fmt.Sprint(r.NaiveTimeout), gdt, meters(r.GuardDistM),
			meters(r.GuardSpeedMS), fmt.Sprint(r.GuardTimeout), meters(r.TrueDistanceM))
	}
	var tb strings.Builder
	t.write(&tb, o.wide)
	fmt.Fprint(w, spanBanner(tb.String(), "naive", "guarded"))
	fmt.Fprint(w, tb.String())
	fmt.Fprintln(w)
	paragraph(w, "The naive first dt passes a 'dt < 0' check, inflates the integral, deflates the finite-difference speed and trips the watchdog; the guard (skip: no baseline yet, when prev <= 0 or now <= 0; it always moves the baseline) loses one sample and nothing else (R29).")
	return nil
}

// experimentSeconds prints a setting the user gave exactly: "125", "0.5".
func experimentSeconds(d time.Duration) string { return units.Exact(int64(d)) }

// startupSummary is the last JSON line of simclock experiment startup.
type startupSummary struct {
	Scenarios     int           `json:"scenarios"`
	AllMatched    bool          `json:"all_predictions_matched"`
	ElapsedWall   time.Duration `json:"elapsed_wall_ns"`
	Runs          int           `json:"runs,omitempty"`
	RunsIdentical *bool         `json:"runs_identical,omitempty"`
}
