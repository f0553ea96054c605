// Package clockpub is the schedule of a fake simulator's /clock: which
// sim time to publish at which wall-clock offset, with the start offset,
// step, period and real-time factor of a simulator, a pre-clock wait, a
// pause, a one-shot jump (forward or backward), rosbag2-style looping, and
// the faults of a real link: dropped messages and jittered sending times.
//
// A Schedule is pure: Next returns ticks with their wall offset from the
// start of the run, and never reads a clock, so tests are deterministic.
// simclock pub drives one in real time.
package clockpub

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// Config describes a simulator's /clock. Sim times are durations since
// the epoch of the ROS clock (sim time 0).
type Config struct {
	// Start is the sim time of the first message; defaults to 0.
	Start time.Duration
	// Period is the wall time between messages; must be > 0.
	Period time.Duration
	// Step is the sim time added per message; must be >= 0. A real-time
	// factor r is Step = r × Period.
	Step time.Duration
	// PreClock is the wall time before the first message (a simulator
	// starting up); defaults to 0.
	PreClock time.Duration

	// Pause, when set, freezes sim time once it reaches PauseAt: messages
	// keep coming at Period with the same value, as ros2 bag play does
	// while paused (interop notes §4.4).
	Pause   bool
	PauseAt time.Duration
	// ResumeAfter is the wall time the pause lasts; 0 means forever.
	ResumeAfter time.Duration

	// Jump, when set, makes the message after sim time reaches JumpAt
	// carry JumpTo (forward or backward), once per run or loop.
	Jump   bool
	JumpAt time.Duration
	JumpTo time.Duration

	// HasUntil ends the run (or, with Loop, restarts it from Start) once
	// the next value would pass Until.
	HasUntil bool
	Until    time.Duration
	// Loop restarts from Start instead of ending at Until: /clock jumps
	// backwards at every restart, as ros2 bag play --loop does.
	Loop bool

	// Drop is the probability in [0, 1) that a message is lost: its tick
	// is marked Dropped (sim time still advances), as a best-effort link
	// or a loaded subscriber loses samples.
	Drop float64
	// Jitter moves each message's wall time by a uniform offset in
	// [-Jitter, +Jitter], never before the previous message.
	Jitter time.Duration
	// Seed makes Drop and Jitter reproducible: one seed, one schedule.
	Seed uint64
}

// Errors returned by New.
var (
	ErrPeriod   = errors.New("period must be positive")
	ErrStep     = errors.New("step must not be negative")
	ErrNegative = errors.New("sim times must not be negative")
	ErrLoop     = errors.New("loop needs an until time after the start")
	ErrFault    = errors.New("drop must be in [0, 1) and jitter not negative")
)

// Event says what a tick does besides advancing.
type Event string

// Events a tick may carry.
const (
	EventNone   Event = ""
	EventStart  Event = "start"  // the first message
	EventPause  Event = "pause"  // sim time froze at this value
	EventResume Event = "resume" // sim time advances again
	EventJump   Event = "jump"   // this value is the jump target
	EventLoop   Event = "loop"   // restarted from Start (a backward jump)
)

// A Tick is one message to publish.
type Tick struct {
	// Wall is when to publish, as an offset from the start of the run.
	Wall time.Duration
	// Sim is the sim time to publish.
	Sim time.Duration
	// Event is what happened at this tick, if anything.
	Event Event
	// Dropped marks a message the simulated link loses (Config.Drop):
	// do not send it.
	Dropped bool
}

// A Schedule yields the ticks of one run. It is not safe for concurrent use.
type Schedule struct {
	cfg     Config
	n       int64 // ticks produced
	last    Tick
	paused  bool
	pauseAt time.Duration // wall offset the pause began
	pauseOK bool          // the pause already happened in this loop
	jumpOK  bool          // the jump already happened in this loop
	done    bool
	rng     *rand.Rand    // for Drop and Jitter; nil when neither is set
	lastOut time.Duration // wall time of the last tick returned, after jitter
}

