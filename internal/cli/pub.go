package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/internal/report"
	"github.com/simclock/simclock/internal/term"
	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
)

// pubOptions are the inputs of simclock pub: its streams, flags and
// argument, resolved and checked by the command before runPub.
type pubOptions struct {
	env                           *Env
	start, pauseAt, jumpTo        units.TimeFlag
	jumpAt, until                 units.TimeFlag
	step, period, preClock        time.Duration
	resumeAfter, duration, jitter time.Duration
	rtf, drop                     float64
	loop, bestEffort              bool
	topic, transport, format      string
	seed                          uint64
	node                          nodeFlags

	schedule clockstream.ScheduleConfig // what the flags ask to publish
}

func newPubCmd(env *Env, runF func(context.Context, *pubOptions) error) *cobra.Command {
	o := &pubOptions{env: env, period: 10 * time.Millisecond, rtf: 1}
	cmd := &cobra.Command{
		Use:   "pub [TOPIC] [flags]",
		Short: "Publish /clock like a simulator (a fake simulator for testing nodes)",
		Long: `simclock pub publishes rosgraph_msgs/Clock on /clock (or TOPIC: a relative name
is in --namespace, and --ros-args -r /clock:=/sim/clock remaps it) the way a
simulator or ros2 bag play --clock does, over real DDS by default, so ROS 2
nodes with use_sim_time and simclock monitor see it.

A message goes out every --period of wall time; each advances the /clock
value by --step, or by period × --rtf. Every time is in seconds (1.5, 1.5s
or 1500ms); /clock values are times since the clock's epoch (1700000000.5).
--duration is wall-clock time. It prints one line per second of what it
published and a summary when it ends: at --until, at --duration, or on
SIGINT or SIGTERM. --format json writes JSON lines: env, then "progress"
once per second, then "summary".

Examples:
  simclock pub --start 1700000000 --rtf 2
  simclock pub --pre-clock 3 --pause-at 10 --resume-after 5
  simclock pub --start 100 --until 160 --loop        # backward jump at each loop
  simclock pub --jump-at 30 --jump-to 10             # one backward jump
  simclock pub /sim/clock --best-effort                # as ros2 bag play --clock publishes`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return flagErrorf("pub takes at most one topic, got %q", args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			typed := o.topic
			if len(args) == 1 {
				if cmd.Flags().Changed("topic") && args[0] != o.topic {
					return flagErrorf("the topic is given twice: %q and --topic %q", args[0], o.topic)
				}
				typed = args[0]
			}
			var err error
			if o.schedule, err = o.config(cmd.Flags().Changed); err != nil {
				return err
			}
			if o.topic, err = o.node.topic(env, typed); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runPub(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.Var(&o.start, "start", "/clock value of the first message")
	f.Var(units.Duration(&o.step, units.NonNegative), "step", "value added per message (default period × rtf)")
	f.Var(units.Duration(&o.period, units.Positive), "period", "wall time between messages")
	f.Float64Var(&o.rtf, "rtf", 1, "real-time factor: sim seconds per wall second")
	f.Var(units.Duration(&o.preClock, units.NonNegative), "pre-clock", "wall time to wait before the first message")
	f.Var(&o.pauseAt, "pause-at", "freeze the value when it reaches this time (messages keep coming)")
	f.Var(units.Duration(&o.resumeAfter, units.NonNegative), "resume-after", "wall time the pause lasts (default: forever)")
	f.Var(&o.jumpTo, "jump-to", "jump the value to this time once (with --jump-at)")
	f.Var(&o.jumpAt, "jump-at", "value at which --jump-to happens")
	f.Var(&o.until, "until", "stop when the value would pass this time (restart with --loop)")
	f.BoolVar(&o.loop, "loop", false, "restart from --start after --until, as ros2 bag play --loop")
	f.Var(units.Duration(&o.duration, units.NonNegative), "duration", durationHelp)
	f.StringVar(&o.topic, "topic", timemsg.ClockTopic, "topic to publish on (the same as the TOPIC argument)")
	f.BoolVar(&o.bestEffort, "best-effort", false, "publish best effort (like ros2 bag play) instead of reliable")
	addTransportFlag(f, &o.transport, transportDDS)
	f.Float64Var(&o.drop, "drop", 0, "probability in [0, 1) that a message is lost (the value still advances)")
	f.Var(units.Duration(&o.jitter, units.NonNegative), "jitter", "move each send time by a random offset within ±this")
	f.Uint64Var(&o.seed, "seed", 1, "seed for --drop and --jitter: one seed, one run")
	o.node.add(f, "simclock_pub")
	addFormatFlag(f, &o.format)
	return cmd
}

// config validates flag combinations before any work; changed tells
// which flags were given.
func (o *pubOptions) config(changed func(name string) bool) (clockstream.ScheduleConfig, error) {
	var none clockstream.ScheduleConfig
	for _, c := range []struct {
		name string
		v    float64
	}{{"rtf", o.rtf}, {"drop", o.drop}} {
		if err := checkFloat(c.name, c.v, false); err != nil {
			return none, err
		}
	}
	switch {
	case changed("step") && changed("rtf"):
		return none, flagErrorf("--step and --rtf both set the value added per message: give one")
	case o.drop >= 1:
		return none, flagErrorf("--drop %v: want a probability in [0, 1)", o.drop)
	case o.jumpTo.IsSet() != o.jumpAt.IsSet():
		return none, flagErrorf("--jump-to and --jump-at go together")
	case changed("resume-after") && !o.pauseAt.IsSet():
		return none, flagErrorf("--resume-after needs --pause-at")
	case o.loop && !o.until.IsSet():
		return none, flagErrorf("--loop needs --until")
	case o.until.IsSet() && o.until.V <= o.start.V:
		return none, flagErrorf("--until %s is not after --start %s: it would stop before it starts", o.until.String(), o.start.String())
	case o.pauseAt.IsSet() && o.pauseAt.V < o.start.V:
		return none, flagErrorf("--pause-at %s is before --start %s", o.pauseAt.String(), o.start.String())
	case o.jumpAt.IsSet() && o.jumpAt.V < o.start.V:
		return none, flagErrorf("--jump-at %s is before --start %s", o.jumpAt.String(), o.start.String())
	}
	step := o.step
	if !changed("step") {
		// A Duration holds 292 years; a Clock message 68: a step past
		// that is a setting no clock can play.
		f := o.rtf * float64(o.period)
		if f > float64(units.MaxClockSeconds)*1e9 {
			return none, flagErrorf("--rtf %v: at --period %s s each message would add %.3g s, past the largest time a Clock message carries (%d s)",
				o.rtf, units.Exact(int64(o.period)), f/1e9, units.MaxClockSeconds)
		}
		step = time.Duration(f)
	}
	return clockstream.ScheduleConfig{
		Start: o.start.V, Period: o.period, Step: step, PreClock: o.preClock,
		Pause: o.pauseAt.IsSet(), PauseAt: o.pauseAt.V, ResumeAfter: o.resumeAfter,
		Jump: o.jumpTo.IsSet(), JumpAt: o.jumpAt.V, JumpTo: o.jumpTo.V,
		HasUntil: o.until.IsSet(), Until: o.until.V, Loop: o.loop,
		Drop: o.drop, Jitter: o.jitter, Seed: o.seed,
	}, nil
}

// pubEnv is the env line of simclock pub.
type pubEnv struct {
	liveEnv
	ID     string        `json:"id"`
	Node   string        `json:"node,omitempty"` // the ROS node it runs as
	Period time.Duration `json:"period_ns"`
	Step   time.Duration `json:"step_ns"`
	RTF    float64       `json:"rtf"`
}

// runPub publishes o.schedule on o.topic.
func runPub(ctx context.Context, o *pubOptions) error {
	cfg := o.schedule
	sch, err := clockstream.NewSchedule(cfg)
	if err != nil {
		return flagErrorf("%v", err)
	}
	return play(ctx, o.env, playSpec{command: "pub", topic: o.topic, transport: o.transport, bestEffort: o.bestEffort,
		format: o.format, duration: o.duration, node: &o.node, period: cfg.Period, step: cfg.Step, rtf: sch.RTF()}, sch)
}

// playSpec is what simclock pub and simclock bag clock share: where to
// publish, how long, in which format.
type playSpec struct {
	command, topic, transport, format string
	about                             string     // a line printed first in text, if set
	node                              *nodeFlags // the ROS node to run as, if any
	bestEffort                        bool
	duration                          time.Duration
	// period, step and rtf describe the clock in the header and env line;
	// cadence, when set, replaces "every PERIOD s, +STEP s per message"
	// in the header.
	period, step time.Duration
	rtf          float64
	cadence      string
	// onTick, when set, sees every tick: sent, skipped or failed.
	onTick func(clockstream.Tick, error)
	// around, when set, wraps each write to stdout (bag clock clears its
	// progress bar on the shared terminal, then draws it again).
	around func(write func())
	// attach, when set, is called with the running player (bag clock's
	// keyboard); the function it returns is called when the run ends.
	attach func(exec *executor.Executor, p *clockstream.Player) func()
}

// readerMismatch is a reader of the topic that does not match what the
// command publishes: it gets nothing.
type readerMismatch struct {
	ID        string                  `json:"id"`
	Node      string                  `json:"node,omitempty"`
	Requested string                  `json:"requested"`
	Conflicts []graph.Incompatibility `json:"conflicts"`
}

func (m readerMismatch) String() string {
	var why []string
	for _, c := range m.Conflicts {
		why = append(why, c.String())
	}
	return fmt.Sprintf("the reader of %s (%s) does not match this publisher (%s): it gets nothing",
		term.Escape(cmp.Or(m.Node, m.ID)), m.Requested, strings.Join(why, "; "))
}

// play publishes the ticks of tk with a clockstream.Player, printing a
// progress line per second of wall time and a summary, and a warning for
// each reader of the topic that cannot match the publisher's QoS.
func play(ctx context.Context, env *Env, spec playSpec, tk clockstream.Ticker) error {
	base, err := openTransport(ctx, env, spec.transport)
	if err != nil {
		return err
	}
	defer base.Close() //nolint:errcheck // nothing left to report
	tr := base
	node := ""
	if spec.node != nil {
		var closeNode func()
		if tr, closeNode, err = asNode(base, env, spec.node); err != nil {
			return err
		}
		defer closeNode()
		name, ns, _ := spec.node.resolve(env) // resolved without error by asNode
		node = graph.FullName(ns, name)
	}
	qos := transport.ClockPublisherQoS
	if spec.bestEffort {
		qos.Reliability = transport.BestEffort
	}
	pub, err := tr.Publisher(spec.topic, timemsg.ClockTypeName, qos)
	if err != nil {
		return err
	}
	view := watchGraph(ctx, base)
	defer view.Close()
	w := env.Stdout
	out := report.NewJSONLines(w)
	text := spec.format == formatText
	self := cmp.Or(node, string(pub.ID()))
	if text {
		if spec.about != "" {
			fmt.Fprintln(w, spec.about)
		}
		cadence := cmp.Or(spec.cadence, fmt.Sprintf("every %s s, +%s s per message", span(spec.period), span(spec.step)))
		fmt.Fprintf(w, "publishing %s %s (rtf %s, %s), as %s\n", spec.topic, cadence,
			strconv.FormatFloat(spec.rtf, 'f', -1, 64), qos.Reliability, self)
		fmt.Fprintln(w, pubHeader)
	} else {
		out.Write("env", pubEnv{liveEnv: liveEnv{envHeader: newEnvHeader(spec.command), Transport: spec.transport, Domain: transportDomain(tr), //nolint:errcheck // stdout
			Topic: spec.topic, Virtual: env.Virtual != nil}, ID: string(pub.ID()), Node: node, Period: spec.period, Step: spec.step, RTF: spec.rtf})
	}
	// Readers whose QoS this publisher cannot serve get nothing: say so,
	// once each (a reliable /clock reader and a best-effort player).
	warned := &onceSet{}
	var mismatches []readerMismatch
	checkReaders := func() {
		offered := graph.DefaultWriterQoS
		offered.Reliability = qos.Reliability
		for _, r := range view.endpoints(spec.topic, graph.Reader) {
			conflicts := graph.Incompatible(offered, r.QoS)
			if len(conflicts) == 0 || !warned.first(r.GUID.String()) {
				continue
			}
			m := readerMismatch{ID: r.GUID.String(), Node: cmp.Or(r.Node, view.nodeOf(r.GUID.String())),
				Requested: r.QoS.String(), Conflicts: conflicts}
			mismatches = append(mismatches, m)
			if text {
				printWarnings(w, []string{m.String()})
			} else {
				out.Write("qos_mismatch", m) //nolint:errcheck // stdout
			}
		}
	}
	emit := func(kind string, p clockstream.Progress) {
		write := func() {
			if text {
				writePubText(w, kind, p)
			} else {
				out.Write(kind, p) //nolint:errcheck // stdout
			}
			checkReaders()
		}
		if spec.around != nil {
			spec.around(write)
		} else {
			write()
		}
	}
	exec := env.newExecutor(base)
	defer exec.Close() //nolint:errcheck // nothing left to report
	player, err := clockstream.NewPlayer(ctx, exec, pub, tk, clockstream.PlayerOptions{
		Duration: spec.duration, ReportEvery: time.Second, OnReport: func(p clockstream.Progress) { emit("progress", p) },
		OnTick: func(t clockstream.Tick, err error) {
			if spec.onTick != nil {
				spec.onTick(t, err)
			}
		}})
	if err != nil {
		return err
	}
	defer player.Close()
	if spec.attach != nil {
		defer spec.attach(exec, player)()
	}
	runErr := clockstream.Run(ctx, exec, player)
	player.Stop() // an interrupt reports the second in progress
	emit("summary", player.Totals())
	if err := player.Err(); err != nil {
		return err
	}
	return endOfRun(ctx, runErr)
}

// endOfRun turns the error that ended a live run into the command's:
// SIGINT or SIGTERM (a canceled context) ends a run normally, after its
// summary.
func endOfRun(ctx context.Context, err error) error {
	if err == nil || errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return nil
	}
	return err
}

// pubHeader heads the lines of simclock pub.
const pubHeader = "  elapsed  line       sent  dropped  value (s)              subs  events"

// writePubText prints one progress or summary line of simclock pub.
func writePubText(w io.Writer, kind string, p clockstream.Progress) {
	last := "-"
	if p.HaveValue {
		last = value(p.Value)
	}
	line := fmt.Sprintf("%9s  %-8s  %5d  %7d  %-21s  %4d  %s", span(p.Elapsed), kind, p.Sent, p.Dropped, last, p.Matched,
		strings.Join(p.Events, ","))
	fmt.Fprintln(w, fit(strings.TrimRight(line, " "), tableWidth))
	if p.Errors > 0 {
		printWarnings(w, []string{fmt.Sprintf("%d publish error(s), last: %s", p.Errors, p.LastError)})
	}
}
