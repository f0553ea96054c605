package experiment

import (
	"fmt"
	"math"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/internal/units"
)

// MaxTicks bounds the ticks and /clock messages one prediction or
// scenario may involve, so a typo such as --hz 1e9 is an error, not a
// machine brought to its knees.
const MaxTicks = 10_000_000

// Check reports inputs Predict cannot answer: non-positive rates, steps or
// durations, a negative start, or more than MaxTicks ticks or messages.
func (in PredictInput) Check() error {
	switch {
	case in.Start < 0:
		return fmt.Errorf("experiment: start %s must not be negative", FormatSeconds(int64(in.Start)))
	case in.Window <= 0:
		return fmt.Errorf("experiment: window %s must be positive", FormatSeconds(int64(in.Window)))
	case !(in.Hz > 0) || periodOf(in.Hz) <= 0:
		return fmt.Errorf("experiment: timer rate %v Hz must be positive and below 1 GHz", in.Hz)
	case in.ClockStep <= 0:
		return fmt.Errorf("experiment: clock step %s must be positive", FormatSeconds(int64(in.ClockStep)))
	case in.Duration <= 0:
		return fmt.Errorf("experiment: duration %s must be positive", FormatSeconds(int64(in.Duration)))
	case overflows(in.Start, in.Duration):
		return fmt.Errorf("experiment: start %s + duration %s: %w", FormatSeconds(int64(in.Start)), FormatSeconds(int64(in.Duration)), simclock.ErrOverflow)
	case in.Duration/periodOf(in.Hz) > MaxTicks:
		return fmt.Errorf("experiment: a run of %s at %v Hz is more than %d ticks", FormatSeconds(int64(in.Duration)), in.Hz, MaxTicks)
	case in.Duration/in.ClockStep > MaxTicks:
		return fmt.Errorf("experiment: a run of %s in /clock steps of %s is more than %d messages", FormatSeconds(int64(in.Duration)), FormatSeconds(int64(in.ClockStep)), MaxTicks)
	}
	return nil
}

// PredictInput describes one sim-clock timer and one window.
type PredictInput struct {
	Start     time.Duration // S: the first /clock value
	Window    time.Duration // W
	Hz        float64       // f: the timer rate; its period is trunc(1e9/f) ns
	ClockStep time.Duration // Δ: sim time between applied /clock messages
	Duration  time.Duration // D: the run ends when S+D is published (not applied)
}

// Prediction is the answer to "how many callbacks computing now() - W
// fail, return 0, or succeed, and when?".
type Prediction struct {
	Period           time.Duration
	Ticks            []int64 // the now() of every tick, in ns
	Exceptions       int     // ticks where now - W < 0
	Zeros            int     // ticks where now - W == 0
	Positives        int
	FirstPositiveNow *int64 // ns; nil when no tick is positive
	// ClosedForm is true when the closed forms apply (Δ divides the
	// period and S is on the clock grid); Formula then gives the counts
	// without enumeration and agrees with Ticks.
	ClosedForm bool
	Reasoning  []string
}

// Predict computes the ticks of a sim-clock timer created at ROS time 0
// under rcl's semantics, and classifies now - W on each.
//
// The model, in rcl's terms (R19-R23): the timer is created while the
// clock reads 0, so last_call = 0 and next_call = T. The simulator's
// /clock values are S, S+Δ, S+2Δ, ... up to but excluding S+D. A value
// at or past next_call makes the timer fire once with now = that value,
// and next_call moves to the first multiple of T after now (missed
// periods are skipped, phase kept). A first value S > 0 is a forward
// jump: if S >= T the timer fires once at S (R23). So the ticks are
// {first clock value >= m·T : m >= 1}, without repeats.
//
// The work grows with the number of ticks in the run (D/T), never with S:
// every deadline m·T <= S maps to the one tick at S, so the enumeration
// starts at m = floor(S/T), as rcl's timer skips the missed periods in
// one division.
func Predict(in PredictInput) Prediction {
	p := Prediction{Period: periodOf(in.Hz)}
	if err := in.Check(); err != nil {
		p.Reasoning = append(p.Reasoning, "no prediction: "+err.Error())
		return p
	}
	T, S, Δ, W := int64(p.Period), int64(in.Start), int64(in.ClockStep), int64(in.Window)
	end := S + int64(in.Duration) // Check rules out overflow
	eachTick(in, func(now int64) {
		p.Ticks = append(p.Ticks, now)
		switch Classify(now, in.Window) {
		case OutcomeError:
			p.Exceptions++
		case OutcomeZero:
			p.Zeros++
		default:
			p.Positives++
			if p.FirstPositiveNow == nil {
				v := now
				p.FirstPositiveNow = &v
			}
		}
	})

	sec := FormatSeconds
	p.ClosedForm = T%Δ == 0 && S%Δ == 0 && W < end
	say := func(format string, args ...any) { p.Reasoning = append(p.Reasoning, fmt.Sprintf(format, args...)) }
	say("The timer runs at %g Hz, so its period T is %s s; it is created while the clock reads 0, so its first deadline is T (R19).", in.Hz, units.Span(p.Period))
	switch {
	case S == 0:
		say("The first /clock carries 0: no jump, so the first tick comes at T = %s s and then every T (R23).", units.Span(T))
	case S >= T:
		say("The first /clock carries S = %s ≥ T: a forward jump past the deadline, so the timer fires once, immediately, with now = S (R22, R23), then on the multiples of T after S.", sec(S))
	default:
		say("The first /clock carries S = %s < T: a jump, but not past the deadline T, so the first tick comes at T.", sec(S))
	}
	if p.ClosedForm {
		// E = [T <= S < W] + #{m : max(S, 0) < mT < W}
		//   = [T <= S < W] + max(0, ceil(W/T) - 1 - floor(S/T));
		// Z = [S == W and S >= T] + [T divides W and W > S].
		ceilWT := (W + T - 1) / T
		e := max(0, ceilWT-1-S/T)
		if T <= S && S < W {
			e++
		}
		z := 0
		if S == W && S >= T {
			z++
		}
		if W%T == 0 && W > S {
			z++
		}
		say("Closed form (Δ = %s divides T and S is on the clock grid): errors E = [T ≤ S < W] + max(0, ceil(W/T) − 1 − floor(S/T)) = %d; zeros Z = [S = W ≥ T] + [T divides W and W > S] = %d.", sec(int64(in.ClockStep)), e, z)
		if S == 0 {
			say("With S = 0 this is R25: ceil(W·f) − 1 ticks raise, and when W·f is whole the tick k = W·f yields time 0 exactly.")
		} else if S <= W && S%T == 0 {
			say("With 0 < S ≤ W and S a whole number of periods, E = (W − S)·f = %d.", (W-S)/T)
		}
		if int(e) != p.Exceptions || z != p.Zeros {
			// The formulas and the enumeration are two derivations of one
			// model; disagreement is a bug worth shouting about.
			say("WARNING: the closed form (%d, %d) disagrees with the enumeration (%d, %d).", e, z, p.Exceptions, p.Zeros)
		}
	} else {
		say("The clock step Δ = %s does not divide T (or S is off its grid), so a deadline m·T fires at the first clock value at or after it: the boundary tick can shift past W and a zero result needs W itself to be a clock value. These counts come from enumerating that rule exactly; no simpler closed form is claimed.", sec(int64(in.ClockStep)))
	}
	say("Ticks before the run ends: %d. now − %s raises on %d, is exactly 0 on %d, is a real instant on %d.", len(p.Ticks), sec(W), p.Exceptions, p.Zeros, p.Positives)
	if p.FirstPositiveNow != nil {
		say("The first tick with a usable window has now = %s s.", units.Value(*p.FirstPositiveNow))
	}
	say("Code that runs before the first /clock (constructors, wall timers, subscription callbacks) sees now() = 0 whatever S is, so now() − %s raises there (R26). The guard that catches all of it is 'skip if now ≤ W' (R27).", sec(W))
	return p
}

