package clockstream

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/transport"
)

// Config tunes detection. The zero value gives the defaults.
type Config struct {
	// Periods: a gap or a pause lasts longer than this many periods;
	// defaults to 5.
	Periods int
	// MinGap is the shortest gap or pause reported, whatever the period;
	// defaults to 100 ms.
	MinGap time.Duration
	// JumpSteps: a forward jump exceeds this many steps per period the
	// messages are apart; defaults to 10.
	JumpSteps int
	// MinJump is the smallest forward jump reported; defaults to 100 ms.
	MinJump time.Duration
	// OnEvent, when set, is called for every event as it is detected.
	OnEvent func(Event)
}

// DefaultConfig returns the defaults of the zero Config, spelled out.
func DefaultConfig() Config {
	return Config{Periods: 5, MinGap: 100 * time.Millisecond, JumpSteps: 10, MinJump: 100 * time.Millisecond}
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if c.Periods <= 0 {
		c.Periods = d.Periods
	}
	if c.MinGap <= 0 {
		c.MinGap = d.MinGap
	}
	if c.JumpSteps <= 0 {
		c.JumpSteps = d.JumpSteps
	}
	if c.MinJump <= 0 {
		c.MinJump = d.MinJump
	}
	return c
}

// EventKind names what an Event is; the words are the package doc's.
type EventKind string

// Event kinds.
const (
	Gap           EventKind = "gap"
	Pause         EventKind = "pause"
	BackwardJump  EventKind = "backward_jump"
	ForwardJump   EventKind = "forward_jump"
	Zero          EventKind = "zero"
	Malformed     EventKind = "malformed"
	NotNormalized EventKind = "not_normalized"
)

// An Event is one thing the Analyzer detected.
type Event struct {
	Kind EventKind `json:"kind"`
	// At is the receive time of the message that revealed it (for a gap,
	// the message that ended it; for a pause, the one that made it long
	// enough).
	At        time.Duration         `json:"at_ns"`
	Publisher transport.PublisherID `json:"publisher,omitempty"`
	// From and To are the values around a jump, the standing value of a
	// pause, or the value of a zero; 0 otherwise.
	From int64 `json:"from_ns"`
	To   int64 `json:"to_ns"`
	// Length is how long a gap or pause lasted so far, in receive time.
	Length time.Duration `json:"length_ns,omitempty"`
}

// Counts are the events of a stretch of the stream.
type Counts struct {
	Messages      int `json:"messages"` // valid or not
	Gaps          int `json:"gaps"`
	Pauses        int `json:"pauses"`
	BackwardJumps int `json:"backward_jumps"`
	ForwardJumps  int `json:"forward_jumps"`
	Zero          int `json:"zero"`
	Malformed     int `json:"malformed"`
	NotNormalized int `json:"not_normalized"`
}

// PublisherStats is what one publisher sent.
type PublisherStats struct {
	ID string `json:"id"`
	// Node is the ROS node owning the publisher ("/ns/name"), when a tool
	// that sees the graph has named it (monitor does, through
	// ros_discovery_info); empty otherwise.
	Node     string  `json:"node,omitempty"`
	Messages int     `json:"messages"`
	RateHz   float64 `json:"rate_hz"`
	// RTF is this publisher's own real-time factor; nil until its value
	// advanced over time.
	RTF   *float64 `json:"rtf"`
	Value int64    `json:"value_ns"` // its last valid value
}

// Totals describe the stream from the start to the time they were taken.
type Totals struct {
	Elapsed   time.Duration `json:"elapsed_ns"`
	HaveClock bool          `json:"have_clock"` // a valid message arrived
	First     int64         `json:"first_ns"`   // first valid value
	Last      int64         `json:"last_ns"`    // last valid value
	Counts
	RateHz float64       `json:"rate_hz"`
	Period time.Duration `json:"period_ns"`
	Step   time.Duration `json:"step_ns"`
	MaxGap time.Duration `json:"max_gap_ns"` // longest interval between messages
	// RTF is nil when nothing advanced, or when several publishers sent
	// (see Publishers).
	RTF        *float64         `json:"rtf"`
	Publishers []PublisherStats `json:"publishers"`
}

// A Report covers one interval of a live stream, from the previous report.
type Report struct {
	Elapsed   time.Duration `json:"elapsed_ns"` // since the start
	HaveClock bool          `json:"have_clock"`
	Value     int64         `json:"value_ns"` // last valid value
	Counts
	RateHz float64       `json:"rate_hz"`
	RTF    *float64      `json:"rtf"`
	Period time.Duration `json:"period_ns"`
	MaxGap time.Duration `json:"max_gap_ns"`
	// Paused: valid messages came in the interval and the value never moved.
	Paused bool `json:"paused"`
	// Silence is how long no message has come, when that is a gap.
	Silence    time.Duration    `json:"silence_ns"`
	Publishers []PublisherStats `json:"publishers"`
	Warnings   []string         `json:"warnings"`
}

