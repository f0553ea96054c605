package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/simclock/simclock/doctor"
	"github.com/simclock/simclock/internal/report"
	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
	"github.com/simclock/simclock/transport/dds"
)

// doctorOptions are the flags of simclock doctor.
type doctorOptions struct {
	env       *Env
	duration  time.Duration
	watch     bool
	interval  time.Duration
	tolerance time.Duration
	format    string
	failOn    rules.FailOn
	wide      bool
}

func newDoctorCmd(env *Env) *cobra.Command {
	o := &doctorOptions{env: env}
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Audit the time of a live ROS 2 graph: who follows /clock, QoS matches, stamp bases",
		Long: `simclock doctor joins the DDS domain (ROS_DOMAIN_ID, CYCLONEDDS_URI,
ROS_AUTOMATIC_DISCOVERY_RANGE and ROS_STATIC_PEERS, as the other commands),
watches passively for --duration, and reports:

  - every ROS node (from ros_discovery_info) and DDS participants that host none;
  - per node: whether it follows sim time (it reads /clock, which rclcpp and
    rclpy do only with use_sim_time on), that reader's QoS, and how many /clock
    writers it matches under the DDS QoS rules;
  - /clock writers: node, QoS, rate, real-time factor, current sim time;
  - topics: for types with a std_msgs/Header or builtin_interfaces/Time (the
    common interface packages are built in), a sample of stamps per publisher,
    each classified against /clock as sim, wall, zero, stale or future;
  - findings with stable codes (docs/rules.md), each naming node, topic and fix.

--format json writes JSON lines (kinds env, node, participant, clock, topic,
finding, summary; docs/doctor.md); --format sarif writes the findings as
SARIF 2.1.0, for code scanning of launch tests. --watch refreshes every
--interval until interrupted. Exit status: 1 when a finding reaches --fail-on (default warning:
warnings and errors fail, info does not), 2 on usage errors.

Examples:
  simclock doctor
  ROS_DOMAIN_ID=7 simclock doctor --duration 10s --format json
  simclock doctor --watch`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.validate(); err != nil {
				return err
			}
			return runDoctor(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	o.duration, o.interval, o.tolerance = 3*time.Second, 2*time.Second, time.Second
	f.Var(units.Duration(&o.duration, units.NonNegative), "duration", "wall-clock time to watch before reporting (with --watch: stop after this, 0 = until interrupted)")
	f.BoolVar(&o.watch, "watch", false, "keep watching, reporting every --interval")
	f.Var(units.Duration(&o.interval, units.Positive), "interval", "report interval with --watch")
	f.Var(units.Duration(&o.tolerance, units.Positive), "tolerance", "how far a stamp may be from /clock and still count as sim time")
	addFormatFlag(f, &o.format, formatSARIF)
	addFailOnFlag(f, &o.failOn)
	f.BoolVar(&o.wide, "wide", false, "print every column, and do not wrap lines at 100 columns")
	return cmd
}

func (o *doctorOptions) validate() error {
	switch {
	case o.format == formatSARIF && o.watch:
		return flagErrorf("--format sarif writes one report: it does not go with --watch")
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

func runDoctor(ctx context.Context, o *doctorOptions) error {
	tr, err := openDDS(ctx, o.env)
	if err != nil {
		return err
	}
	defer tr.Close() //nolint:errcheck // nothing left to report
	src := tr.(*dds.Transport)
	w, err := doctor.Start(ctx, src, doctor.Options{Tolerance: o.tolerance, FailOn: o.failOn})
	if err != nil {
		return err
	}
	defer w.Close() //nolint:errcheck // Err is checked below

	out := report.NewJSONLines(o.env.Stdout)
	if o.format == formatJSON {
		out.Write("env", o.envLine(src.Domain())) //nolint:errcheck // stdout
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
		}
		if o.watch && o.env.StderrIsTTY {
			fmt.Fprint(o.env.Stdout, "\033[H\033[2J")
		}
		writeDoctorText(o.env.Stdout, r, o.wide)
	}
	var last doctor.Report
	if o.watch {
		tick := time.NewTicker(o.interval)
		defer tick.Stop()
		for done := false; !done; {
			select {
			case <-runCtx.Done():
				done = true
			case <-tick.C:
				last = w.Report()
				print(last)
			}
		}
	} else {
		if o.env.StderrIsTTY {
			fmt.Fprintf(o.env.Stderr, "simclock doctor: watching domain %d for %s s...\n", src.Domain(), span(o.duration))
		}
		<-runCtx.Done()
		settle(ctx, o.env, w)
		last = w.Report()
		print(last)
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
}

// envLine is the env line of a run on domain.
func (o *doctorOptions) envLine(domain uint32) doctorEnv {
	return doctorEnv{newEnvHeader("doctor"), domain, o.duration, o.tolerance, o.watch}
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
	errs = append(errs, out.Findings(r.Findings))
	write("summary", r.Summary)
	return errors.Join(errs...)
}

// writeDoctorSARIF writes the findings of a report as SARIF 2.1.0: each
// result names its node and topic as logical locations.
func writeDoctorSARIF(w io.Writer, r doctor.Report) error {
	return report.SARIF{Version: Version, Checks: doctor.Checks()}.Write(w, report.Results(r.Findings, ""))
}

// writeDoctorText writes the human report: nodes, other participants,
// topics, /clock writers, then findings. Tables fit 100 columns unless
// wide (optional columns are dropped first, and said so).
func writeDoctorText(w io.Writer, r doctor.Report, wide bool) {
	cell := func(s string, n int) string { // long lists are clipped unless wide
		if wide {
			return s
		}
		return clip(s, n)
	}
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
		nodes.row(n.Name, sim, matched, dash(n.ClockQoS), cell(strings.Join(n.Publishes, " "), 40))
	}
	nodes.write(w, wide)
	if len(r.Participants) > 0 {
		fmt.Fprintln(w)
		parts := newTable("PARTICIPANT WITHOUT NODES", "VENDOR", "ENDPOINTS", "PROCESS?")
		for _, p := range r.Participants {
			parts.row(p.GUID, dash(p.Vendor), strconv.Itoa(p.Endpoints), dash(cell(p.Process, 40)))
		}
		parts.write(w, wide)
	}
	fmt.Fprintln(w)
	topics := newTable("TOPIC", "TYPE", "STAMPS", "SAMPLES", "PUBLISHERS?")
	for _, t := range r.Topics {
		topics.row(cell(t.Name, 30), cell(t.Type, 32), t.StampBase, strconv.Itoa(t.Samples), cell(strings.Join(t.Publishers, " "), 30))
	}
	topics.write(w, wide)
	if len(r.Clock) > 0 {
		fmt.Fprintln(w)
		clocks := newTable("/CLOCK WRITER", "RATE", "RTF", "SIM TIME", "QOS?")
		for _, c := range r.Clock {
			rtf := "-"
			if c.RTF != nil {
				rtf = strconv.FormatFloat(*c.RTF, 'f', 3, 64)
			}
			clocks.row(cell(c.Node, 30), fmt.Sprintf("%.1f Hz", c.RateHz), rtf, dash(c.SimTime), c.QoS)
		}
		clocks.write(w, wide)
	}
	fmt.Fprintln(w)
	text := report.Text{Layout: report.Sentences, Width: tableWidth}
	if wide {
		text.Width = 0
	}
	text.Write(w, r.Findings) //nolint:errcheck // stdout
	s := r.Summary
	fmt.Fprintf(w, "summary: %d nodes, %d other participants, %d topics, %d /clock writers; %d errors, %d warnings, %d info\n",
		s.Nodes, s.Participants, s.Topics, s.ClockWriters, s.Errors, s.Warnings, s.Infos)
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
