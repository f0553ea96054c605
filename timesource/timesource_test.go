package timesource_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/cdr"
	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/timesource"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/inproc"
	"github.com/simclock/simclock/virtualclock"
)

const sec = int64(time.Second)

// fixture is a time source on an in-process bus, dispatched by a
// virtual-time executor, with one attached ROS clock and a simulator
// participant that publishes /clock.
type fixture struct {
	t        *testing.T
	fc       *virtualclock.Clock
	e        *executor.Executor
	bus      *inproc.Bus
	sim      transport.Transport
	ts       *timesource.TimeSource
	clock    *simclock.ROSClock
	warnings []error
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{t: t, fc: virtualclock.New(), bus: inproc.NewBus()}
	f.e = executor.New(executor.Config{Virtual: f.fc})
	tr := f.bus.Connect("node")
	f.sim = f.bus.Connect("sim")
	f.ts = timesource.New(tr, f.e.Subscribe, timesource.Options{OnWarning: func(err error) { f.warnings = append(f.warnings, err) }})
	f.clock = f.newClock()
	f.ts.AttachClock(f.clock)
	t.Cleanup(func() {
		if err := f.ts.Close(); err != nil {
			t.Error(err)
		}
		f.e.Close()
		tr.Close()
		f.sim.Close()
	})
	return f
}

func (f *fixture) newClock() *simclock.ROSClock {
	return simclock.NewROSClockOn(f.fc.System(), f.fc.Steady())
}

func (f *fixture) publisher(qos transport.QoS) transport.Publisher {
	f.t.Helper()
	pub, err := f.sim.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, qos)
	if err != nil {
		f.t.Fatal(err)
	}
	return pub
}

func (f *fixture) publishRaw(pub transport.Publisher, data []byte) {
	f.t.Helper()
	if err := pub.Publish(context.Background(), data); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) publish(pub transport.Publisher, sec int32, nsec uint32) {
	f.t.Helper()
	f.publishRaw(pub, timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: sec, Nanosec: nsec}}))
}

// spin runs rounds until nothing is left to do.
func (f *fixture) spin() {
	f.t.Helper()
	for {
		ran, err := f.e.SpinSome(context.Background())
		if err != nil {
			f.t.Fatal(err)
		}
		if !ran {
			return
		}
	}
}

func (f *fixture) setSim(on bool) {
	f.t.Helper()
	if err := f.ts.SetUseSimTime(on); err != nil {
		f.t.Fatal(err)
	}
}

func systemNow(fc *virtualclock.Clock) int64 { return fc.System().Now().Nanoseconds() }

// R16: use_sim_time starts off (the clock reads system time and /clock is
// ignored); on, the clock reads 0 until the first /clock, then each
// message (rclpy:rclpy/test/test_time_source.py:101-149, rclcpp:rclcpp/test/rclcpp/test_time_source.cpp:299-325, derived from rclcpp:rclcpp/src/rclcpp/time_source.cpp:47-75).
func TestR16UseSimTime(t *testing.T) {
	f := newFixture(t)
	pub := f.publisher(transport.ClockPublisherQoS)
	if f.ts.UseSimTime() || f.clock.ROSTimeActive() {
		t.Fatal("sim time on by default")
	}
	f.publish(pub, 3, 0)
	f.spin()
	if got := f.clock.Now().Nanoseconds(); got != systemNow(f.fc) {
		t.Errorf("rclpy:rclpy/test/test_time_source.py:111-116: sim off: now = %d, want system time %d", got, systemNow(f.fc))
	}
	if got := f.ts.Publishers(); got != nil {
		t.Errorf("sim off: Publishers = %v, want nil (no subscription)", got)
	}
	f.setSim(true)
	f.setSim(true) // no-op
	if !f.ts.UseSimTime() || !f.clock.ROSTimeActive() {
		t.Fatal("rclpy:rclpy/test/test_time_source.py:127-141: sim time not active")
	}
	if got := f.clock.Now(); !got.IsZero() || f.clock.Started() {
		t.Errorf("R16/rclpy:rclpy/test/test_time_source.py:143-144/derived from rclcpp:rclcpp/src/rclcpp/time_source.cpp:47-75: before the first /clock: now = %v, started %v; want 0, false", got, f.clock.Started())
	}
	if f.ts.FirstClockReceived() {
		t.Error("FirstClockReceived before any /clock")
	}
	for s := int32(0); s < 5; s++ {
		f.publish(pub, s, 1000)
		f.spin()
		if got, want := f.clock.Now().Nanoseconds(), int64(s)*sec+1000; got != want {
			t.Errorf("R16/rclpy:rclpy/test/test_time_source.py:146-149: after /clock %d s: now = %d, want %d", s, got, want)
		}
	}
	if !f.ts.FirstClockReceived() || f.ts.Last().Nanoseconds() != 4*sec+1000 {
		t.Errorf("FirstClockReceived %v, Last %v", f.ts.FirstClockReceived(), f.ts.Last())
	}
	st := f.ts.Stats()
	if st.Received != 5 || st.Applied != 5 || st.Malformed != 0 {
		t.Errorf("Stats = %+v, want 5 received and applied", st)
	}
	if len(f.warnings) != 0 {
		t.Errorf("warnings: %v", f.warnings)
	}
}

