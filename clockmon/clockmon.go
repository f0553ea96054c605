// Package clockmon computes what simclock monitor reports about a /clock
// stream: current sim time, measured real-time factor, message rate and
// gaps, backward and forward jumps, stalls, pauses, the number of publishers (more
// than one is a fault, R18) and malformed messages.
//
// A Monitor is pure: every method takes the current time as an offset on
// a monotonic clock chosen by the caller, so tests feed it deterministic
// times and no test sleeps.
package clockmon

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
)

// Config tunes detection. The zero value gives the defaults.
type Config struct {
	// StallPeriods is how many estimated periods without a message make a
	// stall; defaults to 5.
	StallPeriods int
	// MinStall is the shortest silence reported as a stall, whatever the
	// period; defaults to 100 ms.
	MinStall time.Duration
	// ForwardFactor: a sim step more than this many times the median step
	// (and at least MinForwardJump) is a forward jump; defaults to 10.
	ForwardFactor int
	// MinForwardJump is the smallest step reported as a forward jump;
	// defaults to 100 ms of sim time.
	MinForwardJump time.Duration
}

// A Jump is a change of sim time between two consecutive messages.
type Jump struct {
	FromNs int64 `json:"from_ns"`
	ToNs   int64 `json:"to_ns"`
}

// Totals are counts since the monitor started.
type Totals struct {
	Msgs          int      `json:"msgs"`
	BackwardJumps int      `json:"backward_jumps"`
	ForwardJumps  int      `json:"forward_jumps"`
	Stalls        int      `json:"stalls"`
	Malformed     int      `json:"malformed"`
	NotNormalized int      `json:"not_normalized"`
	ZeroValues    int      `json:"zero_values"`
	MaxPublishers int      `json:"max_publishers"`
	MeasuredRTF   *float64 `json:"measured_rtf"` // null until sim time has advanced
}

// A Report covers one interval: from the previous Report (or New) to now.
type Report struct {
	ElapsedS  float64 `json:"elapsed_s"`  // since the monitor started
	HaveClock bool    `json:"have_clock"` // a valid /clock was received at least once
	SimNs     int64   `json:"sim_ns"`     // the last valid sim time received
	Msgs      int     `json:"msgs"`       // messages in the interval, valid or not
	RateHz    float64 `json:"rate_hz"`
	// MeasuredRTF is sim time advanced per wall time in the interval,
	// over consecutive messages that did not jump backwards; null when
	// there was nothing to measure.
	MeasuredRTF   *float64 `json:"measured_rtf"`
	PeriodMs      float64  `json:"period_ms"`  // estimated message period (median gap)
	MaxGapMs      float64  `json:"max_gap_ms"` // longest silence ending in the interval
	BackwardJumps int      `json:"backward_jumps"`
	LastBackward  *Jump    `json:"last_backward_jump,omitempty"`
	// ForwardJumps counts steps far larger than the usual step (a
	// simulator skipping ahead): every sim timer fires once at the new
	// time and missed periods are skipped (R22, R23).
	ForwardJumps  int      `json:"forward_jumps"`
	LastForward   *Jump    `json:"last_forward_jump,omitempty"`
	Paused        bool     `json:"paused"` // messages came but sim time did not move
	Stalled       bool     `json:"stalled"`
	StallS        float64  `json:"stall_s"` // silence so far, when stalled
	Stalls        int      `json:"stalls"`  // stalls detected in the interval
	Publishers    int      `json:"publishers"`
	PublisherIDs  []string `json:"publisher_ids"`
	Malformed     int      `json:"malformed"`
	NotNormalized int      `json:"not_normalized"`
	// ZeroValues counts /clock messages carrying time 0, which every node
	// reads as "not started" (R10, R11): timers do not run and now() - W
	// fails until a later value arrives.
	ZeroValues int      `json:"zero_values"`
	Warnings   []string `json:"warnings,omitempty"`
	Totals     Totals   `json:"totals"`
}

// A Monitor accumulates observations. It is not safe for concurrent use.
type Monitor struct {
	cfg Config

	have     bool
	lastSim  int64
	lastRecv time.Duration // receipt of the last message, valid or not
	anyMsg   bool
	gaps     []time.Duration // recent inter-arrival gaps, for the period estimate
	steps    []time.Duration // recent positive sim steps, for the step estimate

	// current interval
	start         time.Duration
	msgs          int
	valid         int
	simAdv        time.Duration
	wallAdv       time.Duration
	moved         bool
	maxGap        time.Duration
	backward      int
	lastBackward  *Jump
	forward       int
	lastForward   *Jump
	stalls        int
	malformed     int
	notNormalized int
	zeroValues    int
	seen          map[transport.PublisherID]bool

	inStall       bool
	elapsedBefore time.Duration // start of the current interval, from start
	totals        Totals
	simAll        time.Duration
	wallAll       time.Duration
}

