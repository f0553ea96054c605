package clockmon_test

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/simclock/simclock/clockmon"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
)

const ms = time.Millisecond

func clock(sim time.Duration) []byte {
	ns := int64(sim)
	return timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: int32(ns / 1e9), Nanosec: uint32(ns % 1e9)}})
}

// feed sends n messages every period from wall w0, sim s0 advancing by
// step, and returns the next wall and sim.
func feed(m *clockmon.Monitor, w0, s0, period, step time.Duration, n int, pub transport.PublisherID) (time.Duration, time.Duration) {
	for range n {
		m.Observe(w0, clock(s0), pub)
		w0 += period
		s0 += step
	}
	return w0, s0
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

func TestSteadyRTF(t *testing.T) {
	for _, rtf := range []float64{1, 2, 0.5} {
		m := clockmon.New(clockmon.Config{}, 0)
		step := time.Duration(rtf * float64(10*ms))
		feed(m, 0, 100*time.Second, 10*ms, step, 100, "p1")
		r := m.Report(time.Second, []transport.PublisherID{"p1"})
		if r.Msgs != 100 || !near(r.RateHz, 100) {
			t.Errorf("rtf %v: msgs %d rate %v, want 100 and 100 Hz", rtf, r.Msgs, r.RateHz)
		}
		if r.MeasuredRTF == nil || !near(*r.MeasuredRTF, rtf) {
			t.Errorf("rtf %v: measured %v", rtf, r.MeasuredRTF)
		}
		if r.PeriodMs != 10 || r.MaxGapMs != 10 || r.Stalled || r.BackwardJumps != 0 || r.Paused || len(r.Warnings) != 0 {
			t.Errorf("rtf %v: unexpected report %+v", rtf, r)
		}
		if want := int64(100*time.Second) + 99*int64(step); r.SimNs != want || !r.HaveClock {
			t.Errorf("rtf %v: sim %d, want %d", rtf, r.SimNs, want)
		}
	}
}

func TestBackwardJump(t *testing.T) {
	m := clockmon.New(clockmon.Config{}, 0)
	w, _ := feed(m, 0, 50*time.Second, 10*ms, 10*ms, 50, "p")
	feed(m, w, 10*time.Second, 10*ms, 10*ms, 50, "p") // a loop restart
	r := m.Report(time.Second, nil)
	if r.BackwardJumps != 1 || r.LastBackward == nil || r.LastBackward.FromNs != int64(50*time.Second+490*ms) || r.LastBackward.ToNs != int64(10*time.Second) {
		t.Fatalf("backward jumps %d, last %+v", r.BackwardJumps, r.LastBackward)
	}
	if r.MeasuredRTF == nil || !near(*r.MeasuredRTF, 1) {
		t.Errorf("the jump must not distort the RTF: %v", r.MeasuredRTF)
	}
	if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "backwards") }) {
		t.Errorf("no backward warning in %q", r.Warnings)
	}
	if r2 := m.Report(2*time.Second, nil); r2.BackwardJumps != 0 || r2.Totals.BackwardJumps != 1 {
		t.Errorf("next interval: %d jumps, %d total", r2.BackwardJumps, r2.Totals.BackwardJumps)
	}
}