// R16: the /clock subscription is KEEP_LAST 1, BEST_EFFORT, VOLATILE: a
// best-effort publisher matches, a message published before the
// subscription is not replayed, and of two messages queued before a
// dispatch only the newest is applied.
func TestR16BestEffortDepth1(t *testing.T) {
	f := newFixture(t)
	pub := f.publisher(transport.QoS{Depth: 1, Reliability: transport.BestEffort, Durability: transport.Volatile})
	f.publish(pub, 1, 0) // before the subscription: lost (volatile)
	f.setSim(true)
	f.spin()
	if got := f.clock.Now(); !got.IsZero() {
		t.Errorf("volatile: a /clock from before the subscription was applied: now = %v", got)
	}
	if got := f.ts.Publishers(); len(got) != 1 || got[0] != pub.ID() {
		t.Errorf("Publishers = %v, want the best-effort publisher %v", got, pub.ID())
	}
	f.publish(pub, 2, 0)
	f.publish(pub, 3, 0)
	f.spin()
	if got := f.clock.Now().Nanoseconds(); got != 3*sec {
		t.Errorf("depth 1: now = %d, want the newest, 3 s", got)
	}
	if st := f.ts.Stats(); st.Received != 1 || st.Applied != 1 {
		t.Errorf("depth 1: Stats = %+v, want 1 received, 1 applied", st)
	}
}

// R17: a clock attached late gets the last value at once, and the
// current use_sim_time state (rclpy:rclpy/test/test_time_source.py:118-125, rclpy:rclpy/test/test_time_source.py:151-155, derived from rclpy:rclpy/rclpy/time_source.py:115-121).
func TestR17LateAttach(t *testing.T) {
	f := newFixture(t)
	pub := f.publisher(transport.ClockPublisherQoS)
	nine := simclock.Time[simclock.ROS]{}
	nine, _ = nine.Add(9 * time.Second)
	handSet := func() *simclock.ROSClock {
		c := f.newClock()
		c.SetROSTimeOverride(nine)
		c.EnableROSTimeOverride()
		return c
	}

	// rclpy:rclpy/test/test_time_source.py:118-125: a clock activated by hand, attached while sim time is off,
	// is deactivated and gets the cached value (0).
	manual := handSet()
	f.ts.AttachClock(manual)
	if manual.ROSTimeActive() || !manual.ROSTimeOverride().IsZero() {
		t.Errorf("rclpy:rclpy/test/test_time_source.py:118-125: active %v, override %v; want inactive, 0", manual.ROSTimeActive(), manual.ROSTimeOverride())
	}

	f.setSim(true)
	if !manual.ROSTimeActive() || !manual.Now().IsZero() {
		t.Errorf("R16: attached clock active %v, now %v; want active at 0", manual.ROSTimeActive(), manual.Now())
	}
	f.publish(pub, 5, 0)
	f.spin()
	late := f.newClock()
	f.ts.AttachClock(late)
	if !late.ROSTimeActive() || late.Now().Nanoseconds() != 5*sec {
		t.Errorf("R17/rclpy:rclpy/test/test_time_source.py:151-155: late clock active %v, now %v; want true, 5 s", late.ROSTimeActive(), late.Now())
	}
	f.publish(pub, 6, 0)
	f.spin()
	if late.Now().Nanoseconds() != 6*sec || manual.Now().Nanoseconds() != 6*sec {
		t.Errorf("attached clocks not updated: %v, %v", late.Now(), manual.Now())
	}
	f.ts.DetachClock(late)
	f.publish(pub, 7, 0)
	f.spin()
	if late.Now().Nanoseconds() != 6*sec || f.clock.Now().Nanoseconds() != 7*sec {
		t.Errorf("after detach: late %v (want 6 s), attached %v (want 7 s)", late.Now(), f.clock.Now())
	}

	// derived from rclpy:rclpy/rclpy/time_source.py:115-121: cached 7 s, sim off; a hand-set clock (9 s, active) is
	// deactivated and stores the cached value.
	f.setSim(false)
	c := handSet()
	f.ts.AttachClock(c)
	if c.ROSTimeActive() || c.ROSTimeOverride().Nanoseconds() != 7*sec {
		t.Errorf("derived from rclpy:rclpy/rclpy/time_source.py:115-121: active %v, override %v; want inactive, 7 s", c.ROSTimeActive(), c.ROSTimeOverride())
	}
}

