package dds_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/internal/testdomain"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/timesource"
	"github.com/simclock/simclock/transport"
)

var domainWakeup = testdomain.ID(163)

// pingPongDeadline bounds a whole wake-up test. A lost wake-up shows as
// a round trip that never completes, so the test fails only by reaching
// it: it is far longer than the test takes on a loaded machine (a second
// or two) and asserts nothing about speed.
const pingPongDeadline = 2 * time.Minute

// The executor sleeps in Cyclone's waitset between rounds (see package
// executor). A sample that lands between a round's Take and the wait, or
// while the spinning thread resets the reader's status, must still wake
// it: the benchmark's node round trip, in one process. A ping goes out on
// /clock, a pong process echoes it (transport.Receive, the benchmark's
// pong), and each spin method in turn waits until the node's clock reads
// the echo (SpinUntil, as the benchmark does; SpinOnce in a loop; Spin in
// another goroutine, stopped by the handler). Every round trip must
// complete; a lost wake-up hangs one until the deadline.
func TestExecutorRoundTripsLoseNoWakeUp(t *testing.T) {
	requireDDS(t)
	const trips = 300 // per spin method
	ctx, cancel := context.WithTimeout(context.Background(), pingPongDeadline)
	defer cancel()
	a, b := open(t, domainWakeup), open(t, domainWakeup)
	q := transport.QoS{Depth: 10, Reliability: transport.Reliable}

	// The pong: echo every /clock on /clock_pong.
	psub, err := b.Subscribe(timemsg.ClockTopic, timemsg.ClockTypeName, q)
	if err != nil {
		t.Fatal(err)
	}
	ppub, err := b.Publisher(pongTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
	if err != nil {
		t.Fatal(err)
	}
	pongCtx, stopPong := context.WithCancel(ctx)
	var pong sync.WaitGroup
	pong.Go(func() {
		transport.Receive(pongCtx, psub, func(s transport.Sample) { ppub.Publish(pongCtx, s.Data) }) //nolint:errcheck // ends with pongCtx
	})
	defer func() { stopPong(); pong.Wait() }()

	// The ping: a node's clock on an executor, set by /clock_pong.
	pub, err := a.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
	if err != nil {
		t.Fatal(err)
	}
	e := executor.New(executor.Config{})
	defer e.Close()
	ts := timesource.New(a, e.Subscribe, timesource.Options{Topic: pongTopic, QoS: &q})
	defer ts.Close()
	clock := simclock.NewROSClock()
	ts.AttachClock(clock)
	if err := ts.SetUseSimTime(true); err != nil {
		t.Fatal(err)
	}
	for len(ts.Publishers()) == 0 || pub.MatchedSubscriptions() == 0 {
		if ctx.Err() != nil {
			t.Fatal("ping and pong never matched")
		}
		time.Sleep(5 * time.Millisecond)
	}
	// A timer on the steady clock makes the executor's waits end by
	// deadline as well as by sample, as a node with a periodic timer's do.
	tq := timer.NewQueue(e.Steady())
	defer tq.Close()
	e.AddQueue(tq)
	defer e.RemoveQueue(tq)
	if _, err := tq.New(time.Millisecond, func(timer.Info) {}, true); err != nil {
		t.Fatal(err)
	}

	sec := int32(1000)
	ping := func() int64 {
		t.Helper()
		sec++
		if err := pub.Publish(ctx, timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: sec}})); err != nil {
			t.Fatal(err)
		}
		return int64(sec) * 1e9
	}
	arrived := func(want int64) func() bool {
		return func() bool { return clock.Now().Nanoseconds() >= want }
	}

	for i := range trips {
		want := ping()
		if err := e.SpinUntil(ctx, arrived(want)); err != nil {
			t.Fatalf("SpinUntil: round trip %d of %d never completed: %v", i+1, trips, err)
		}
	}
	for i := range trips {
		want := ping()
		for !arrived(want)() {
			if _, err := e.SpinOnce(ctx, -1); err != nil {
				t.Fatalf("SpinOnce: round trip %d of %d never completed: %v", i+1, trips, err)
			}
		}
	}
	spun := make(chan error, 1)
	reached := make(chan struct{}, 1)
	var target atomicTarget
	if _, err := clock.OnJump(simclock.AnyJump, simclock.JumpCallbacks{Post: func(simclock.TimeJump) {
		if clock.Now().Nanoseconds() >= target.get() {
			select {
			case reached <- struct{}{}:
			default:
			}
		}
	}}); err != nil {
		t.Fatal(err)
	}
	go func() { spun <- e.Spin(ctx) }()
	for i := range trips {
		target.set(int64(sec+1) * 1e9)
		ping()
		select {
		case <-reached:
		case <-ctx.Done():
			t.Fatalf("Spin: round trip %d of %d never completed", i+1, trips)
		}
	}
	e.Stop()
	if err := <-spun; err != nil {
		t.Fatalf("Spin = %v", err)
	}
}

type atomicTarget struct {
	mu sync.Mutex
	ns int64
}