// window accumulates the RTF and rate of one stretch.
type window struct {
	counts    Counts
	sim, wall time.Duration
	moved     bool
	valid     int
	maxGap    time.Duration
}

type pubState struct {
	id        transport.PublisherID
	first     time.Duration // receive time of its first message
	have      bool
	value     int64
	lastAt    time.Duration
	all, cur  window
	sentInCur bool // it sent in the current interval
}

// An Analyzer reads a /clock stream sample by sample. It is pure: times
// come from the samples and from the caller, so tests are deterministic.
// It is not safe for concurrent use.
type Analyzer struct {
	cfg   Config
	start time.Duration

	any    bool
	lastAt time.Duration
	have   bool
	first  int64
	value  int64

	gaps  recentValues // recent intervals, for the period
	steps recentValues // recent positive steps, for the step

	standingSince time.Duration // receive time the value stopped moving
	pauseCounted  bool
	inGap         bool // a gap detected at a report, still in progress
	broken        bool // Break was called: the next interval is not judged
	valueBroken   bool // Break was called: the next valid value starts afresh

	all, cur window
	curStart time.Duration
	pubs     map[transport.PublisherID]*pubState
	order    []transport.PublisherID
	last     *pubState // the publisher of the previous sample
}

// NewAnalyzer returns an analyzer whose stream starts at start.
func NewAnalyzer(cfg Config, start time.Duration) *Analyzer {
	return &Analyzer{cfg: cfg.withDefaults(), start: start, curStart: start,
		pubs: map[transport.PublisherID]*pubState{}}
}

const recent = 64

// A recentValues keeps the last `recent` values in arrival order (a
// ring) and sorted, so that the median costs no sort and no allocation.
// A steady stream pushes the value it evicts, which costs nothing more.
type recentValues struct {
	ring   [recent]time.Duration
	next   int             // ring index of the oldest value once full
	sorted []time.Duration // the values in the ring, in order
}

func (r *recentValues) push(d time.Duration) {
	if len(r.sorted) < recent {
		r.ring[len(r.sorted)] = d
		i, _ := slices.BinarySearch(r.sorted, d)
		r.sorted = slices.Insert(r.sorted, i, d)
		return
	}
	old := r.ring[r.next]
	r.ring[r.next] = d
	r.next = (r.next + 1) % recent
	if old == d {
		return
	}
	// Replace old by d in sorted, shifting only the values between them.
	i, _ := slices.BinarySearch(r.sorted, old)
	j, _ := slices.BinarySearch(r.sorted, d)
	if j > i {
		copy(r.sorted[i:j-1], r.sorted[i+1:j])
		r.sorted[j-1] = d
	} else {
		copy(r.sorted[j+1:i+1], r.sorted[j:i])
		r.sorted[j] = d
	}
}

// median returns the median, or 0 with fewer than least values.
func (r *recentValues) median(least int) time.Duration {
	if len(r.sorted) < max(least, 1) {
		return 0
	}
	return r.sorted[len(r.sorted)/2]
}

// Period returns the current period, or 0 before two messages.
func (a *Analyzer) Period() time.Duration { return a.gaps.median(1) }

// Step returns the current step, or 0 before eight advancing messages
// (too few to call anything unusual).
func (a *Analyzer) Step() time.Duration { return a.steps.median(8) }

// GapThreshold is the silence after which the stream has a gap.
func (a *Analyzer) GapThreshold() time.Duration {
	return max(time.Duration(a.cfg.Periods)*a.Period(), a.cfg.MinGap)
}

func (a *Analyzer) event(e Event) {
	if a.cfg.OnEvent != nil {
		a.cfg.OnEvent(e)
	}
}

func (a *Analyzer) count(f func(*Counts)) {
	f(&a.all.counts)
	f(&a.cur.counts)
}

// Break tells the analyzer that samples are missing from here on (a
// damaged stretch of a recording was skipped): the next sample is not
// judged against the previous one, so the hole is no gap, pause or jump
// and stays out of the RTF. Counts, period and step are kept.
func (a *Analyzer) Break() {
	a.broken = a.any
	a.valueBroken = a.have
}

