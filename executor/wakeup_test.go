package executor_test

import (
	"context"
	"encoding/binary"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/inproc"
)

// A sample published on the in-process bus between a round's Take and
// the executor's wait must still wake it. A pong goroutine echoes every
// ping, and each spin method in turn waits for the echo (SpinUntil;
// SpinOnce in a loop; Spin in another goroutine), with a 1 ms timer
// ending some waits by deadline. Every round trip must complete: a lost
// wake-up hangs one until the deadline, far longer than the test takes
// on a loaded machine. transport/dds has the same test on Cyclone's
// waitset.
func TestRoundTripsLoseNoWakeUp(t *testing.T) {
	const trips = 500 // per spin method
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bus := inproc.NewBus()
	a, b := bus.Connect("ping"), bus.Connect("pong")
	q := transport.QoS{Depth: 10, Reliability: transport.Reliable}
	psub, err := b.Subscribe("/ping", "T", q)
	if err != nil {
		t.Fatal(err)
	}
	ppub, err := b.Publisher("/pong", "T", q)
	if err != nil {
		t.Fatal(err)
	}
	pongCtx, stopPong := context.WithCancel(ctx)
	var pong sync.WaitGroup
	pong.Go(func() {
		transport.Receive(pongCtx, psub, func(s transport.Sample) { ppub.Publish(pongCtx, s.Data) }) //nolint:errcheck // ends with pongCtx
	})
	defer func() { stopPong(); pong.Wait() }()

	pub, err := a.Publisher("/ping", "T", q)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := a.Subscribe("/pong", "T", q)
	if err != nil {
		t.Fatal(err)
	}
	e := executor.New(executor.Config{})
	defer e.Close()
	var echoed atomic.Uint32
	reached := make(chan struct{}, 1)
	var target atomic.Uint32
	defer e.Subscribe(sub, func(s transport.Sample) {
		n := binary.LittleEndian.Uint32(s.Data)
		echoed.Store(n)
		if n >= target.Load() {
			select {
			case reached <- struct{}{}:
			default:
			}
		}
	})()
	tq := timer.NewQueue(e.Steady())
	defer tq.Close()
	e.AddQueue(tq)
	defer e.RemoveQueue(tq)
	if _, err := tq.New(time.Millisecond, func(timer.Info) {}, true); err != nil {
		t.Fatal(err)
	}

	var seq uint32
	ping := func() uint32 {
		t.Helper()
		seq++
		target.Store(seq)
		if err := pub.Publish(ctx, binary.LittleEndian.AppendUint32(nil, seq)); err != nil {
			t.Fatal(err)
		}
		return seq
	}
	for i := range trips {
		want := ping()
		if err := e.SpinUntil(ctx, func() bool { return echoed.Load() >= want }); err != nil {
			t.Fatalf("SpinUntil: round trip %d of %d never completed: %v", i+1, trips, err)
		}
	}
	for i := range trips {
		want := ping()
		for echoed.Load() < want {
			if _, err := e.SpinOnce(ctx, -1); err != nil {
				t.Fatalf("SpinOnce: round trip %d of %d never completed: %v", i+1, trips, err)
			}
		}
	}
	select { // a SpinOnce loop may have left a signal
	case <-reached:
	default:
	}
	spun := make(chan error, 1)
	go func() { spun <- e.Spin(ctx) }()
	for i := range trips {
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