func (a *atomicTarget) set(ns int64) { a.mu.Lock(); a.ns = ns; a.mu.Unlock() }
func (a *atomicTarget) get() int64   { a.mu.Lock(); defer a.mu.Unlock(); return a.ns }

// Goroutines publishing race the executor's wait from several threads:
// each of several pingers has its own topic and subscription in the one
// waitset, and makes round trips with at most one sample in flight (so a
// reliable depth-10 reader can drop none). Every sample must be handled
// exactly once, in order.
func TestExecutorWaitSetRacingPublishers(t *testing.T) {
	requireDDS(t)
	const (
		pingers = 4
		trips   = 200 // per pinger
	)
	ctx, cancel := context.WithTimeout(context.Background(), pingPongDeadline)
	defer cancel()
	a, b := open(t, domainWakeup), open(t, domainWakeup)
	q := transport.QoS{Depth: 10, Reliability: transport.Reliable}
	e := executor.New(executor.Config{})
	defer e.Close()

	pubs := make([]transport.Publisher, pingers)
	got := make([]chan int32, pingers)
	for i := range pingers {
		topic := fmt.Sprintf("/wake_%d", i)
		sub, err := b.Subscribe(topic, timemsg.ClockTypeName, q)
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
		if pubs[i], err = a.Publisher(topic, timemsg.ClockTypeName, q); err != nil {
			t.Fatal(err)
		}
		got[i] = make(chan int32, trips)
		defer e.Subscribe(sub, func(s transport.Sample) { got[i] <- int32(binary.LittleEndian.Uint32(s.Data[4:8])) })()
		for pubs[i].MatchedSubscriptions() == 0 {
			if ctx.Err() != nil {
				t.Fatal("never matched")
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	spinCtx, stopSpin := context.WithCancel(ctx)
	spun := make(chan error, 1)
	go func() { spun <- e.Spin(spinCtx) }()

	errs := make(chan error, pingers)
	var wg sync.WaitGroup
	for i := range pingers {
		wg.Go(func() {
			for n := range int32(trips) {
				if err := pubs[i].Publish(ctx, timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: n}})); err != nil {
					errs <- err
					return
				}
				select {
				case sec := <-got[i]:
					if sec != n {
						errs <- fmt.Errorf("pinger %d: handled %d, want %d", i, sec, n)
						return
					}
				case <-ctx.Done():
					errs <- fmt.Errorf("pinger %d: sample %d of %d never handled", i, n+1, trips)
					return
				}
			}
		})
	}
	wg.Wait()
	stopSpin()
	<-spun
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i := range pingers {
		if n := len(got[i]); n != 0 {
			t.Errorf("pinger %d: %d samples handled twice", i, n)
		}
	}
}

var domainBenchResend = testdomain.ID(164)

// The benchmark's round trip survives a lost ping: the watchdog ends the
// wait and the ping goes out again (counted), where it used to abort the
// whole benchmark run ("no pong for ping 25379"). The pong here loses the
// first copy of two pings on purpose, once waiting on a subscription and
// once in a node's clock. The watchdog's patience is short so that the
// test is quick; on a slow machine it may resend more often, which the
// test allows: it asserts only that every round trip completes and that
// the dropped pings were sent again.
func TestRoundTripResendsALostPing(t *testing.T) {
	requireDDS(t)
	for _, node := range []bool{false, true} {
		t.Run(fmt.Sprintf("node=%v", node), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), pingPongDeadline)
			defer cancel()
			pong := open(t, domainBenchResend)
			sub, err := pong.Subscribe(timemsg.ClockTopic, timemsg.ClockTypeName, transport.QoS{Depth: 1000, Reliability: transport.Reliable})
			if err != nil {
				t.Fatal(err)
			}
			pub, err := pong.Publisher(pongTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
			if err != nil {
				t.Fatal(err)
			}
			lose := map[int32]bool{1000: true, 1500: true} // the first warm-up ping and one later
			var lost atomic.Int32
			pongCtx, stop := context.WithCancel(ctx)
			var wg sync.WaitGroup
			wg.Go(func() {
				transport.Receive(pongCtx, sub, func(s transport.Sample) { //nolint:errcheck // ends with pongCtx
					if sec := int32(binary.LittleEndian.Uint32(s.Data[4:8])); lose[sec] {
						delete(lose, sec)
						lost.Add(1)
						return
					}
					pub.Publish(pongCtx, s.Data) //nolint:errcheck // the ping resends
				})
			})
			defer func() { stop(); wg.Wait() }()

			// 100 ms of patience, and 20 minutes' worth of resends.
			rt := newRoundTripper(t, node, domainBenchResend, 100*time.Millisecond, 12000) // 1000 round trips
			defer rt.close()
			for range 1000 {
				rt.roundTrip(t)
			}
			if n := lost.Load(); n != 2 {
				t.Fatalf("the pong lost %d pings, want 2", n)
			}
			if rt.resends < 2 {
				t.Errorf("%d resends for 2 lost pings", rt.resends)
			}
		})
	}
}