func TestStallDetectedAndCountedOnce(t *testing.T) {
	m := clockmon.New(clockmon.Config{StallPeriods: 5}, 0)
	w, s := feed(m, 0, 0, 10*ms, 10*ms, 100, "p") // last message at 990 ms
	if r := m.Report(time.Second, nil); r.Stalled {
		t.Fatalf("stalled after 10 ms of silence: %+v", r)
	}
	r := m.Report(1500*ms, nil)
	if !r.Stalled || r.Stalls != 1 || !near(r.StallS, 0.51) {
		t.Fatalf("after 510 ms of silence: stalled %v stalls %d stall_s %v", r.Stalled, r.Stalls, r.StallS)
	}
	r = m.Report(2500*ms, nil)
	if !r.Stalled || r.Stalls != 0 || r.Totals.Stalls != 1 {
		t.Fatalf("a continuing stall is one stall: stalled %v stalls %d total %d", r.Stalled, r.Stalls, r.Totals.Stalls)
	}
	// The clock stays at the last value during the stall.
	if want := int64(s - 10*ms); r.SimNs != want {
		t.Errorf("sim during stall %d, want the last value %d", r.SimNs, want)
	}
	_ = w
	feed(m, 3*time.Second, s, 10*ms, 10*ms, 10, "p")
	r = m.Report(3100*ms, nil)
	if r.Stalled || r.Stalls != 0 || r.Totals.Stalls != 1 {
		t.Errorf("after resuming: stalled %v stalls %d total %d", r.Stalled, r.Stalls, r.Totals.Stalls)
	}
	if r.MaxGapMs < 2000 {
		t.Errorf("max gap %v ms, want the 2 s silence", r.MaxGapMs)
	}
}

func TestShortStallBetweenReports(t *testing.T) {
	m := clockmon.New(clockmon.Config{}, 0)
	w, s := feed(m, 0, 0, 10*ms, 10*ms, 50, "p") // until 490 ms
	feed(m, w+300*ms, s, 10*ms, 10*ms, 10, "p")  // 300 ms of silence
	r := m.Report(900*ms, nil)                   // the last message came at 890 ms
	if r.Stalled || r.Stalls != 1 || r.PeriodMs != 10 {
		t.Errorf("stalled %v stalls %d period %v ms; want a counted stall, over, period still 10 ms", r.Stalled, r.Stalls, r.PeriodMs)
	}
}

func TestNoMessagesIsNotAStall(t *testing.T) {
	m := clockmon.New(clockmon.Config{}, 0)
	r := m.Report(5*time.Second, nil)
	if r.HaveClock || r.Stalled || r.MeasuredRTF != nil || r.Publishers != 0 || r.PublisherIDs == nil {
		t.Errorf("empty report %+v", r)
	}
}

func TestMalformed(t *testing.T) {
	m := clockmon.New(clockmon.Config{}, 0)
	m.Observe(0, clock(5*time.Second), "p")
	m.Observe(10*ms, []byte{0, 1, 0, 0, 1, 0, 0, 0}, "p")                         // short
	m.Observe(20*ms, []byte{0xff, 0xff, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}, "p")       // bad encapsulation
	m.Observe(30*ms, []byte{0, 1, 0, 0, 9, 0, 0, 0, 0x00, 0xca, 0x9a, 0x3b}, "p") // nanosec = 1e9 (R8)
	m.Observe(40*ms, nil, "p")
	r := m.Report(time.Second, nil)
	if r.Malformed != 3 || r.NotNormalized != 1 || r.Msgs != 5 {
		t.Errorf("malformed %d not_normalized %d msgs %d; want 3, 1, 5", r.Malformed, r.NotNormalized, r.Msgs)
	}
	if r.SimNs != int64(5*time.Second) {
		t.Errorf("sim %d: malformed data must not be applied", r.SimNs)
	}
}

func TestPublishersR18(t *testing.T) {
	m := clockmon.New(clockmon.Config{}, 0)
	w, s := feed(m, 0, 0, 10*ms, 10*ms, 10, "a")
	r := m.Report(w, []transport.PublisherID{"b", "a"})
	if r.Publishers != 2 || !slices.Equal(r.PublisherIDs, []string{"a", "b"}) {
		t.Fatalf("publishers %d %v", r.Publishers, r.PublisherIDs)
	}
	if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "R18") }) {
		t.Errorf("no R18 warning in %q", r.Warnings)
	}
	// Without graph information the senders count.
	w, s = feed(m, w, s, 10*ms, 10*ms, 2, "c")
	w, s = feed(m, w, s, 10*ms, 10*ms, 2, "d")
	if r := m.Report(w, nil); r.Publishers != 2 || r.Totals.MaxPublishers != 2 {
		t.Errorf("publishers from samples: %d (max %d)", r.Publishers, r.Totals.MaxPublishers)
	}
	w, _ = feed(m, w, s, 10*ms, 10*ms, 2, "a")
	if r := m.Report(w, []transport.PublisherID{"a"}); r.Publishers != 1 || len(r.Warnings) != 0 {
		t.Errorf("one publisher: %d, warnings %q", r.Publishers, r.Warnings)
	}
}

