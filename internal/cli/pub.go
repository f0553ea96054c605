package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/clockmon"
	"github.com/simclock/simclock/clockpub"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
)

// pubOptions are the flags of simclock pub.
type pubOptions struct {
	env         *Env
	start       simTimeFlag
	step        time.Duration
	period      time.Duration
	rtf         float64
	preClock    time.Duration
	pauseAt     simTimeFlag
	resumeAfter time.Duration
	jumpTo      simTimeFlag
	jumpAt      simTimeFlag
	until       simTimeFlag
	loop        bool
	duration    time.Duration
	topic       string
	bestEffort  bool
	transport   string
	format      string
	drop        float64
	jitter      time.Duration
	seed        uint64
	node        nodeFlags
}

func newPubCmd(env *Env) *cobra.Command {
	o := &pubOptions{env: env}
	cmd := &cobra.Command{
		Use:   "pub [flags]",
		Short: "Publish /clock like a simulator (a fake simulator for testing nodes)",
		Long: `simclock pub publishes rosgraph_msgs/Clock on /clock the way a simulator or
ros2 bag play --clock does, over real DDS by default, so ROS 2 nodes with
use_sim_time and simclock monitor see it.

A message goes out every --period of wall time; each advances sim time by
--step, or by period × --rtf. Sim times are seconds (1700000000.5).
It prints one line per second of what it published.

Examples:
  simclock pub --start 1700000000 --rtf 2
  simclock pub --pre-clock 3s --pause-at 10 --resume-after 5s
  simclock pub --start 100 --until 160 --loop        # backward jump at each loop
  simclock pub --jump-at 30 --jump-to 10             # one backward jump`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return flagErrorf("pub takes no arguments, got %q", args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := o.config(cmd)
			if err != nil {
				return err
			}
			return runPub(cmd.Context(), o, cfg)
		},
	}
	f := cmd.Flags()
	f.Var(&o.start, "start", "sim time of the first message, in seconds")
	f.DurationVar(&o.step, "step", 0, "sim time added per message (default period × rtf)")
	f.DurationVar(&o.period, "period", 10*time.Millisecond, "wall time between messages")
	f.Float64Var(&o.rtf, "rtf", 1, "real-time factor: sim seconds per wall second")
	f.DurationVar(&o.preClock, "pre-clock", 0, "wall time to wait before the first message")
	f.Var(&o.pauseAt, "pause-at", "freeze sim time when it reaches this time (messages keep coming)")
	f.DurationVar(&o.resumeAfter, "resume-after", 0, "wall time the pause lasts (default: forever)")
	f.Var(&o.jumpTo, "jump-to", "jump sim time to this value once (with --jump-at)")
	f.Var(&o.jumpAt, "jump-at", "sim time at which --jump-to happens")
	f.Var(&o.until, "until", "stop when sim time would pass this value (restart with --loop)")
	f.BoolVar(&o.loop, "loop", false, "restart from --start after --until, as ros2 bag play --loop")
	f.DurationVar(&o.duration, "duration", 0, "stop after this wall time (default: run until interrupted)")
	f.StringVar(&o.topic, "topic", timemsg.ClockTopic, "topic to publish on")
	f.BoolVar(&o.bestEffort, "best-effort", false, "publish best effort (like ros2 bag play) instead of reliable")
	f.StringVar(&o.transport, "transport", transportDDS, "transport: dds or inproc")
	f.Float64Var(&o.drop, "drop", 0, "probability in [0, 1) that a message is lost (sim time still advances)")
	f.DurationVar(&o.jitter, "jitter", 0, "move each send time by a random offset within ±this")
	f.Uint64Var(&o.seed, "seed", 1, "seed for --drop and --jitter: one seed, one run")
	o.node.add(f, "simclock_pub")
	addFormatFlag(f, &o.format)
	return cmd
}

// config validates flag combinations before any work.
func (o *pubOptions) config(cmd *cobra.Command) (clockpub.Config, error) {
	if err := checkFormat(o.format); err != nil {
		return clockpub.Config{}, err
	}
	changed := cmd.Flags().Changed
	switch {
	case o.period <= 0:
		return clockpub.Config{}, flagErrorf("--period %v: want a positive duration", o.period)
	case changed("step") && changed("rtf"):
		return clockpub.Config{}, flagErrorf("--step and --rtf both set the sim time per message: give one")
	case o.step < 0 || o.rtf < 0:
		return clockpub.Config{}, flagErrorf("--step and --rtf must not be negative")
	case o.jumpTo.set != o.jumpAt.set:
		return clockpub.Config{}, flagErrorf("--jump-to and --jump-at go together")
	case changed("resume-after") && !o.pauseAt.set:
		return clockpub.Config{}, flagErrorf("--resume-after needs --pause-at")
	case o.loop && !o.until.set:
		return clockpub.Config{}, flagErrorf("--loop needs --until")
	case o.loop && o.until.v <= o.start.v:
		return clockpub.Config{}, flagErrorf("--until %s must be after --start %s", o.until.String(), o.start.String())
	case o.duration < 0:
		return clockpub.Config{}, flagErrorf("--duration must not be negative")
	}
	step := o.step
	if !changed("step") {
		step = time.Duration(o.rtf * float64(o.period))
	}
	return clockpub.Config{
		Start: o.start.v, Period: o.period, Step: step, PreClock: o.preClock,
		Pause: o.pauseAt.set, PauseAt: o.pauseAt.v, ResumeAfter: o.resumeAfter,
		Jump: o.jumpTo.set, JumpAt: o.jumpAt.v, JumpTo: o.jumpTo.v,
		HasUntil: o.until.set, Until: o.until.v, Loop: o.loop,
		Drop: o.drop, Jitter: o.jitter, Seed: o.seed,
	}, nil
}

