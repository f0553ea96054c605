package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/simclock/simclock/bag"
	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/internal/report"
	"github.com/simclock/simclock/internal/term"
	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
)

func newBagCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bag",
		Short: "Find time hazards in rosbag2 recordings, and play their /clock",
		Long: `simclock bag inspect BAG   report the time hazards of a rosbag2 bag
simclock bag clock BAG     publish /clock along the bag's timeline
simclock bag info BAG      describe the bag as ros2 bag info does

BAG is a bag directory as ros2 bag record writes it (metadata.yaml and its
.mcap or .db3 files), or the storage files of one bag given one by one
(bag_0.mcap bag_1.mcap ...; .db3; .mcap.zstd, .db3.zstd).`,
	}
	cmd.AddCommand(newBagInspectCmd(env, nil), newBagClockCmd(env, nil), newBagInfoCmd(env, nil))
	return cmd
}

// bagInspectOptions are the inputs of simclock bag inspect: its streams,
// flags and files, checked by the command before runBagInspect.
type bagInspectOptions struct {
	env        *Env
	format     string
	window     time.Duration
	periods    int
	gapPeriods float64 // --gap-periods, the deprecated name of --periods
	gapSet     bool    // --gap-periods was given
	periodsSet bool    // --periods was given
	baseTol    time.Duration
	futureTol  time.Duration
	svg, html  string
	plot       string // --plot, another --svg
	decodeAll  bool
	noCRC      bool
	failOn     rules.FailOn
	root       string
	examples   int
	wide       bool
	topics     []string
	files      []string
}

