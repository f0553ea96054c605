// Package experiment runs simclock's experiments on its own runtime and predicts
// their outcome in closed form.
//
// The startup experiment asks the question every sim-time user meets: if
// my simulator starts its clock at S, how many of my callbacks that
// compute now() - W fail, return time 0, or succeed, and when? It runs a
// fake simulator node and a subject node on one executor, in virtual time
// (deterministic, milliseconds) or in real time, replays the subtraction
// for several windows, and sets the measurement beside the prediction of
// Predict (R25, R26).
package experiment

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/guard"
	"github.com/simclock/simclock/node"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/inproc"
	"github.com/simclock/simclock/virtualclock"
)

// Mode selects how the experiment's time passes.
type Mode string

// Modes.
const (
	Virtual  Mode = "virtual"  // fake clocks, no sleeping, deterministic
	Realtime Mode = "realtime" // the OS clocks
)

// StartupConfig is the startup experiment's parameters. DefaultStartup
// returns the reference experiment.
type StartupConfig struct {
	Starts      []time.Duration // simulator start times S
	Windows     []time.Duration // windows W replayed on every recorded now()
	TimerHz     []float64       // sim-clock (ROS) timers of the subject
	WallTimerHz float64         // the subject's steady timer computing now() - CtorWindow
	CtorWindow  time.Duration   // window used in the constructor and wall timer (1 s)
	ClockStep   time.Duration   // sim time per /clock message
	ClockPeriod time.Duration   // wall time between /clock messages
	ClockEvery  int             // publish one /clock message in ClockEvery (1 = all)
	PreClock    time.Duration   // wall wait after the subscription matched
	MatchDelay  time.Duration   // wall time from subject creation to "matched"
	Duration    time.Duration   // sim time after S at which the run ends
	// ClockDepth is the depth of the subject's /clock subscription; 0
	// means 1, what rclpy and rclcpp use (R16). Over a real transport on a
	// busy machine a deeper queue keeps every message.
	ClockDepth int
	Mode       Mode
	// NewTransport returns a fresh, isolated pair of attachments for one
	// scenario (its own bus or domain). Nil means a new inproc bus. With
	// ExternalSimulator set, sim may be nil.
	NewTransport func(scenario int) (sim, subject transport.Transport, closeFn func(), err error)
	// ExternalSimulator, when set, starts the fake simulator outside this
	// process for a scenario (RunSimulator in a child process over DDS)
	// and returns a function that waits for it to end. The run is then
	// in real time.
	ExternalSimulator func(ctx context.Context, scenario int, start time.Duration) (wait func() error, err error)
	// KeepTicks records every subject callback in ScenarioResult.Ticks,
	// for plots. Without it a scenario's memory does not grow with
	// Duration: every count is kept as the run goes.
	KeepTicks bool
}

// DefaultStartup returns the reference experiment, the one simclock
// experiment startup runs by default.
func DefaultStartup() StartupConfig {
	return StartupConfig{
		Starts:      []time.Duration{0, 500 * time.Millisecond, time.Second, 100 * time.Second},
		Windows:     []time.Duration{250 * time.Millisecond, time.Second, 2 * time.Second},
		TimerHz:     []float64{10, 20},
		WallTimerHz: 20,
		CtorWindow:  time.Second,
		ClockStep:   10 * time.Millisecond,
		ClockPeriod: 5 * time.Millisecond,
		ClockEvery:  1,
		PreClock:    500 * time.Millisecond,
		MatchDelay:  20 * time.Millisecond,
		Duration:    2500 * time.Millisecond,
		Mode:        Virtual,
	}
}

