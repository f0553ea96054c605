package dds_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/simclock/simclock/internal/testdomain"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
)

// Domain ids of the perf tests (the perf range is 160-169).
var (
	domainWait = testdomain.ID(160)
	domainPoll = testdomain.ID(161)
)

// Wait blocks in the waitset on the caller's thread: it returns for data
// (taken afterwards, one cgo call per batch), for ctx, and for Close; a
// depth-5 reader hands over every sample of a burst in order.
func TestWaitInline(t *testing.T) {
	requireDDS(t)
	a, b := open(t, domainWait), open(t, domainWait)
	pub, err := a.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := b.Subscribe(timemsg.ClockTopic, timemsg.ClockTypeName, transport.QoS{Depth: 5, Reliability: transport.Reliable})
	if err != nil {
		t.Fatal(err)
	}
	w := sub.(transport.Waiter)
	waitMatched(t, pub)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	if err := w.Wait(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Wait with nothing published = %v, want DeadlineExceeded", err)
	}
	cancel()

	for sec := range int32(3) {
		if err := pub.Publish(context.Background(), timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: sec}})); err != nil {
			t.Fatal(err)
		}
	}
	var got []int32
	ctx, cancel = context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for len(got) < 3 {
		if s, ok := sub.Take(); ok {
			m, err := timemsg.UnmarshalClock(s.Data)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, m.Clock.Sec)
			continue
		}
		if err := w.Wait(ctx); err != nil {
			t.Fatalf("Wait: %v after %v", err, got)
		}
	}
	if got[0] != 0 || got[1] != 1 || got[2] != 2 {
		t.Errorf("samples %v, want [0 1 2]", got)
	}

	done := make(chan error, 1)
	go func() { done <- w.Wait(context.Background()) }()
	time.Sleep(20 * time.Millisecond) // usually blocked in the waitset by now; the result is the same if not
	sub.Close()
	select {
	case err := <-done:
		if !errors.Is(err, transport.ErrClosed) {
			t.Errorf("Wait across Close = %v, want ErrClosed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not end Wait")
	}
}

// A subscription nobody waits on (a virtual-time executor only polls
// Take) still delivers: Take looks into the reader every time.
func TestTakePollOnly(t *testing.T) {
	requireDDS(t)
	a, b := open(t, domainPoll), open(t, domainPoll)
	pub, err := a.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := b.Subscribe(timemsg.ClockTopic, timemsg.ClockTypeName, transport.QoS{Depth: 1, Reliability: transport.Reliable})
	if err != nil {
		t.Fatal(err)
	}
	waitMatched(t, pub)
	for sec := range int32(3) {
		if err := pub.Publish(context.Background(), timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: sec}})); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			if s, ok := sub.Take(); ok {
				if m, _ := timemsg.UnmarshalClock(s.Data); m.Clock.Sec != sec {
					t.Fatalf("took %d, want %d", m.Clock.Sec, sec)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("sample %d never taken by polling", sec)
			}
			time.Sleep(time.Millisecond)
		}
	}
}

func waitMatched(t *testing.T, pub transport.Publisher) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for pub.MatchedSubscriptions() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no match")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
