package guard_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/guard"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/timesource"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/inproc"
	"github.com/simclock/simclock/virtualclock"
)

const sec = int64(time.Second)

func rosAt(t testing.TB, ns int64) simclock.Time[simclock.ROS] {
	t.Helper()
	v, err := simclock.TimeFromNanoseconds[simclock.ROS](ns)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// R27: Ago refuses whenever now_ns <= window_ns, with the reason.
func TestR27Ago(t *testing.T) {
	for _, tc := range []struct {
		rule, name string
		now        int64
		w          time.Duration
		want       int64
		err        error
	}{
		{"R27", "not started", 0, time.Second, 0, guard.ErrNotStarted},
		{"R27", "not started, empty window", 0, 0, 0, guard.ErrNotStarted},
		{"R27", "too early", sec / 2, time.Second, 0, guard.ErrTooEarly},
		{"R27", "one ns too early", sec - 1, time.Second, 0, guard.ErrTooEarly},
		{"R25", "boundary tick", sec, time.Second, 0, guard.ErrBoundary},
		{"R27", "one ns past", sec + 1, time.Second, 1, nil},
		{"R27", "empty window", 5, 0, 5, nil},
		{"R27", "running", 125 * sec, 5 * time.Second, 120 * sec, nil},
	} {
		t.Run(tc.rule+"/"+tc.name, func(t *testing.T) {
			got, err := guard.Ago(rosAt(t, tc.now), tc.w)
			if !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Fatalf("Ago(%d, %v) error = %v, want %v", tc.now, tc.w, err, tc.err)
			}
			if got.Nanoseconds() != tc.want {
				t.Errorf("Ago(%d, %v) = %v, want %d ns", tc.now, tc.w, got, tc.want)
			}
			// The naive guard "now == 0 || now < W" lets exactly the
			// boundary tick through, with time 0 (R27).
			naiveSkips := tc.now == 0 || tc.now < int64(tc.w)
			if tc.err == guard.ErrBoundary && naiveSkips {
				t.Error("the naive guard should let the boundary tick through")
			}
			if tc.err == guard.ErrBoundary {
				zero, err := rosAt(t, tc.now).Minus(tc.w)
				if err != nil || !zero.IsZero() {
					t.Errorf("boundary: Minus = %v, %v; want time 0, nil", zero, err)
				}
			}
		})
	}
}