// Validate checks the configuration and names the first bad field.
func (c StartupConfig) Validate() error {
	switch {
	case len(c.Starts) == 0:
		return fmt.Errorf("experiment: no start times")
	case c.ClockStep <= 0:
		return fmt.Errorf("experiment: clock step %s must be positive", FormatSeconds(int64(c.ClockStep)))
	case c.ClockPeriod <= 0:
		return fmt.Errorf("experiment: clock period %s must be positive", FormatSeconds(int64(c.ClockPeriod)))
	case c.ClockDepth < 0:
		return fmt.Errorf("experiment: clock depth %d must not be negative", c.ClockDepth)
	case c.ClockEvery < 1:
		return fmt.Errorf("experiment: clock-every %d must be at least 1", c.ClockEvery)
	case c.Duration <= 0:
		return fmt.Errorf("experiment: duration %s must be positive", FormatSeconds(int64(c.Duration)))
	case c.WallTimerHz <= 0:
		return fmt.Errorf("experiment: wall timer rate %v Hz must be positive", c.WallTimerHz)
	case c.PreClock < 0 || c.MatchDelay < 0:
		return fmt.Errorf("experiment: pre-clock %s and match delay %s must not be negative", FormatSeconds(int64(c.PreClock)), FormatSeconds(int64(c.MatchDelay)))
	case c.Mode != Virtual && c.Mode != Realtime:
		return fmt.Errorf("experiment: mode %q: want virtual or realtime", c.Mode)
	}
	for _, s := range c.Starts {
		if s < 0 {
			return fmt.Errorf("experiment: start time %s must not be negative", FormatSeconds(int64(s)))
		}
		if end, err := simclock.AddDurations(s, c.Duration); err != nil || end > maxClockValue {
			return fmt.Errorf("experiment: start %s + duration %s is past the last /clock value, %s (int32 seconds): %w",
				FormatSeconds(int64(s)), FormatSeconds(int64(c.Duration)), FormatSeconds(int64(maxClockValue)), simclock.ErrOutOfRange)
		}
	}
	for _, hz := range append([]float64{c.WallTimerHz}, c.TimerHz...) {
		if !(hz > 0) || math.IsInf(hz, 0) {
			return fmt.Errorf("experiment: timer rate %v Hz must be positive", hz)
		}
	}
	for _, w := range c.Windows {
		if w <= 0 {
			return fmt.Errorf("experiment: window %s must be positive", FormatSeconds(int64(w)))
		}
	}
	for _, hz := range c.TimerHz {
		in := PredictInput{Window: 1, Hz: hz, ClockStep: c.ClockStep, Duration: c.Duration}
		if err := in.Check(); err != nil {
			return err
		}
	}
	if c.Duration/c.ClockStep > MaxTicks {
		return fmt.Errorf("experiment: %s in /clock steps of %s is more than %d messages", FormatSeconds(int64(c.Duration)), FormatSeconds(int64(c.ClockStep)), MaxTicks)
	}
	// In float64: the wall run in ns can pass int64 (a long run of slow
	// messages), and converting such a float to a Duration is undefined.
	wallRun := float64(c.Duration/c.ClockStep+1)*float64(c.ClockPeriod) + float64(c.MatchDelay) + float64(c.PreClock)
	if periodOf(c.WallTimerHz) <= 0 || wallRun/float64(periodOf(c.WallTimerHz)) > MaxTicks {
		return fmt.Errorf("experiment: the %v Hz wall timer would tick more than %d times", c.WallTimerHz, MaxTicks)
	}
	return nil
}

// maxClockValue is the last time a /clock message holds: INT32_MAX s +
// 999999999 ns (rclcpp's Time::max()).
const maxClockValue = simclock.MaxMessageDuration

// Outcome classifies now() - W.
type Outcome string

// Outcomes of a window subtraction.
const (
	OutcomeError    Outcome = "error"    // negative: rclpy raises
	OutcomeZero     Outcome = "zero"     // exactly time 0: tf2 reads "latest"
	OutcomePositive Outcome = "positive" // a real instant
)

// Classify returns the outcome of now - w.
func Classify(now int64, w time.Duration) Outcome {
	switch d := now - int64(w); {
	case d < 0:
		return OutcomeError
	case d == 0:
		return OutcomeZero
	}
	return OutcomePositive
}

// A Tick is one subject callback as recorded.
type Tick struct {
	Timer  string // "wall" or "sim10" style label
	Hz     float64
	WallNs int64 // steady time since the subject was created
	NowNs  int64 // the subject's now() in the callback
}