// New returns a monitor whose clock starts at now.
func New(cfg Config, now time.Duration) *Monitor {
	if cfg.StallPeriods <= 0 {
		cfg.StallPeriods = 5
	}
	if cfg.MinStall <= 0 {
		cfg.MinStall = 100 * time.Millisecond
	}
	if cfg.ForwardFactor <= 0 {
		cfg.ForwardFactor = 10
	}
	if cfg.MinForwardJump <= 0 {
		cfg.MinForwardJump = 100 * time.Millisecond
	}
	return &Monitor{cfg: cfg, start: now, seen: map[transport.PublisherID]bool{}}
}

const maxGaps = 64

// period returns the median of the recent gaps, or 0 when unknown.
func (m *Monitor) period() time.Duration {
	if len(m.gaps) == 0 {
		return 0
	}
	g := slices.Clone(m.gaps)
	slices.Sort(g)
	return g[len(g)/2]
}

// step returns the median of the recent positive sim steps, or 0.
func (m *Monitor) step() time.Duration {
	if len(m.steps) < 8 {
		return 0 // too few to call anything unusual
	}
	st := slices.Clone(m.steps)
	slices.Sort(st)
	return st[len(st)/2]
}

// StallThreshold is the silence after which the clock counts as stalled.
func (m *Monitor) StallThreshold() time.Duration {
	return max(time.Duration(m.cfg.StallPeriods)*m.period(), m.cfg.MinStall)
}

// Observe records a message received at now from pub. Payloads that do
// not decode are counted as malformed and otherwise ignored; a nanosec
// field of 1e9 or more is counted as not normalised and not applied (R8).
func (m *Monitor) Observe(now time.Duration, data []byte, pub transport.PublisherID) {
	m.msgs++
	m.totals.Msgs++
	if pub != "" {
		m.seen[pub] = true
	}
	if m.anyMsg {
		gap := now - m.lastRecv
		m.maxGap = max(m.maxGap, gap)
		stallGap := len(m.gaps) > 0 && gap > m.StallThreshold()
		switch {
		case m.inStall:
			m.inStall = false // counted when Report detected it
		case stallGap:
			m.stalls++ // began and ended between two reports
			m.totals.Stalls++
		}
		if !stallGap { // silences stay out of the period estimate
			m.gaps = append(m.gaps, gap)
			if len(m.gaps) > maxGaps {
				m.gaps = m.gaps[1:]
			}
		}
	}
	prevRecv := m.lastRecv
	m.anyMsg, m.lastRecv = true, now

	c, err := timemsg.UnmarshalClock(data)
	switch {
	case errors.Is(err, timemsg.ErrNotNormalized):
		m.notNormalized++
		m.totals.NotNormalized++
		return
	case err != nil:
		m.malformed++
		m.totals.Malformed++
		return
	}
	sim := c.Clock.Nanoseconds()
	m.valid++
	if sim == 0 {
		m.zeroValues++
		m.totals.ZeroValues++
	}
	if m.have {
		d := time.Duration(sim - m.lastSim)
		switch {
		case d < 0:
			m.backward++
			m.totals.BackwardJumps++
			m.lastBackward = &Jump{FromNs: m.lastSim, ToNs: sim}
		case d > 0 && m.step() > 0 && d > time.Duration(m.cfg.ForwardFactor)*m.step() && d >= m.cfg.MinForwardJump:
			// A jump is not the simulator running fast: keep it out of
			// the real-time factor and the step estimate.
			m.forward++
			m.totals.ForwardJumps++
			m.lastForward = &Jump{FromNs: m.lastSim, ToNs: sim}
			m.moved = true
		default:
			if d > 0 {
				m.moved = true
				m.steps = append(m.steps, d)
				if len(m.steps) > maxGaps {
					m.steps = m.steps[1:]
				}
			}
			m.simAdv += d
			m.wallAdv += now - prevRecv
			m.simAll += d
			m.wallAll += now - prevRecv
		}
	}
	m.have, m.lastSim = true, sim
}

