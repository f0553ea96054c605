package clockstream

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// PlaybackConfig describes the /clock of rosbag2's player (ros2 bag play)
// over a bag's timeline. Sim times are log times of the bag.
type PlaybackConfig struct {
	// Start is the first value (the bag's first message, plus
	// --start-offset); Stop the last: the last message played, which
	// ends the playback (rosbag2 does not play on to the end time
	// metadata.yaml gives).
	Start, Stop time.Duration
	// Rate is sim time per wall time (--rate); must be > 0.
	Rate float64
	// Period, when > 0, publishes the player's clock every Period of wall
	// time (--clock HZ), as rosbag2's clock timer does.
	Period time.Duration
	// Triggers are the log times of the messages before each of which
	// /clock carries that message's time (--clock-topics,
	// --clock-topics-all), sorted; those outside [Start, Stop] are not
	// played.
	Triggers []time.Duration
	// Delay is the wall time before the playback starts, each loop
	// (--delay).
	Delay time.Duration
	// Loop starts the playback again after Stop: /clock jumps back.
	Loop bool
	// StartPaused starts with the clock paused at Start (--start-paused):
	// it advances after Toggle.
	StartPaused bool
}

// ErrPlayback reports a PlaybackConfig that cannot be played.
var ErrPlayback = errors.New("clockstream: bad playback")

// A Playback yields the ticks of rosbag2's player's /clock: every Period
// the player's clock (Start + Rate × the wall time played, frozen while
// paused), and before each trigger message that message's log time, until
// the clock reaches Stop. It is a Ticker for a Player, with two rules: the
// player reports every tick it publishes to Sent (PlayerOptions.OnTick
// does), and after Toggle the player rearms (Player.Rearm), since the
// tick it waits on may no longer come. Not safe for concurrent use: call
// it from the player's executor.
type Playback struct {
	cfg PlaybackConfig
	// State as of the last tick sent.
	started    bool
	last       Tick
	anchorWall time.Duration // while playing, sim = anchorSim + Rate × (wall − anchorWall)
	anchorSim  time.Duration
	paused     bool
	frozen     time.Duration // the value while paused
	trig       int           // the next trigger to publish
	ended      bool          // the clock reached Stop in this run
	event      TickEvent     // to put on the next tick sent (pause, resume)
	// The tick Next returned and what sending it changes.
	pending *Tick
	commit  func()
}

// idleWake is how far ahead a paused playback with nothing to publish
// asks to be woken: a skipped tick, re-asked after Toggle anyway.
const idleWake = time.Hour

// NewPlayback checks cfg and returns its playback.
func NewPlayback(cfg PlaybackConfig) (*Playback, error) {
	switch {
	case !(cfg.Rate > 0) || math.IsInf(cfg.Rate, 0):
		return nil, fmt.Errorf("%w: rate %v must be positive", ErrPlayback, cfg.Rate)
	case cfg.Start < 0 || cfg.Stop < cfg.Start:
		return nil, fmt.Errorf("%w: stop %v before start %v", ErrPlayback, cfg.Stop, cfg.Start)
	case cfg.Period < 0 || cfg.Delay < 0:
		return nil, fmt.Errorf("%w: negative period or delay", ErrPlayback)
	}
	p := &Playback{cfg: cfg, anchorWall: cfg.Delay, anchorSim: cfg.Start, paused: cfg.StartPaused, frozen: cfg.Start}
	p.trig = p.firstTrigger()
	return p, nil
}

// firstTrigger is the index of the first trigger at or after Start.
func (p *Playback) firstTrigger() int {
	i := 0
	for i < len(p.cfg.Triggers) && p.cfg.Triggers[i] < p.cfg.Start {
		i++
	}
	return i
}

// lastTrigger is the index past the last trigger at or before Stop.
func (p *Playback) lastTrigger() int {
	n := len(p.cfg.Triggers)
	for n > 0 && p.cfg.Triggers[n-1] > p.cfg.Stop {
		n--
	}
	return n
}

// Paused reports whether the clock is paused.
func (p *Playback) Paused() bool { return p.paused }