func newBagInspectCmd(env *Env, runF func(context.Context, *bagInspectOptions) error) *cobra.Command {
	o := &bagInspectOptions{env: env}
	cmd := &cobra.Command{
		Use:   "inspect [flags] DIR | FILE...",
		Short: "Report the time hazards of a rosbag2 bag",
		Long: `simclock bag inspect [--format text|json|sarif|junit] [--window W] [--svg|--html FILE] DIR | FILE...

Reads a rosbag2 bag: a bag directory (metadata.yaml and its files, checked
against each other) or its storage files given one by one (all files of a
split bag together); MCAP or sqlite3, with or without zstd compression. A
folder without metadata.yaml, or files given together, that hold several
recordings (named NAME_0, NAME_1... by rosbag2) are reported one recording
after the other, each on its own; one recording of two storages is a usage
error. Reports
/clock (first and last value, rate, gaps, pauses, backward and forward jumps,
real-time factor against log time: the analysis and the words of simclock
monitor), messages recorded before the first /clock, and for every
builtin_interfaces/Time field of every topic (std_msgs/Header stamps
and nested Times): zero stamps (R10, R29), stamps on another time base than
the bag's clock (R3, R30), stamps in the future, stamps going backwards, and
with --window W the stamps for which stamp − W is negative or zero (R25, R27).
Bags without /clock are compared with the recorder's log time.

--topics narrows the report to some topics (their lines, findings and
plots; findings about no topic, such as damage, stay); /clock is read all
the same, and stderr says how many findings on other topics are not shown.

Text output is a summary, the topics and the findings by severity. --format
json writes JSON lines: env, file, clock, topic, finding, summary (schema in
the documentation of package simclock/bag); --format sarif writes the
findings as SARIF 2.1.0, for code scanning of recordings in CI; --format
junit writes them as JUnit XML (a test case per finding, failing from
--fail-on; a recording not read to its end is a test case in error), for
CI dashboards and colcon test. --svg and --html write a
timeline of /clock against log time with the hazards marked. A progress bar
goes to stderr when it is a terminal.

A truncated or corrupt file is reported with the byte offset of the problem,
after the report of everything read before it. Chunk CRCs and lz4 checksums
are checked (--no-crc skips them): a damaged chunk is reported with its byte
offset, and its messages are skipped and counted, never analysed. The same
file given twice, a path that does not exist, and what is not a file or a
directory (a named pipe, a shell pipe such as <(...), a device, "-") are
usage errors: a bag is read from a file it can seek in.

Exit status: 0 when no finding reaches --fail-on (default warning: warnings
and errors fail, info does not), 1 when one does or a file cannot be read
completely, 2 on usage errors.

Examples:
  simclock bag inspect rosbag2_2024_05_01-10_00_00
  simclock bag inspect run_0.mcap
  simclock bag inspect --window 2s --html report.html run_0.mcap run_1.mcap
  simclock bag inspect --format json run_0.mcap | jq 'select(.kind=="finding")'`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.files = args
			o.gapSet, o.periodsSet = cmd.Flags().Changed("gap-periods"), cmd.Flags().Changed("periods")
			if err := o.validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runBagInspect(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	addFormatFlag(f, &o.format, formatSARIF, formatJUnit)
	f.Var(units.Duration(&o.window, units.NonNegative), "window", "window W: report stamps where stamp − W ≤ 0 (0: off)")
	f.IntVar(&o.periods, "periods", clockstream.DefaultConfig().Periods, "a /clock gap or pause lasts longer than this many periods")
	f.Float64Var(&o.gapPeriods, "gap-periods", 0, "old name of --periods (rounded to a whole number)")
	f.MarkDeprecated("gap-periods", "use --periods, as simclock monitor does") //nolint:errcheck // the flag exists
	o.baseTol, o.futureTol = time.Minute, 100*time.Millisecond
	f.Var(units.Duration(&o.baseTol, units.Positive), "base-tolerance", "stamps farther than this from the bag's clock are on another time base")
	f.Var(units.Duration(&o.futureTol, units.Positive), "future-tolerance", "stamps ahead of the bag's clock by more than this are in the future")
	f.StringVar(&o.svg, "svg", "", "write an SVG timeline of /clock against log time to `FILE`")
	f.StringVar(&o.plot, "plot", "", "the same as --svg (both may be given: each file is written)")
	f.StringVar(&o.html, "html", "", "write an HTML report with the timeline to `FILE`")
	f.BoolVar(&o.decodeAll, "decode-all", false, "fully decode every message and report those that do not decode")
	f.BoolVar(&o.noCRC, "no-crc", false, "skip the chunk CRC and lz4 checksum checks (faster; damage may go unnoticed)")
	addFailOnFlag(f, &o.failOn)
	f.StringVar(&o.root, "root", "", "directory SARIF artifact URIs are relative to (default: the git work tree, else the current directory)")
	f.IntVar(&o.examples, "examples", 3, "occurrences listed per finding")
	f.BoolVar(&o.wide, "wide", false, "do not wrap lines at 100 columns")
	f.StringSliceVar(&o.topics, "topics", nil, "report only these topics (`TOPIC`,...; /clock is read all the same, as the stamps' reference)")
	return cmd
}

func (o *bagInspectOptions) validate() error {
	if len(o.files) == 0 {
		return flagErrorf("bag inspect: no FILE given")
	}
	switch {
	case o.window < 0:
		return flagErrorf("--window %v: must not be negative", o.window)
	case o.gapSet && (!(o.gapPeriods > 0) || math.IsInf(o.gapPeriods, 0) || o.gapPeriods > math.MaxInt32):
		return flagErrorf("--gap-periods %v: must be positive", o.gapPeriods)
	case o.gapSet && o.periodsSet:
		return flagErrorf("--gap-periods is the old name of --periods: give one")
	case o.periods <= 0:
		return flagErrorf("--periods %d: want a positive number", o.periods)
	case o.baseTol <= 0:
		return flagErrorf("--base-tolerance %v: must be positive", o.baseTol)
	case o.futureTol <= 0:
		return flagErrorf("--future-tolerance %v: must be positive", o.futureTol)
	case o.examples < 1:
		return flagErrorf("--examples %d: must be at least 1", o.examples)
	case o.root != "" && o.format != formatSARIF:
		return flagErrorf("--root only applies to --format sarif")
	}
	if o.gapSet {
		o.periods = max(1, int(math.Round(o.gapPeriods)))
	}
	return nil
}

func runBagInspect(ctx context.Context, o *bagInspectOptions) error {
	env := o.env
	start := time.Now()
	opts := bag.Options{Window: o.window, Periods: o.periods, BaseTolerance: o.baseTol,
		FutureTolerance: o.futureTol, DecodeAll: o.decodeAll, Examples: o.examples, NoCRC: o.noCRC}
	var bar *progressBar
	if env.StderrIsTTY {
		bar = &progressBar{w: env.Stderr}
		opts.Progress = bar.update
	}
	recs, err := bag.InspectAll(ctx, o.files, opts)
	if bar != nil {
		bar.clear()
	}
	if errors.Is(err, bag.ErrUsage) || errors.Is(err, bag.ErrInput) {
		return flagErrorf("%v", err)
	}
	if err != nil {
		return err
	}
	if (o.svg != "" || o.html != "") && len(recs) > 1 {
		return flagErrorf("--svg and --html draw one recording; %d were given: give one", len(recs))
	}
	// Several recordings (a folder of bags, files of several bags) are
	// reported one after the other, each on its own; SARIF and JUnit put
	// the results of all of them in one run.
	var jl *report.JSONLines
	if o.format == formatJSON {
		jl = report.NewJSONLines(env.Stdout)
		if err := writeBagEnv(jl, o); err != nil {
			return err
		}
	}
	var machine bagResults
	var readErr error
	fail := false
	for i, r := range recs {
		if errors.Is(r.Err, context.Canceled) {
			return r.Err
		}
		if r.Report == nil {
			readErr = r.Err
			continue
		}
		if len(o.topics) > 0 {
			rep, hidden, missing := r.Report.OnlyTopics(o.topics)
			for _, m := range missing {
				fmt.Fprintf(env.Stderr, "simclock: --topics %s: the bag has no such topic\n", term.Escape(m))
			}
			if hidden > 0 {
				fmt.Fprintf(env.Stderr, "simclock: %d findings on other topics not shown (--topics)\n", hidden)
			}
			r.Report = rep
		}
		switch o.format {
		case formatJSON:
			if len(recs) > 1 {
				if err := jl.Write("recording", recordingLine{Name: r.Name, Index: i, Recordings: len(recs), Files: r.Files}); err != nil {
					return err
				}
			}
			err = writeBagJSON(jl, r.Report)
		case formatSARIF, formatJUnit:
			machine.add(r, len(recs) > 1)
		default:
			if len(recs) > 1 {
				if i > 0 {
					fmt.Fprintln(env.Stdout)
				}
				fmt.Fprintf(env.Stdout, "== recording %s (%d of %d, %d files) ==\n", term.Escape(r.Name), i+1, len(recs), len(r.Files))
			}
			err = writeBagText(env.Stdout, r.Report, o.wide)
		}
		if err != nil {
			return err
		}
		if r.Err != nil {
			if len(recs) > 1 {
				fmt.Fprintf(env.Stderr, "simclock: %s\n", errorText(r.Err))
			}
			readErr = r.Err
		}
		fail = fail || rules.Fails(r.Report.Findings, o.failOn)
	}
	switch o.format {
	case formatSARIF:
		if err := machine.writeSARIF(env.Stdout, o); err != nil {
			return err
		}
	case formatJUnit:
		if err := machine.writeJUnit(env.Stdout, o, time.Since(start)); err != nil {
			return err
		}
	}
	for _, out := range []struct {
		path  string
		write func(*bag.Report, io.Writer) error
	}{{o.svg, (*bag.Report).WriteSVG}, {o.plot, (*bag.Report).WriteSVG}, {o.html, (*bag.Report).WriteHTML}} {
		if out.path == "" || len(recs) == 0 || recs[0].Report == nil {
			continue
		}
		rep := recs[0].Report
		if err := writeFileWith(out.path, func(w io.Writer) error { return out.write(rep, w) }); err != nil {
			return err
		}
	}
	if readErr != nil {
		if len(recs) > 1 {
			return errFindings // each error is printed after its report
		}
		return readErr
	}
	if fail {
		return errFindings
	}
	return nil
}

// recordingLine starts the lines of one recording when several are
// reported.
type recordingLine struct {
	Name       string   `json:"name"`
	Index      int      `json:"index"`
	Recordings int      `json:"recordings"`
	Files      []string `json:"files"`
}

func writeFileWith(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeBagEnv writes the env line that starts bag inspect's JSON lines.
func writeBagEnv(jl *report.JSONLines, o *bagInspectOptions) error {
	return jl.Write("env", struct {
		envHeader
		Files           []string      `json:"files"`
		Window          time.Duration `json:"window_ns"`
		Periods         int           `json:"periods"`
		GapPeriods      int           `json:"gap_periods"` // periods under its old name
		BaseTolerance   time.Duration `json:"base_tolerance_ns"`
		FutureTolerance time.Duration `json:"future_tolerance_ns"`
	}{newEnvHeader("bag inspect"), o.files, o.window, o.periods, o.periods, o.baseTol, o.futureTol})
}

// writeBagJSON writes the report of one recording as the JSON lines
// documented in package bag: bag (for a bag directory), file, clock,
// topic, finding, summary.
func writeBagJSON(jl *report.JSONLines, rep *bag.Report) error {
	var errs []error
	write := func(kind string, v any) { errs = append(errs, jl.Write(kind, v)) }
	if rep.Bag != nil {
		write("bag", rep.Bag)
	}
	for _, f := range rep.Files {
		if f.Compression == nil {
			f.Compression = []string{}
		}
		write("file", f)
	}
	write("clock", rep.Clock)
	for _, t := range rep.Topics {
		if t.TimeFields == nil {
			t.TimeFields = []bag.TimeFieldReport{}
		}
		write("topic", t)
	}
	errs = append(errs, jl.Findings(rep.Findings))
	write("summary", struct {
		Files      int   `json:"files"`
		Messages   int64 `json:"messages"`
		Bytes      int64 `json:"bytes"`
		Topics     int   `json:"topics"`
		StartLogNS int64 `json:"start_log_ns"`
		EndLogNS   int64 `json:"end_log_ns"`
		Errors     int   `json:"errors"`
		Warnings   int   `json:"warnings"`
		Infos      int   `json:"infos"`
		Complete   bool  `json:"complete"`
		Skipped    int64 `json:"skipped_messages"`
	}{len(rep.Files), rep.Messages, rep.Bytes, len(rep.Topics), rep.StartLogNS, rep.EndLogNS, rep.Count(bag.SeverityError),
		rep.Count(bag.SeverityWarning), rep.Count(bag.SeverityInfo), rep.Complete, rep.Skipped})
	return errors.Join(errs...)
}

// bagResults gathers the findings of every recording inspected into one
// SARIF 2.1.0 or JUnit run, each located in its bag (the file its first
// example is in, for files given one by one) and at its topic and Time
// field. A recording that could not be read to its end makes an
// unsuccessful run (SARIF) or a test case in error (JUnit).
type bagResults struct {
	results       []report.Result
	notifications []report.Notification
	failed        bool
	checked       []string // the files read, for JUnit's "Checked files:"
}

func (s *bagResults) add(r bag.Recording, several bool) {
	rep := r.Report
	if why := rep.Incomplete(); why != "" {
		level := rules.Warning
		if r.Err != nil {
			level = rules.Error
		}
		if several {
			why = "recording " + r.Name + ": " + why
		}
		s.notifications = append(s.notifications, report.Notification{Level: level, Message: why})
	}
	s.failed = s.failed || r.Err != nil
	s.checked = append(s.checked, r.Files...)
	for _, f := range rep.Findings {
		s.results = append(s.results, report.Result{Finding: f, Artifact: bagArtifact(rep, f, r.Files)})
	}
}

func (s *bagResults) writeSARIF(w io.Writer, o *bagInspectOptions) error {
	roots, err := report.ScanRoot(o.root, o.files)
	if err != nil {
		return err
	}
	run := report.SARIF{Version: Version, Checks: bag.Checks(), Roots: roots, Failed: s.failed, Notifications: s.notifications}
	return run.Write(w, s.results)
}

// writeJUnit writes the run as JUnit XML, as lint's --format junit does:
// one test case per finding, a failure when it reaches --fail-on.
func (s *bagResults) writeJUnit(w io.Writer, o *bagInspectOptions, elapsed time.Duration) error {
	run := report.JUnit{Name: "simclock.bag_inspect", Tool: "simclock_bag_inspect", Checks: bag.Checks(),
		FailOn: o.failOn, Elapsed: elapsed, Checked: s.checked, Notifications: s.notifications}
	return run.Write(w, s.results)
}

// bagArtifact is where a finding is: the bag directory, or the file its
// first example is in, or the recording's first file.
func bagArtifact(rep *bag.Report, f rules.Finding, files []string) string {
	if rep.Bag != nil {
		return rep.Bag.Dir
	}
	if len(f.Examples) > 0 {
		for _, fi := range rep.Files {
			if filepath.Base(fi.Path) == f.Examples[0].File {
				return fi.Path
			}
		}
	}
	return files[0]
}

// rel formats a log time relative to the bag's start.
// secs formats nanoseconds as seconds with all nine decimals, exactly.
func secs(ns int64) string { return value(ns) }

// writeBagText writes one recording's report for people. Every string read
// from the bag (paths, metadata, topic, type and field names, what a
// damaged file said) is escaped (term.Escape): a recording is untrusted.
func writeBagText(w io.Writer, rep *bag.Report, wide bool) error {
	if !wide {
		lw := newLineWrapper(w) // lines fit 100 columns unless --wide
		defer lw.Flush()        //nolint:errcheck // every line ends in a newline
		w = lw
	}
	ew := &errWriter{w: w}
	p := func(format string, args ...any) { fmt.Fprintf(ew, format, args...) }
	if b := rep.Bag; b != nil {
		if m := b.Metadata; m != nil {
			comp := "no compression"
			if m.CompressionMode != "" {
				comp = term.Escape(m.CompressionFormat + " " + m.CompressionMode + " compression")
			}
			p("bag %s: metadata v%d, %s, %d files, %d messages, %s\n", term.Escape(b.Dir), m.Version, term.Escape(m.StorageIdentifier),
				len(m.RelativeFilePaths), m.MessageCount, comp)
		} else {
			p("bag %s: no metadata.yaml, %d storage files found\n", term.Escape(b.Dir), len(rep.Files))
		}
	}
	for _, f := range rep.Files {
		if f.Storage == "sqlite3" {
			p("file %s: %d bytes, %s, %d messages\n", term.Escape(f.Path), f.Bytes, term.Escape(strings.TrimPrefix(f.Profile, "rosbag2 ")), f.Messages)
		} else {
			mode := "linear"
			if f.Indexed {
				mode = "indexed"
			}
			chunks := fmt.Sprintf("%d chunks", f.Chunks)
			if len(f.Compression) > 0 {
				chunks += " (" + term.Escape(strings.Join(f.Compression, ",")) + ")"
			}
			p("file %s: %d bytes, %s, %s, %d messages, profile \"%s\", library \"%s\"\n",
				term.Escape(f.Path), f.Bytes, mode, chunks, f.Messages, term.Escape(f.Profile), term.Escape(f.Library))
		}
		if f.FileCompression != "" {
			p("    compressed whole with %s\n", term.Escape(f.FileCompression))
		}
		if len(f.Damaged) > 0 {
			p("    %d damaged chunks skipped, %d messages not analysed\n", len(f.Damaged), f.Skipped)
		}
		if f.SummaryDamage != "" {
			p("    summary section not trusted (%s): read from the data section\n", term.Escape(f.SummaryDamage))
		}
	}
	if rep.Messages > 0 {
		p("messages: %d (%d bytes) over %s s of log time from %s\n", rep.Messages, rep.Bytes,
			span(rep.EndLogNS-rep.StartLogNS), time.Unix(0, rep.StartLogNS).UTC().Format(time.RFC3339Nano))
	} else {
		p("messages: none\n")
	}
	c := rep.Clock
	if c.Present {
		p("/clock: %d messages at %.2f Hz (period %s s, step %s s), %s → %s s\n",
			c.Messages, c.RateHz, span(c.PeriodNS), span(c.StepNS), secs(c.FirstNS), secs(c.LastNS))
		p("        %s, %d backward jumps, %d gaps, %d pauses, %d forward jumps\n",
			c.RTFText(), c.BackwardJumps, c.Gaps, c.Pauses, c.ForwardJumps)
		if len(c.Timelines) > 0 {
			writePublishers(ew, "        ", "timeline", c.Timelines)
		}
	} else {
		p("/clock: none in this bag; stamps are compared with the recorder's log time\n")
	}
	p("\n")
	topics := newTable("TOPIC", "TYPE", "MSGS", "RATE", "PUBS?", "TIME FIELDS")
	for _, t := range rep.Topics {
		var fs []string
		for _, tf := range t.TimeFields {
			fs = append(fs, fmt.Sprintf("%s ×%d", term.Escape(tf.Field), tf.Count))
		}
		typ := t.Type
		if !t.Decoded {
			typ += " (not decoded)"
		}
		pubs := "?"
		if t.Publishers > 0 {
			pubs = fmt.Sprint(t.Publishers)
		}
		topics.row(term.Escape(t.Topic), term.Escape(typ), fmt.Sprint(t.Messages), fmt.Sprintf("%.2f Hz", t.RateHz), pubs, strings.Join(fs, ", "))
	}
	topics.write(ew, wide)
	p("\nfindings: %d errors, %d warnings, %d info\n", rep.Count(bag.SeverityError), rep.Count(bag.SeverityWarning), rep.Count(bag.SeverityInfo))
	text := report.Text{Layout: report.Records, Width: tableWidth, Example: rep.Describe}
	if wide {
		text.Width = 0
	}
	text.Write(ew, rep.Findings) //nolint:errcheck // ew keeps the error
	if why := rep.Incomplete(); why != "" {
		p("\n%s\n", term.Escape(why))
	}
	return ew.err
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(b []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(b)
	e.err = err
	return n, err
}

// progressBar draws "[#####     ]  45%  120/266 MB" in place on stderr.
type progressBar struct {
	w    io.Writer
	last int
}

func (b *progressBar) update(done, total int64) {
	if total <= 0 {
		return
	}
	pct := int(done * 100 / total)
	if pct == b.last {
		return
	}
	b.last = pct
	const width = 30
	fill := pct * width / 100
	fmt.Fprintf(b.w, "\r[%s%s] %3d%%  %d/%d MB", strings.Repeat("#", fill), strings.Repeat(" ", width-fill),
		pct, done>>20, total>>20)
}

func (b *progressBar) clear() { fmt.Fprint(b.w, "\r\033[K") }