// Observe records one sample. Samples must come in receive order.
func (a *Analyzer) Observe(s Sample) {
	a.all.counts.Messages++
	a.cur.counts.Messages++
	p := a.pub(s.Publisher, s.At)
	p.all.counts.Messages++
	p.cur.counts.Messages++
	p.sentInCur = true

	broken := a.broken
	a.broken = false
	if broken {
		a.inGap = false
		for _, q := range a.pubs {
			q.have = false // no publisher's step spans the hole
		}
	}
	interval := time.Duration(0)
	if a.any && !broken {
		interval = s.At - a.lastAt
		a.all.maxGap, a.cur.maxGap = max(a.all.maxGap, interval), max(a.cur.maxGap, interval)
		isGap := len(a.gaps.sorted) > 0 && interval > a.GapThreshold()
		if isGap {
			if !a.inGap { // not yet counted by a report
				a.count(func(c *Counts) { c.Gaps++ })
				a.event(Event{Kind: Gap, At: s.At, Publisher: s.Publisher, From: a.value, To: a.value, Length: interval})
			}
		} else {
			a.gaps.push(interval)
		}
		a.inGap = false
	}
	periods := time.Duration(1)
	if per := a.Period(); per > 0 && interval > per {
		periods = (interval + per/2) / per
	}
	prevAt := a.lastAt
	a.any, a.lastAt = true, s.At

	switch {
	case s.Err == nil:
	case errors.Is(s.Err, ErrNotNormalized):
		a.count(func(c *Counts) { c.NotNormalized++ })
		a.event(Event{Kind: NotNormalized, At: s.At, Publisher: s.Publisher})
		return
	default:
		a.count(func(c *Counts) { c.Malformed++ })
		a.event(Event{Kind: Malformed, At: s.At, Publisher: s.Publisher})
		return
	}
	a.all.valid++
	a.cur.valid++
	if s.Value == 0 {
		a.count(func(c *Counts) { c.Zero++ })
		a.event(Event{Kind: Zero, At: s.At, Publisher: s.Publisher})
	}
	if !a.have {
		a.have, a.first, a.value, a.standingSince = true, s.Value, s.Value, s.At
		p.observe(s.Value, s.At)
		return
	}
	if a.valueBroken { // start afresh from this value
		a.valueBroken = false
		a.value, a.standingSince, a.pauseCounted = s.Value, s.At, false
		p.observe(s.Value, s.At)
		return
	}
	d := time.Duration(s.Value - a.value)
	step := a.Step()
	switch {
	case d < 0:
		a.count(func(c *Counts) { c.BackwardJumps++ })
		a.event(Event{Kind: BackwardJump, At: s.At, Publisher: s.Publisher, From: a.value, To: s.Value})
		a.standingSince, a.pauseCounted = s.At, false
	case d > 0 && step > 0 && d > time.Duration(a.cfg.JumpSteps)*step*periods && d >= a.cfg.MinJump:
		// A jump is not the simulator running fast: it stays out of the
		// RTF and the step.
		a.count(func(c *Counts) { c.ForwardJumps++ })
		a.event(Event{Kind: ForwardJump, At: s.At, Publisher: s.Publisher, From: a.value, To: s.Value})
		a.all.moved, a.cur.moved = true, true
		a.standingSince, a.pauseCounted = s.At, false
	default:
		if d > 0 {
			perPeriod := d
			if periods > 1 { // no division for the common case
				perPeriod /= periods
			}
			a.steps.push(perPeriod)
			a.all.moved, a.cur.moved = true, true
			a.standingSince, a.pauseCounted = s.At, false
		} else if standing := s.At - a.standingSince; !a.pauseCounted && standing > a.pauseThreshold() {
			a.pauseCounted = true
			a.count(func(c *Counts) { c.Pauses++ })
			a.event(Event{Kind: Pause, At: s.At, Publisher: s.Publisher, From: s.Value, To: s.Value, Length: standing})
		}
		wall := s.At - prevAt
		a.all.sim, a.all.wall = a.all.sim+d, a.all.wall+wall
		a.cur.sim, a.cur.wall = a.cur.sim+d, a.cur.wall+wall
	}
	a.value = s.Value
	p.observe(s.Value, s.At)
}

func (a *Analyzer) pauseThreshold() time.Duration { return a.GapThreshold() }

func (a *Analyzer) pub(id transport.PublisherID, at time.Duration) *pubState {
	if a.last != nil && a.last.id == id { // most streams have one publisher
		return a.last
	}
	p, ok := a.pubs[id]
	if !ok {
		p = &pubState{id: id, first: at}
		a.pubs[id] = p
		a.order = append(a.order, id)
	}
	a.last = p
	return p
}

// observe records a valid sample (value, received at at) in its
// publisher's own stream: RTF per publisher, counting only that
// publisher's consecutive values.
func (p *pubState) observe(value int64, at time.Duration) {
	if p.have {
		if d := time.Duration(value - p.value); d >= 0 {
			wall := at - p.lastAt
			p.all.sim, p.all.wall = p.all.sim+d, p.all.wall+wall
			p.cur.sim, p.cur.wall = p.cur.sim+d, p.cur.wall+wall
		}
	}
	p.have, p.value, p.lastAt = true, value, at
}

