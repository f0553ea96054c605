package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/simclock/simclock/doctor"
	"github.com/simclock/simclock/internal/report"
	"github.com/simclock/simclock/internal/term"
	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/dds"
)

// doctorOptions are the inputs of simclock doctor: its streams and flags,
// checked by the command (--expect parsed) before runDoctor.
type doctorOptions struct {
	env       *Env
	duration  time.Duration
	watch     bool
	interval  time.Duration
	tolerance time.Duration
	failOn    rules.FailOn
	format    string
	wide      bool
	// diagnostics publishes every report on /diagnostics, once a second.
	diagnostics bool
	// expect are --expect's, parsed into expectations by validate.
	expect       []string
	expectations []doctor.Expectation
	xunitFile    string
}

func newDoctorCmd(env *Env, runF func(context.Context, *doctorOptions) error) *cobra.Command {
	o := &doctorOptions{env: env}
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Audit the time of a live ROS 2 graph: who follows /clock, QoS matches, stamp bases",
		Long: `simclock doctor joins the DDS domain (ROS_DOMAIN_ID, CYCLONEDDS_URI,
ROS_AUTOMATIC_DISCOVERY_RANGE and ROS_STATIC_PEERS, as the other commands)
as the hidden node _simclock_doctor, watches passively for --duration, and
reports:

  - every ROS node (from ros_discovery_info) and DDS participants that host none;
  - per node: whether it follows sim time (it reads a clock topic, /clock or a
    remapped one, which rclcpp and rclpy do only with use_sim_time on), that
    reader's QoS, and how many writers of its clock it matches under the DDS
    rules (QoS, type and partitions);
  - clock writers: node, topic, QoS, rate while publishing, real-time factor,
    current sim time, and when it stopped, went silent, stood still or jumped;
  - topics: for types with a std_msgs/Header or builtin_interfaces/Time (the
    common interface packages are built in), a sample of stamps per publisher,
    each classified against its node's clock as sim, wall, zero, stale or future;
  - findings with stable codes (docs/rules.md), each naming node, topic and fix.
    An empty domain is a finding, not a healthy graph.

--diagnostics publishes each report on /diagnostics once a second, as
diagnostic_msgs/msg/DiagnosticArray from doctor's hidden node (a status for
the graph, one per check and one per node: OK, WARN, ERROR, or STALE for a
node that left), for rqt_robot_monitor, Foxglove and diagnostic_aggregator.

--expect makes doctor a gate for launch tests and CI: each expectation that
does not hold is an error finding (repeat the flag for several):
  sim_time=NODE           every node matching NODE (a glob: /robot/*) is on sim
                          time and hears a clock, and one matches
  sim_stamps=TOPIC        every topic matching TOPIC carries sim-time stamps
  clock_rate=MIN..MAX     /clock is published at MIN to MAX Hz
                          (clock_rate=/robot1/clock:MIN..MAX for another)
With --fail-on error, only errors (and unmet expectations) fail the gate.

--format json writes JSON lines (kinds env, node, participant, clock, topic,
transform, expectation, finding, summary; docs/doctor.md); --format sarif
writes the findings as SARIF 2.1.0, for code scanning of launch tests;
--format junit writes JUnit XML (a test case per finding and per expectation
that held), and --xunit-file FILE writes it to FILE beside the output. --watch reports every
--interval until interrupted (or for --duration when given). A report made
before discovery finished says so; one cut short by SIGINT or SIGTERM is
marked partial; neither is ok. Exit status: 1 when a finding reaches
--fail-on (default warning: warnings and errors fail, info does not) or the
report is incomplete, 2 on usage errors.

Examples:
  simclock doctor
  ROS_DOMAIN_ID=7 simclock doctor --duration 10s --format json
  simclock doctor --watch
  simclock doctor --watch --diagnostics
  simclock doctor --duration 10 --expect sim_time=/robot/* --expect sim_stamps=/scan \
    --expect clock_rate=90..110 --fail-on error --format junit`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.watch && !cmd.Flags().Changed("duration") {
				o.duration = 0 // until interrupted
			}
			if err := o.validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runDoctor(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	o.duration, o.interval, o.tolerance = 3*time.Second, 2*time.Second, time.Second
	f.Var(units.Duration(&o.duration, units.NonNegative), "duration", "wall-clock time to watch before reporting (with --watch: stop after this; by default it runs until interrupted)")
	f.BoolVar(&o.watch, "watch", false, "keep watching until interrupted, reporting every --interval")
	f.Var(units.Duration(&o.interval, units.Positive), "interval", "report interval with --watch")
	f.Var(units.Duration(&o.tolerance, units.Positive), "tolerance", "how far a stamp may be from /clock and still count as sim time")
	addFormatFlag(f, &o.format, formatSARIF, formatJUnit)
	addFailOnFlag(f, &o.failOn)
	f.BoolVar(&o.wide, "wide", false, "print every column in full, and do not wrap lines at 100 columns")
	f.BoolVar(&o.diagnostics, "diagnostics", false, "publish each report on /diagnostics (diagnostic_msgs/msg/DiagnosticArray) once a second")
	f.StringArrayVar(&o.expect, "expect", nil, "what the graph must show: sim_time=NODE, sim_stamps=TOPIC or clock_rate=MIN..MAX (repeatable)")
	f.StringVar(&o.xunitFile, "xunit-file", "", "also write the report as JUnit XML to this file (a launch test's or CI's result file)")
	return cmd
}

func (o *doctorOptions) validate() error {
	for _, s := range o.expect {
		e, err := doctor.ParseExpectation(s)
		if err != nil {
			return flagErrorf("--expect: %v", err)
		}
		o.expectations = append(o.expectations, e)
	}
	switch {
	case (o.format == formatSARIF || o.format == formatJUnit) && o.watch:
		return flagErrorf("--format %s writes one report: it does not go with --watch", o.format)
	case o.xunitFile != "" && o.watch:
		return flagErrorf("--xunit-file writes one report: it does not go with --watch")
	case o.duration < 0:
		return flagErrorf("--duration must not be negative")
	case o.duration == 0 && !o.watch:
		return flagErrorf("--duration 0 needs --watch (a report needs time to discover the graph)")
	case o.interval <= 0:
		return flagErrorf("--interval %v: want a positive duration", o.interval)
	case o.tolerance <= 0:
		return flagErrorf("--tolerance %v: want a positive duration", o.tolerance)
	}
	return nil
}

// doctorNodeName is the hidden node doctor announces itself as, as
// ros2cli's daemon is _ros2cli_daemon_*: ros2 node list leaves it out, and
// ros2 topic info -v names its readers instead of _NODE_NAME_UNKNOWN_.
const doctorNodeName = "_simclock_doctor"

// doctorSource is the dds transport as doctor's Source, its readers
// belonging to doctor's hidden node.
type doctorSource struct {
	*dds.Transport
	node dds.RawNode
}

func (s doctorSource) SubscribeRaw(ddsTopic, ddsType string, qos transport.QoS) (transport.Subscription, error) {
	return s.node.SubscribeRaw(ddsTopic, ddsType, qos)
}

func (s doctorSource) Sampler(ddsTopic, ddsType string, qos transport.QoS) (transport.Sampler, error) {
	return s.node.Sampler(ddsTopic, ddsType, qos)
}

func runDoctor(ctx context.Context, o *doctorOptions) error {
	cfg, _, err := dds.ConfigFromEnv(o.env.Getenv) // openDDS prints the warnings
	if err != nil {
		return err
	}
	tr, err := openDDS(ctx, o.env)
	if err != nil {
		return err
	}
	defer tr.Close() //nolint:errcheck // nothing left to report
	dt := tr.(*dds.Transport)
	view, err := dt.ForNode(doctorNodeName, "/")
	if err != nil {
		return err
	}
	defer view.Close() //nolint:errcheck // the transport's Close follows
	src := doctorSource{Transport: dt, node: view.(dds.RawNode)}
	start := time.Now()
	w, err := doctor.Start(ctx, src, doctor.Options{Tolerance: o.tolerance, FailOn: o.failOn, Expect: o.expectations, Network: doctor.Network{
		Domain: dt.Domain(), DiscoveryRange: cfg.Range.String(), StaticPeers: cfg.StaticPeers, CycloneURI: cfg.URI}})
	if err != nil {
		return err
	}
	defer w.Close() //nolint:errcheck // Err is checked below

	publish := func(doctor.Report) {}
	if o.diagnostics {
		if publish, err = diagnosticsPublisher(ctx, o.env, view, dt.Domain()); err != nil {
			return err
		}
	}

	out := report.NewJSONLines(o.env.Stdout)
	if o.format == formatJSON {
		out.Write("env", o.envLine(dt.Domain())) //nolint:errcheck // stdout
	}
	runCtx, cancel := withDuration(ctx, o.duration)
	defer cancel()
	print := func(r doctor.Report) {
		switch o.format {
		case formatJSON:
			writeDoctorJSON(out, r) //nolint:errcheck // stdout
			return
		case formatSARIF:
			writeDoctorSARIF(o.env.Stdout, r) //nolint:errcheck // stdout
			return
		case formatJUnit:
			writeDoctorJUnit(o.env.Stdout, r, "simclock.doctor", o.failOn, time.Since(start)) //nolint:errcheck // stdout
			return
		}
		if o.watch && o.env.StderrIsTTY {
			fmt.Fprint(o.env.Stdout, "\033[H\033[2J")
		}
		writeDoctorText(o.env.Stdout, r, o.wide)
	}
	var last doctor.Report
	printed := false
	if !o.watch && o.env.StderrIsTTY {
		fmt.Fprintf(o.env.Stderr, "simclock doctor: watching domain %d for %s s...\n", dt.Domain(), span(o.duration))
	}
	if o.watch || o.diagnostics {
		// A report every --interval (with --watch) and, with
		// --diagnostics, one on /diagnostics every second.
		period := o.interval
		if o.diagnostics {
			period = min(period, time.Second)
		}
		tick := time.NewTicker(period)
		defer tick.Stop()
		nextPrint := time.Now().Add(o.interval)
		for done := false; !done; {
			select {
			case <-runCtx.Done():
				done = true
			case now := <-tick.C:
				r := w.Report()
				publish(r)
				if o.watch && now.After(nextPrint.Add(-period/2)) {
					last = r
					print(last)
					printed = true
					nextPrint = nextPrint.Add(o.interval)
				}
			}
		}
	} else {
		<-runCtx.Done()
	}
	if !o.watch && ctx.Err() == nil {
		settle(ctx, o.env, w)
	}
	// Interrupted before a complete report: what was seen, marked partial.
	if !printed {
		last = w.Report()
		if ctx.Err() != nil {
			last.MarkPartial()
		}
		publish(last)
		print(last)
	}
	if o.xunitFile != "" {
		if err := writeDoctorXunitFile(o.xunitFile, last, o.failOn, time.Since(start)); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	if !last.Summary.OK {
		return errFindings
	}
	return nil
}

// diagnosticsPublisher returns a function that publishes a report on
// /diagnostics from doctor's node: reliable, volatile, keep last 10, as
// rosgraph_monitor publishes (diagnostic_aggregator and rqt_robot_monitor
// subscribe reliable). It says on stderr, once, when publishing fails.
func diagnosticsPublisher(ctx context.Context, env *Env, node transport.Transport, domain uint32) (func(doctor.Report), error) {
	pub, err := node.Publisher(doctor.DiagnosticsTopic, doctor.DiagnosticsType,
		transport.QoS{Depth: 10, Reliability: transport.Reliable, Durability: transport.Volatile})
	if err != nil {
		return nil, fmt.Errorf("doctor: /diagnostics: %w", err)
	}
	d := &doctor.Diagnostics{HardwareID: fmt.Sprintf("ros_domain_%d", domain), Escape: term.Escape}
	told := false
	return func(r doctor.Report) {
		b, err := doctor.EncodeDiagnosticArray(doctor.DiagnosticsStamp(r, time.Now().UnixNano()), "", d.Statuses(r))
		if err == nil {
			err = pub.Publish(ctx, b)
		}
		if err != nil && ctx.Err() == nil && !told {
			fmt.Fprintf(env.Stderr, "simclock doctor: publishing /diagnostics: %v\n", err)
			told = true
		}
	}, nil
}

// maxSettle bounds how long doctor waits past --duration for the
// ros_discovery_info of participants it has seen, so that their nodes are
// in the report.
const maxSettle = 5 * time.Second

// settle waits until every ROS participant seen has announced its nodes,
// for at most maxSettle.
func settle(ctx context.Context, env *Env, w *doctor.Watcher) {
	deadline := time.Now().Add(maxSettle)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	told := false
	for n := w.Pending(); n > 0 && time.Now().Before(deadline); n = w.Pending() {
		if !told {
			fmt.Fprintf(env.Stderr, "simclock doctor: waiting for the nodes of %d participant(s) (ros_discovery_info)\n", n)
			told = true
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// doctorEnv is doctor's JSON env line.
type doctorEnv struct {
	envHeader
	Domain    uint32        `json:"domain"`
	Duration  time.Duration `json:"duration_ns"`
	Tolerance time.Duration `json:"tolerance_ns"`
	Watch     bool          `json:"watch"`
	// Diagnostics is true when reports are also published on /diagnostics.
	Diagnostics bool `json:"diagnostics,omitempty"`
}

// envLine is the env line of a run on domain.
func (o *doctorOptions) envLine(domain uint32) doctorEnv {
	return doctorEnv{newEnvHeader("doctor"), domain, o.duration, o.tolerance, o.watch, o.diagnostics}
}

// writeDoctorJSON writes a report as JSON lines.
func writeDoctorJSON(out *report.JSONLines, r doctor.Report) error {
	var errs []error
	write := func(kind string, v any) { errs = append(errs, out.Write(kind, v)) }
	for _, n := range r.Nodes {
		write("node", n)
	}
	for _, p := range r.Participants {
		write("participant", p)
	}
	for _, c := range r.Clock {
		write("clock", c)
	}
	for _, t := range r.Topics {
		write("topic", t)
	}
	for _, t := range r.Transforms {
		write("transform", t)
	}
	for _, e := range r.Expectations {
		write("expectation", e)
	}
	errs = append(errs, out.Findings(r.Findings))
	write("summary", r.Summary)
	return errors.Join(errs...)
}

// writeDoctorSARIF writes the findings of a report as SARIF 2.1.0: each
// result names its node and topic as logical locations.
func writeDoctorSARIF(w io.Writer, r doctor.Report) error {
	return report.SARIF{Version: Version, Checks: doctor.Checks()}.Write(w, report.Results(r.Findings, ""))
}

// writeDoctorJUnit writes a report as JUnit XML, the suite called name: a
// failing test case per finding that reaches failOn, a passing one per
// finding below it and per expectation that held, and an error when the
// report is incomplete (discovery unfinished, or cut short), so that the
// file fails exactly when doctor exits 1.
func writeDoctorJUnit(w io.Writer, r doctor.Report, name string, failOn rules.FailOn, elapsed time.Duration) error {
	run := report.JUnit{Name: name, Tool: "simclock_doctor", Checks: doctor.Checks(), FailOn: failOn, Elapsed: elapsed}
	s := r.Summary
	switch {
	case s.Partial:
		run.Notifications = append(run.Notifications, report.Notification{Level: rules.Error,
			Message: "the audit was cut short after " + span(s.Elapsed) + " s: the report is partial"})
	case s.Discovering:
		run.Notifications = append(run.Notifications, report.Notification{Level: rules.Error,
			Message: fmt.Sprintf("discovery had not finished (%d participant(s) had not announced their nodes): the report is incomplete", s.Pending)})
	}
	for _, e := range r.Expectations {
		if e.Met {
			run.Passes = append(run.Passes, report.JUnitPass{Name: "expect_" + e.Kind + " (" + e.Subject + ")",
				Output: "--expect " + e.Expect + ": " + e.Detail})
		}
	}
	return run.Write(w, report.Results(r.Findings, ""))
}

// writeDoctorXunitFile writes --xunit-file, its directory made as needed,
// the suite named after the file as ament names result files
// ("my_pkg.sim_time" for test_results/my_pkg/sim_time.xunit.xml).
func writeDoctorXunitFile(path string, r doctor.Report, failOn rules.FailOn, elapsed time.Duration) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("--xunit-file: %w", err)
	}
	var b bytes.Buffer
	if err := writeDoctorJUnit(&b, r, report.JUnitName(path), failOn, elapsed); err != nil {
		return err
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("--xunit-file: %w", err)
	}
	return nil
}

// writeDoctorText writes the human report: nodes, other participants,
// topics, clock writers, then findings and the summary. Every string from
// the network is escaped (printable). Tables fit 100 columns unless wide:
// long cells are cut, optional columns are dropped first (and said so).
func writeDoctorText(w io.Writer, r doctor.Report, wide bool) {
	nodes := newTable("NODE", "SIM TIME", "MATCHED", "/CLOCK READER?", "PUBLISHES?")
	for _, n := range r.Nodes {
		sim, matched := "no", "-"
		if n.SimTime {
			sim = "yes"
		}
		if n.ClockMatched != nil {
			matched = strconv.Itoa(*n.ClockMatched)
		}
		if n.PublishesClock {
			sim = "clock src"
		}
		reader := n.ClockQoS
		if n.ClockTopic != "" && n.ClockTopic != "/clock" {
			reader = n.ClockTopic + " " + reader
		}
		nodes.row(cell(n.Name, 40, wide), sim, matched, dash(cell(reader, 40, wide)), cell(strings.Join(n.Publishes, " "), 40, wide))
	}
	nodes.write(w, wide)
	if len(r.Participants) > 0 {
		fmt.Fprintln(w)
		parts := newTable("PARTICIPANT WITHOUT NODES", "VENDOR", "ENDPOINTS", "PROCESS?")
		for _, p := range r.Participants {
			parts.row(p.GUID, dash(cell(p.Vendor, 20, wide)), strconv.Itoa(p.Endpoints), dash(cell(p.Process, 40, wide)))
		}
		parts.write(w, wide)
	}
	fmt.Fprintln(w)
	topics := newTable("TOPIC", "TYPE", "STAMPS", "SAMPLES", "PUBLISHERS?")
	for _, t := range r.Topics {
		topics.row(cell(t.Name, 30, wide), cell(t.Type, 32, wide), t.StampBase, strconv.Itoa(t.Samples), cell(strings.Join(t.Publishers, " "), 30, wide))
	}
	topics.write(w, wide)
	if len(r.Transforms) > 0 {
		fmt.Fprintln(w)
		tf := newTable("TRANSFORM", "PUBLISHER", "STAMPS", "SAMPLES", "LAG P50/P95/MAX", "TOPIC?")
		for _, t := range r.Transforms {
			lag := "-"
			if l := t.Lag; l != nil && !t.Static {
				lag = span(l.P50) + "/" + span(l.P95) + "/" + span(l.Max)
			}
			tf.row(cell(t.Parent+"→"+t.Child, 30, wide), cell(t.Publisher, 30, wide), t.Base, strconv.Itoa(t.Samples), lag,
				cell(t.Topic, 16, wide))
		}
		tf.write(w, wide)
	}
	if len(r.Clock) > 0 {
		fmt.Fprintln(w)
		clocks := newTable("CLOCK WRITER", "TOPIC", "RATE", "RTF", "SIM TIME", "STATE", "QOS?")
		for _, c := range r.Clock {
			rtf := "-"
			if c.RTF != nil {
				rtf = strconv.FormatFloat(*c.RTF, 'f', 3, 64)
			}
			clocks.row(cell(c.Node, 24, wide), cell(c.Topic, 16, wide), fmt.Sprintf("%.1f Hz", c.RateHz), rtf, dash(c.SimTime),
				clockState(c), cell(c.QoS, 40, wide))
		}
		clocks.write(w, wide)
	}
	if len(r.Expectations) > 0 {
		fmt.Fprintln(w)
		exp := newTable("EXPECTATION", "HELD", "WHAT")
		for _, e := range r.Expectations {
			held := "yes"
			if !e.Met {
				held = "NO"
			}
			exp.row(cell(e.Expect, 34, wide), held, cell(e.Detail, 56, wide))
		}
		exp.write(w, wide)
	}
	fmt.Fprintln(w)
	text := report.Text{Layout: report.Sentences, Width: tableWidth, Fold: true}
	width := tableWidth
	if wide {
		text.Width, width = 0, math.MaxInt
	}
	text.Write(w, r.Findings) //nolint:errcheck // stdout
	s := r.Summary
	line := fmt.Sprintf("summary: %d nodes, %d other participants, %d topics, %d clock writers; %d errors, %d warnings, %d info",
		s.Nodes, s.Participants, s.Topics, s.ClockWriters, s.Errors, s.Warnings, s.Infos)
	switch {
	case s.Partial:
		line += fmt.Sprintf("; PARTIAL: interrupted after %s s, the graph was not watched for the whole --duration", span(s.Elapsed))
	case s.Discovering && s.Pending > 0:
		line += fmt.Sprintf("; DISCOVERING: %d participant(s) have not announced their nodes yet (ros_discovery_info)", s.Pending)
	case s.Discovering:
		line += fmt.Sprintf("; DISCOVERING: nothing found yet after %s s", span(s.Elapsed))
	}
	for _, l := range report.Wrap(line, width, "  ") {
		fmt.Fprintln(w, l)
	}
}

// clockState says in a word or two how a clock writer's stream stands.
func clockState(c doctor.ClockWriter) string {
	switch {
	case c.Left:
		return "left"
	case c.Silence > 0:
		return "silent " + span(c.Silence) + " s"
	case c.Msgs == 0:
		return "no message"
	case c.SimNs == nil:
		return "invalid"
	case c.BackwardJumps > 0 || c.ForwardJumps > 0:
		return "jumped"
	case c.Pauses > 0:
		return "stood still"
	}
	return "ok"
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// clip shortens s to n runes with an ellipsis, so tables fit 100 columns.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
