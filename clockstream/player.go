package clockstream

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport"
)

// PlayerOptions tune a Player. The zero value plays the whole schedule
// without reporting.
type PlayerOptions struct {
	// Duration ends the run after this much steady time; 0 plays until
	// the schedule ends.
	Duration time.Duration
	// ReportEvery, with OnReport, reports progress every ReportEvery of
	// steady time.
	ReportEvery time.Duration
	OnReport    func(Progress)
	// OnTick, when set, is called after each tick: sent, dropped, skipped
	// (Tick.Skip) or failed (err is the publish error).
	OnTick func(t Tick, err error)
	// OnDone, when set, is called once when the run ends, with the error
	// that ended it (nil at the end of the schedule, at Duration or Stop).
	OnDone func(err error)
}

// Progress counts what a Player did over an interval (or, from Totals,
// the whole run).
type Progress struct {
	Elapsed time.Duration `json:"elapsed_ns"` // since the player started
	Sent    int           `json:"sent"`
	Dropped int           `json:"dropped"` // lost on purpose (ScheduleConfig.Drop)
	Errors  int           `json:"errors"`
	// Value is the last value sent, and HaveValue whether one was.
	Value     int64 `json:"value_ns"`
	HaveValue bool  `json:"have_value"`
	Matched   int   `json:"matched_subscriptions"`
	// Events lists the schedule's events (start, pause, resume, jump,
	// loop) of the interval; in Totals, each kind once.
	Events    []string `json:"events"`
	LastError string   `json:"last_error,omitempty"`
}

func (p *Progress) add(q Progress) {
	p.Sent += q.Sent
	p.Dropped += q.Dropped
	p.Errors += q.Errors
	if q.HaveValue {
		p.Value, p.HaveValue = q.Value, true
	}
	for _, e := range q.Events {
		// A long run loops thousands of times: the totals name each kind
		// of event once, in order of first occurrence.
		if !slices.Contains(p.Events, e) {
			p.Events = append(p.Events, e)
		}
	}
	if q.LastError != "" {
		p.LastError = q.LastError
	}
}

// A Ticker yields the ticks a Player publishes, in order of their wall
// times: a Schedule (a simulator), or a bag's player.
type Ticker interface {
	// Next returns the next tick, or false when the run has ended.
	Next() (Tick, bool)
}

// A Player publishes a Ticker's ticks on an executor's steady clock:
// tick t goes out t.Wall after the player was created. On a virtual-time
// executor it never sleeps. Its callbacks run on the executor.
type Player struct {
	ctx    context.Context
	exec   *executor.Executor
	pub    transport.Publisher
	sched  Ticker
	opts   PlayerOptions
	q      *timer.Queue
	origin int64
	buf    []byte
	tick   Tick
	next   *timer.Timer
	report *timer.Timer
	end    *timer.Timer
	cur    Progress
	total  Progress
	done   bool
	err    error
}

// ErrPublish wraps a failure that ends a run: the transport closed, or a
// value no Clock message can carry.
var ErrPublish = errors.New("clockstream: cannot publish /clock")

// NewPlayer starts playing s on pub, driven by exec; a first tick due at
// once is published before NewPlayer returns. ctx bounds each
// publish (flow control); the run itself ends when the schedule does, at
// opts.Duration, or when exec stops spinning.
func NewPlayer(ctx context.Context, exec *executor.Executor, pub transport.Publisher, s Ticker, opts PlayerOptions) (*Player, error) {
	p := &Player{ctx: ctx, exec: exec, pub: pub, sched: s, opts: opts, buf: make([]byte, 0, 16)}
	p.q = timer.NewQueue(exec.Steady())
	p.origin = exec.Steady().Now().Nanoseconds()
	exec.AddQueue(p.q)
	var err error
	if opts.ReportEvery > 0 && opts.OnReport != nil {
		if p.report, err = p.q.New(opts.ReportEvery, func(timer.Info) { p.emit() }, true); err != nil {
			return nil, err
		}
	}
	if opts.Duration > 0 {
		if p.end, err = p.q.New(opts.Duration, func(timer.Info) { p.finish(nil) }, true); err != nil {
			return nil, err
		}
	}
	p.arm()
	return p, nil
}

func (p *Player) now() int64 { return p.exec.Steady().Now().Nanoseconds() }

// Elapsed is the steady time since the player started: the wall offset
// ticks are scheduled against.
func (p *Player) Elapsed() time.Duration { return time.Duration(p.now() - p.origin) }