// stats is what p sent: all-time when all (its rate over the time since
// its first message), else in the current interval (over).
func (p *pubState) stats(all bool, now, over time.Duration) PublisherStats {
	w, span := p.cur, over
	if all {
		w, span = p.all, now-p.first
	}
	ps := PublisherStats{ID: string(p.id), Messages: w.counts.Messages, RateHz: rate(w.counts.Messages, span), Value: p.value}
	if w.wall > 0 {
		r := float64(w.sim) / float64(w.wall)
		ps.RTF = &r
	}
	return ps
}

func rtf(w window) *float64 {
	if w.wall <= 0 || (!w.moved && w.sim == 0 && w.valid == 0) {
		return nil
	}
	r := float64(w.sim) / float64(w.wall)
	return &r
}

func rate(n int, over time.Duration) float64 {
	if over <= 0 {
		return 0
	}
	return float64(n) / over.Seconds()
}

// publisherStats lists who sent (all-time when all, else in the interval) plus
// the matched publishers, sorted; unknown publishers ("") are left out
// unless nobody else is known.
// With all, a publisher's rate is over the time since its first message.
func (a *Analyzer) publisherStats(all bool, now, over time.Duration, matched []transport.PublisherID) []PublisherStats {
	ids := map[transport.PublisherID]bool{}
	for _, id := range matched {
		ids[id] = true
	}
	for _, id := range a.order {
		if all || a.pubs[id].sentInCur {
			ids[id] = true
		}
	}
	if len(ids) > 1 {
		delete(ids, "")
	}
	out := []PublisherStats{}
	for id := range ids {
		ps := PublisherStats{ID: string(id)}
		if p := a.pubs[id]; p != nil {
			ps = p.stats(all, now, over)
		}
		out = append(out, ps)
	}
	slices.SortFunc(out, func(x, y PublisherStats) int { return strings.Compare(x.ID, y.ID) })
	return out
}

// Totals returns the stream's totals at now.
func (a *Analyzer) Totals(now time.Duration) Totals {
	t := Totals{
		Elapsed: now - a.start, HaveClock: a.have, First: a.first, Last: a.value,
		Counts: a.all.counts, RateHz: rate(a.all.counts.Messages, now-a.start),
		Period: a.Period(), Step: a.Step(), MaxGap: a.all.maxGap, RTF: rtf(a.all),
		Publishers: a.publisherStats(true, now, now-a.start, nil),
	}
	if len(t.Publishers) > 1 {
		t.RTF = nil
	}
	return t
}

// Report closes the interval that ends at now and returns it. matched
// lists the publishers a live subscription currently matches (nil for
// none known).
func (a *Analyzer) Report(now time.Duration, matched []transport.PublisherID) Report {
	over := now - a.curStart
	r := Report{
		Elapsed: now - a.start, HaveClock: a.have, Value: a.value,
		RateHz: rate(a.cur.counts.Messages, over), RTF: rtf(a.cur),
		Period: a.Period(), MaxGap: a.cur.maxGap,
		Paused: a.cur.valid > 1 && !a.cur.moved && a.cur.counts.BackwardJumps == 0,
	}
	if a.any {
		if silence := now - a.lastAt; silence > a.GapThreshold() {
			r.Silence = silence
			if !a.inGap {
				a.inGap = true
				a.count(func(c *Counts) { c.Gaps++ })
				a.event(Event{Kind: Gap, At: now, From: a.value, To: a.value, Length: silence})
			}
		}
	}
	r.Counts = a.cur.counts
	r.Publishers = a.publisherStats(false, now, over, matched)
	if len(r.Publishers) > 1 {
		r.RTF = nil
	}
	r.Warnings = warnings(r.Counts, len(r.Publishers), r.Silence)

	a.curStart = now
	a.cur = window{}
	for _, p := range a.pubs {
		p.cur, p.sentInCur = window{}, false
	}
	return r
}

// warnings says what went wrong, in the package's words.
func warnings(c Counts, publishers int, silence time.Duration) []string {
	w := []string{}
	if publishers > 1 {
		w = append(w, fmt.Sprintf("%d publishers on /clock: ROS expects exactly one (R18); RTF and rate are per publisher", publishers))
	}
	if silence > 0 {
		w = append(w, fmt.Sprintf("gap: no /clock for %s s", units.Seconds(int64(silence), 1)))
	}
	add := func(n int, what string) {
		if n > 0 {
			w = append(w, fmt.Sprintf("%d %s", n, what))
		}
	}
	add(c.BackwardJumps, "backward jump(s) (R14, R22)")
	add(c.ForwardJumps, "forward jump(s) (R22, R23)")
	add(c.Gaps, "gap(s)")
	add(c.Pauses, "pause(s)")
	add(c.Zero, "message(s) carrying time 0, read as 'not started' (R10, R11)")
	add(c.Malformed, "malformed message(s) dropped")
	add(c.NotNormalized, "message(s) with nanosec >= 1e9 dropped (R8)")
	return w
}
