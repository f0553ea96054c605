package cli

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/simclock/simclock/clockmon"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
)

// monitorOptions are the flags of simclock monitor.
type monitorOptions struct {
	env            *Env
	topic          string
	interval       time.Duration
	duration       time.Duration
	stallPeriods   int
	expectRTF      string
	failOnBackward bool
	transport      string
	format         string
	node           nodeFlags

	rtfWant, rtfTol float64 // parsed --expect-rtf
}

func newMonitorCmd(env *Env) *cobra.Command {
	o := &monitorOptions{env: env}
	cmd := &cobra.Command{
		Use:   "monitor [topic]",
		Short: "Watch /clock as a node sees it: sim time, real-time factor, rate, jumps, stalls",
		Long: `simclock monitor subscribes to /clock (or the topic given) with a node's QoS
(best effort, volatile) and reports, every --interval: the current sim time,
the measured real-time factor, message rate and longest gap, backward jumps,
pauses, stalls (no message for --stall-periods periods), the number of
publishers (more than one is a fault, R18) and malformed messages.

Output refreshes in place when stderr is a terminal, and is one line per
interval otherwise; --format json writes one JSON object per interval
(kind "report"), after a kind "env" line and before a final kind "summary"
line. It runs until --duration passes or it is interrupted; the exit status
is 1 when a check fails (--expect-rtf, --fail-on-backward), 0 otherwise.

Examples:
  simclock monitor
  simclock monitor --duration 10s --expect-rtf 1±0.05 --fail-on-backward
  simclock monitor /sim/clock --format json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return flagErrorf("monitor takes at most one topic, got %q", args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.topic = args[0]
			}
			if err := o.validate(); err != nil {
				return err
			}
			return runMonitor(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.DurationVar(&o.interval, "interval", time.Second, "report interval")
	f.DurationVar(&o.duration, "duration", 0, "stop after this wall time (default: run until interrupted)")
	f.IntVar(&o.stallPeriods, "stall-periods", 5, "report a stall after this many periods without a message")
	f.StringVar(&o.expectRTF, "expect-rtf", "", "fail unless the overall real-time factor is X±TOL (e.g. 1±0.05; TOL defaults to 10% of X)")
	f.BoolVar(&o.failOnBackward, "fail-on-backward", false, "fail if sim time ever jumps backwards")
	f.StringVar(&o.transport, "transport", transportDDS, "transport: dds or inproc")
	o.node.add(f, "simclock_monitor")
	addFormatFlag(f, &o.format)
	o.topic = timemsg.ClockTopic
	return cmd
}

func (o *monitorOptions) validate() error {
	if err := checkFormat(o.format); err != nil {
		return err
	}
	switch {
	case o.interval <= 0:
		return flagErrorf("--interval %v: want a positive duration", o.interval)
	case o.duration < 0:
		return flagErrorf("--duration must not be negative")
	case o.stallPeriods <= 0:
		return flagErrorf("--stall-periods %d: want a positive number", o.stallPeriods)
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

func runMonitor(ctx context.Context, o *monitorOptions) error {
	runCtx, cancel := withDuration(ctx, o.duration)
	defer cancel()
	tr, err := openTransport(ctx, o.env, o.transport)
	if err != nil {
		return err
	}
	defer tr.Close() //nolint:errcheck // nothing left to report
	tr, closeNode, err := asNode(tr, o.env, &o.node)
	if err != nil {
		return err
	}
	defer closeNode()
	// A node's /clock QoS (best effort, volatile) so the monitor matches
	// exactly the publishers a node matches; a deeper queue than a node's
	// depth 1 so that counting the rate never drops samples.
	qos := transport.ClockSubscriptionQoS
	qos.Depth = 1000
	sub, err := tr.Subscribe(o.topic, timemsg.ClockType, qos)
	if err != nil {
		return err
	}
	out := newJSONLines(o.env.Stdout)
	jsonOut := o.format == formatJSON
	live := !jsonOut && o.env.StderrIsTTY
	if jsonOut {
		out.Write(map[string]any{"kind": "env", "schema": 1, "command": "monitor", "version": Version, //nolint:errcheck // stdout
			"transport": o.transport, "domain": transportDomain(tr), "topic": o.topic, "interval_s": o.interval.Seconds()})
	}

	start := time.Now()
	since := func() time.Duration { return time.Since(start) }
	mon := clockmon.New(clockmon.Config{StallPeriods: o.stallPeriods}, 0)
	ticker := time.NewTicker(o.interval)
	defer ticker.Stop()
	for done := false; !done; {
		select {
		case <-runCtx.Done():
			done = true
		case <-sub.Notify():
			for {
				s, ok := sub.Take()
				if !ok {
					break
				}
				mon.Observe(since(), s.Data, s.Publisher)
			}
		case <-ticker.C:
			r := mon.Report(since(), sub.MatchedPublishers())
			switch {
			case jsonOut:
				out.Write(struct { //nolint:errcheck // stdout
					Kind string `json:"kind"`
					clockmon.Report
				}{"report", r})
			case live:
				fmt.Fprintf(o.env.Stderr, "\r\033[K%s", reportText(o.topic, r))
			default:
				fmt.Fprintln(o.env.Stdout, reportText(o.topic, r))
			}
		}
	}
	if live {
		fmt.Fprintln(o.env.Stderr)
	}

	totals := mon.Totals()
	var checks []monitorCheck
	if o.expectRTF != "" {
		c := monitorCheck{Name: "expect_rtf"}
		if totals.MeasuredRTF == nil {
			c.Detail = fmt.Sprintf("no advancing /clock to measure, want %g±%g", o.rtfWant, o.rtfTol)
		} else {
			c.OK = math.Abs(*totals.MeasuredRTF-o.rtfWant) <= o.rtfTol
			c.Detail = fmt.Sprintf("measured %.4g, want %g±%g", *totals.MeasuredRTF, o.rtfWant, o.rtfTol)
		}
		checks = append(checks, c)
	}
	if o.failOnBackward {
		checks = append(checks, monitorCheck{Name: "no_backward_jumps", OK: totals.BackwardJumps == 0,
			Detail: fmt.Sprintf("%d backward jump(s)", totals.BackwardJumps)})
	}
	ok := true
	for _, c := range checks {
		ok = ok && c.OK
	}
	elapsed := since().Seconds()
	if jsonOut {
		out.Write(map[string]any{"kind": "summary", "elapsed_s": elapsed, "totals": totals, //nolint:errcheck // stdout
			"checks": checks, "ok": ok})
	} else {
		w := o.env.Stdout
		fmt.Fprintf(w, "summary: %.1fs, %d messages, rtf %s, %d backward jump(s), %d forward jump(s), %d stall(s), %d malformed, at most %d publisher(s)\n",
			elapsed, totals.Msgs, fmtRTF(totals.MeasuredRTF), totals.BackwardJumps, totals.ForwardJumps, totals.Stalls, totals.Malformed, totals.MaxPublishers)
		for _, c := range checks {
			verdict := "ok"
			if !c.OK {
				verdict = "FAIL"
			}
			fmt.Fprintf(w, "  %-18s %-4s %s\n", c.Name, verdict, c.Detail)
		}
	}
	if !ok {
		return errFindings
	}
	if err := ctx.Err(); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

func fmtRTF(r *float64) string {
	if r == nil {
		return "-"
	}
	return strconv.FormatFloat(*r, 'f', 3, 64)
}

// reportText is the one-line human form of a report.
func reportText(topic string, r clockmon.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%7.1fs %s ", r.ElapsedS, topic)
	if !r.HaveClock {
		b.WriteString("no clock yet")
	} else {
		fmt.Fprintf(&b, "sim %s", clockmon.FormatSim(r.SimNs))
	}
	fmt.Fprintf(&b, "  rtf %s  %.1f Hz  max gap %.0fms  pubs %d  back %d  fwd %d  malformed %d",
		fmtRTF(r.MeasuredRTF), r.RateHz, r.MaxGapMs, r.Publishers, r.BackwardJumps, r.ForwardJumps, r.Malformed)
	if r.Paused {
		b.WriteString("  PAUSED")
	}
	for _, w := range r.Warnings {
		b.WriteString("  ! " + w)
	}
	return b.String()
}
