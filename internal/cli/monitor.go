package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/internal/report"
	"github.com/simclock/simclock/internal/term"
	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
)

// monitorOptions are the inputs of simclock monitor: its streams, flags
// and argument, resolved and checked by the command before runMonitor.
type monitorOptions struct {
	env            *Env
	topic          string
	interval       time.Duration
	duration       time.Duration
	periods        int
	expectRTF      string
	failOnBackward bool
	allowNoClock   bool
	transport      string
	format         string
	node           nodeFlags
	qosFlags       qosFlags
	qos            transport.QoS // resolved from qosFlags

	rtfWant, rtfTol float64 // parsed --expect-rtf
}

func newMonitorCmd(env *Env, runF func(context.Context, *monitorOptions) error) *cobra.Command {
	o := &monitorOptions{env: env, interval: time.Second, topic: timemsg.ClockTopic}
	cmd := &cobra.Command{
		Use:   "monitor [TOPIC] [flags]",
		Short: "Watch /clock as a node sees it: value, real-time factor, rate, gaps, pauses, jumps",
		Long: `simclock monitor subscribes to /clock (or TOPIC; a relative name is in
--namespace, and --ros-args -r /clock:=/sim/clock remaps it) with the QoS of a
node's time source (best effort, volatile) and reports, every --interval: the current value,
the real-time factor (RTF), the message rate and longest interval, gaps
(no message for --periods periods), pauses (the value stands still),
backward and forward jumps, the publishers by node name (as ros2 topic info -v
names them; more than one is a fault, R18: RTF and rate are then given per
publisher) and malformed messages. The words are defined once, in the
documentation of package clockstream.

--qos-profile, --qos-reliability, --qos-durability and --qos-depth subscribe
as ros2 topic echo and hz do. --qos-reliability reliable watches /clock as a
node that subscribes to it with rclcpp's default QoS: it gets nothing from a
best-effort publisher such as ros2 bag play --clock, and monitor names each
publisher it cannot match.

Output refreshes in place when stderr is a terminal, and is one line per
interval otherwise; --format json writes one JSON object per interval
(kind "report"), after a kind "env" line and before a final kind "summary"
line. Times are seconds (1.5, 1.5s or 1500ms). It runs until --duration of
wall-clock time passes, or until SIGINT or SIGTERM, then prints its summary.

Exit status: 1 when no /clock arrived at all (unless --allow-no-clock) or a
check fails (--expect-rtf, --fail-on-backward); 0 otherwise; 2 for usage.

Examples:
  simclock monitor
  simclock monitor --duration 10 --expect-rtf 1±0.05 --fail-on-backward
  simclock monitor /sim/clock --format json
  simclock monitor --qos-reliability reliable   # the QoS trap: what a reliable subscriber gets
  simclock monitor --ros-args -r /clock:=/sim/clock`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return flagErrorf("monitor takes at most one topic, got %q", args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			typed := timemsg.ClockTopic
			if len(args) == 1 {
				typed = args[0]
			}
			if err := o.validate(); err != nil {
				return err
			}
			var err error
			if o.topic, err = o.node.topic(env, typed); err != nil {
				return err
			}
			// A node's /clock QoS (best effort, volatile) so the monitor
			// matches exactly the publishers a node matches; a deeper queue
			// than a node's depth 1 so that counting the rate never drops
			// samples, unless asked for.
			def := transport.ClockSubscriptionQoS
			def.Depth = 1000
			if o.qos, err = o.qosFlags.resolve(cmd.Flags(), def); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runMonitor(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.Var(units.Duration(&o.interval, units.Positive), "interval", "report interval")
	f.Var(units.Duration(&o.duration, units.NonNegative), "duration", durationHelp)
	f.IntVar(&o.periods, "periods", clockstream.DefaultConfig().Periods, "a gap or pause lasts longer than this many periods")
	f.IntVar(&o.periods, "stall-periods", clockstream.DefaultConfig().Periods, "old name of --periods")
	f.MarkDeprecated("stall-periods", "use --periods (a stall is now called a gap)") //nolint:errcheck // the flag exists
	f.StringVar(&o.expectRTF, "expect-rtf", "", "fail unless the overall real-time factor is X±TOL (e.g. 1±0.05; TOL defaults to 10% of X)")
	f.BoolVar(&o.failOnBackward, "fail-on-backward", false, "fail if the value ever jumps backwards")
	f.BoolVar(&o.allowNoClock, "allow-no-clock", false, "exit 0 even when no /clock message arrived")
	o.qosFlags.add(f, "subscribe")
	addTransportFlag(f, &o.transport, transportDDS)
	o.node.add(f, "simclock_monitor")
	addFormatFlag(f, &o.format)
	return cmd
}

func (o *monitorOptions) validate() error {
	if o.periods <= 0 {
		return flagErrorf("--periods %d: want a positive number", o.periods)
	}
	if o.expectRTF != "" {
		want, tol, err := parseExpectRTF(o.expectRTF)
		if err != nil {
			return flagErrorf("--expect-rtf %q: %v", o.expectRTF, err)
		}
		o.rtfWant, o.rtfTol = want, tol
	}
	return nil
}

// parseExpectRTF parses "X", "X±T", "X+-T" or "X±P%".
func parseExpectRTF(s string) (want, tol float64, err error) {
	x, t, hasTol := strings.Cut(strings.ReplaceAll(s, "+-", "±"), "±")
	if want, err = strconv.ParseFloat(strings.TrimSpace(x), 64); err != nil || want < 0 || math.IsInf(want, 0) || math.IsNaN(want) {
		return 0, 0, errors.New("want a non-negative factor, optionally ±tolerance, like 1±0.05")
	}
	if !hasTol {
		return want, want / 10, nil
	}
	t = strings.TrimSpace(t)
	pct := strings.HasSuffix(t, "%")
	if tol, err = strconv.ParseFloat(strings.TrimSuffix(t, "%"), 64); err != nil || tol < 0 || math.IsNaN(tol) {
		return 0, 0, errors.New("the tolerance after ± must be a non-negative number or percentage")
	}
	if pct {
		tol = want * tol / 100
	}
	return want, tol, nil
}

// monitorCheck is one pass/fail verdict of the summary.
type monitorCheck struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// monitorEnv is the env line of simclock monitor.
type monitorEnv struct {
	liveEnv
	Interval time.Duration `json:"interval_ns"`
	Periods  int           `json:"periods"`
	Node     string        `json:"node"` // the node it runs as
	QoS      monitorQoS    `json:"qos"`
}

// monitorQoS is the subscription's QoS in the env line.
type monitorQoS struct {
	Reliability string `json:"reliability"`
	Durability  string `json:"durability"`
	Depth       int    `json:"depth"`
}

// qosMismatch is a publisher of the topic that the subscription does not
// match: it gets nothing from it.
type qosMismatch struct {
	ID        string                  `json:"id"`
	Node      string                  `json:"node,omitempty"`
	Offered   string                  `json:"offered"`
	Conflicts []graph.Incompatibility `json:"conflicts"`
}

func (m qosMismatch) String() string {
	var why []string
	for _, c := range m.Conflicts {
		why = append(why, c.String())
	}
	return fmt.Sprintf("publisher %s offers %s, which this subscription does not match (%s): it gets nothing from it",
		term.Escape(cmp.Or(m.Node, m.ID)), m.Offered, strings.Join(why, "; "))
}

// monitorSummary is the "summary" JSON line.
type monitorSummary struct {
	clockstream.Totals
	Checks []monitorCheck `json:"checks"`
	// QoSMismatches are the publishers of the topic this subscription
	// does not match (a reliable one and a best-effort publisher).
	QoSMismatches []qosMismatch `json:"qos_mismatches,omitempty"`
	OK            bool          `json:"ok"`
}

func runMonitor(ctx context.Context, o *monitorOptions) error {
	base, err := openTransport(ctx, o.env, o.transport)
	if err != nil {
		return err
	}
	defer base.Close() //nolint:errcheck // nothing left to report
	tr, closeNode, err := asNode(base, o.env, &o.node)
	if err != nil {
		return err
	}
	defer closeNode()
	sub, err := tr.Subscribe(o.topic, timemsg.ClockTypeName, o.qos)
	if err != nil {
		return err
	}
	view := watchGraph(ctx, base)
	defer view.Close()
	name, ns, _ := o.node.resolve(o.env) // resolved without error by asNode
	self := graph.FullName(ns, name)
	w := o.env.Stdout
	out := report.NewJSONLines(w)
	jsonOut := o.format == formatJSON
	live := !jsonOut && o.env.StderrIsTTY
	if jsonOut {
		out.Write("env", monitorEnv{liveEnv: liveEnv{envHeader: newEnvHeader("monitor"), Transport: o.transport, //nolint:errcheck // stdout
			Domain: transportDomain(tr), Topic: o.topic, Virtual: o.env.Virtual != nil}, Interval: o.interval, Periods: o.periods,
			Node: self, QoS: monitorQoS{Reliability: o.qos.Reliability.String(), Durability: o.qos.Durability.String(), Depth: max(o.qos.Depth, 1)}})
	} else {
		// On a terminal the live part goes to stderr, refreshed in place;
		// stdout gets the summary.
		head := w
		if live {
			head = o.env.Stderr
		}
		fmt.Fprintf(head, "monitoring %s as %s (%s)\n", o.topic, self, qosString(o.qos))
		fmt.Fprintln(head, monitorHeader)
	}
	var mismatches []qosMismatch
	warned := &onceSet{}
	checkQoS := func() []string {
		var news []string
		for _, wr := range view.endpoints(o.topic, graph.Writer) {
			conflicts := graph.Incompatible(wr.QoS, graphQoS(o.qos))
			if len(conflicts) == 0 || !warned.first(wr.GUID.String()) {
				continue
			}
			m := qosMismatch{ID: wr.GUID.String(), Node: cmp.Or(wr.Node, view.nodeOf(wr.GUID.String())),
				Offered: wr.QoS.String(), Conflicts: conflicts}
			mismatches = append(mismatches, m)
			news = append(news, m.String())
		}
		return news
	}
	var lastExtra string // what live mode printed above its line last
	onReport := func(r clockstream.Report) {
		view.name(r.Publishers)
		if news := checkQoS(); len(news) > 0 {
			r.Warnings = append(news, r.Warnings...)
		}
		switch {
		case jsonOut:
			out.Write("report", r) //nolint:errcheck // stdout
		case live:
			// The publishers and warnings scroll above the refreshed line,
			// when they change.
			// (when who publishes or what is wrong changes, not its counts).
			var extra strings.Builder
			if len(r.Publishers) > 1 {
				writePublishers(&extra, "    ", "publisher", r.Publishers)
			}
			printWarnings(&extra, r.Warnings)
			key := fmt.Sprint(publisherNames(r.Publishers), digits.ReplaceAllString(strings.Join(r.Warnings, "\n"), "#"))
			if extra.Len() > 0 && key != lastExtra {
				fmt.Fprintf(o.env.Stderr, "\r\033[K%s", extra.String())
				lastExtra = key
			}
			fmt.Fprintf(o.env.Stderr, "\r\033[K%s", fit(monitorRow(r), tableWidth))
		default:
			writeMonitorReport(w, r)
		}
	}
	exec := o.env.newExecutor(base)
	defer exec.Close() //nolint:errcheck // nothing left to report
	watch, err := clockstream.NewWatcher(exec, sub, clockstream.WatchOptions{Config: clockstream.Config{Periods: o.periods},
		Interval: o.interval, OnReport: onReport, Duration: o.duration})
	if err != nil {
		return err
	}
	defer watch.Close()
	runErr := clockstream.Run(ctx, exec, watch)
	if live {
		fmt.Fprintln(o.env.Stderr)
	}
	totals := watch.Totals()
	view.name(totals.Publishers)
	checks := o.checks(totals)
	ok := true
	for _, c := range checks {
		ok = ok && c.OK
	}
	if jsonOut {
		out.Write("summary", monitorSummary{Totals: totals, Checks: checks, QoSMismatches: mismatches, OK: ok}) //nolint:errcheck // stdout
	} else {
		writeMonitorSummary(w, o.topic, totals, checks, mismatches)
	}
	if err := endOfRun(ctx, runErr); err != nil {
		return err
	}
	if !ok {
		return errFindings
	}
	return nil
}

// checks are the summary's verdicts: a /clock at all, then the checks
// asked for.
func (o *monitorOptions) checks(t clockstream.Totals) []monitorCheck {
	checks := []monitorCheck{}
	if !o.allowNoClock {
		// Present means a valid Clock: messages that all fail to decode
		// give no node a time.
		c := monitorCheck{Name: "clock_present", OK: t.HaveClock, Detail: fmt.Sprintf("%d message(s)", t.Messages)}
		switch {
		case t.Messages == 0:
			c.Detail = fmt.Sprintf("no message on %s in %s s (--allow-no-clock accepts that)", o.topic, span(t.Elapsed))
		case !t.HaveClock:
			c.Detail = fmt.Sprintf("%d message(s) on %s, none a valid Clock (%d malformed, %d not normalized): no node gets a time from it",
				t.Messages, o.topic, t.Malformed, t.NotNormalized)
		}
		checks = append(checks, c)
	}
	if o.expectRTF != "" {
		c := monitorCheck{Name: "expect_rtf"}
		switch {
		case len(t.Publishers) > 1:
			c.Detail = fmt.Sprintf("%d publishers: no one RTF to compare with %g±%g", len(t.Publishers), o.rtfWant, o.rtfTol)
		case t.RTF == nil:
			c.Detail = fmt.Sprintf("no advancing /clock to measure, want %g±%g", o.rtfWant, o.rtfTol)
		default:
			c.OK = math.Abs(*t.RTF-o.rtfWant) <= o.rtfTol
			c.Detail = fmt.Sprintf("measured %.3f, want %g±%g", *t.RTF, o.rtfWant, o.rtfTol)
		}
		checks = append(checks, c)
	}
	if o.failOnBackward {
		checks = append(checks, monitorCheck{Name: "no_backward_jumps", OK: t.BackwardJumps == 0,
			Detail: fmt.Sprintf("%d backward jump(s)", t.BackwardJumps)})
	}
	return checks
}

// digits matches the counts in a warning, which change every interval.
var digits = regexp.MustCompile(`[0-9]+`)

// publisherNames names each publisher as text output does.
func publisherNames(ps []clockstream.PublisherStats) []string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = publisherName(p)
	}
	return names
}

// monitorHeader heads the one-line-per-interval table (under 100 columns).
const monitorHeader = "  elapsed  value (s)               rtf      rate Hz  max int  pubs  back  fwd  gaps  pauses  bad"

// monitorRow is a report as one row under monitorHeader.
func monitorRow(r clockstream.Report) string {
	v := "no clock yet"
	if r.HaveClock {
		v = value(r.Value)
	}
	state := ""
	switch {
	case r.Silence > 0:
		state = "  GAP"
	case r.Paused:
		state = "  PAUSED"
	}
	return fmt.Sprintf("%9s  %-22s  %-7s  %7.1f  %7s  %4d  %4d  %3d  %4d  %6d  %3d%s", span(r.Elapsed), v, ratio(r.RTF),
		r.RateHz, span(r.MaxGap), len(r.Publishers), r.BackwardJumps, r.ForwardJumps, r.Gaps, r.Pauses,
		r.Malformed+r.NotNormalized, state)
}

func writeMonitorReport(w io.Writer, r clockstream.Report) {
	fmt.Fprintln(w, monitorRow(r))
	if len(r.Publishers) > 1 {
		writePublishers(w, "    ", "publisher", r.Publishers)
	}
	printWarnings(w, r.Warnings)
}

// writePublishers prints one row per publisher (or timeline, what names
// the first column): its own rate and RTF.
func writePublishers(w io.Writer, indent, what string, ps []clockstream.PublisherStats) {
	fmt.Fprintf(w, "%s%-34s  %8s  %7s  %-7s  %s\n", indent, what, "messages", "rate Hz", "rtf", "last value (s)")
	for _, p := range ps {
		fmt.Fprintf(w, "%s%-34s  %8d  %7.1f  %-7s  %s\n", indent, fit(publisherName(p), 34), p.Messages, p.RateHz, ratio(p.RTF), value(p.Value))
	}
}

func writeMonitorSummary(w io.Writer, topic string, t clockstream.Totals, checks []monitorCheck, mismatches []qosMismatch) {
	if t.Messages == 0 {
		fmt.Fprintf(w, "summary: no /clock message at all on %s in %s s\n", topic, span(t.Elapsed))
	} else {
		fmt.Fprintf(w, "summary: %d messages in %s s at %.1f Hz, rtf %s, period %s s, longest interval %s s\n",
			t.Messages, span(t.Elapsed), t.RateHz, ratio(t.RTF), span(t.Period), span(t.MaxGap))
		fmt.Fprintf(w, "  values %s → %s s\n", value(t.First), value(t.Last))
		fmt.Fprintf(w, "  gaps %d, pauses %d, backward jumps %d, forward jumps %d, zero %d, malformed %d, not normalized %d\n",
			t.Gaps, t.Pauses, t.BackwardJumps, t.ForwardJumps, t.Zero, t.Malformed, t.NotNormalized)
	}
	names := publisherNames(t.Publishers)
	if len(names) == 0 {
		fmt.Fprintln(w, "  0 publisher(s)")
	} else {
		fmt.Fprintf(w, "  %s\n", fit(fmt.Sprintf("%d publisher(s): %s", len(names), strings.Join(names, ", ")), tableWidth-2))
	}
	for _, m := range mismatches {
		printWarnings(w, []string{m.String()})
	}
	if len(t.Publishers) > 1 {
		fmt.Fprintln(w, "  ! several publishers on /clock: ROS expects exactly one (R18); rtf and rate per publisher:")
		writePublishers(w, "    ", "publisher", t.Publishers)
	}
	for _, c := range checks {
		verdict := "ok"
		if !c.OK {
			verdict = "FAIL"
		}
		fmt.Fprintf(w, "  %-18s %-4s %s\n", c.Name, verdict, c.Detail)
	}
}
