package doctor

import (
	"slices"
	"time"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/transport"
)

// clockConfig is how doctor judges a /clock stream: a gap or a pause lasts
// at least a second (and 10 periods), so that a simulator that died or
// paused is reported and a publisher the machine's load held up for a few
// periods is not.
var clockConfig = clockstream.Config{Periods: 10, MinGap: time.Second}

// clockWatch is doctor's seam to the shared /clock analyser: it keeps one
// analyser per /clock writer (rate, real-time factor, gaps, pauses, jumps,
// malformed messages, all dated) and, per clock topic, the recent (wall,
// sim) points that map a wall instant to sim time. Only this file knows
// which analyser it is. Times are on the audit's axis: wall time since
// start.
type clockWatch struct {
	start   time.Time
	writers map[transport.PublisherID]*clockWriter
	points  map[string][]clockPoint // by DDS topic; recent, oldest first
	jumps   map[string]clockJump    // the latest backward jump, by DDS topic
}

type clockPoint struct {
	wall, sim int64 // ns since the epoch
}

// clockWriter is what one /clock writer sent.
type clockWriter struct {
	topic       string // DDS topic
	a           *clockstream.Analyzer
	msgs        int
	first, last time.Duration // receive (source) times of its first and last message
	ngaps       int
	gaps        []clockEvent // the first silences that ended: At is when the silence began
	events      []clockEvent // pauses, jumps, malformed messages, by kind at most maxEvents
}

// A clockEvent is one dated thing a /clock writer did.
type clockEvent struct{ clockstream.Event }

const (
	// clockMemory is how far back the (wall, sim) points of a clock topic
	// reach: far enough to date the stamps of a node whose
	// ros_discovery_info came late (its samples wait for it, a Fast DDS
	// heartbeat period of 3 s and the 5 s doctor waits). maxClockPoints
	// bounds them all the same (a 1 kHz clock fills 10 s).
	clockMemory    = 10 * time.Second
	maxClockPoints = 1 << 14
	// maxEvents bounds the events kept per kind and writer: a report
	// names the first ones and counts all (the analyser's totals).
	maxEvents = 8
)

func newClockWatch(start time.Time) *clockWatch {
	return &clockWatch{start: start, writers: map[transport.PublisherID]*clockWriter{},
		points: map[string][]clockPoint{}, jumps: map[string]clockJump{}}
}

// observe records a /clock message on DDS topic topic from pub, written at
// wall time at.
func (c *clockWatch) observe(topic string, at time.Time, data []byte, pub transport.PublisherID) {
	now := at.Sub(c.start)
	w := c.writers[pub]
	if w == nil {
		w = &clockWriter{topic: topic, first: now}
		cfg := clockConfig
		cfg.OnEvent = func(e clockstream.Event) {
			w.event(e)
			if e.Kind == clockstream.BackwardJump {
				c.jumps[topic] = clockJump{wall: c.start.Add(e.At).UnixNano(), at: e.At, from: e.From, to: e.To}
			}
		}
		w.a = clockstream.NewAnalyzer(cfg, now)
		c.writers[pub] = w
	}
	if w.msgs > 0 {
		if d := now - w.last; d > w.a.GapThreshold() {
			w.ngaps++
			if len(w.gaps) < maxEvents {
				w.gaps = append(w.gaps, clockEvent{Event: clockstream.Event{Kind: clockstream.Gap, At: w.last, Length: d}})
			}
		}
	}
	w.msgs++
	w.last = max(w.last, now)
	s := clockstream.Decode(now, pub, data)
	w.a.Observe(s)
	if s.Err == nil {
		c.points[topic] = remember(c.points[topic], clockPoint{wall: at.UnixNano(), sim: s.Value})
	}
}

// remember appends p to the points ps and forgets those older than
// clockMemory (or beyond maxClockPoints), a batch at a time so that
// appending stays cheap.
func remember(ps []clockPoint, p clockPoint) []clockPoint {
	ps = append(ps, p)
	cut := 0
	if len(ps) > maxClockPoints {
		cut = len(ps) - maxClockPoints
	}
	if old := p.wall - int64(clockMemory); ps[0].wall < old {
		i, _ := slices.BinarySearchFunc(ps, old, func(q clockPoint, w int64) int {
			switch {
			case q.wall < w:
				return -1
			case q.wall > w:
				return 1
			}
			return 0
		})
		cut = max(cut, i)
	}
	if cut > 0 && (cut >= len(ps)/4 || len(ps) > maxClockPoints) {
		ps = slices.Delete(ps, 0, cut)
	}
	return ps
}

// event keeps an analyser event; gaps are measured by observe itself
// (the analyser dates a gap by the message that ends it or by a report).
func (w *clockWriter) event(e clockstream.Event) {
	if e.Kind == clockstream.Gap {
		return
	}
	n := 0
	for _, x := range w.events {
		if x.Kind == e.Kind {
			n++
		}
	}
	if n < maxEvents {
		w.events = append(w.events, clockEvent{Event: e})
	}
}