// New checks cfg and returns its schedule.
func New(cfg Config) (*Schedule, error) {
	switch {
	case cfg.Period <= 0:
		return nil, fmt.Errorf("clockpub: %w, got %v", ErrPeriod, cfg.Period)
	case cfg.Step < 0:
		return nil, fmt.Errorf("clockpub: %w, got %v", ErrStep, cfg.Step)
	case cfg.Start < 0 || cfg.PauseAt < 0 || cfg.JumpAt < 0 || cfg.JumpTo < 0 || cfg.Until < 0 || cfg.PreClock < 0 || cfg.ResumeAfter < 0:
		return nil, fmt.Errorf("clockpub: %w", ErrNegative)
	case cfg.Loop && (!cfg.HasUntil || cfg.Until <= cfg.Start):
		return nil, fmt.Errorf("clockpub: %w", ErrLoop)
	case !(cfg.Drop >= 0 && cfg.Drop < 1) || cfg.Jitter < 0:
		return nil, fmt.Errorf("clockpub: %w, got drop %v, jitter %v", ErrFault, cfg.Drop, cfg.Jitter)
	}
	sch := &Schedule{cfg: cfg}
	if cfg.Drop > 0 || cfg.Jitter > 0 {
		sch.rng = rand.New(rand.NewPCG(cfg.Seed, 0x5eed))
	}
	return sch, nil
}

// RTF returns the real-time factor of the schedule while running: Step/Period.
func (s *Schedule) RTF() float64 { return float64(s.cfg.Step) / float64(s.cfg.Period) }

// Next returns the next tick, or false when the run has ended (Until
// passed without Loop).
func (s *Schedule) Next() (Tick, bool) {
	t, ok := s.next()
	if !ok || s.rng == nil {
		return t, ok
	}
	// The faults come after the schedule: they never change sim times.
	if s.cfg.Jitter > 0 {
		j := time.Duration(s.rng.Int64N(int64(2*s.cfg.Jitter)+1)) - s.cfg.Jitter
		t.Wall = max(t.Wall+j, s.lastOut, 0)
	}
	s.lastOut = t.Wall
	t.Dropped = s.cfg.Drop > 0 && t.Event != EventStart && s.rng.Float64() < s.cfg.Drop
	return t, true
}

func (s *Schedule) next() (Tick, bool) {
	if s.done {
		return Tick{}, false
	}
	c := &s.cfg
	if s.n == 0 {
		s.n = 1
		s.last = Tick{Wall: c.PreClock, Sim: c.Start, Event: EventStart}
		s.checkPause()
		return s.last, true
	}
	t := Tick{Wall: c.PreClock + time.Duration(s.n)*c.Period, Sim: s.last.Sim}
	s.n++
	switch {
	case s.paused:
		if c.ResumeAfter > 0 && t.Wall-s.pauseAt >= c.ResumeAfter {
			s.paused = false
			t.Sim += c.Step
			t.Event = EventResume
		}
	case c.Jump && !s.jumpOK && s.last.Sim >= c.JumpAt:
		s.jumpOK = true
		t.Sim = c.JumpTo
		t.Event = EventJump
	default:
		t.Sim += c.Step
	}
	if c.HasUntil && t.Sim > c.Until {
		if !c.Loop {
			s.done = true
			return Tick{}, false
		}
		t.Sim = c.Start
		t.Event = EventLoop
		s.pauseOK, s.jumpOK, s.paused = false, false, false
	}
	s.last = t
	s.checkPause()
	return s.last, true
}

// checkPause starts the pause once the published value reaches PauseAt.
func (s *Schedule) checkPause() {
	c := &s.cfg
	if c.Pause && !s.pauseOK && !s.paused && s.last.Sim >= c.PauseAt {
		s.paused, s.pauseOK = true, true
		s.pauseAt = s.last.Wall
		if s.last.Event == EventNone {
			s.last.Event = EventPause
		}
	}
}
