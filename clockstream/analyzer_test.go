package clockstream_test

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
)

const ms = time.Millisecond

func clock(sim time.Duration) []byte {
	ns := int64(sim)
	return timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: int32(ns / 1e9), Nanosec: uint32(ns % 1e9)}})
}

func observe(a *clockstream.Analyzer, at time.Duration, data []byte, pub transport.PublisherID) {
	a.Observe(clockstream.Decode(at, pub, data))
}

// feed sends n messages every period from w0, value s0 advancing by step,
// and returns the next receive time and value.
func feed(a *clockstream.Analyzer, w0, s0, period, step time.Duration, n int, pub transport.PublisherID) (time.Duration, time.Duration) {
	for range n {
		observe(a, w0, clock(s0), pub)
		w0 += period
		s0 += step
	}
	return w0, s0
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// events collects what an analyzer detects.
type events []clockstream.Event

func (e *events) config() clockstream.Config {
	return clockstream.Config{OnEvent: func(ev clockstream.Event) { *e = append(*e, ev) }}
}

func (e events) of(k clockstream.EventKind) []clockstream.Event {
	var out []clockstream.Event
	for _, ev := range e {
		if ev.Kind == k {
			out = append(out, ev)
		}
	}
	return out
}

func hasWarning(ws []string, sub string) bool {
	return slices.ContainsFunc(ws, func(w string) bool { return strings.Contains(w, sub) })
}

func TestSteadyRTF(t *testing.T) {
	for _, rtf := range []float64{1, 2, 0.5} {
		a := clockstream.NewAnalyzer(clockstream.Config{}, 0)
		step := time.Duration(rtf * float64(10*ms))
		feed(a, 0, 100*time.Second, 10*ms, step, 100, "p1")
		r := a.Report(time.Second, []transport.PublisherID{"p1"})
		if r.Messages != 100 || !near(r.RateHz, 100) {
			t.Errorf("rtf %v: messages %d rate %v, want 100 and 100 Hz", rtf, r.Messages, r.RateHz)
		}
		if r.RTF == nil || !near(*r.RTF, rtf) {
			t.Errorf("rtf %v: measured %v", rtf, r.RTF)
		}
		if r.Period != 10*ms || r.MaxGap != 10*ms || r.Silence != 0 || r.BackwardJumps != 0 || r.Paused || len(r.Warnings) != 0 {
			t.Errorf("rtf %v: unexpected report %+v", rtf, r)
		}
		if want := int64(100*time.Second) + 99*int64(step); r.Value != want || !r.HaveClock {
			t.Errorf("rtf %v: value %d, want %d", rtf, r.Value, want)
		}
	}
}

func TestBackwardJump(t *testing.T) {
	var ev events
	a := clockstream.NewAnalyzer(ev.config(), 0)
	w, _ := feed(a, 0, 50*time.Second, 10*ms, 10*ms, 50, "p")
	feed(a, w, 10*time.Second, 10*ms, 10*ms, 50, "p") // a loop restart
	r := a.Report(time.Second, nil)
	back := ev.of(clockstream.BackwardJump)
	if r.BackwardJumps != 1 || len(back) != 1 || back[0].From != int64(50*time.Second+490*ms) || back[0].To != int64(10*time.Second) || back[0].At != 500*ms {
		t.Fatalf("backward jumps %d, events %+v", r.BackwardJumps, back)
	}
	if r.RTF == nil || !near(*r.RTF, 1) {
		t.Errorf("the jump must not distort the RTF: %v", r.RTF)
	}
	if !hasWarning(r.Warnings, "backward") {
		t.Errorf("no backward warning in %q", r.Warnings)
	}
	if r2 := a.Report(2*time.Second, nil); r2.BackwardJumps != 0 || a.Totals(2*time.Second).BackwardJumps != 1 {
		t.Errorf("next interval: %d jumps", r2.BackwardJumps)
	}
}

// A gap (no message at all) is detected at a report while it lasts, and
// counted once.
func TestGapDetectedAndCountedOnce(t *testing.T) {
	a := clockstream.NewAnalyzer(clockstream.Config{Periods: 5}, 0)
	_, s := feed(a, 0, 0, 10*ms, 10*ms, 100, "p") // last message at 990 ms
	if r := a.Report(time.Second, nil); r.Silence != 0 {
		t.Fatalf("a gap after 10 ms of silence: %+v", r)
	}
	r := a.Report(1500*ms, nil)
	if r.Silence != 510*ms || r.Gaps != 1 {
		t.Fatalf("after 510 ms of silence: silence %v gaps %d", r.Silence, r.Gaps)
	}
	r = a.Report(2500*ms, nil)
	if r.Silence == 0 || r.Gaps != 0 || a.Totals(2500*ms).Gaps != 1 {
		t.Fatalf("a continuing gap is one gap: silence %v gaps %d total %d", r.Silence, r.Gaps, a.Totals(2500*ms).Gaps)
	}
	if want := int64(s - 10*ms); r.Value != want {
		t.Errorf("value during the gap %d, want the last value %d", r.Value, want)
	}
	feed(a, 3*time.Second, s, 10*ms, 10*ms, 10, "p")
	r = a.Report(3100*ms, nil)
	if r.Silence != 0 || r.Gaps != 0 || a.Totals(3100*ms).Gaps != 1 {
		t.Errorf("after resuming: silence %v gaps %d", r.Silence, r.Gaps)
	}
	if r.MaxGap < 2*time.Second {
		t.Errorf("max interval %v, want the 2 s silence", r.MaxGap)
	}
	if tot := a.Totals(3100 * ms); tot.ForwardJumps != 0 {
		t.Errorf("resuming after a gap at the same rate is no jump: %+v", tot)
	}
}

func TestShortGapBetweenReports(t *testing.T) {
	var ev events
	a := clockstream.NewAnalyzer(ev.config(), 0)
	w, s := feed(a, 0, 0, 10*ms, 10*ms, 50, "p") // until 490 ms
	feed(a, w+300*ms, s, 10*ms, 10*ms, 10, "p")  // 300 ms of silence
	r := a.Report(900*ms, nil)                   // the last message came at 890 ms
	if r.Silence != 0 || r.Gaps != 1 || r.Period != 10*ms {
		t.Errorf("silence %v gaps %d period %v; want a counted gap, over, period still 10 ms", r.Silence, r.Gaps, r.Period)
	}
	if g := ev.of(clockstream.Gap); len(g) != 1 || g[0].Length != 310*ms || g[0].At != 800*ms {
		t.Errorf("gap events %+v", g)
	}
}

func TestNoMessagesIsNotAGap(t *testing.T) {
	a := clockstream.NewAnalyzer(clockstream.Config{}, 0)
	r := a.Report(5*time.Second, nil)
	if r.HaveClock || r.Silence != 0 || r.RTF != nil || len(r.Publishers) != 0 || r.Publishers == nil {
		t.Errorf("empty report %+v", r)
	}
}

func TestMalformed(t *testing.T) {
	a := clockstream.NewAnalyzer(clockstream.Config{}, 0)
	observe(a, 0, clock(5*time.Second), "p")
	observe(a, 10*ms, []byte{0, 1, 0, 0, 1, 0, 0, 0}, "p")                         // short
	observe(a, 20*ms, []byte{0xff, 0xff, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}, "p")       // bad encapsulation
	observe(a, 30*ms, []byte{0, 1, 0, 0, 9, 0, 0, 0, 0x00, 0xca, 0x9a, 0x3b}, "p") // nanosec = 1e9 (R8)
	observe(a, 40*ms, nil, "p")
	r := a.Report(time.Second, nil)
	if r.Malformed != 3 || r.NotNormalized != 1 || r.Messages != 5 {
		t.Errorf("malformed %d not_normalized %d messages %d; want 3, 1, 5", r.Malformed, r.NotNormalized, r.Messages)
	}
	if r.Value != int64(5*time.Second) {
		t.Errorf("value %d: malformed data must not be applied", r.Value)
	}
}

func TestPublishersR18(t *testing.T) {
	a := clockstream.NewAnalyzer(clockstream.Config{}, 0)
	w, s := feed(a, 0, 0, 10*ms, 10*ms, 10, "a")
	r := a.Report(w, []transport.PublisherID{"b", "a"})
	if len(r.Publishers) != 2 || r.Publishers[0].ID != "a" || r.Publishers[1].ID != "b" || r.Publishers[1].Messages != 0 {
		t.Fatalf("publishers %+v", r.Publishers)
	}
	if !hasWarning(r.Warnings, "R18") || r.RTF != nil {
		t.Errorf("no R18 warning in %q, or an overall RTF %v", r.Warnings, r.RTF)
	}
	// Without graph information the senders count.
	w, s = feed(a, w, s, 10*ms, 10*ms, 2, "c")
	w, s = feed(a, w, s, 10*ms, 10*ms, 2, "d")
	if r := a.Report(w, nil); len(r.Publishers) != 2 {
		t.Errorf("publishers from samples: %+v", r.Publishers)
	}
	w, _ = feed(a, w, s, 10*ms, 10*ms, 2, "a")
	if r := a.Report(w, []transport.PublisherID{"a"}); len(r.Publishers) != 1 || len(r.Warnings) != 0 {
		t.Errorf("one publisher: %+v, warnings %q", r.Publishers, r.Warnings)
	}
}

// Two simulators on one /clock, one at real time from 0 and one at twice
// real time from 1.7e9 s: the interleaved stream jumps back and forth, so
// its overall RTF means nothing (it used to read 26522.984); each
// publisher's own RTF and rate are given instead.
func TestSeveralPublishersRTFPerPublisher(t *testing.T) {
	a := clockstream.NewAnalyzer(clockstream.Config{}, 0)
	for i := range 100 {
		at := time.Duration(i) * 10 * ms
		observe(a, at, clock(time.Duration(i)*10*ms), "sim_a")
		observe(a, at+5*ms, clock(1_700_000_000*time.Second+time.Duration(i)*20*ms), "sim_b")
	}
	tot := a.Totals(time.Second)
	if tot.RTF != nil || len(tot.Publishers) != 2 {
		t.Fatalf("totals RTF %v publishers %+v", tot.RTF, tot.Publishers)
	}
	for i, want := range []float64{1, 2} {
		p := tot.Publishers[i]
		if p.RTF == nil || !near(*p.RTF, want) || p.Messages != 100 || math.Abs(p.RateHz-100) > 1 {
			t.Errorf("publisher %s: rtf %v messages %d rate %v; want rtf %v, 100 at 100 Hz", p.ID, p.RTF, p.Messages, p.RateHz, want)
		}
	}
}

// A pause: messages keep coming, the value stands still (ros2 bag play
// paused). Reported once when it lasts Periods × period.
func TestPause(t *testing.T) {
	var ev events
	a := clockstream.NewAnalyzer(ev.config(), 0)
	w, s := feed(a, 0, 7*time.Second, 10*ms, 10*ms, 20, "p")
	w, s = feed(a, w, s, 10*ms, 0, 50, "p")
	r := a.Report(w, nil)
	if !r.Paused && r.Pauses != 1 {
		t.Errorf("paused %v pauses %d", r.Paused, r.Pauses)
	}
	p := ev.of(clockstream.Pause)
	if len(p) != 1 || p[0].From != int64(s) || p[0].Length != 110*ms {
		t.Errorf("pause events %+v (value %d)", p, s)
	}
	w, _ = feed(a, w, s, 10*ms, 0, 50, "p")
	r = a.Report(w, nil)
	if !r.Paused || r.RTF == nil || *r.RTF != 0 || r.Pauses != 0 || r.Gaps != 0 {
		t.Errorf("still paused: %+v", r)
	}
}

// A simulator skipping ahead is a forward jump, reported once and kept
// out of the real-time factor (R22, R23); steady running is not, nor is
// a drop of a few messages.
func TestForwardJump(t *testing.T) {
	var ev events
	a := clockstream.NewAnalyzer(ev.config(), 0)
	now, sim := time.Duration(0), time.Duration(0)
	send := func(step time.Duration) {
		now += 10 * ms
		sim += step
		observe(a, now, clock(sim), "pub")
	}
	for range 20 {
		send(20 * ms) // RTF 2
	}
	if r := a.Report(now, nil); r.ForwardJumps != 0 {
		t.Fatalf("steady stream: %d forward jumps", r.ForwardJumps)
	}
	send(5 * time.Second) // 5 s ahead
	for range 20 {
		send(20 * ms)
	}
	now += 30 * ms // three messages lost: 80 ms of sim time in 40 ms
	send(80 * ms)
	r := a.Report(now, nil)
	f := ev.of(clockstream.ForwardJump)
	if r.ForwardJumps != 1 || len(f) != 1 || f[0].To-f[0].From != 5e9 {
		t.Fatalf("forward jumps %d, events %+v; want one of 5 s", r.ForwardJumps, f)
	}
	if r.RTF == nil || !near(*r.RTF, 2) {
		t.Errorf("RTF %v, want 2 with the jump left out", r.RTF)
	}
	if !hasWarning(r.Warnings, "forward jump") {
		t.Errorf("no forward-jump warning in %q", r.Warnings)
	}
}

// A /clock of exactly 0 is "not started" for every node (R10, R11).
func TestZeroValues(t *testing.T) {
	a := clockstream.NewAnalyzer(clockstream.Config{}, 0)
	for i := range 5 {
		sec := int32(0)
		if i >= 3 {
			sec = int32(i)
		}
		observe(a, time.Duration(i)*10*ms, timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: sec}}), "pub")
	}
	r := a.Report(50*ms, nil)
	if r.Zero != 3 || a.Totals(50*ms).Zero != 3 {
		t.Fatalf("zero values %d, want 3", r.Zero)
	}
	if !hasWarning(r.Warnings, "not started") {
		t.Errorf("no warning about time 0 in %q", r.Warnings)
	}
}