// R17: use_sim_time off reads system time again; on again resumes
// from the last /clock received (the stored value is kept, as in rclpy),
// with ACTIVATED and DEACTIVATED jumps (rclpy:rclpy/test/test_time_source.py:205-220, rclpy:rclpy/test/test_time_source.py:222-229, derived from rclpy:rclpy/rclpy/time_source.py:51-65, rclcpp:rclcpp/test/rclcpp/test_time_source.cpp:511-533).
func TestR17Toggle(t *testing.T) {
	f := newFixture(t)
	pub := f.publisher(transport.ClockPublisherQoS)
	var jumps []simclock.TimeJump
	remove, err := f.clock.OnJump(simclock.JumpThreshold{OnClockChange: true, MinForward: 1, MinBackward: -1},
		simclock.JumpCallbacks{Post: func(j simclock.TimeJump) { jumps = append(jumps, j) }})
	if err != nil {
		t.Fatal(err)
	}
	defer remove()
	f.setSim(true)
	f.publish(pub, 5, 0)
	f.spin()
	f.setSim(false)
	if f.clock.ROSTimeActive() || f.clock.Now().Nanoseconds() != systemNow(f.fc) {
		t.Errorf("off: active %v, now %v; want system time %d", f.clock.ROSTimeActive(), f.clock.Now(), systemNow(f.fc))
	}
	f.publish(pub, 9, 0) // no subscription now
	f.spin()
	f.setSim(false) // no-op
	f.setSim(true)
	if got := f.clock.Now().Nanoseconds(); got != 5*sec {
		t.Errorf("derived from rclpy:rclpy/rclpy/time_source.py:51-65: on again: now = %d, want the last /clock, 5 s", got)
	}
	want := []simclock.TimeJump{
		{ClockChange: simclock.ROSTimeActivated},
		{ClockChange: simclock.ROSTimeNoChange, Delta: 5 * time.Second}, // derived from rclpy:rclpy/rclpy/time_source.py:123-128
		{ClockChange: simclock.ROSTimeDeactivated},
		{ClockChange: simclock.ROSTimeActivated},
	}
	if diff := cmp.Diff(want, jumps); diff != "" {
		t.Errorf("jumps (-want +got):\n%s", diff)
	}
	f.publish(pub, 6, 0)
	f.spin()
	if got := f.clock.Now().Nanoseconds(); got != 6*sec {
		t.Errorf("after re-subscribing: now = %d, want 6 s", got)
	}
}