// simAt returns the sim time on DDS clock topic topic at wall instant
// wall: the last value received before it (a /clock period behind at
// most, 10 ms at the usual 100 Hz, far below the tolerance). ok is false
// before the topic's first valid message.
func (c *clockWatch) simAt(topic string, wall int64) (sim int64, ok bool) {
	points := c.points[topic]
	i, _ := slices.BinarySearchFunc(points, wall, func(p clockPoint, w int64) int {
		switch {
		case p.wall < w:
			return -1
		case p.wall > w:
			return 1
		}
		return 0
	})
	switch {
	case len(points) == 0:
		return 0, false
	case i == 0:
		return points[0].sim, true // before the first point we hold: the oldest is closest
	}
	return points[i-1].sim, true
}

// ClockWriter is what doctor measured of one /clock writer. Times ending
// in _ns are since the start of the audit (wall time, the writer's own
// source timestamps).
type ClockWriter struct {
	GUID string `json:"guid"`
	Node string `json:"node"`
	// Topic is the ROS topic it publishes: /clock, or a per-namespace
	// clock such as /robot1/clock.
	Topic string `json:"topic"`
	QoS   string `json:"qos"`
	// Msgs counts its messages, valid or not.
	Msgs int `json:"msgs"`
	// RateHz is messages per second while it published: from its first
	// message to its last, so time after it stopped is not averaged in.
	RateHz float64  `json:"rate_hz"`
	RTF    *float64 `json:"rtf"`    // null until sim time has advanced
	SimNs  *int64   `json:"sim_ns"` // the last valid /clock value, null before one
	// SimTime is SimNs as seconds, or "" before a valid message.
	SimTime string `json:"sim_time,omitempty"`
	// FirstMsg and LastMsg are when its first and last messages were
	// written; null before one.
	FirstMsg *time.Duration `json:"first_msg_ns"`
	LastMsg  *time.Duration `json:"last_msg_ns"`
	// Silence is how long it has sent nothing, when that is longer than a
	// gap (it stopped); 0 while it publishes.
	Silence time.Duration `json:"silence_ns"`
	// Left is true when the writer is no longer in the graph (its node
	// or process went away).
	Left bool `json:"left,omitempty"`
	// What went wrong in its stream, counted over the whole audit.
	Malformed     int `json:"malformed"`
	NotNormalized int `json:"not_normalized"`
	Gaps          int `json:"gaps"`
	Pauses        int `json:"pauses"`
	BackwardJumps int `json:"backward_jumps"`
	ForwardJumps  int `json:"forward_jumps"`
	// Events are the first dated gaps, pauses, jumps and malformed
	// messages, for findings; not in JSON (findings carry them).
	Events []ClockEvent `json:"-"`
}

// A ClockEvent is one dated thing in a /clock writer's stream.
type ClockEvent struct {
	// Kind is clockstream's word: gap, pause, backward_jump,
	// forward_jump, malformed, not_normalized, zero.
	Kind clockstream.EventKind
	// At is when it happened, since the start of the audit: the start of a
	// gap, the start of a pause, the message that jumped.
	At time.Duration
	// Length is how long a gap or pause lasted (so far, for a pause).
	Length time.Duration
	// From and To are the values around a jump, or a pause's value.
	From, To int64
}

// stats returns what was measured of writer pub up to now. It closes the
// analyser's interval: the RTF is that since the previous call.
func (c *clockWatch) stats(now time.Time, pub transport.PublisherID) ClockWriter {
	w := c.writers[pub]
	if w == nil {
		return ClockWriter{GUID: string(pub)}
	}
	at := now.Sub(c.start)
	r := w.a.Report(at, nil)
	t := w.a.Totals(at)
	first, last := w.first, w.last
	cw := ClockWriter{GUID: string(pub), Msgs: w.msgs, RTF: r.RTF, FirstMsg: &first, LastMsg: &last,
		Malformed: t.Malformed, NotNormalized: t.NotNormalized, Gaps: w.ngaps, Pauses: t.Pauses,
		BackwardJumps: t.BackwardJumps, ForwardJumps: t.ForwardJumps}
	if cw.RTF == nil {
		cw.RTF = t.RTF
	}
	if span := last - first; w.msgs > 1 && span > 0 {
		cw.RateHz = float64(w.msgs-1) / span.Seconds()
	}
	if r.Silence > 0 {
		cw.Silence = r.Silence
	}
	if t.HaveClock {
		ns := t.Last
		cw.SimNs = &ns
		cw.SimTime = units.Value(ns)
	}
	for _, e := range append(slices.Clone(w.gaps), w.events...) {
		cw.Events = append(cw.Events, ClockEvent{Kind: e.Kind, At: e.At, Length: e.Length, From: e.From, To: e.To})
	}
	for i, e := range cw.Events {
		if e.Kind == clockstream.Pause {
			cw.Events[i].At -= e.Length // the analyser dates a pause when it became long enough
		}
	}
	slices.SortStableFunc(cw.Events, func(x, y ClockEvent) int {
		switch {
		case x.At < y.At:
			return -1
		case x.At > y.At:
			return 1
		}
		return 0
	})
	return cw
}
