package dds_test

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/internal/testdomain"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport"
)

var domainExecutor = testdomain.ID(162)

// A real-time executor waits for its DDS subscriptions in one Cyclone
// waitset on the spinning goroutine's thread: no goroutine per
// subscription, readers of two participants in one set, and Stop, the
// end of the context, a timer's deadline and a subscription closed while
// the executor waits all behave as on the executor's own wake channel.
func TestExecutorWaitsInCyclone(t *testing.T) {
	requireDDS(t)
	a, b, c := open(t, domainExecutor), open(t, domainExecutor), open(t, domainExecutor)
	pub, err := a.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
	if err != nil {
		t.Fatal(err)
	}
	q := transport.QoS{Depth: 10, Reliability: transport.Reliable}
	subB, err := b.Subscribe(timemsg.ClockTopic, timemsg.ClockTypeName, q)
	if err != nil {
		t.Fatal(err)
	}
	subC, err := c.Subscribe(timemsg.ClockTopic, timemsg.ClockTypeName, q)
	if err != nil {
		t.Fatal(err)
	}
	e := executor.New(executor.Config{})
	defer e.Close()
	got := make(chan int32, 100)
	handle := func(s transport.Sample) {
		m, err := timemsg.UnmarshalClock(s.Data)
		if err != nil {
			t.Error(err)
			return
		}
		got <- m.Clock.Sec
	}
	before := runtime.NumGoroutine()
	e.Subscribe(subB, handle)
	removeC := e.Subscribe(subC, handle)
	if n := runtime.NumGoroutine(); n > before { // fewer is fine: an earlier test's goroutines may still be exiting
		t.Errorf("subscribing started %d goroutines; the executor waits for DDS in its own thread", n-before)
	}
	for pub.MatchedSubscriptions() < 2 {
		time.Sleep(5 * time.Millisecond)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	spun := make(chan error, 1)
	go func() { spun <- e.Spin(ctx) }()
	publish := func(sec int32) {
		t.Helper()
		if err := pub.Publish(ctx, timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: sec}})); err != nil {
			t.Fatal(err)
		}
	}
	receive := func(want int32, n int) {
		t.Helper()
		for range n {
			select {
			case sec := <-got:
				if sec != want {
					t.Fatalf("received %d, want %d", sec, want)
				}
			case <-ctx.Done():
				t.Fatalf("sample %d never handled", want)
			}
		}
	}
	publish(1)
	receive(1, 2) // once by each participant's reader

	// Closing a subscription while the executor waits leaves the set.
	removeC()
	if err := subC.Close(); err != nil {
		t.Fatal(err)
	}
	publish(2)
	receive(2, 1)

	// A timer's deadline ends a wait with no sample.
	tq := timer.NewQueue(e.Steady())
	e.AddQueue(tq)
	fired := make(chan struct{}, 1)
	if _, err := tq.New(10*time.Millisecond, func(timer.Info) {
		select {
		case fired <- struct{}{}:
		default:
		}
	}, true); err != nil {
		t.Fatal(err)
	}
	<-fired
	e.RemoveQueue(tq)
	tq.Close()

	stopThenCancel(ctx, t, e, spun)
	// A sample published while nobody spins is handled by the next spin.
	publish(3)
	if ran, err := e.SpinOnce(ctx, -1); !ran || err != nil {
		t.Fatalf("SpinOnce = %v, %v", ran, err)
	}
	receive(3, 1)
}

// An executor given the transport's wait set (Config.WaitSet) waits in it
// for its timers before it has any subscription, as a /clock publisher
// does: timers fire, Stop and the end of the context wake it, and a
// subscription added later joins the same set.
func TestExecutorTimersWaitInTransportWaitSet(t *testing.T) {
	requireDDS(t)
	tr := open(t, domainExecutor)
	e := executor.New(executor.Config{WaitSet: tr})
	defer e.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	tq := timer.NewQueue(e.Steady())
	defer tq.Close()
	e.AddQueue(tq)
	calls := 0
	start := time.Now()
	if _, err := tq.New(2*time.Millisecond, func(timer.Info) { calls++ }, true); err != nil {
		t.Fatal(err)
	}
	cgoBefore := runtime.NumCgoCall()
	if err := e.SpinUntil(ctx, func() bool { return calls >= 10 }); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 20*time.Millisecond {
		t.Errorf("10 calls of a 2 ms periodic timer after %v, want at least 20 ms", d)
	}
	// Between the calls the spin waits in Cyclone's waitset, a cgo call
	// (nothing else in this process calls into C meanwhile); on a Go
	// timer it would make none.
	if runtime.NumCgoCall() == cgoBefore {
		t.Error("the executor waited for its timer without the transport's wait set")
	}
	e.RemoveQueue(tq)

	spun := make(chan error, 1)
	go func() { spun <- e.Spin(ctx) }()
	// Stop ends only a spin in progress (a Stop before the spin starts does
	// nothing), so wait until it spins.
	for !e.IsSpinning() {
		time.Sleep(time.Millisecond)
	}
	stopThenCancel(ctx, t, e, spun)

	const topic = "/executor_wait_set" // not /clock: the test before used it on this domain
	pub, err := tr.Publisher(topic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := tr.Subscribe(topic, timemsg.ClockTypeName, transport.QoS{Depth: 10, Reliability: transport.Reliable})
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	var got []int32
	e.Subscribe(sub, func(s transport.Sample) {
		m, err := timemsg.UnmarshalClock(s.Data)
		if err != nil {
			t.Error(err)
			return
		}
		got = append(got, m.Clock.Sec)
	})
	if n := runtime.NumGoroutine(); n > before { // fewer is fine: the spins above may still be exiting
		t.Errorf("subscribing started %d goroutines; the subscription joins the executor's wait set", n-before)
	}
	for pub.MatchedSubscriptions() < 1 {
		time.Sleep(5 * time.Millisecond)
	}
	if err := pub.Publish(ctx, timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: 7}})); err != nil {
		t.Fatal(err)
	}
	if err := e.SpinUntil(ctx, func() bool { return len(got) > 0 }); err != nil {
		t.Fatal(err)
	}
	if got[0] != 7 {
		t.Fatalf("received %d, want 7", got[0])
	}
}

// stopThenCancel checks that Stop ends the spin in progress (it sends its
// result on spun), waiting in the waitset by then, and that the end of the
// context ends a new one.
func stopThenCancel(ctx context.Context, t *testing.T, e *executor.Executor, spun chan error) {
	t.Helper()
	time.Sleep(20 * time.Millisecond) // usually waiting by now; the result is the same if not
	e.Stop()
	if err := <-spun; err != nil {
		t.Fatalf("Spin after Stop = %v", err)
	}
	sctx, scancel := context.WithCancel(ctx)
	go func() { spun <- e.Spin(sctx) }()
	time.Sleep(20 * time.Millisecond)
	scancel()
	if err := <-spun; !errors.Is(err, context.Canceled) {
		t.Fatalf("Spin after cancel = %v, want context.Canceled", err)
	}
}
