package executor_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/inproc"
)

// A waitableSub is an inproc subscription that offers a wait set
// (transport.Waitable), as the dds transport's do: the executor then
// waits in the set instead of on its wake channel. The set here is built
// on channels; transport/dds tests the Cyclone one.
type waitableSub struct {
	transport.Subscription
	sets *[]*chanWaitSet // wait sets made, across the subscriptions of a test
}

func (s *waitableSub) NewWaitSet() (transport.WaitSet, error) {
	w := &chanWaitSet{wake: make(chan struct{}, 1), subs: map[*waitableSub]func(){}}
	*s.sets = append(*s.sets, w)
	return w, nil
}

type chanWaitSet struct {
	wake   chan struct{}
	waits  atomic.Int64 // Wait calls
	mu     sync.Mutex
	subs   map[*waitableSub]func() // → stops its forwarder
	closed bool
}

func (w *chanWaitSet) Add(sub transport.Subscription) bool {
	s, ok := sub.(*waitableSub)
	if !ok {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	stop, done := make(chan struct{}), make(chan struct{})
	go func() { // the "transport" noticing samples
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-s.Notify():
				w.Wake()
			}
		}
	}()
	w.subs[s] = func() { close(stop); <-done }
	return true
}

func (w *chanWaitSet) Remove(sub transport.Subscription) {
	s, _ := sub.(*waitableSub)
	w.mu.Lock()
	stop := w.subs[s]
	delete(w.subs, s)
	w.mu.Unlock()
	if stop != nil {
		stop()
	}
}

func (w *chanWaitSet) Wait(d time.Duration) error {
	w.waits.Add(1)
	var timeout <-chan time.Time
	if d >= 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-w.wake:
	case <-timeout:
	}
	return nil
}

func (w *chanWaitSet) Wake() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *chanWaitSet) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.subs) != 0 {
		return errors.New("wait set closed with subscriptions in it")
	}
	w.closed = true
	return nil
}

// A real-time executor with a Waitable subscription waits in its wait
// set: samples, a second subscription that is not Waitable, a timer's
// deadline, Stop and the end of the context each end a wait, and the
// spin semantics are those of the channel path.
func TestWaitSet(t *testing.T) {
	bus := inproc.NewBus()
	tr := bus.Connect("t")
	defer tr.Close()
	var sets []*chanWaitSet
	e := executor.New(executor.Config{})
	sub := func(topic string, waitable bool) (transport.Publisher, <-chan string) {
		pub, s := pubSub(t, tr, topic)
		if waitable {
			s = &waitableSub{Subscription: s, sets: &sets}
		}
		got := make(chan string, 10)
		e.Subscribe(s, func(smp transport.Sample) { got <- string(smp.Data) })
		return pub, got
	}
	pubA, gotA := sub("/a", true)
	pubB, gotB := sub("/b", true)
	pubC, gotC := sub("/c", false) // watched by a forwarding goroutine, which pokes the set
	if len(sets) != 1 {
		t.Fatalf("%d wait sets made, want 1 for the executor", len(sets))
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	spun := make(chan error, 1)
	go func() { spun <- e.Spin(ctx) }()
	for _, c := range []struct {
		pub transport.Publisher
		got <-chan string
	}{{pubA, gotA}, {pubB, gotB}, {pubC, gotC}} {
		if err := c.pub.Publish(ctx, []byte("x")); err != nil {
			t.Fatal(err)
		}
		select {
		case <-c.got:
		case <-ctx.Done():
			t.Fatal("a sample never reached its callback")
		}
	}
	// A timer due in 20 ms: the wait's timeout ends it.
	q := timer.NewQueue(e.Steady())
	e.AddQueue(q)
	fired := make(chan struct{})
	newTimer(t, q, 20*time.Millisecond, func(timer.Info) {
		select {
		case fired <- struct{}{}:
		default:
		}
	})
	<-fired
	// Between the timer's periods it has nothing to do: it waits in its
	// set. (Not checked right after the call: a spin descheduled for the
	// 20 ms may never have needed to wait before it.)
	for sets[0].waits.Load() == 0 {
		if ctx.Err() != nil {
			t.Fatal("the executor never waited in its wait set")
		}
		time.Sleep(time.Millisecond)
	}
	e.Stop()
	if err := <-spun; err != nil {
		t.Fatalf("Spin after Stop = %v", err)
	}
	q.Close()
	e.RemoveQueue(q)

	// The end of the context ends a spin that waits with no deadline.
	cctx, ccancel := context.WithCancel(ctx)
	go func() { spun <- e.Spin(cctx) }()
	for !e.IsSpinning() {
		time.Sleep(time.Millisecond)
	}
	ccancel()
	if err := <-spun; !errors.Is(err, context.Canceled) {
		t.Fatalf("Spin after cancel = %v, want context.Canceled", err)
	}

	// SpinOnce's timeout is the wait's.
	if ran, err := e.SpinOnce(ctx, 10*time.Millisecond); ran || err != nil {
		t.Fatalf("SpinOnce on nothing = %v, %v", ran, err)
	}
	if err := pubA.Publish(ctx, []byte("y")); err != nil {
		t.Fatal(err)
	}
	if ran, err := e.SpinOnce(ctx, -1); !ran || err != nil {
		t.Fatalf("SpinOnce with a sample = %v, %v", ran, err)
	}
	<-gotA
	if err := e.Close(); err != nil { // every subscription left the set before it closed
		t.Fatal(err)
	}
	if !sets[0].closed {
		t.Error("Close left the wait set open")
	}
}
