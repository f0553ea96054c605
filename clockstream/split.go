package clockstream

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"time"

	"github.com/simclock/simclock/transport"
)

// A Splitter tells apart the publishers of a /clock stream whose
// messages do not say who sent them: a recording, since rosbag2 stores no
// publisher with a message (one MCAP channel per topic, a sqlite3 row of
// topic, time and data). It follows the timelines the values make: a
// valid value continues the timeline of the message before it when it
// could (not below its latest value, and not ahead of it by more than a
// forward jump, Config.JumpSteps × its step per period elapsed, at least
// Config.MinJump, or 100 × the time elapsed after its first value); else the timeline it could continue whose latest value
// is nearest below it; else it starts a timeline. A timeline never goes
// back.
//
// One publisher makes one timeline, or a new one at each backward jump
// or jump too far forward, which the stream then follows on and does not
// leave for an earlier one. Several publishers interleaved make timelines
// the stream keeps coming back to: Interleaved reports that, and
// Timelines gives each one's messages, rate, RTF and last value as the
// Analyzer gives each publisher's (simclock monitor's per-publisher
// lines), a timeline standing for a publisher. Two publishers whose
// values stay within a jump of each other are one timeline; they are
// told apart only by the backward steps between them.
//
// A Splitter is not safe for concurrent use.
type Splitter struct {
	cfg   Config
	lines []*timeline
	cur   *timeline // the timeline of the previous message; nil at the start and after Break
	n     int       // timelines started, for their IDs
	// returns counts the valid messages that went back to a timeline
	// other than the previous message's, one that had sent before it.
	returns int
}

// A timeline is one run of values the Splitter follows.
type timeline struct {
	pub     pubState // its stats, by the Analyzer's per-publisher arithmetic
	last    int64    // latest valid value
	lastAt  time.Duration
	valid   int           // valid messages
	step    int64         // latest positive change per period elapsed; 0 until one
	period  time.Duration // latest interval between its messages; 0 until one
	touched bool          // has a valid value
}

// maxTimelines bounds the timelines followed at once: a stream that
// starts more (a recording looped many times) gives up the one unused
// longest.
const maxTimelines = 8

// NewSplitter returns a Splitter whose forward-jump bounds are cfg's.
func NewSplitter(cfg Config) *Splitter { return &Splitter{cfg: cfg.withDefaults()} }

// Observe attributes one sample to a timeline and returns the timeline's
// ID ("timeline 1", "timeline 2", ... in the order they started). Samples
// must come in receive order; their Publisher is not read. A message
// without a valid value counts for the timeline of the message before
// it.
func (sp *Splitter) Observe(s Sample) transport.PublisherID {
	if s.Err != nil {
		tl := sp.cur
		if tl == nil {
			tl = sp.start(s.At)
		}
		tl.pub.all.counts.Messages++
		return tl.pub.id
	}
	tl := sp.pick(s)
	if tl == nil {
		tl = sp.start(s.At)
	} else if tl != sp.cur && sp.cur != nil && tl.touched && tl.pub.first < sp.cur.pub.first {
		sp.returns++
	}
	if tl.touched && s.Value > tl.last {
		per := int64(1)
		if tl.period > 0 {
			per = periodsIn(since(tl.lastAt, s.At), int64(tl.period))
		}
		tl.step = s.Value - tl.last
		if per > 1 {
			tl.step /= per
		}
	}
	if e := since(tl.lastAt, s.At); tl.touched && e > 0 {
		tl.period = time.Duration(e)
	}
	tl.pub.all.counts.Messages++
	tl.pub.observe(s.Value, s.At)
	tl.last, tl.lastAt, tl.touched = s.Value, s.At, true
	tl.valid++
	sp.cur = tl
	return tl.pub.id
}

// pick returns the timeline a valid sample continues, or nil for none.
func (sp *Splitter) pick(s Sample) *timeline {
	if sp.cur != nil && sp.continues(sp.cur, s) {
		return sp.cur
	}
	var best *timeline
	for _, tl := range sp.lines {
		if sp.continues(tl, s) && (best == nil || tl.last > best.last) {
			best = tl
		}
	}
	return best
}