// simAt is the player's clock at wall time w.
func (p *Playback) simAt(w time.Duration) time.Duration {
	if p.paused {
		return p.frozen
	}
	s := p.anchorSim + time.Duration(p.cfg.Rate*float64(w-p.anchorWall))
	return min(max(s, p.anchorSim), p.cfg.Stop)
}

// wallAt is when the playing clock reaches sim.
func (p *Playback) wallAt(sim time.Duration) time.Duration {
	return p.anchorWall + time.Duration(math.Ceil(float64(sim-p.anchorSim)/p.cfg.Rate))
}

// Next returns the next tick to publish (see Playback); calling it again
// before the tick is sent returns it again.
func (p *Playback) Next() (Tick, bool) {
	if p.pending != nil {
		return *p.pending, true
	}
	t, commit, ok := p.next()
	if !ok {
		return Tick{}, false
	}
	p.pending, p.commit = &t, commit
	return t, true
}

func (p *Playback) next() (Tick, func(), bool) {
	c := &p.cfg
	if p.ended {
		if !c.Loop {
			return Tick{}, nil, false
		}
		w := p.last.Wall + c.Delay
		t := Tick{Wall: w, Sim: c.Start, Event: TickLoop}
		return t, func() {
			p.ended, p.anchorWall, p.anchorSim, p.trig = false, w, c.Start, p.firstTrigger()
		}, true
	}
	lastWall := time.Duration(-1)
	if p.started {
		lastWall = p.last.Wall
	}
	const none = time.Duration(math.MaxInt64)
	periodic, trigger, end := none, none, none
	if c.Period > 0 {
		k := int64(0)
		if lastWall >= c.Delay {
			k = int64((lastWall-c.Delay)/c.Period) + 1
		}
		periodic = c.Delay + time.Duration(k)*c.Period
	}
	lastTrig := p.lastTrigger()
	if !p.paused {
		if p.trig < lastTrig {
			trigger = max(p.wallAt(c.Triggers[p.trig]), lastWall, 0)
		}
		end = max(p.wallAt(c.Stop), lastWall, 0)
	}
	var t Tick
	var commit func()
	switch {
	case trigger != none && trigger <= end && trigger <= periodic:
		// The message's own time, never below what was published.
		t = Tick{Wall: trigger, Sim: max(c.Triggers[p.trig], p.last.Sim)}
		commit = func() { p.trig++ }
	case end != none && end <= periodic:
		// The clock reaches the last message: the final value, published
		// when the clock timer publishes at all.
		t = Tick{Wall: end, Sim: c.Stop, Skip: c.Period == 0}
		commit = func() { p.ended = true }
	case periodic != none:
		t = Tick{Wall: periodic, Sim: max(p.simAt(periodic), p.last.Sim)}
	default:
		// Paused, and nothing publishes while paused: wait for Toggle.
		t = Tick{Wall: max(lastWall, 0) + idleWake, Sim: p.last.Sim, Skip: true}
	}
	if !p.started && !t.Skip {
		t.Event = TickStart
	} else if t.Event == TickNone && !t.Skip {
		t.Event = p.event
	}
	return t, commit, true
}

// Sent records that the player published (or skipped) t: the state Next
// works from moves on.
func (p *Playback) Sent(t Tick) {
	if p.pending == nil || t != *p.pending {
		return
	}
	if p.commit != nil {
		p.commit()
	}
	if !p.paused && t.Sim >= p.cfg.Stop && p.trig >= p.lastTrigger() {
		p.ended = true // the last message is played
	}
	if !t.Skip {
		p.started = true
		if t.Event == p.event {
			p.event = TickNone
		}
	}
	p.last = t
	p.pending, p.commit = nil, nil
}

// Toggle pauses or resumes the clock at wall time now (the player's
// Elapsed), as the space key does in ros2 bag play. The player must then
// Rearm.
func (p *Playback) Toggle(now time.Duration) {
	p.pending, p.commit = nil, nil
	if p.ended {
		return
	}
	if p.paused {
		p.paused = false
		p.anchorWall, p.anchorSim = max(now, p.cfg.Delay), p.frozen
		p.event = TickResume
		return
	}
	p.frozen = p.simAt(max(now, p.anchorWall))
	p.paused = true
	p.event = TickPause
}