// Malformed /clock messages are counted, never applied, and reported
// once through OnWarning.
func TestMalformed(t *testing.T) {
	good := timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: 2}})
	bigEndian := []byte{0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0}
	for _, tc := range []struct {
		name string
		data []byte
		is   error // what Stats.LastMalformed wraps, when not nil
	}{
		{"empty", nil, nil},
		{"short payload", good[:11], nil},
		{"header only", good[:4], nil},
		{"bad encapsulation", append([]byte{0, 9, 0, 0}, good[4:]...), nil},
		{"nanosec 1e9", timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: 1, Nanosec: 1e9}}), timemsg.ErrNotNormalized},
		{"nanosec max", timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Nanosec: ^uint32(0)}}), timemsg.ErrNotNormalized},
		{"negative sec", timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: -1}}), simclock.ErrNegativeTime},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			pub := f.publisher(transport.ClockPublisherQoS)
			f.setSim(true)
			f.publishRaw(pub, good)
			f.spin()
			for range 3 {
				f.publishRaw(pub, tc.data)
				f.spin()
			}
			if got := f.clock.Now().Nanoseconds(); got != 2*sec {
				t.Errorf("now = %d, want 2 s (malformed not applied)", got)
			}
			st := f.ts.Stats()
			if st.Received != 4 || st.Applied != 1 || st.Malformed != 3 || st.LastMalformed == nil {
				t.Errorf("Stats = %+v, want 4 received, 1 applied, 3 malformed", st)
			}
			if tc.is != nil && !errors.Is(st.LastMalformed, tc.is) {
				t.Errorf("LastMalformed = %v, want %v", st.LastMalformed, tc.is)
			}
			var de *cdr.DecodeError
			if tc.is == nil && !errors.As(st.LastMalformed, &de) {
				t.Errorf("LastMalformed = %v, want a *cdr.DecodeError", st.LastMalformed)
			}
			if len(f.warnings) != 1 || !errors.Is(f.warnings[0], timesource.ErrMalformedClock) {
				t.Errorf("warnings = %v, want one ErrMalformedClock", f.warnings)
			}
		})
	}
	t.Run("big endian is well formed", func(t *testing.T) {
		f := newFixture(t)
		f.setSim(true)
		f.publishRaw(f.publisher(transport.ClockPublisherQoS), bigEndian)
		f.spin()
		if got := f.clock.Now().Nanoseconds(); got != 7*sec {
			t.Errorf("now = %d, want 7 s", got)
		}
	})
}

// R18: a second /clock publisher is reported once, and Publishers lists
// every matched one.
func TestR18MultiplePublishers(t *testing.T) {
	f := newFixture(t)
	f.setSim(true)
	a := f.publisher(transport.ClockPublisherQoS)
	f.publish(a, 1, 0)
	f.spin()
	if len(f.warnings) != 0 {
		t.Fatalf("warnings with one publisher: %v", f.warnings)
	}
	other := f.bus.Connect("sim2")
	defer other.Close()
	b, err := other.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
	if err != nil {
		t.Fatal(err)
	}
	want := []transport.PublisherID{a.ID(), b.ID()}
	slices.Sort(want)
	if diff := cmp.Diff(want, f.ts.Publishers()); diff != "" {
		t.Errorf("Publishers (-want +got):\n%s", diff)
	}
	f.publish(b, 2, 0)
	f.spin()
	f.publish(a, 3, 0)
	f.spin()
	f.publish(b, 4, 0)
	f.spin()
	if len(f.warnings) != 1 || !errors.Is(f.warnings[0], timesource.ErrMultiplePublishers) {
		t.Errorf("warnings = %v, want one ErrMultiplePublishers", f.warnings)
	}
	if diff := cmp.Diff(want, f.ts.Stats().Senders); diff != "" {
		t.Errorf("Senders (-want +got):\n%s", diff)
	}
	// Both are still applied: R18 reports, it does not pick a winner.
	if got := f.clock.Now().Nanoseconds(); got != 4*sec {
		t.Errorf("now = %d, want 4 s", got)
	}
	b.Close()
	if got := f.ts.Publishers(); len(got) != 1 || got[0] != a.ID() {
		t.Errorf("after one publisher closed: Publishers = %v", got)
	}
}