// ScenarioResult is the measurement of one start time, with the JSON
// schema of `simclock experiment startup --format json`.
type ScenarioResult struct {
	S            time.Duration    `json:"S_ns"` // the simulator's start time
	Ctor         CtorResult       `json:"ctor"`
	WallTimer    WallTimerResult  `json:"wall_timer"`
	SimTimers    []SimTimerResult `json:"sim_timers"`
	Windows      []WindowResult   `json:"windows"`
	PreClockWall time.Duration    `json:"pre_clock_wall_ns"` // wall time to the first /clock
	MeasuredRTF  float64          `json:"measured_rtf"`
	OffGrid      int              `json:"off_grid_callbacks"`
	Published    int              `json:"clock_messages"`
	// Lost counts /clock messages the simulator published that the
	// subject never received: a depth-1 best-effort subscription drops the
	// older of two samples that arrive between two takes (R16). Zero in
	// virtual time.
	Lost int `json:"lost_clock_messages"`
	// Ticks is every subject callback, for plots, when the
	// configuration's KeepTicks is set; not part of the JSON.
	Ticks []Tick `json:"-"`
}

// CtorResult is what the subject's constructor saw.
type CtorResult struct {
	NowNs   int64   `json:"now_ns"`
	Minus1s Outcome `json:"minus_1s"`
}

// WallTimerResult counts the steady timer's now() - 1 s.
type WallTimerResult struct {
	Hz        float64 `json:"hz"`
	CallsNow0 int     `json:"calls_now0"`
	// PredictedCallsNow0 is R26's count: every tick of the wall timer up
	// to the first /clock, at the time it actually arrived.
	PredictedCallsNow0 int `json:"predicted_calls_now0"`
	ExcNow0            int `json:"exc_now0"`
	CallsAfterClock    int `json:"calls_after_clock"`
	ExcAfterClock      int `json:"exc_after_clock"`
}

// SimTimerResult counts one sim-clock timer's calls.
type SimTimerResult struct {
	Hz                    float64 `json:"hz"`
	Calls                 int     `json:"calls"`
	FirstNow              int64   `json:"first_now_ns"`
	CallsBeforeFirstClock int     `json:"calls_before_first_clock"`
}

// WindowResult is the replay of now() - W on one sim timer's ticks.
type WindowResult struct {
	W                   time.Duration `json:"W_ns"`
	Hz                  float64       `json:"hz"`
	Exceptions          int           `json:"exceptions"`
	Zeros               int           `json:"zeros"`
	Positives           int           `json:"positives"`
	FirstPositiveNow    *int64        `json:"first_positive_now_ns"`
	PredictedExceptions int           `json:"predicted_exceptions"`
	PredictedZeros      int           `json:"predicted_zeros"`
	// ReceivedExceptions and ReceivedZeros are the prediction from the
	// /clock values the subject actually received (TicksFromClock): equal
	// to the Predicted counts when no message was lost, and what a real-
	// time run must match whatever the machine's load.
	ReceivedExceptions int          `json:"predicted_from_received_exceptions"`
	ReceivedZeros      int          `json:"predicted_from_received_zeros"`
	GuardLE            GuardOutcome `json:"guard_le"`
	GuardEq0OrLt       GuardOutcome `json:"guard_eq0_or_lt"`
}

// Matched reports whether the measurement equals the prediction.
func (w WindowResult) Matched() bool {
	return w.Exceptions == w.PredictedExceptions && w.Zeros == w.PredictedZeros
}

// GuardOutcome counts what got past a guard.
type GuardOutcome struct {
	Exceptions int `json:"exceptions"`
	Zeros      int `json:"zeros"`
}

// HistoryResult is the tf2-style lookup demonstration (R28).
type HistoryResult struct {
	StoredStamps  []int64 `json:"stored_stamps_ns"`
	QueryZeroGot  int64   `json:"query_zero_stamp_ns"`
	Query99Got    int64   `json:"query_99_stamp_ns"`
	StrictZeroErr string  `json:"strict_query_zero_error"`
}