// Rearm drops the tick waiting to be published and asks the ticker for
// the next one again: for a ticker whose future changed since (a player
// paused or resumed). Call it from the executor's goroutine.
func (p *Player) Rearm() {
	if p.done || p.next == nil {
		return
	}
	p.q.Remove(p.next)
	p.next.Cancel()
	p.next = nil
	p.arm()
}

// arm schedules the next tick, or finishes. The first tick, when due at
// once, is published right away: a player started from a callback
// publishes within it, as a simulator does.
func (p *Player) arm() {
	t, ok := p.sched.Next()
	if !ok {
		p.finish(nil)
		return
	}
	p.tick = t
	delay := max(time.Duration(p.origin+int64(t.Wall)-p.now()), 0)
	if delay == 0 && t.Event == TickStart {
		p.send()
		return
	}
	nt, err := p.q.New(delay, func(timer.Info) { p.fire() }, true)
	if err != nil {
		p.finish(err)
		return
	}
	p.next = nt
}

func (p *Player) fire() {
	p.q.Remove(p.next)
	p.next.Cancel()
	p.next = nil
	if !p.done {
		p.send()
	}
}

// send publishes the current tick and arms the next.
func (p *Player) send() {
	t := p.tick
	var err error
	if t.Skip {
		if p.opts.OnTick != nil {
			p.opts.OnTick(t, nil)
		}
		p.arm()
		return
	}
	if t.Dropped {
		p.cur.Dropped++
	} else {
		p.buf, err = Encode(p.buf[:0], t.Sim)
		if err != nil {
			p.finish(fmt.Errorf("%w: %w", ErrPublish, err))
			return
		}
		if err = p.pub.Publish(p.ctx, p.buf); err != nil {
			if errors.Is(err, transport.ErrClosed) {
				p.finish(fmt.Errorf("%w: %w", ErrPublish, err))
				return
			}
			if p.ctx.Err() != nil {
				p.finish(nil) // the run ended mid-publish
				return
			}
			p.cur.Errors++
			p.cur.LastError = err.Error()
		}
		p.cur.Sent++
		p.cur.Value, p.cur.HaveValue = int64(t.Sim), true
		if t.Event != TickNone {
			p.cur.Events = append(p.cur.Events, string(t.Event))
		}
	}
	if p.opts.OnTick != nil {
		p.opts.OnTick(t, err)
	}
	p.arm()
}

// emit closes the current interval and reports it.
func (p *Player) emit() {
	c := p.cur
	c.Elapsed = time.Duration(p.now() - p.origin)
	c.Matched = p.pub.MatchedSubscriptions()
	if c.Events == nil {
		c.Events = []string{}
	}
	p.total.add(c)
	p.cur = Progress{Value: c.Value, HaveValue: c.HaveValue}
	p.opts.OnReport(c)
}

func (p *Player) finish(err error) {
	if p.done {
		return
	}
	p.done, p.err = true, err
	for _, t := range []*timer.Timer{p.next, p.report, p.end} {
		if t != nil {
			t.Cancel()
			p.q.Remove(t)
		}
	}
	// The interval in progress is not reported: Totals covers it.
	p.total.add(p.cur)
	p.cur = Progress{Value: p.cur.Value, HaveValue: p.cur.HaveValue}
	if p.opts.OnDone != nil {
		p.opts.OnDone(err)
	}
}

// Stop ends the run now.
func (p *Player) Stop() { p.finish(nil) }

// Done reports whether the run ended.
func (p *Player) Done() bool { return p.done }

// Err returns the error that ended the run, if any.
func (p *Player) Err() error { return p.err }

// Totals returns the counts of the whole run so far.
func (p *Player) Totals() Progress {
	t := p.total
	t.add(p.cur)
	t.Elapsed = time.Duration(p.now() - p.origin)
	t.Matched = p.pub.MatchedSubscriptions()
	if t.Events == nil {
		t.Events = []string{}
	}
	return t
}

// Close takes the player's timers off the executor.
func (p *Player) Close() {
	p.finish(nil)
	p.exec.RemoveQueue(p.q)
	p.q.Close()
}

// A Part is something running on an executor that may finish: a Player
// or a Watcher.
type Part interface{ Done() bool }

// Run spins exec until every part is done or ctx is done (its error is
// returned). A virtual-time executor with nothing left to do returns
// executor.ErrIdle.
func Run(ctx context.Context, exec *executor.Executor, parts ...Part) error {
	return exec.SpinUntil(ctx, func() bool {
		for _, p := range parts {
			if !p.Done() {
				return false
			}
		}
		return true
	})
}