// continues reports whether s can be the next value of tl: not below its
// latest value, and not a forward jump from it.
func (sp *Splitter) continues(tl *timeline, s Sample) bool {
	if !tl.touched {
		return true // it holds only messages without a value
	}
	if s.Value < tl.last {
		return false
	}
	d := s.Value - tl.last // values are not negative: no overflow
	elapsed := since(tl.lastAt, s.At)
	if tl.step == 0 || tl.period == 0 { // one value so far: no step to judge by
		return d <= max(int64(sp.cfg.MinJump), mulSat(firstRTF, elapsed))
	}
	per := periodsIn(elapsed, int64(tl.period))
	return d <= mulSat(max(int64(sp.cfg.MinJump), mulSat(int64(sp.cfg.JumpSteps), tl.step)), per)
}

// since is to − from in ns, 0 when to is not after from, math.MaxInt64
// where the difference overflows (log times of a hostile file).
func since(from, to time.Duration) int64 {
	if to <= from {
		return 0
	}
	if d := int64(to - from); d > 0 {
		return d
	}
	return math.MaxInt64
}

// periodsIn is how many periods elapsed spans, rounded, at least 1.
// (A steady stream spans one period between messages: that answer costs
// no division, which this runs for every message of a bag's /clock.)
func periodsIn(elapsed, period int64) int64 {
	switch {
	case elapsed < period:
		return 1
	case elapsed-period < period:
		if elapsed-period >= period-period/2 {
			return 2
		}
		return 1
	}
	n := elapsed / period
	if elapsed%period >= period-period/2 {
		n++
	}
	return max(1, n)
}

// mulSat is a × b for a, b ≥ 0, math.MaxInt64 where that overflows.
func mulSat(a, b int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(lo)
}

// firstRTF bounds how fast a timeline with one value so far may advance
// to its second: a simulator more than 100 times faster than real time
// whose second message is taken for a jump only starts a timeline, which
// its messages then follow.
const firstRTF = 100

// start begins a timeline at receive time at, giving up the one unused
// longest when maxTimelines are followed.
func (sp *Splitter) start(at time.Duration) *timeline {
	if len(sp.lines) == maxTimelines {
		oldest := 0
		for i, tl := range sp.lines {
			if tl.lastAt < sp.lines[oldest].lastAt {
				oldest = i
			}
		}
		sp.lines = slices.Delete(sp.lines, oldest, oldest+1)
	}
	sp.n++
	tl := &timeline{pub: pubState{id: transport.PublisherID(fmt.Sprintf("timeline %d", sp.n)), first: at}, lastAt: at}
	sp.lines = append(sp.lines, tl)
	return tl
}

// Break tells the Splitter that messages are missing from here on (a
// damaged stretch of a recording was skipped): the next value continues
// no timeline by default, and no timeline's RTF spans the hole.
func (sp *Splitter) Break() {
	sp.cur = nil
	for _, tl := range sp.lines {
		tl.pub.have = false
	}
}

// minReturns is how often a stream must come back to an earlier timeline
// to be interleaved: once is a backward jump the stream later caught up
// with, or one stray value; publishers interleaved come back at every
// message of the one that sends less.
const minReturns = 3

// Interleaved reports whether the stream kept coming back to earlier
// timelines (at least minReturns times), two of which sent at least two
// valid values: several publishers, whose values alternate.
func (sp *Splitter) Interleaved() bool {
	if sp.returns < minReturns {
		return false
	}
	n := 0
	for _, tl := range sp.lines {
		if tl.valid >= 2 {
			n++
		}
	}
	return n >= 2
}

// Timelines returns each timeline followed that sent at least two valid
// values, as the Analyzer gives a publisher's all-time stats at now: its
// messages, rate since its first message, RTF and last value, by ID.
func (sp *Splitter) Timelines(now time.Duration) []PublisherStats {
	out := []PublisherStats{}
	for _, tl := range sp.lines {
		if tl.valid >= 2 {
			out = append(out, tl.pub.stats(true, now, 0))
		}
	}
	slices.SortFunc(out, func(a, b PublisherStats) int {
		if len(a.ID) != len(b.ID) { // timeline 2 before timeline 10
			return len(a.ID) - len(b.ID)
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}
