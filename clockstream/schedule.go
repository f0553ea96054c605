package clockstream

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// ScheduleConfig describes a simulator's /clock. Sim times are durations since
// the epoch of the ROS clock (sim time 0).
type ScheduleConfig struct {
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
	// while paused.
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
	// EndAtUntil makes the last message of a run carry Until exactly, as
	// ros2 bag play ends on the bag's last log time, instead of the last
	// value of the form Start + k × Step below it.
	EndAtUntil bool
	// Every, above 1, publishes one tick in Every (sim time still advances
	// at every Period); the first and last messages are always published.
	Every int

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

// Errors returned by NewSchedule.
var (
	ErrPeriod   = errors.New("period must be positive")
	ErrStep     = errors.New("step must not be negative")
	ErrNegative = errors.New("sim times must not be negative")
	ErrLoop     = errors.New("loop needs an until time after the start")
	ErrFault    = errors.New("drop must be in [0, 1) and jitter not negative")
)

// TickEvent says what a tick of a Schedule does besides advancing: what a
// simulator does on purpose. (An Event is what an Analyzer observes.)
type TickEvent string

// Tick events.
const (
	TickNone   TickEvent = ""
	TickStart  TickEvent = "start"  // the first message
	TickPause  TickEvent = "pause"  // sim time froze at this value
	TickResume TickEvent = "resume" // sim time advances again
	TickJump   TickEvent = "jump"   // this value is the jump target
	TickLoop   TickEvent = "loop"   // restarted from Start (a backward jump)
)

// A Tick is one message to publish.
type Tick struct {
	// Wall is when to publish, as an offset from the start of the run.
	Wall time.Duration
	// Sim is the sim time to publish.
	Sim time.Duration
	// Event is what happened at this tick, if anything.
	Event TickEvent
	// Dropped marks a message the simulated link loses (Config.Drop):
	// do not send it.
	Dropped bool
	// Skip marks a tick that publishes nothing: a wake-up at Wall (a
	// paused Playback waiting, the silent end of one).
	Skip bool
}

// A Schedule yields the ticks of one run. It is not safe for concurrent use.
type Schedule struct {
	cfg     ScheduleConfig
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

// NewSchedule checks cfg and returns its schedule.
func NewSchedule(cfg ScheduleConfig) (*Schedule, error) {
	switch {
	case cfg.Period <= 0:
		return nil, fmt.Errorf("clockstream: %w, got %v", ErrPeriod, cfg.Period)
	case cfg.Step < 0:
		return nil, fmt.Errorf("clockstream: %w, got %v", ErrStep, cfg.Step)
	case cfg.Start < 0 || cfg.PauseAt < 0 || cfg.JumpAt < 0 || cfg.JumpTo < 0 || cfg.Until < 0 || cfg.PreClock < 0 || cfg.ResumeAfter < 0:
		return nil, fmt.Errorf("clockstream: %w", ErrNegative)
	case cfg.Loop && (!cfg.HasUntil || cfg.Until <= cfg.Start):
		return nil, fmt.Errorf("clockstream: %w", ErrLoop)
	case cfg.Every < 0:
		return nil, fmt.Errorf("clockstream: every %d: must not be negative", cfg.Every)
	case !(cfg.Drop >= 0 && cfg.Drop < 1) || cfg.Jitter < 0:
		return nil, fmt.Errorf("clockstream: %w, got drop %v, jitter %v", ErrFault, cfg.Drop, cfg.Jitter)
	}
	sch := &Schedule{cfg: cfg}
	if cfg.Drop > 0 || cfg.Jitter > 0 {
		sch.rng = rand.New(rand.NewPCG(cfg.Seed, 0x5eed))
	}
	return sch, nil
}

// Config returns the schedule's configuration.
func (s *Schedule) Config() ScheduleConfig { return s.cfg }

// RTF returns the real-time factor of the schedule while running: Step/Period.
func (s *Schedule) RTF() float64 { return float64(s.cfg.Step) / float64(s.cfg.Period) }

// Next returns the next tick, or false when the run has ended (Until
// passed without Loop).
func (s *Schedule) Next() (Tick, bool) {
	t, ok := s.next()
	for ok && s.cfg.Every > 1 && t.Event == TickNone && (s.n-1)%int64(s.cfg.Every) != 0 && !s.final(t) {
		t, ok = s.next()
	}
	if !ok || s.rng == nil {
		return t, ok
	}
	// The faults come after the schedule: they never change sim times.
	if s.cfg.Jitter > 0 {
		j := time.Duration(s.rng.Int64N(int64(2*s.cfg.Jitter)+1)) - s.cfg.Jitter
		t.Wall = max(t.Wall+j, s.lastOut, 0)
	}
	s.lastOut = t.Wall
	t.Dropped = s.cfg.Drop > 0 && t.Event != TickStart && s.rng.Float64() < s.cfg.Drop
	return t, true
}

func (s *Schedule) next() (Tick, bool) {
	if s.done {
		return Tick{}, false
	}
	c := &s.cfg
	if s.n == 0 {
		s.n = 1
		s.last = Tick{Wall: c.PreClock, Sim: c.Start, Event: TickStart}
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
			t.Event = TickResume
		}
	case c.Jump && !s.jumpOK && s.last.Sim >= c.JumpAt:
		s.jumpOK = true
		t.Sim = c.JumpTo
		t.Event = TickJump
	default:
		t.Sim += c.Step
	}
	if c.HasUntil && t.Sim > c.Until && c.EndAtUntil && s.last.Sim < c.Until && t.Event != TickJump {
		t.Sim = c.Until // land on the end before stopping or looping
	}
	if c.HasUntil && t.Sim > c.Until {
		if !c.Loop {
			s.done = true
			return Tick{}, false
		}
		t.Sim = c.Start
		t.Event = TickLoop
		s.pauseOK, s.jumpOK, s.paused = false, false, false
	}
	s.last = t
	s.checkPause()
	return s.last, true
}

// final reports whether t is the last tick of a run ending at Until.
func (s *Schedule) final(t Tick) bool {
	return s.cfg.HasUntil && s.cfg.EndAtUntil && t.Sim == s.cfg.Until
}

// checkPause starts the pause once the published value reaches PauseAt.
func (s *Schedule) checkPause() {
	c := &s.cfg
	if c.Pause && !s.pauseOK && !s.paused && s.last.Sim >= c.PauseAt {
		s.paused, s.pauseOK = true, true
		s.pauseAt = s.last.Wall
		if s.last.Event == TickNone {
			s.last.Event = TickPause
		}
	}
}