// pubLine is one JSON line of simclock pub: kind "env" first, then "pub"
// once per second, then "summary".
type pubLine struct {
	Kind      string   `json:"kind"`
	ElapsedS  float64  `json:"elapsed_s"`
	Sent      int      `json:"sent"`       // in the last second
	SentTotal int      `json:"sent_total"` // since start
	SimNs     int64    `json:"sim_ns"`     // last value published
	Matched   int      `json:"matched_subscriptions"`
	Errors    int      `json:"errors"`
	Dropped   int      `json:"dropped"` // lost on purpose (--drop)
	Events    []string `json:"events,omitempty"`
	LastError string   `json:"last_error,omitempty"`
}

func runPub(ctx context.Context, o *pubOptions, cfg clockpub.Config) error {
	sch, err := clockpub.New(cfg)
	if err != nil {
		return flagErrorf("%v", err)
	}
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
	qos := transport.ClockPublisherQoS
	if o.bestEffort {
		qos.Reliability = transport.BestEffort
	}
	pub, err := tr.Publisher(o.topic, timemsg.ClockType, qos)
	if err != nil {
		return err
	}
	out := newJSONLines(o.env.Stdout)
	text := o.format == formatText
	if !text {
		out.Write(map[string]any{"kind": "env", "schema": 1, "command": "pub", "version": Version, //nolint:errcheck // stdout
			"transport": o.transport, "domain": transportDomain(tr), "topic": o.topic, "id": string(pub.ID()),
			"period_ns": int64(cfg.Period), "step_ns": int64(cfg.Step), "rtf": sch.RTF()})
	} else {
		fmt.Fprintf(o.env.Stdout, "publishing %s every %v, +%v sim per message (rtf %.3g), as %s\n",
			o.topic, cfg.Period, cfg.Step, sch.RTF(), pub.ID())
	}

	start := time.Now()
	var line, total pubLine
	line.Kind, total.Kind = "pub", "summary"
	emit := func(l *pubLine, now time.Time) {
		l.ElapsedS = now.Sub(start).Seconds()
		l.Matched = pub.MatchedSubscriptions()
		if text {
			ev := ""
			if len(l.Events) > 0 {
				ev = fmt.Sprintf("  events %v", l.Events)
			}
			if l.Dropped > 0 {
				ev += fmt.Sprintf("  %d dropped", l.Dropped)
			}
			if l.Errors > 0 {
				ev += fmt.Sprintf("  %d errors (last: %s)", l.Errors, l.LastError)
			}
			fmt.Fprintf(o.env.Stdout, "%7.1fs %s  sent %d (total %d)  sim %s  subscribers %d%s\n", l.ElapsedS, l.Kind,
				l.Sent, l.SentTotal, clockmon.FormatSim(l.SimNs), l.Matched, ev)
		} else {
			out.Write(l) //nolint:errcheck // stdout
		}
	}

	report := time.NewTicker(time.Second)
	defer report.Stop()
	tick, more := sch.Next()
	timer := time.NewTimer(time.Until(start.Add(tick.Wall)))
	defer timer.Stop()
	buf := make([]byte, 0, timemsg.ClockSize)
	for more {
		select {
		case <-runCtx.Done():
			more = false
		case now := <-report.C:
			emit(&line, now)
			line = pubLine{Kind: "pub", SentTotal: line.SentTotal, SimNs: line.SimNs}
		case <-timer.C:
			ns := int64(tick.Sim)
			m, err := timemsg.FromDuration(tick.Sim)
			if err != nil || ns < 0 {
				// Never a silent int32 wrap: stop at the end of what a Clock carries.
				return fmt.Errorf("sim time %v cannot be sent in a Clock message: %w", tick.Sim, simclock.ErrOutOfRange)
			}
			buf = timemsg.AppendClock(buf[:0], timemsg.Clock{Clock: timemsg.Time(m)})
			if tick.Dropped {
				line.Dropped++
				total.Dropped++
				if tick, more = sch.Next(); more {
					timer.Reset(time.Until(start.Add(tick.Wall)))
				}
				continue
			}
			if err := pub.Publish(runCtx, buf); err != nil {
				if errors.Is(err, transport.ErrClosed) {
					return err
				}
				if runCtx.Err() != nil {
					more = false // the run ended (--duration or interrupt) mid-publish
					continue
				}
				line.Errors++
				line.LastError = err.Error()
				total.Errors++
				total.LastError = err.Error()
			}
			line.Sent++
			line.SentTotal++
			line.SimNs = ns
			if tick.Event != clockpub.EventNone {
				line.Events = append(line.Events, string(tick.Event))
			}
			if tick, more = sch.Next(); more {
				timer.Reset(time.Until(start.Add(tick.Wall)))
			}
		}
	}
	if line.Sent > 0 {
		emit(&line, time.Now())
	}
	total.Sent, total.SentTotal, total.SimNs = line.SentTotal, line.SentTotal, line.SimNs
	emit(&total, time.Now())
	if err := ctx.Err(); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}