// R27: a Window on a sim-time ROS clock refuses with each reason and
// calls the hook once per reason, not once per tick.
func TestR27Window(t *testing.T) {
	fc := virtualclock.New()
	c := simclock.NewROSClockOn(fc.System(), fc.Steady())
	c.EnableROSTimeOverride()
	var hooked []error
	w := guard.NewWindow[simclock.ROS](c, time.Second, func(err error) { hooked = append(hooked, err) })
	var reasons []error
	for _, now := range []int64{0, 0, sec / 4, sec / 2, sec, sec, sec + sec/4, 2 * sec} {
		c.SetROSTimeOverride(rosAt(t, now))
		start, err := w.Start()
		for _, r := range []error{guard.ErrNotStarted, guard.ErrTooEarly, guard.ErrBoundary} {
			if errors.Is(err, r) {
				reasons = append(reasons, r)
			}
		}
		if err == nil {
			reasons = append(reasons, nil)
			if got := start.Nanoseconds(); got != now-sec {
				t.Errorf("at %d: Start = %d, want %d", now, got, now-sec)
			}
		} else if !start.IsZero() {
			t.Errorf("at %d: refused with a non-zero time %v", now, start)
		}
	}
	want := []error{guard.ErrNotStarted, guard.ErrNotStarted, guard.ErrTooEarly, guard.ErrTooEarly,
		guard.ErrBoundary, guard.ErrBoundary, nil, nil}
	if diff := cmp.Diff(want, reasons, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
	if len(hooked) != 3 || !errors.Is(hooked[0], guard.ErrNotStarted) || !errors.Is(hooked[1], guard.ErrTooEarly) ||
		!errors.Is(hooked[2], guard.ErrBoundary) {
		t.Errorf("hook calls = %v, want one per reason in order", hooked)
	}
	// A nil hook is allowed.
	if _, err := guard.NewWindow[simclock.ROS](c, 5*time.Second, nil).Start(); !errors.Is(err, guard.ErrTooEarly) {
		t.Errorf("nil hook: %v", err)
	}
}

type step struct {
	now  int64
	dt   time.Duration
	skip guard.Skip
}

func runDt(t *testing.T, d *guard.DtTracker[simclock.ROS], steps []step, started func(int) bool, gate *bool) {
	t.Helper()
	for i, s := range steps {
		if gate != nil {
			*gate = started(i)
		}
		got := d.Update(rosAt(t, s.now))
		if got.Skip != s.skip || got.Dt != s.dt || got.OK() != (s.skip == guard.NoSkip) {
			t.Errorf("step %d at %d: %+v (%v), want dt %v, %v", i, s.now, got, got.Skip, s.dt, s.skip)
		}
	}
}

// R29: the dt tracker skips a baseline taken before the first /clock (no
// 125 s step), classifies backward jumps and pauses, and always moves the
// baseline.
func TestR29DtTracker(t *testing.T) {
	t.Run("R29/125 s first clock", func(t *testing.T) {
		var d guard.DtTracker[simclock.ROS]
		runDt(t, &d, []step{
			{0, 0, guard.NotStarted},         // baseline before the first /clock
			{125 * sec, 0, guard.NoBaseline}, // not a 125 s step
			{125*sec + sec/2, 500 * time.Millisecond, guard.NoSkip},
			{125*sec + sec/2, 0, guard.Paused},                                      // paused simulation
			{100 * sec, -25*time.Second - 500*time.Millisecond, guard.BackwardJump}, // looped bag
			{100*sec + sec/2, 500 * time.Millisecond, guard.NoSkip},                 // the baseline moved
		}, nil, nil)
		d.Reset()
		runDt(t, &d, []step{{101 * sec, 0, guard.NoBaseline}, {102 * sec, time.Second, guard.NoSkip}}, nil, nil)
	})
	t.Run("R29/sim starting at 0 without the gate loses a sample", func(t *testing.T) {
		var d guard.DtTracker[simclock.ROS]
		runDt(t, &d, []step{
			{0, 0, guard.NotStarted}, // before the first /clock
			{0, 0, guard.NotStarted}, // first /clock carries 0: indistinguishable
			{10 * int64(time.Millisecond), 0, guard.NoBaseline},
			{20 * int64(time.Millisecond), 10 * time.Millisecond, guard.NoSkip},
		}, nil, nil)
	})
	t.Run("R29/Started gate: a sim starting at 0 loses no sample", func(t *testing.T) {
		var started bool
		d := guard.DtTracker[simclock.ROS]{Started: func() bool { return started }}
		runDt(t, &d, []step{
			{0, 0, guard.NotStarted}, // before the first /clock
			{0, 0, guard.NoBaseline}, // first /clock carries 0: a valid baseline
			{10 * int64(time.Millisecond), 10 * time.Millisecond, guard.NoSkip},
			{20 * int64(time.Millisecond), 10 * time.Millisecond, guard.NoSkip},
		}, func(i int) bool { return i >= 1 }, &started)
	})
	t.Run("R29/Started gate from a time source", func(t *testing.T) {
		fc := virtualclock.New()
		tr := inproc.NewBus().Connect("n")
		defer tr.Close()
		ts := timesource.New(tr, func(transport.Subscription, func(transport.Sample)) func() { return func() {} }, timesource.Options{})
		c := simclock.NewROSClockOn(fc.System(), fc.Steady())
		ts.AttachClock(c)
		if err := ts.SetUseSimTime(true); err != nil {
			t.Fatal(err)
		}
		defer ts.Close()
		d := guard.DtTracker[simclock.ROS]{Started: ts.FirstClockReceived}
		var got []guard.Step
		got = append(got, d.Update(c.Now()))
		for _, ns := range []int64{0, 10e6, 20e6} {
			ts.Handle(transport.Sample{Data: timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Nanosec: uint32(ns)}})})
			got = append(got, d.Update(c.Now()))
		}
		want := []guard.Step{{Skip: guard.NotStarted}, {Skip: guard.NoBaseline}, {Dt: 10 * time.Millisecond}, {Dt: 10 * time.Millisecond}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("steps (-want +got):\n%s", diff)
		}
	})
	for s, want := range map[guard.Skip]string{guard.NoSkip: "ok", guard.NoBaseline: "no baseline", guard.NotStarted: "not started",
		guard.BackwardJump: "backward jump", guard.Paused: "paused", guard.Skip(99): "unknown"} {
		if s.String() != want {
			t.Errorf("Skip(%d).String() = %q, want %q", s, s.String(), want)
		}
	}
}