// RunStartup runs every scenario of cfg in order. progress, when set, is
// called after each scenario.
func RunStartup(ctx context.Context, cfg StartupConfig, progress func(done, total int)) ([]ScenarioResult, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	results := make([]ScenarioResult, 0, len(cfg.Starts))
	for i, s := range cfg.Starts {
		r, err := runScenario(ctx, cfg, i, s)
		if err != nil {
			return results, fmt.Errorf("experiment: scenario S=%v: %w", s, err)
		}
		results = append(results, r)
		if progress != nil {
			progress(i+1, len(cfg.Starts))
		}
	}
	return results, nil
}

func runScenario(ctx context.Context, cfg StartupConfig, index int, start time.Duration) (ScenarioResult, error) {
	var fake *virtualclock.Clock
	if cfg.Mode == Virtual && cfg.ExternalSimulator == nil {
		fake = virtualclock.New()
	}
	exec := executor.New(executor.Config{Virtual: fake})
	defer exec.Close()

	simTr, subjTr, closeTr, err := newTransports(cfg, index)
	if err != nil {
		return ScenarioResult{}, err
	}
	defer closeTr()

	// The fake simulator: in this process on the same executor, or
	// elsewhere (another process over DDS).
	var sim *simulator
	var waitExternal func() error
	if cfg.ExternalSimulator == nil {
		simNode, err := node.New("fake_simulator", exec, simTr, node.Options{})
		if err != nil {
			return ScenarioResult{}, err
		}
		defer simNode.Close()
		sim, err = newSimulator(exec, simNode, cfg, start)
		if err != nil {
			return ScenarioResult{}, err
		}
		defer sim.close()
	} else {
		waitExternal, err = cfg.ExternalSimulator(ctx, index, start)
		if err != nil {
			return ScenarioResult{}, fmt.Errorf("start the simulator: %w", err)
		}
	}

	r := ScenarioResult{S: start}
	created := exec.Steady().Now().Nanoseconds()
	wallSince := func() int64 { return exec.Steady().Now().Nanoseconds() - created }

	// The subject sees every /clock before applying it: the run ends as
	// soon as the message carrying S+Duration arrives, unapplied, so
	// callbacks due at that instant do not run.
	endValue := int64(start + cfg.Duration)
	var firstValue, lastValue, firstWall, lastWall int64
	tl := newTally(cfg, start)
	beforeClock := func(t simclock.Time[simclock.ROS]) bool {
		r.Published++
		if t.Nanoseconds() >= endValue {
			exec.Stop()
			return false
		}
		if r.Published == 1 {
			firstValue, firstWall = t.Nanoseconds(), wallSince()
		}
		lastValue, lastWall = t.Nanoseconds(), wallSince()
		tl.clock(t.Nanoseconds())
		return true
	}
	clockQoS := transport.ClockSubscriptionQoS
	clockQoS.Depth = max(cfg.ClockDepth, 1)
	subject, err := node.New("subject", exec, subjTr, node.Options{UseSimTime: true, BeforeClock: beforeClock, ClockQoS: &clockQoS})
	if err != nil {
		return r, err
	}
	defer subject.Close()
	if sim != nil {
		sim.begin()
	}

	// The subject's constructor computes now() - 1 s.
	ctorNow := subject.Now().Nanoseconds()
	r.Ctor = CtorResult{NowNs: ctorNow, Minus1s: Classify(ctorNow, cfg.CtorWindow)}

	ts := subject.TimeSource()
	r.WallTimer.Hz = cfg.WallTimerHz
	if _, err := subject.CreateWallTimer(periodOf(cfg.WallTimerHz), func(timer.Info) {
		now := subject.Now().Nanoseconds()
		failed := Classify(now, cfg.CtorWindow) == OutcomeError
		if !ts.FirstClockReceived() {
			r.WallTimer.CallsNow0++
			if failed {
				r.WallTimer.ExcNow0++
			}
		} else {
			r.WallTimer.CallsAfterClock++
			if failed {
				r.WallTimer.ExcAfterClock++
			}
		}
		if cfg.KeepTicks {
			r.Ticks = append(r.Ticks, Tick{Timer: "wall", Hz: cfg.WallTimerHz, WallNs: wallSince(), NowNs: now})
		}
	}); err != nil {
		return r, err
	}
	for i, hz := range cfg.TimerHz {
		label := fmt.Sprintf("sim%g", hz)
		if _, err := subject.CreateTimer(periodOf(hz), func(timer.Info) {
			now := subject.Now().Nanoseconds()
			tl.simTick(i, now)
			if cfg.KeepTicks {
				r.Ticks = append(r.Ticks, Tick{Timer: label, Hz: hz, WallNs: wallSince(), NowNs: now})
			}
		}); err != nil {
			return r, err
		}
	}

	spinCtx := ctx
	if cfg.Mode == Realtime {
		// A simulator that never finishes must not hang the run.
		// Four times the wall run plus 30 s, saturated: Duration·ClockPeriod
		// overflows int64 for long runs, and a wrapped limit would be
		// negative, ending the run at once.
		run, err := simclock.ScaleDurationFloat(cfg.Duration, 4*float64(cfg.ClockPeriod)/float64(cfg.ClockStep))
		if err != nil {
			run = simclock.MaxDuration
		}
		limit := simclock.SaturatingAdd(simclock.SaturatingAdd(cfg.MatchDelay, cfg.PreClock), simclock.SaturatingAdd(run, 30*time.Second))
		var cancel context.CancelFunc
		spinCtx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	spinErr := exec.Spin(spinCtx)
	if sim != nil && sim.err != nil {
		return r, sim.err
	}
	if waitExternal != nil {
		if err := waitExternal(); err != nil && spinErr == nil {
			return r, fmt.Errorf("simulator: %w", err)
		}
	}
	if spinErr != nil {
		if errors.Is(spinErr, executor.ErrIdle) && r.Published == 0 {
			return r, fmt.Errorf("no /clock message arrived")
		}
		return r, spinErr
	}

	r.SimTimers, r.Windows, r.OffGrid = tl.results()
	r.Lost = expectedMessages(cfg, start) - r.Published
	if r.Published > 0 {
		r.PreClockWall = time.Duration(firstWall)
		r.WallTimer.PredictedCallsNow0 = WallCallsBeforeClock(periodOf(cfg.WallTimerHz), time.Duration(firstWall))
	}
	if lastWall > firstWall {
		r.MeasuredRTF = round6(float64(lastValue-firstValue) / float64(lastWall-firstWall))
	}
	return r, nil
}

// A tally keeps a scenario's counts as the run goes, so that its memory
// does not grow with the run's length: each sim timer's calls, the
// replay of every window on its ticks, and the same replay on the ticks
// the /clock values the subject received give (TicksFromClock, one value
// at a time).
type tally struct {
	cfg      StartupConfig
	start    time.Duration
	timers   []SimTimerResult
	offGrid  int
	windows  []WindowResult // measured, window-major: [w*len(TimerHz)+i]
	received []WindowResult // predicted from the received /clock values, same order
	tickers  []clockTicker  // per sim timer, on the received values
}

func newTally(cfg StartupConfig, start time.Duration) *tally {
	t := &tally{cfg: cfg, start: start}
	for _, hz := range cfg.TimerHz {
		t.timers = append(t.timers, SimTimerResult{Hz: hz})
		t.tickers = append(t.tickers, newClockTicker(periodOf(hz)))
	}
	for _, w := range cfg.Windows {
		for _, hz := range cfg.TimerHz {
			t.windows = append(t.windows, WindowResult{W: w, Hz: hz})
			t.received = append(t.received, WindowResult{W: w})
		}
	}
	return t
}

// simTick counts one call of sim timer i, whose now() was now.
func (t *tally) simTick(i int, now int64) {
	st := &t.timers[i]
	if st.Calls == 0 {
		st.FirstNow = now
	}
	st.Calls++
	if now == 0 {
		st.CallsBeforeFirstClock++
	}
	if now%int64(periodOf(st.Hz)) != 0 {
		t.offGrid++
	}
	for w := range t.cfg.Windows {
		t.windows[w*len(t.timers)+i].add(now)
	}
}

// clock counts one /clock value the subject applied.
func (t *tally) clock(v int64) {
	for i := range t.tickers {
		if t.tickers[i].observe(v) {
			for w := range t.cfg.Windows {
				t.received[w*len(t.timers)+i].add(v)
			}
		}
	}
}

// results returns each sim timer's counts, the replay of every window
// with its predictions beside it, and the number of calls off the
// timer's period grid.
func (t *tally) results() (timers []SimTimerResult, windows []WindowResult, offGrid int) {
	windows = make([]WindowResult, len(t.windows))
	for k, wr := range t.windows {
		in := PredictInput{Start: t.start, Window: wr.W, Hz: wr.Hz, ClockStep: t.cfg.ClockStep * time.Duration(t.cfg.ClockEvery), Duration: t.cfg.Duration}
		wr.PredictedExceptions, wr.PredictedZeros = predictCounts(in)
		wr.ReceivedExceptions, wr.ReceivedZeros = t.received[k].Exceptions, t.received[k].Zeros
		windows[k] = wr
	}
	return t.timers, windows, t.offGrid
}

// expectedMessages counts the /clock messages the simulator publishes for
// one scenario, the final one included.
func expectedMessages(cfg StartupConfig, start time.Duration) int {
	n := 0
	end := int64(start + cfg.Duration)
	for k := int64(0); ; k++ {
		value := int64(start) + k*int64(cfg.ClockStep)
		if value >= end {
			return n + 1
		}
		if k%int64(cfg.ClockEvery) == 0 {
			n++
		}
	}
}

func newTransports(cfg StartupConfig, index int) (transport.Transport, transport.Transport, func(), error) {
	if cfg.NewTransport != nil {
		return cfg.NewTransport(index)
	}
	bus := inproc.NewBus()
	a, b := bus.Connect("fake_simulator"), bus.Connect("subject")
	return a, b, func() { a.Close(); b.Close() }, nil
}

// add classifies now - W for one more tick, raw and behind the two
// guards.
func (wr *WindowResult) add(now int64) {
	w := wr.W
	switch Classify(now, w) {
	case OutcomeError:
		wr.Exceptions++
	case OutcomeZero:
		wr.Zeros++
	case OutcomePositive:
		wr.Positives++
		if wr.FirstPositiveNow == nil {
			v := now
			wr.FirstPositiveNow = &v
		}
	}
	// "skip if now <= W" (R27): nothing gets past.
	if !(now <= int64(w)) {
		if o := Classify(now, w); o == OutcomeError {
			wr.GuardLE.Exceptions++
		} else if o == OutcomeZero {
			wr.GuardLE.Zeros++
		}
	}
	// "skip if now == 0 or now < W": the boundary tick gets through.
	if !(now == 0 || now < int64(w)) {
		if o := Classify(now, w); o == OutcomeError {
			wr.GuardEq0OrLt.Exceptions++
		} else if o == OutcomeZero {
			wr.GuardEq0OrLt.Zeros++
		}
	}
}

// HistoryDemo stores transforms stamped 98, 99 and 100 s and looks up
// time 0 (non-strict, as tf2 does) and 99 s (R28).
func HistoryDemo() HistoryResult {
	h := guard.History[simclock.ROS, string]{}
	strict := guard.History[simclock.ROS, string]{Strict: true}
	res := HistoryResult{}
	for _, s := range []float64{98, 99, 100} {
		t, _ := simclock.NewTime[simclock.ROS](s, 0)
		h.Add(t, fmt.Sprintf("transform@%g", s))
		strict.Add(t, fmt.Sprintf("transform@%g", s))
		res.StoredStamps = append(res.StoredStamps, t.Nanoseconds())
	}
	if e, err := h.Lookup(simclock.Time[simclock.ROS]{}); err == nil {
		res.QueryZeroGot = e.Stamp.Nanoseconds()
	}
	t99, _ := simclock.NewTime[simclock.ROS](99, 0)
	if e, err := h.Lookup(t99); err == nil {
		res.Query99Got = e.Stamp.Nanoseconds()
	}
	if _, err := strict.Lookup(simclock.Time[simclock.ROS]{}); err != nil {
		res.StrictZeroErr = err.Error()
	}
	return res
}

func periodOf(hz float64) time.Duration {
	d, _ := simclock.DurationOf(1/hz, 0)
	return d
}

func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }
