package node_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/node"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/inproc"
	"github.com/simclock/simclock/virtualclock"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const sec = int64(time.Second)

// world is a virtual-time executor and an in-process bus.
type world struct {
	t   testing.TB
	fc  *virtualclock.Clock
	e   *executor.Executor
	bus *inproc.Bus
}

func newWorld(t testing.TB) *world {
	w := &world{t: t, fc: virtualclock.New(), bus: inproc.NewBus()}
	w.e = executor.New(executor.Config{Virtual: w.fc})
	t.Cleanup(func() { w.e.Close() })
	return w
}

func (w *world) node(name string, opts node.Options) *node.Node {
	w.t.Helper()
	tr := w.bus.Connect(name)
	n, err := node.New(name, w.e, tr, opts)
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() {
		if err := n.Close(); err != nil {
			w.t.Error(err)
		}
		tr.Close()
	})
	return n
}

// clockPublisher returns a function that publishes one /clock message
// from a simulator node on the same bus.
func (w *world) clockPublisher(sim *node.Node) func(ns int64) {
	w.t.Helper()
	pub, err := sim.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
	if err != nil {
		w.t.Fatal(err)
	}
	return func(ns int64) {
		t, err := simclock.TimeFromNanoseconds[simclock.ROS](ns)
		if err != nil {
			w.t.Fatal(err)
		}
		m, err := timemsg.ClockFrom(t)
		if err != nil {
			w.t.Fatal(err)
		}
		if err := pub.Publish(context.Background(), timemsg.MarshalClock(m)); err != nil {
			w.t.Fatal(err)
		}
	}
}

