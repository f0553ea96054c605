package doctor

import (
	"slices"
	"time"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/transport"
)

// clockWatch is doctor's seam to the shared /clock analyser: it keeps one
// analyser per /clock writer (rate, real-time factor, sim time) and the
// recent (wall, sim) points that map a wall instant to sim time. Only this
// file knows which analyser it is.
type clockWatch struct {
	start   time.Time
	writers map[transport.PublisherID]*clockstream.Analyzer
	points  []clockPoint // recent, oldest first
}

type clockPoint struct {
	wall, sim int64 // ns since the epoch
}

const maxClockPoints = 256

func newClockWatch(start time.Time) *clockWatch {
	return &clockWatch{start: start, writers: map[transport.PublisherID]*clockstream.Analyzer{}}
}

// observe records a /clock message from pub received at wall time now.
func (c *clockWatch) observe(now time.Time, data []byte, pub transport.PublisherID) {
	m := c.writers[pub]
	if m == nil {
		m = clockstream.NewAnalyzer(clockstream.Config{}, now.Sub(c.start))
		c.writers[pub] = m
	}
	s := clockstream.Decode(now.Sub(c.start), pub, data)
	m.Observe(s)
	if s.Err == nil {
		c.points = append(c.points, clockPoint{wall: now.UnixNano(), sim: s.Value})
		if len(c.points) > maxClockPoints {
			c.points = slices.Delete(c.points, 0, len(c.points)-maxClockPoints)
		}
	}
}

// simAt returns the sim time at wall instant wall: the last /clock value
// received before it (a /clock period behind at most, 10 ms at the usual
// 100 Hz, far below the tolerance). ok is false before the first /clock.
func (c *clockWatch) simAt(wall int64) (sim int64, ok bool) {
	i, _ := slices.BinarySearchFunc(c.points, wall, func(p clockPoint, w int64) int {
		switch {
		case p.wall < w:
			return -1
		case p.wall > w:
			return 1
		}
		return 0
	})
	switch {
	case len(c.points) == 0:
		return 0, false
	case i == 0:
		return c.points[0].sim, true // before the first point we hold: the oldest is closest
	}
	p := c.points[i-1]
	return p.sim, true
}

// ClockWriter is what doctor measured of one /clock writer.
type ClockWriter struct {
	GUID    string   `json:"guid"`
	Node    string   `json:"node"`
	QoS     string   `json:"qos"`
	Msgs    int      `json:"msgs"`
	RateHz  float64  `json:"rate_hz"`
	RTF     *float64 `json:"rtf"`    // null until sim time has advanced
	SimNs   *int64   `json:"sim_ns"` // the last /clock value, null before one
	SimTime string   `json:"sim_time,omitempty"`
}

// stats returns what was measured of writer pub so far.
func (c *clockWatch) stats(now time.Time, pub transport.PublisherID) ClockWriter {
	m := c.writers[pub]
	if m == nil {
		return ClockWriter{GUID: string(pub)}
	}
	// A Report covers the time since the previous one (or since the
	// writer's first message): the current rate and real-time factor.
	r := m.Report(now.Sub(c.start), nil)
	t := m.Totals(now.Sub(c.start))
	cw := ClockWriter{GUID: string(pub), Msgs: t.Messages, RateHz: r.RateHz, RTF: r.RTF}
	if cw.RTF == nil {
		cw.RTF = t.RTF
	}
	if r.HaveClock {
		ns := r.Value
		cw.SimNs = &ns
		cw.SimTime = units.Value(ns)
	}
	return cw
}