func TestPaused(t *testing.T) {
	m := clockmon.New(clockmon.Config{}, 0)
	feed(m, 0, 7*time.Second, 10*ms, 0, 50, "p")
	r := m.Report(500*ms, nil)
	if !r.Paused || r.MeasuredRTF == nil || *r.MeasuredRTF != 0 {
		t.Errorf("paused %v rtf %v; want paused with RTF 0", r.Paused, r.MeasuredRTF)
	}
}

func TestFormatSim(t *testing.T) {
	for _, tc := range []struct {
		ns   int64
		want string
	}{{0, "0.000000000"}, {1500000000, "1.500000000"}, {-1, "-0.000000001"}} {
		if got := clockmon.FormatSim(tc.ns); got != tc.want {
			t.Errorf("FormatSim(%d) = %q, want %q", tc.ns, got, tc.want)
		}
	}
}

// A simulator skipping ahead is a forward jump, reported once and kept
// out of the real-time factor (R22, R23); steady running is not.
func TestForwardJump(t *testing.T) {
	m := clockmon.New(clockmon.Config{}, 0)
	now := time.Duration(0)
	sim := int32(0)
	send := func(stepMs int32) {
		now += 10 * time.Millisecond
		sim += stepMs
		m.Observe(now, timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: sim / 1000, Nanosec: uint32(sim%1000) * 1e6}}), "pub")
	}
	for range 20 {
		send(20) // RTF 2
	}
	r := m.Report(now, nil)
	if r.ForwardJumps != 0 {
		t.Fatalf("steady stream: %d forward jumps", r.ForwardJumps)
	}
	send(5000) // jump 5 s ahead
	for range 20 {
		send(20)
	}
	r = m.Report(now, nil)
	if r.ForwardJumps != 1 || r.LastForward == nil || r.LastForward.ToNs-r.LastForward.FromNs != 5e9 {
		t.Fatalf("forward jumps %d, last %+v; want one of 5 s", r.ForwardJumps, r.LastForward)
	}
	if r.MeasuredRTF == nil || *r.MeasuredRTF < 1.99 || *r.MeasuredRTF > 2.01 {
		t.Errorf("RTF %v, want 2 with the jump left out", r.MeasuredRTF)
	}
	if m.Totals().ForwardJumps != 1 {
		t.Errorf("totals: %+v", m.Totals())
	}
	found := false
	for _, w := range r.Warnings {
		found = found || strings.Contains(w, "jumped forwards")
	}
	if !found {
		t.Errorf("no forward-jump warning in %q", r.Warnings)
	}
}

// A /clock of exactly 0 is "not started" for every node (R10, R11): the
// monitor counts and warns.
func TestZeroValues(t *testing.T) {
	m := clockmon.New(clockmon.Config{}, 0)
	for i := range 5 {
		sec := int32(0)
		if i >= 3 {
			sec = int32(i)
		}
		m.Observe(time.Duration(i)*10*time.Millisecond, timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: sec}}), "pub")
	}
	r := m.Report(50*time.Millisecond, nil)
	if r.ZeroValues != 3 || m.Totals().ZeroValues != 3 {
		t.Fatalf("zero values %d (totals %d), want 3", r.ZeroValues, m.Totals().ZeroValues)
	}
	found := false
	for _, w := range r.Warnings {
		found = found || strings.Contains(w, "not started")
	}
	if !found {
		t.Errorf("no warning about time 0 in %q", r.Warnings)
	}
}