// After Break (a damaged stretch of a bag was skipped), the hole is no
// gap, no jump and no pause, and stays out of the RTF; what follows is
// judged as usual.
func TestBreakJudgesNothingAcrossTheHole(t *testing.T) {
	for _, hole := range []struct {
		name        string
		wall, value time.Duration
	}{
		{"gap_and_forward_jump", 5 * time.Second, 50 * time.Second},
		{"backward", 5 * time.Second, -time.Second},
		{"pause", 5 * time.Second, 0},
	} {
		t.Run(hole.name, func(t *testing.T) {
			var ev events
			a := clockstream.NewAnalyzer(ev.config(), 0)
			w, v := feed(a, 0, 100*time.Second, 10*ms, 10*ms, 100, "p")
			a.Break()
			w, v = feed(a, w+hole.wall, v+hole.value, 10*ms, 10*ms, 100, "p")
			tot := a.Totals(w)
			if len(ev) != 0 || tot.Gaps+tot.Pauses+tot.BackwardJumps+tot.ForwardJumps != 0 {
				t.Errorf("events across the hole: %+v, totals %+v", ev, tot.Counts)
			}
			if tot.Messages != 200 || tot.RTF == nil || !near(*tot.RTF, 1) || tot.MaxGap != 10*ms {
				t.Errorf("messages %d, RTF %v, max gap %v: want 200, 1, 10ms", tot.Messages, tot.RTF, tot.MaxGap)
			}
			// Judging resumes after the hole.
			feed(a, w+time.Second, v, 10*ms, 10*ms, 1, "p")
			if n := len(ev.of(clockstream.Gap)); n != 1 {
				t.Errorf("%d gaps after the hole, want 1", n)
			}
		})
	}
}