// spinSome runs one round of the executor.
func (w *world) spinSome() bool {
	w.t.Helper()
	ran, err := w.e.SpinSome(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	return ran
}

func (w *world) drain() {
	for w.spinSome() {
	}
}

// R16: use_sim_time defaults to false (the ROS clock reads the executor's
// system clock), can be set at creation and at run time, and must be a
// bool (rclcpp:rclcpp/test/rclcpp/test_time_source.cpp:250-282,
// rclcpp:rclcpp/src/rclcpp/time_source.cpp:230-274).
func TestR16UseSimTimeParameter(t *testing.T) {
	w := newWorld(t)
	n := w.node("plain", node.Options{})
	if n.Name() != "plain" || n.UseSimTime() || n.Clock().ROSTimeActive() {
		t.Fatalf("default node: name %q, use_sim_time %v", n.Name(), n.UseSimTime())
	}
	if got, want := n.Now().Nanoseconds(), w.fc.System().Now().Nanoseconds(); got != want {
		t.Errorf("sim off: Now = %d, want the executor's system time %d", got, want)
	}
	if n.TimeSource() == nil || n.TimeSource().UseSimTime() {
		t.Error("time source missing or on")
	}

	s := w.node("sim", node.Options{UseSimTime: true})
	if !s.UseSimTime() || !s.Clock().ROSTimeActive() || !s.Now().IsZero() {
		t.Errorf("use_sim_time at creation: on %v, now %v; want on, 0", s.UseSimTime(), s.Now())
	}

	for _, tc := range []struct {
		rule, name string
		param      string
		value      any
		err        error
		want       bool
	}{
		{"rclcpp:rclcpp/test/rclcpp/test_time_source.cpp:270-282", "true", node.UseSimTimeParam, true, nil, true},
		{"rclcpp:rclcpp/test/rclcpp/test_time_source.cpp:250-253", "not a bool", node.UseSimTimeParam, "not boolean", node.ErrParameterType, true},
		{"rclcpp:rclcpp/src/rclcpp/time_source.cpp:230-274", "an int", node.UseSimTimeParam, 1, node.ErrParameterType, true},
		{"R16", "false", node.UseSimTimeParam, false, nil, false},
		{"R16", "undeclared", "use_sim_tim", true, node.ErrUnknownParameter, false},
	} {
		err := n.SetParameter(tc.param, tc.value)
		if !errors.Is(err, tc.err) || (tc.err != nil && err == nil) {
			t.Errorf("%s/%s: SetParameter(%q, %v) = %v, want %v", tc.rule, tc.name, tc.param, tc.value, err, tc.err)
		}
		if got := n.UseSimTime(); got != tc.want {
			t.Errorf("%s/%s: use_sim_time = %v, want %v", tc.rule, tc.name, got, tc.want)
		}
	}
	if err := n.SetUseSimTime(true); err != nil || !n.Now().IsZero() {
		t.Errorf("SetUseSimTime(true) = %v, now %v; want nil, 0", err, n.Now())
	}
}

// R19 (rclcpp:rclcpp/include/rclcpp/timer.hpp:358-377, rclcpp:rclcpp/test/rclcpp/test_timer.cpp:54-88):
// CreateTimer is on the node's ROS clock,
// CreateWallTimer on the steady clock, CreateSystemTimer on the system
// clock; with sim time on, only the ROS timer follows /clock.
func TestTimerClocks(t *testing.T) {
	w := newWorld(t)
	sim := w.node("sim", node.Options{})
	publish := w.clockPublisher(sim)
	n := w.node("subject", node.Options{UseSimTime: true})
	var got []timer.Info
	rec := func(i timer.Info) { got = append(got, i) }
	ros, err := n.CreateTimer(time.Second, rec)
	if err != nil {
		t.Fatal(err)
	}
	wall, err := n.CreateWallTimer(100*time.Millisecond, rec)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := n.CreateSystemTimer(100*time.Millisecond, rec)
	if err != nil {
		t.Fatal(err)
	}
	if ros.NextCallTime() != sec {
		t.Errorf("ROS timer created at sim time 0: next = %d, want 1 s", ros.NextCallTime())
	}
	// 100 ms of steady time: the wall and system timers fire once; the ROS
	// timer waits for /clock (R23).
	w.fc.Advance(100 * time.Millisecond)
	w.drain()
	if len(got) != 2 || got[0].ActualCallTime.ClockType() != simclock.SteadyTime || got[1].ActualCallTime.ClockType() != simclock.SystemTime {
		t.Fatalf("after 100 ms: calls %+v, want the steady then the system timer", got)
	}
	wall.Cancel()
	sys.Cancel()
	got = nil
	publish(3 * sec) // first /clock S = 3 s >= period: fires once at S (R23)
	w.drain()
	if len(got) != 1 || got[0].ActualCallTime.ClockType() != simclock.ROSTime || got[0].ActualCallTime.Nanoseconds() != 3*sec || got[0].ExpectedCallTime.Nanoseconds() != sec {
		t.Errorf("after /clock 3 s: calls %+v, want one ROS call at 3 s expected 1 s", got)
	}
	if ros.NextCallTime() != 4*sec {
		t.Errorf("next = %d, want 4 s", ros.NextCallTime())
	}
	if _, err := n.CreateTimer(-1, nil); !errors.Is(err, timer.ErrNegativePeriod) {
		t.Errorf("CreateTimer(-1): %v", err)
	}
}

// R17 at node level: turning use_sim_time off gives the ROS clock the
// executor's system time back and re-bases the ROS timers (R22 credit).
func TestSimTimeOffRebasesTimers(t *testing.T) {
	w := newWorld(t)
	sim := w.node("sim", node.Options{})
	publish := w.clockPublisher(sim)
	n := w.node("subject", node.Options{UseSimTime: true})
	publish(100 * sec)
	w.drain()
	tm, err := n.CreateTimer(10*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	publish(104 * sec)
	w.drain()
	if err := n.SetParameter(node.UseSimTimeParam, false); err != nil {
		t.Fatal(err)
	}
	// derived from rcl:rcl/src/rcl/timer.c:72-89: next = S + 4 s (the elapsed time), not S + 6 s.
	if got, want := tm.NextCallTime(), w.fc.System().Now().Nanoseconds()+4*sec; got != want {
		t.Errorf("next = %d, want S + 4 s = %d", got, want)
	}
}

// Subscriptions are dispatched by the executor and stopped by Close; a
// rate is on the node's ROS clock.
func TestSubscribeAndRate(t *testing.T) {
	w := newWorld(t)
	a := w.node("a", node.Options{})
	b := w.node("b", node.Options{})
	pub, err := a.Publisher("/x", "std_msgs/msg/String", transport.QoS{Depth: 5})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	sub, err := b.Subscribe("/x", "std_msgs/msg/String", transport.QoS{Depth: 5}, func(s transport.Sample) { got = append(got, string(s.Data)) })
	if err != nil || sub == nil {
		t.Fatal(err)
	}
	_ = pub.Publish(context.Background(), []byte("1"))
	w.drain()
	if len(got) != 1 || got[0] != "1" {
		t.Errorf("got %v", got)
	}
	if _, err := b.Subscribe("/x", "other/msg/Type", transport.QoS{}, nil); err == nil {
		t.Error("Subscribe with a conflicting type succeeded")
	}
	r, err := b.CreateRate(4)
	if err != nil || r.Period() != 250*time.Millisecond {
		t.Errorf("CreateRate(4) = %v, %v", r, err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	_ = pub.Publish(context.Background(), []byte("2"))
	w.drain()
	if len(got) != 1 {
		t.Errorf("sample handled after Close: %v", got)
	}
}

// R22 through the time source: a ROS timer made with sim time off
// keeps its system-time deadline when use_sim_time turns on while the
// value is 0 (derived from rcl:rcl/src/rcl/timer.c:72-126), never fires at 0, and restarts a full period at
// the first /clock (derived from rcl:rcl/src/rcl/timer.c:72-126).
func TestR22ActivationAtZero(t *testing.T) {
	w := newWorld(t)
	sim := w.node("sim", node.Options{})
	publish := w.clockPublisher(sim)
	n := w.node("subject", node.Options{})
	calls := 0
	tm, err := n.CreateTimer(10*time.Second, func(timer.Info) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	s := w.fc.System().Now().Nanoseconds()
	w.fc.Advance(3 * time.Second)
	if err := n.SetParameter(node.UseSimTimeParam, true); err != nil {
		t.Fatal(err)
	}
	if got := tm.NextCallTime(); got != s+10*sec || tm.IsReady() {
		t.Errorf("derived from rcl:rcl/src/rcl/timer.c:72-126: next %d, ready %v; want S + 10 s = %d, false", got, tm.IsReady(), s+10*sec)
	}
	w.fc.Advance(20 * time.Second) // wall time passes; sim time does not
	w.drain()
	if calls != 0 {
		t.Errorf("%d calls at sim time 0", calls)
	}
	publish(100 * sec)
	w.drain()
	if got := tm.NextCallTime(); got != 110*sec || calls != 0 {
		t.Errorf("derived from rcl:rcl/src/rcl/timer.c:72-126: next %d, calls %d; want 110 s, 0", got, calls)
	}
	publish(110 * sec)
	w.drain()
	if calls != 1 {
		t.Errorf("%d calls at 110 s, want 1", calls)
	}
}

// A ROS timer created before the first /clock gets one warning per node
// (R23); after /clock, or with sim time off, none.
func TestWarnsOnceAboutUnstartedTimers(t *testing.T) {
	exec := executor.New(executor.Config{Virtual: virtualclock.New()})
	defer exec.Close()
	bus := inproc.NewBus()
	var warnings []error
	n, err := node.New("subject", exec, bus.Connect("subject"), node.Options{UseSimTime: true,
		OnWarning: func(err error) { warnings = append(warnings, err) }})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	n.CreateTimer(100*time.Millisecond, nil)
	n.CreateTimer(time.Second, nil)
	n.CreateWallTimer(time.Second, nil)
	if len(warnings) != 1 || !errors.Is(warnings[0], node.ErrUnstartedTimer) {
		t.Fatalf("warnings %v, want one ErrUnstartedTimer", warnings)
	}

	quiet, _ := node.New("wall", exec, bus.Connect("wall"), node.Options{OnWarning: func(err error) { t.Errorf("sim time off: %v", err) }})
	defer quiet.Close()
	quiet.CreateTimer(time.Second, nil)
}

// rcl's autostart option through the node: rclpy's create_timer(...,
// autostart=False) is canceled (rclpy:rclpy/test/test_timer.py:185-192, rclpy@rolling:rclpy/test/test_timer.py:210-223), rclcpp's create_timer
// and create_wall_timer with autostart false are canceled until reset
// (rclcpp:rclcpp/test/rclcpp/test_timer.cpp:54-88, rclcpp:rclcpp/test/rclcpp/test_timer.cpp:370-382), rcl_timer_init2 with autostart false (rcl:rcl/test/rcl/test_timer.cpp:502-520). A
// canceled ROS timer is not armed, so it gives no R23 warning.
func TestTimerAutostart(t *testing.T) {
	w := newWorld(t)
	sim := w.node("sim", node.Options{})
	publish := w.clockPublisher(sim)
	n := w.node("subject", node.Options{UseSimTime: true, OnWarning: func(err error) { t.Errorf("warning: %v", err) }})
	calls := map[simclock.ClockType]int{}
	rec := func(i timer.Info) { calls[i.ActualCallTime.ClockType()]++ }
	ros, err := n.CreateTimer(time.Second, rec, node.Autostart(false))
	if err != nil {
		t.Fatal(err)
	}
	wall, err := n.CreateWallTimer(100*time.Millisecond, rec, node.Autostart(false))
	if err != nil {
		t.Fatal(err)
	}
	sys, err := n.CreateSystemTimer(100*time.Millisecond, rec, node.Autostart(false))
	if err != nil {
		t.Fatal(err)
	}
	started, err := n.CreateWallTimer(100*time.Millisecond, nil, node.Autostart(true))
	if err != nil {
		t.Fatal(err)
	}
	for name, tm := range map[string]*timer.Timer{"ros": ros, "wall": wall, "system": sys} {
		if !tm.IsCanceled() {
			t.Errorf("%s timer with autostart false is not canceled", name)
		}
	}
	if started.IsCanceled() {
		t.Error("autostart true: canceled")
	}
	w.fc.Advance(time.Second)
	publish(3 * sec)
	w.drain()
	if len(calls) != 0 {
		t.Fatalf("canceled timers ran: %v", calls)
	}
	// Reset arms each one period from now.
	ros.Reset()
	wall.Reset()
	sys.Reset()
	w.fc.Advance(100 * time.Millisecond)
	publish(4 * sec)
	w.drain()
	if calls[simclock.SteadyTime] != 1 || calls[simclock.SystemTime] != 1 || calls[simclock.ROSTime] != 1 {
		t.Fatalf("after Reset: calls %v, want one of each", calls)
	}
}

// rclcpp's test_timer.cpp, callback_with_timer, callback_with_timer_info
// and callback_with_period_zero, for a wall timer and a node-clock timer
// (WALL_TIMER, GENERIC_TIMER): spin_once(10 ms) until the 1 ms (or 0 ms)
// timer has run, for at most 100 ms, in virtual time. The call's Info
// carries typed times on the timer's clock, actual >= expected; after the
// call a 1 ms timer is not ready (time until the next call >= 0), a 0 ms
// timer still is (<= 0).
func TestTimerCallbacksWithSpinOnce(t *testing.T) {
	for _, kind := range []string{"wall", "node clock"} {
		for _, period := range []time.Duration{time.Millisecond, 0} {
			t.Run(fmt.Sprintf("%s/%v", kind, period), func(t *testing.T) {
				w := newWorld(t)
				n := w.node("test_timer_node", node.Options{})
				var info *timer.Info
				create, ct := n.CreateWallTimer, simclock.SteadyTime
				if kind == "node clock" {
					create, ct = n.CreateTimer, simclock.ROSTime
				}
				tm, err := create(period, func(i timer.Info) { info = &i })
				if err != nil {
					t.Fatal(err)
				}
				ctx := context.Background()
				start := w.fc.SteadyNow()
				for info == nil && w.fc.SteadyNow()-start < int64(100*time.Millisecond) {
					if _, err := w.e.SpinOnce(ctx, 10*time.Millisecond); err != nil {
						t.Fatal(err)
					}
				}
				if info == nil {
					t.Fatal("the timer never ran")
				}
				late, err := info.ActualCallTime.Sub(info.ExpectedCallTime)
				if err != nil || late < 0 || info.ActualCallTime.ClockType() != ct {
					t.Errorf("info %+v: actual - expected = %v, %v; want >= 0 on %v", *info, late, err, ct)
				}
				until, ok := tm.TimeUntilNextCall()
				if period > 0 && (!ok || until < 0 || tm.IsReady()) {
					t.Errorf("after the call: time until next %v, ready %v; want >= 0, not ready", until, tm.IsReady())
				}
				if period == 0 && (!ok || until > 0 || !tm.IsReady()) {
					t.Errorf("period 0 after the call: time until next %v, ready %v; want <= 0, ready", until, tm.IsReady())
				}
			})
		}
	}
}