// Options: another topic and QoS; Close unsubscribes.
func TestOptionsAndClose(t *testing.T) {
	fc := virtualclock.New()
	e := executor.New(executor.Config{Virtual: fc})
	defer e.Close()
	bus := inproc.NewBus()
	tr := bus.Connect("n")
	defer tr.Close()
	qos := transport.QoS{Depth: 5, Reliability: transport.Reliable}
	ts := timesource.New(tr, e.Subscribe, timesource.Options{Topic: "/sim/clock", QoS: &qos})
	c := simclock.NewROSClockOn(fc.System(), fc.Steady())
	ts.AttachClock(c)
	if err := ts.SetUseSimTime(true); err != nil {
		t.Fatal(err)
	}
	pub, err := bus.Connect("s").Publisher("/sim/clock", timemsg.ClockTypeName, transport.ClockPublisherQoS)
	if err != nil {
		t.Fatal(err)
	}
	for s := int32(1); s <= 3; s++ {
		if err := pub.Publish(context.Background(), timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: s}})); err != nil {
			t.Fatal(err)
		}
	}
	for {
		if ran, err := e.SpinSome(context.Background()); err != nil {
			t.Fatal(err)
		} else if !ran {
			break
		}
	}
	if st := ts.Stats(); st.Received != 3 || c.Now().Nanoseconds() != 3*sec {
		t.Errorf("depth 5: Stats %+v, now %v; want 3 received, 3 s", st, c.Now())
	}
	if err := ts.Close(); err != nil {
		t.Fatal(err)
	}
	if ts.UseSimTime() || c.ROSTimeActive() || ts.Publishers() != nil || pub.MatchedSubscriptions() != 0 {
		t.Errorf("after Close: sim %v, active %v, publishers %v, matched %d", ts.UseSimTime(), c.ROSTimeActive(), ts.Publishers(), pub.MatchedSubscriptions())
	}
}

// A subscription failure is returned and leaves sim time off.
func TestSubscribeError(t *testing.T) {
	fc := virtualclock.New()
	e := executor.New(executor.Config{Virtual: fc})
	defer e.Close()
	bus := inproc.NewBus()
	tr := bus.Connect("n")
	// /clock already carries another type on this bus.
	if _, err := tr.Publisher(timemsg.ClockTopic, "std_msgs/msg/String", transport.QoS{}); err != nil {
		t.Fatal(err)
	}
	ts := timesource.New(tr, e.Subscribe, timesource.Options{})
	if err := ts.SetUseSimTime(true); err == nil {
		t.Error("SetUseSimTime(true) succeeded on a /clock of the wrong type")
	}
	if ts.UseSimTime() {
		t.Error("sim time on after a failed subscription")
	}
	tr.Close()
}

// SetUseSimTime is safe for concurrent use: toggling from several
// goroutines ends in a consistent state with one subscription at most.
func TestConcurrentToggle(t *testing.T) {
	fc := virtualclock.New()
	e := executor.New(executor.Config{})
	defer e.Close()
	bus := inproc.NewBus()
	tr := bus.Connect("n")
	defer tr.Close()
	ts := timesource.New(tr, e.Subscribe, timesource.Options{})
	c := simclock.NewROSClockOn(fc.System(), fc.Steady())
	ts.AttachClock(c)
	pub, err := bus.Connect("sim").Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	late := make(chan *simclock.ROSClock, 1)
	go func() {
		c := simclock.NewROSClockOn(fc.System(), fc.Steady())
		ts.AttachClock(c)
		late <- c
	}()
	for g := range 4 {
		go func() {
			var err error
			for i := range 200 {
				if e := ts.SetUseSimTime((i+g)%2 == 0); e != nil {
					err = e
				}
			}
			done <- err
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
	c2 := <-late
	if on := ts.UseSimTime(); on != c.ROSTimeActive() || on != c2.ROSTimeActive() || (pub.MatchedSubscriptions() == 1) != on || pub.MatchedSubscriptions() > 1 {
		t.Errorf("use_sim_time %v, clock active %v, %d /clock subscriptions", on, c.ROSTimeActive(), pub.MatchedSubscriptions())
	}
	if err := ts.Close(); err != nil || pub.MatchedSubscriptions() != 0 {
		t.Errorf("Close = %v, %d subscriptions left", err, pub.MatchedSubscriptions())
	}
}
