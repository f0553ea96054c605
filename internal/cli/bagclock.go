package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/simclock/simclock/bag"
	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/internal/term"
	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/node"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
)

// bagClockOptions are the inputs of simclock bag clock: its streams,
// flags and files, checked by the command before runBagClock.
type bagClockOptions struct {
	env              *Env
	rate             float64
	hz               float64
	loop             bool
	startOffset      time.Duration
	delay            time.Duration
	clockTopics      []string
	clockTopicsAll   bool
	startPaused      bool
	noKeyboard       bool
	playbackDuration time.Duration
	untilSec         float64
	untilNsec        int64
	reliable         bool
	transport        string
	format           string
	duration         time.Duration
	node             nodeFlags
	files            []string

	topic    string // the /clock topic, resolved as the node's
	periodic bool   // publish every 1/hz (--clock, or no --clock-topics)
	// which of --playback-duration, --playback-until-sec, -nsec were given
	hasDuration, hasUntilSec, hasUntilNsec bool
}

// clockHzDefault is the --clock frequency without a value, as ros2 bag
// play's.
const clockHzDefault = 40

func newBagClockCmd(env *Env, runF func(context.Context, *bagClockOptions) error) *cobra.Command {
	o := &bagClockOptions{env: env}
	cmd := &cobra.Command{
		Use:   "clock [flags] DIR | FILE...",
		Short: "Publish /clock along a bag's timeline, like ros2 bag play --clock",
		Long: `simclock bag clock [-r RATE] [--clock [HZ]] [--clock-topics TOPIC...] [-l] [-p] DIR | FILE...

Publishes rosgraph_msgs/Clock on /clock as rosbag2's player does (ros2 bag play
--clock), over DDS by default (ROS_DOMAIN_ID, CYCLONEDDS_URI): its clock starts
at the bag's first message (plus --start-offset), advances at --rate, and the
playback stops at the bag's last message (not at the end time metadata.yaml
may give), or at --playback-duration / --playback-until-sec / -nsec.

  --clock [HZ]          publish the player's clock HZ times per second of
                        wall time (40 without a value; the default unless
                        --clock-topics is given)
  --clock-topics T...   publish /clock carrying a message's log time right
                        before each message of these topics, as rosbag2
                        does (space or comma separated)
  --clock-topics-all    the same before every message of the bag

The messages themselves are not published, nor the bag's own recorded
/clock. With --loop /clock jumps back to the start (R14, R22). --start-paused
starts with the clock stopped; on a terminal, space pauses and resumes
(--disable-keyboard-controls turns that off).

QoS: best effort, keep last 1, as rosbag2's player publishes /clock
(rclcpp's ClockQoS). A subscriber that asks for reliable /clock, such as a
node subscribing with rclcpp's default QoS(10), gets nothing from
rosbag2's player, nor from this one: bag clock warns when it sees such a
reader, and --reliable publishes reliable instead.

It prints what it published as simclock pub does (--format json: env,
progress, summary lines); on a terminal a progress bar through the bag
goes to stderr. It stops at the end of the playback, after --duration of
wall-clock time, or on SIGINT or SIGTERM.

Examples:
  simclock bag clock rosbag2_2024_05_01-10_00_00
  simclock bag clock -r 2 --start-offset 30 -l run_0.mcap run_1.mcap
  simclock bag clock --clock-topics /tf /odom --start-paused rosbag2_2024_05_01-10_00_00
  simclock bag clock --clock 100 --playback-duration 60 rosbag2_2024_05_01-10_00_00`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.files = args
			if err := o.validate(cmd.Flags().Changed); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runBagClock(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.Float64VarP(&o.rate, "rate", "r", 1, "playback rate: sim seconds per wall second, as ros2 bag play -r")
	f.Float64Var(&o.hz, "clock", clockHzDefault, "publish the clock `HZ` times per second of wall time, as ros2 bag play --clock [HZ]")
	f.Lookup("clock").NoOptDefVal = strconv.Itoa(clockHzDefault)
	f.SetAnnotation("clock", optionalNumberAnnotation, []string{"true"}) //nolint:errcheck // the flag exists
	f.Float64Var(&o.hz, "clock-hz", clockHzDefault, "the same as --clock HZ")
	f.Float64Var(&o.hz, "hz", clockHzDefault, "the same as --clock HZ")
	f.StringSliceVar(&o.clockTopics, "clock-topics", nil, "publish /clock with the log time of each message of these `TOPIC`s, before it")
	f.BoolVar(&o.clockTopicsAll, "clock-topics-all", false, "publish /clock with the log time of every message, before it")
	f.BoolVarP(&o.loop, "loop", "l", false, "start again at the end (/clock jumps back)")
	f.BoolVarP(&o.startPaused, "start-paused", "p", false, "start with the clock paused (space resumes on a terminal)")
	f.BoolVar(&o.noKeyboard, "disable-keyboard-controls", false, "do not read keys (space pauses and resumes)")
	f.Var(units.Duration(&o.startOffset, units.NonNegative), "start-offset", "start this far into the bag (seconds, or 1.5s, 200ms)")
	f.VarP(units.Duration(&o.delay, units.NonNegative), "delay", "d", "wait this long before playing, each loop (seconds)")
	f.Var(units.Duration(&o.playbackDuration, units.NonNegative), "playback-duration", "play this much of the bag from the start (seconds of bag time)")
	f.Float64Var(&o.untilSec, "playback-until-sec", -1, "play until this log time, in seconds since the epoch")
	f.Int64Var(&o.untilNsec, "playback-until-nsec", -1, "play until this log time, in nanoseconds since the epoch")
	f.BoolVar(&o.reliable, "reliable", false, "publish RELIABLE instead of rosbag2's BEST_EFFORT")
	f.Var(units.Duration(&o.duration, units.NonNegative), "duration", durationHelp)
	o.node.add(f, "simclock_bag_clock")
	addTransportFlag(f, &o.transport, transportDDS)
	addFormatFlag(f, &o.format)
	return cmd
}

// validate checks the flags and files, changed telling which flags were
// given, and settles what they mean together.
func (o *bagClockOptions) validate(changed func(name string) bool) error {
	env := o.env
	if changed("clock-topics") {
		// ros2 bag play takes the topics space-separated: the arguments
		// that are topic names and no file are topics, not the bag.
		var files []string
		for _, a := range o.files {
			if _, err := os.Stat(a); err != nil && strings.HasPrefix(a, "/") && node.ValidateTopicName(a) == nil {
				o.clockTopics = append(o.clockTopics, a)
			} else {
				files = append(files, a)
			}
		}
		o.files = files
	}
	if len(o.files) == 0 {
		return flagErrorf("bag clock: no bag given")
	}
	if !(o.rate > 0) || math.IsInf(o.rate, 0) || o.rate > 1e6 {
		return flagErrorf("--rate %v: must be in (0, 1e6]", o.rate)
	}
	if !(o.hz > 0) || o.hz > 1e6 {
		name := "clock"
		for _, n := range []string{"clock-hz", "hz"} {
			if changed(n) {
				name = n
			}
		}
		return flagErrorf("--%s %v: must be in (0, 1e6] Hz", name, o.hz)
	}
	given := 0
	for _, n := range []string{"clock", "clock-hz", "hz"} {
		if changed(n) {
			given++
		}
	}
	if given > 1 {
		return flagErrorf("--clock, --clock-hz and --hz set the same rate: give one")
	}
	if changed("clock-topics") && o.clockTopicsAll {
		return flagErrorf("--clock-topics and --clock-topics-all: give one (the second means every topic)")
	}
	if changed("playback-until-sec") && changed("playback-until-nsec") {
		return flagErrorf("--playback-until-sec and --playback-until-nsec: give one")
	}
	for _, t := range o.clockTopics {
		if err := node.ValidateTopicName(t); err != nil {
			return flagErrorf("--clock-topics: %v", err)
		}
	}
	switch {
	case changed("playback-until-sec") && (math.IsNaN(o.untilSec) || math.IsInf(o.untilSec, 0) || o.untilSec < 0 || o.untilSec > math.MaxInt64/1e9):
		return flagErrorf("--playback-until-sec %v: want seconds since the epoch", o.untilSec)
	case changed("playback-until-nsec") && o.untilNsec < 0:
		return flagErrorf("--playback-until-nsec %d: want nanoseconds since the epoch", o.untilNsec)
	}
	// rosbag2 publishes the clock on a timer only with --clock; its
	// clock topics alone publish before their messages. Here the timer is
	// the default, since publishing /clock is the point.
	triggers := len(o.clockTopics) > 0 || o.clockTopicsAll
	o.periodic = !triggers || changed("clock") || changed("clock-hz") || changed("hz")
	o.hasDuration, o.hasUntilSec, o.hasUntilNsec = changed("playback-duration"), changed("playback-until-sec"), changed("playback-until-nsec")
	if o.startPaused && (o.noKeyboard || env.Keyboard == nil) {
		fmt.Fprintln(env.Stderr, "simclock: warning: --start-paused without a keyboard to resume: the clock stays paused")
	}
	// The node's /clock: --namespace and --ros-args remappings apply.
	var err error
	o.topic, err = o.node.topic(env, timemsg.ClockTopic)
	return err
}

// until returns the log time the playback must not pass, as rosbag2
// computes it: the later of start + --playback-duration and
// --playback-until-*; false when neither is given.
func (o *bagClockOptions) until(start int64) (int64, bool) {
	var until int64 = -1
	if o.hasDuration {
		until = start + o.playbackDuration.Nanoseconds()
	}
	switch {
	case o.hasUntilSec:
		until = max(until, int64(math.Round(o.untilSec*1e9)))
	case o.hasUntilNsec:
		until = max(until, o.untilNsec)
	}
	return until, until >= 0
}

func runBagClock(ctx context.Context, o *bagClockOptions) error {
	env := o.env
	topics := map[string]bool{}
	for _, t := range o.clockTopics {
		topics[t] = true
	}
	opts := bag.TimelineOptions{}
	if o.clockTopicsAll || len(topics) > 0 {
		opts.Keep = func(topic string) bool { return o.clockTopicsAll || topics[topic] }
	}
	// The first pass finds the start; --playback-* are relative to it.
	tl, err := bag.ReadTimeline(ctx, o.files, opts)
	if errors.Is(err, bag.ErrUsage) || errors.Is(err, bag.ErrInput) {
		return &usageError{err} // the same file twice, a directory beside its files, no such file, a pipe
	}
	if err != nil {
		return err
	}
	start := tl.First
	if off := o.startOffset.Nanoseconds(); off > 0 {
		if off > tl.Last-tl.First {
			return flagErrorf("--start-offset %s: the bag lasts only %s s", units.Exact(off), value(tl.Last-tl.First))
		}
		start += off
	}
	stop := tl.Last
	if until, ok := o.until(start); ok {
		opts.Until, opts.HasUntil = until, true
		if tl, err = bag.ReadTimeline(ctx, o.files, opts); err != nil {
			return err
		}
		stop = start // nothing to play before the until time
		if tl.HaveUntil && tl.LastUntil > start {
			stop = tl.LastUntil
		}
	}
	for _, t := range o.clockTopics {
		if !slices.Contains(tl.Topics, t) {
			fmt.Fprintf(env.Stderr, "simclock: warning: --clock-topics %s: the bag has no message on it\n", term.Escape(t))
		}
	}
	period := time.Duration(float64(time.Second) / o.hz)
	cfg := clockstream.PlaybackConfig{Start: time.Duration(start), Stop: time.Duration(stop), Rate: o.rate,
		Delay: o.delay, Loop: o.loop && (stop > start || o.delay > 0), StartPaused: o.startPaused}
	if o.periodic {
		cfg.Period = period
	}
	for _, t := range tl.Kept {
		cfg.Triggers = append(cfg.Triggers, time.Duration(t))
	}
	pb, err := clockstream.NewPlayback(cfg)
	if err != nil {
		return fmt.Errorf("bag clock: %w", err)
	}
	spec := playSpec{command: "bag clock", topic: o.topic, transport: o.transport, node: &o.node,
		format: o.format, duration: o.duration, bestEffort: !o.reliable,
		period: period, step: time.Duration(o.rate * float64(period)), rtf: o.rate,
		cadence: o.cadence(period),
		about: fmt.Sprintf("bag %s → %s s (first to last message played), at rate %s", value(tl.First), value(stop),
			strconv.FormatFloat(o.rate, 'f', -1, 64))}
	if start != tl.First {
		spec.about += fmt.Sprintf("\nstarting at %s s (--start-offset %s)", value(start), units.Exact(o.startOffset.Nanoseconds()))
	}
	var bar *bagClockBar
	if env.StderrIsTTY {
		bar = &bagClockBar{w: env.Stderr, start: start, end: stop, last: -1}
		defer bar.clear()
		spec.around = func(write func()) {
			bar.clear()
			write()
			bar.redraw()
		}
	}
	spec.onTick = func(t clockstream.Tick, err error) {
		pb.Sent(t)
		if bar != nil && err == nil && !t.Skip {
			bar.tick(t)
		}
	}
	if env.Keyboard != nil && !o.noKeyboard {
		spec.attach = func(exec *executor.Executor, player *clockstream.Player) func() {
			return attachKeyboard(env, exec, func(key byte) {
				if key != ' ' {
					return
				}
				pb.Toggle(player.Elapsed())
				player.Rearm()
				if bar != nil {
					bar.paused = pb.Paused()
					bar.redraw()
				}
			})
		}
	}
	return play(ctx, env, spec, pb)
}

// cadence says when /clock goes out, for the header.
func (o *bagClockOptions) cadence(period time.Duration) string {
	var parts []string
	switch {
	case o.clockTopicsAll:
		parts = append(parts, "before every message")
	case len(o.clockTopics) > 0:
		parts = append(parts, "before each message of "+strings.Join(o.clockTopics, ", "))
	}
	if o.periodic {
		parts = append(parts, fmt.Sprintf("every %s s, +%s s per message", span(period), span(time.Duration(o.rate*float64(period)))))
	}
	return strings.Join(parts, " and ")
}

// bagClockBar shows on a terminal how far through the bag /clock is.
type bagClockBar struct {
	w          io.Writer
	start, end int64
	last       int
	value      int64
	paused     bool
}

func (b *bagClockBar) tick(t clockstream.Tick) {
	b.value = t.Sim.Nanoseconds()
	done, total := b.value-b.start, b.end-b.start
	pct := 100
	if total > 0 {
		pct = int(max(0, min(done, total)) * 100 / total)
	}
	if pct == b.last {
		return
	}
	b.last = pct
	b.redraw()
}

func (b *bagClockBar) redraw() {
	const width = 30
	pct := max(b.last, 0)
	fill := pct * width / 100
	state := ""
	if b.paused {
		state = "  PAUSED (space resumes)"
	}
	fmt.Fprintf(b.w, "\r\033[K[%s%s] %3d%%  bag time %s s%s", strings.Repeat("#", fill), strings.Repeat(" ", width-fill), pct, value(b.value), state)
}

func (b *bagClockBar) clear() { fmt.Fprint(b.w, "\r\033[K") }

// A Keyboard gives the keys typed on the terminal, one byte each, without
// echo; Close gives the terminal back as it was. cmd/simclock opens one
// when standard input is a terminal.
type Keyboard interface {
	Keys() <-chan byte
	Close() error
}

// attachKeyboard calls onKey on exec's goroutine for each key typed, until
// the returned function is called.
func attachKeyboard(env *Env, exec *executor.Executor, onKey func(byte)) func() {
	kb, err := env.Keyboard()
	if err != nil || kb == nil {
		return func() {}
	}
	sub := newKeySubscription(kb.Keys())
	remove := exec.Subscribe(sub, func(s transport.Sample) {
		for _, k := range s.Data {
			onKey(k)
		}
	})
	return func() {
		remove()
		sub.Close() //nolint:errcheck // always nil
		kb.Close()  //nolint:errcheck // the terminal is restored or gone
	}
}

// keySubscription makes typed keys a transport.Subscription, so that an
// executor calls their handler on its own goroutine, in virtual time too
// (it takes them straight from the channel).
type keySubscription struct {
	keys   <-chan byte
	notify chan struct{}
	stop   chan struct{}
}

func newKeySubscription(keys <-chan byte) *keySubscription {
	s := &keySubscription{keys: keys, notify: make(chan struct{}, 1), stop: make(chan struct{})}
	go func() {
		// Notify without taking: a key waits in the channel for Take.
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-tick.C:
				if len(s.keys) > 0 {
					select {
					case s.notify <- struct{}{}:
					default:
					}
				}
			}
		}
	}()
	return s
}

func (s *keySubscription) Take() (transport.Sample, bool) {
	select {
	case k, ok := <-s.keys:
		if !ok {
			return transport.Sample{}, false
		}
		return transport.Sample{Data: []byte{k}}, true
	default:
		return transport.Sample{}, false
	}
}

func (s *keySubscription) Notify() <-chan struct{}                    { return s.notify }
func (s *keySubscription) MatchedPublishers() []transport.PublisherID { return nil }
func (s *keySubscription) Close() error {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	return nil
}