// eachTick calls f with the now() of every tick of Predict's model, in
// order; in must have passed Check.
func eachTick(in PredictInput, f func(now int64)) {
	T, S, Δ := int64(periodOf(in.Hz)), int64(in.Start), int64(in.ClockStep)
	end := S + int64(in.Duration)
	ceilClock := func(x int64) int64 {
		if x <= S {
			return S
		}
		return S + (x-S+Δ-1)/Δ*Δ
	}
	var last int64 = -1
	for m := max(1, S/T); ; m++ {
		c := ceilClock(m * T)
		if c >= end {
			return
		}
		if c != last {
			f(c)
			last = c
		}
	}
}

// predictCounts is Predict's exceptions and zeros without its ticks: the
// memory of a run's prediction does not grow with the run.
func predictCounts(in PredictInput) (exceptions, zeros int) {
	if in.Check() != nil {
		return 0, 0
	}
	eachTick(in, func(now int64) {
		switch Classify(now, in.Window) {
		case OutcomeError:
			exceptions++
		case OutcomeZero:
			zeros++
		}
	})
	return exceptions, zeros
}

// TicksFromClock replays rcl's timer on the /clock values a subject
// applied, in order: a timer of period T created at ROS time 0 (next call
// T) fires once at each value at or past its next call, which then moves
// to the first multiple of T after that value (R21-R23). It is the model
// of Predict without the regular grid, for runs that lost messages or
// published irregular values; its work grows with len(values), never
// with the values themselves.
func TicksFromClock(values []int64, period time.Duration) []int64 {
	if period <= 0 {
		return nil
	}
	var ticks []int64
	c := newClockTicker(period)
	for _, v := range values {
		if c.observe(v) {
			ticks = append(ticks, v)
		}
	}
	return ticks
}

// A clockTicker is TicksFromClock one /clock value at a time.
type clockTicker struct {
	period time.Duration
	next   int64 // the timer's next call; MaxInt64: never again
}

func newClockTicker(period time.Duration) clockTicker {
	if period <= 0 {
		return clockTicker{next: math.MaxInt64}
	}
	return clockTicker{period: period, next: int64(period)}
}

// observe applies /clock value v and reports whether the timer fires.
func (c *clockTicker) observe(v int64) bool {
	if v < c.next || c.next == math.MaxInt64 {
		return false
	}
	// rcl: next += (1 + (now-next)/T)·T, the first multiple of T after
	// v; saturated past int64 it is never reached.
	T := int64(c.period)
	c.next = int64(simclock.SaturatingAdd(time.Duration(v-v%T), c.period))
	return true
}

// overflows reports whether a+b leaves int64 nanoseconds.
func overflows(a, b time.Duration) bool {
	_, err := simclock.AddDurations(a, b)
	return err != nil
}

// WallCallsBeforeClock predicts how many calls of a steady timer of the
// given period, created with the subject, run before the first /clock at
// wall time first (R26): every k·period <= first (a tie goes to the older
// timer, the subject's).
func WallCallsBeforeClock(period, first time.Duration) int {
	if period <= 0 {
		return 0
	}
	return int(first / period)
}