// R28: a lookup at time 0 is "latest" only when not strict; strict mode
// refuses it. Stamps 98, 99, 100 s.
func TestR28History(t *testing.T) {
	fill := func(h *guard.History[simclock.ROS, string]) {
		for _, s := range []int64{100, 98, 99} { // out of order on purpose
			h.Add(rosAt(t, s*sec), string(rune('0'+s-90)))
		}
	}
	lenient := &guard.History[simclock.ROS, string]{}
	strict := &guard.History[simclock.ROS, string]{Strict: true}
	if _, err := strict.Lookup(rosAt(t, 99*sec)); !errors.Is(err, guard.ErrEmpty) {
		t.Errorf("empty: %v, want ErrEmpty", err)
	}
	fill(lenient)
	fill(strict)
	for _, tc := range []struct {
		rule, name string
		h          *guard.History[simclock.ROS, string]
		at         int64
		wantStamp  int64
		err        error
	}{
		{"R28", "0, not strict: latest", lenient, 0, 100 * sec, nil},
		{"R28", "0, strict: refused", strict, 0, 0, guard.ErrZeroTime},
		{"R28", "99 s", strict, 99 * sec, 99 * sec, nil},
		{"R28", "99 s, not strict", lenient, 99 * sec, 99 * sec, nil},
		{"R28", "between: the one before", strict, 99*sec + sec/2, 99 * sec, nil},
		{"R28", "oldest", strict, 98 * sec, 98 * sec, nil},
		{"R28", "newest", strict, 100 * sec, 100 * sec, nil},
		{"R28", "before the oldest", strict, 97 * sec, 0, guard.ErrExtrapolation},
		{"R28", "after the newest", lenient, 100*sec + 1, 0, guard.ErrExtrapolation},
	} {
		t.Run(tc.rule+"/"+tc.name, func(t *testing.T) {
			e, err := tc.h.Lookup(rosAt(t, tc.at))
			if !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Fatalf("Lookup(%d) error = %v, want %v", tc.at, err, tc.err)
			}
			if e.Stamp.Nanoseconds() != tc.wantStamp {
				t.Errorf("Lookup(%d) = %v, want stamp %d", tc.at, e.Stamp, tc.wantStamp)
			}
			if err == nil && e.Value != string(rune('0'+tc.wantStamp/sec-90)) {
				t.Errorf("Lookup(%d) value %q", tc.at, e.Value)
			}
		})
	}
	// The boundary tick of R25 asks for now - W = 0 and silently gets the
	// newest entry unless strict.
	now := rosAt(t, 100*sec)
	ago, _ := now.Minus(100 * time.Second)
	if e, _ := lenient.Lookup(ago); e.Stamp.Nanoseconds() != 100*sec {
		t.Errorf("boundary tick: got stamp %v, want the latest (100 s)", e.Stamp)
	}
	// Add replaces a stamp; Capacity drops the oldest.
	strict.Add(rosAt(t, 99*sec), "x")
	if e, _ := strict.Lookup(rosAt(t, 99*sec)); e.Value != "x" || strict.Len() != 3 {
		t.Errorf("replace: %q, len %d", e.Value, strict.Len())
	}
	capped := &guard.History[simclock.ROS, string]{Capacity: 2}
	fill(capped)
	if _, err := capped.Lookup(rosAt(t, 98*sec)); capped.Len() != 2 || !errors.Is(err, guard.ErrExtrapolation) {
		t.Errorf("capacity 2: len %d, lookup of the dropped 98 s: %v", capped.Len(), err)
	}
}