func rtf(sim, wall time.Duration) *float64 {
	if wall <= 0 {
		return nil
	}
	r := float64(sim) / float64(wall)
	return &r
}

// Report closes the interval that ends at now and returns it. matched
// lists the publishers the subscription currently matches.
func (m *Monitor) Report(now time.Duration, matched []transport.PublisherID) Report {
	r := Report{
		ElapsedS:      (now - m.start).Seconds(),
		HaveClock:     m.have,
		SimNs:         m.lastSim,
		Msgs:          m.msgs,
		MeasuredRTF:   rtf(m.simAdv, m.wallAdv),
		PeriodMs:      ms(m.period()),
		MaxGapMs:      ms(m.maxGap),
		BackwardJumps: m.backward,
		LastBackward:  m.lastBackward,
		ForwardJumps:  m.forward,
		LastForward:   m.lastForward,
		Paused:        m.valid > 1 && !m.moved && m.backward == 0,
		Malformed:     m.malformed,
		NotNormalized: m.notNormalized,
		ZeroValues:    m.zeroValues,
	}
	interval := now - m.intervalStart()
	if interval > 0 {
		r.RateHz = float64(m.msgs) / interval.Seconds()
	}
	if m.anyMsg {
		silence := now - m.lastRecv
		if silence > m.StallThreshold() {
			r.Stalled = true
			r.StallS = silence.Seconds()
			if !m.inStall {
				m.inStall = true
				m.stalls++
				m.totals.Stalls++
			}
		}
	}
	r.Stalls = m.stalls

	ids := map[transport.PublisherID]bool{}
	for _, id := range matched {
		ids[id] = true
	}
	if len(matched) == 0 {
		// Without graph information, count who sent in this interval.
		for id := range m.seen {
			ids[id] = true
		}
	}
	for id := range ids {
		r.PublisherIDs = append(r.PublisherIDs, string(id))
	}
	slices.Sort(r.PublisherIDs)
	if r.PublisherIDs == nil {
		r.PublisherIDs = []string{}
	}
	r.Publishers = len(r.PublisherIDs)
	m.totals.MaxPublishers = max(m.totals.MaxPublishers, r.Publishers)

	if r.Publishers > 1 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d publishers on /clock: ROS expects exactly one (R18)", r.Publishers))
	}
	if r.BackwardJumps > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("sim time jumped backwards %d time(s), last %s -> %s",
			r.BackwardJumps, FormatSim(m.lastBackward.FromNs), FormatSim(m.lastBackward.ToNs)))
	}
	if r.ForwardJumps > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("sim time jumped forwards %d time(s), last %s -> %s",
			r.ForwardJumps, FormatSim(m.lastForward.FromNs), FormatSim(m.lastForward.ToNs)))
	}
	if r.Stalled {
		r.Warnings = append(r.Warnings, fmt.Sprintf("stalled: no /clock for %.1fs", r.StallS))
	}
	if r.Malformed > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d malformed message(s) dropped", r.Malformed))
	}
	if r.ZeroValues > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d /clock message(s) carried time 0, which nodes read as 'not started' (R10, R11)", r.ZeroValues))
	}
	if r.NotNormalized > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d message(s) with nanosec >= 1e9 not applied (R8)", r.NotNormalized))
	}
	r.Totals = m.totals
	r.Totals.MeasuredRTF = rtf(m.simAll, m.wallAll)

	m.resetInterval(now)
	return r
}

func (m *Monitor) intervalStart() time.Duration { return m.start + m.elapsedBefore }

func (m *Monitor) resetInterval(now time.Duration) {
	m.elapsedBefore = now - m.start
	m.msgs, m.valid, m.simAdv, m.wallAdv, m.moved, m.maxGap = 0, 0, 0, 0, false, 0
	m.backward, m.lastBackward, m.stalls, m.malformed, m.notNormalized = 0, nil, 0, 0, 0
	m.forward, m.lastForward, m.zeroValues = 0, nil, 0
	clear(m.seen)
}

// Totals returns the counts since the monitor started.
func (m *Monitor) Totals() Totals {
	t := m.totals
	t.MeasuredRTF = rtf(m.simAll, m.wallAll)
	return t
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// FormatSim formats sim time ns as seconds with nanoseconds, "12.500000000".
func FormatSim(ns int64) string {
	sign := ""
	if ns < 0 {
		sign, ns = "-", -ns
	}
	return fmt.Sprintf("%s%d.%09d", sign, ns/1e9, ns%1e9)
}
