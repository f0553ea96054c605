// Package transporttest is the conformance suite every simclock transport
// passes: the rcl-like delivery contract of package transport, checked the
// same way for the in-process bus and for real DDS.
//
// A transport's test calls Run with a factory that returns two transports
// attached to one graph (one bus, or two participants on one DDS domain):
//
//	func TestConformance(t *testing.T) {
//		transporttest.Run(t, func(t *testing.T) (a, b transport.Transport) {
//			bus := inproc.NewBus()
//			return bus.Connect("a"), bus.Connect("b")
//		}, transporttest.Features{})
//	}
//
// The suite closes both transports at the end of each subtest. Payloads
// are multiples of 4 bytes, as every ROS 2 CDR payload is on the wire
// (rmw_cyclonedds pads to 4).
package transporttest

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
)

// Features describes what the transport under test does beyond the
// common contract.
type Features struct {
	// Async is set for transports that deliver after Publish returns and
	// discover peers over time (DDS). Checks that something does NOT
	// happen then wait Settle before concluding.
	Async bool
	// Settle is how long an Async transport gets to deliver or match;
	// defaults to 500 ms.
	Settle time.Duration
	// Timeout bounds every wait for something that must happen; defaults
	// to 10 s.
	Timeout time.Duration
	// SourceTimestamps is set when Sample.SourceTimestamp carries the
	// publisher's wall-clock time.
	SourceTimestamps bool
}

func (f Features) settle() time.Duration {
	if !f.Async {
		return 0
	}
	if f.Settle <= 0 {
		return 500 * time.Millisecond
	}
	return f.Settle
}

func (f Features) timeout() time.Duration {
	if f.Timeout <= 0 {
		return 10 * time.Second
	}
	return f.Timeout
}

// Run runs the conformance suite as subtests of t.
func Run(t *testing.T, newTransportPair func(t *testing.T) (a, b transport.Transport), f Features) {
	t.Helper()
	for _, tc := range []struct {
		name string
		run  func(*testing.T, *env)
	}{
		{"R9/round_trip_byte_exact", testRoundTrip},
		{"R16/keep_last_1_drops_oldest", func(t *testing.T, e *env) { testKeepLast(t, e, 1) }},
		{"keep_last_3_drops_oldest", func(t *testing.T, e *env) { testKeepLast(t, e, 3) }},
		{"R16/best_effort_sub_matches_reliable_pub", testBestEffortSubReliablePub},
		{"reliable_sub_rejects_best_effort_pub", testReliableSubBestEffortPub},
		{"R18/matched_publishers_two", testTwoPublishers},
		{"matched_subscriptions", testMatchedSubscriptions},
		{"close_semantics", testClose},
		{"notify_coalesces", testNotifyCoalesces},
		{"transient_local_replays_last_depth", testTransientLocal},
		{"unsupported_qos_refused", testUnsupportedQoS},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := newTransportPair(t)
			t.Cleanup(func() {
				a.Close() //nolint:errcheck // Close is idempotent; errors surface in testClose
				b.Close() //nolint:errcheck // idem
			})
			topic := "/transporttest/" + strings.NewReplacer("/", "_").Replace(tc.name)
			tc.run(t, &env{a: a, b: b, f: f, topic: topic})
		})
	}
}

type env struct {
	a, b  transport.Transport
	f     Features
	topic string
}

// eventually polls cond until it holds or the timeout passes.
func (e *env) eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(e.f.timeout())
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", e.f.timeout(), what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// settle waits for an async transport to finish delivering.
func (e *env) settle() { time.Sleep(e.f.settle()) }

func (e *env) pub(t *testing.T, tr transport.Transport, q transport.QoS) transport.Publisher {
	t.Helper()
	p, err := tr.Publisher(e.topic, timemsg.ClockTypeName, q)
	if err != nil {
		t.Fatalf("Publisher(%s): %v", e.topic, err)
	}
	return p
}

func (e *env) sub(t *testing.T, tr transport.Transport, q transport.QoS) transport.Subscription {
	t.Helper()
	s, err := tr.Subscribe(e.topic, timemsg.ClockTypeName, q)
	if err != nil {
		t.Fatalf("Subscribe(%s): %v", e.topic, err)
	}
	return s
}

func (e *env) waitMatched(t *testing.T, p transport.Publisher, s transport.Subscription) {
	t.Helper()
	e.eventually(t, "publisher and subscription to match", func() bool {
		return p.MatchedSubscriptions() >= 1 && slices.Contains(s.MatchedPublishers(), p.ID())
	})
}

func publish(t *testing.T, p transport.Publisher, data []byte) {
	t.Helper()
	if err := p.Publish(context.Background(), data); err != nil {
		t.Fatalf("Publish: %v", err)
	}
}

// clock returns the serialized Clock {sec: n, nanosec: n}.
func clock(n int) []byte {
	return timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: int32(n), Nanosec: uint32(n)}})
}

func clockSec(t *testing.T, data []byte) int {
	t.Helper()
	c, err := timemsg.UnmarshalClock(data)
	if err != nil {
		t.Fatalf("UnmarshalClock(% x): %v", data, err)
	}
	return int(c.Clock.Sec)
}

// takeN waits for n samples and returns them.
func (e *env) takeN(t *testing.T, s transport.Subscription, n int) []transport.Sample {
	t.Helper()
	var got []transport.Sample
	e.eventually(t, "samples to arrive", func() bool {
		for {
			smp, ok := s.Take()
			if !ok {
				break
			}
			got = append(got, smp)
		}
		return len(got) >= n
	})
	return got
}

func testRoundTrip(t *testing.T, e *env) {
	p := e.pub(t, e.a, transport.ClockPublisherQoS)
	s := e.sub(t, e.b, transport.QoS{Depth: 10, Reliability: transport.Reliable})
	e.waitMatched(t, p, s)
	// A Clock, a big-endian payload, a longer one and a header-only one:
	// the transport must not interpret any of them.
	long := make([]byte, 4+256)
	long[1] = 1
	for i := range long[4:] {
		long[4+i] = byte(i)
	}
	payloads := [][]byte{
		{0x00, 0x01, 0x00, 0x00, 0xd2, 0x04, 0x00, 0x00, 0x52, 0xaa, 0x08, 0x00}, // Clock{1234, 567890} as Cyclone sends it (R9)
		{0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0xd2, 0x00, 0x08, 0xaa, 0x52},
		long,
		{0x00, 0x01, 0x00, 0x00},
	}
	before := time.Now().UnixNano()
	for _, d := range payloads {
		publish(t, p, d)
	}
	got := e.takeN(t, s, len(payloads))
	if len(got) != len(payloads) {
		t.Fatalf("got %d samples, want %d", len(got), len(payloads))
	}
	for i, smp := range got {
		if !bytes.Equal(smp.Data, payloads[i]) {
			t.Errorf("sample %d: got % x, want % x", i, smp.Data, payloads[i])
		}
		if smp.Publisher != p.ID() {
			t.Errorf("sample %d: Publisher = %q, want %q", i, smp.Publisher, p.ID())
		}
		if e.f.SourceTimestamps {
			if ts := smp.SourceTimestamp; ts < before-int64(time.Second) || ts > time.Now().UnixNano()+int64(time.Second) {
				t.Errorf("sample %d: SourceTimestamp %d is not close to now", i, ts)
			}
		}
	}
	if p.ID() == "" {
		t.Error("publisher ID is empty")
	}
}

func testKeepLast(t *testing.T, e *env, depth int) {
	p := e.pub(t, e.a, transport.ClockPublisherQoS)
	q := transport.ClockSubscriptionQoS
	q.Depth = depth
	s := e.sub(t, e.b, q)
	e.waitMatched(t, p, s)
	const n = 6
	for i := 1; i <= n; i++ {
		publish(t, p, clock(i))
	}
	e.settle() // let an async transport deliver all six before looking
	var got []int
	for {
		smp, ok := s.Take()
		if !ok {
			break
		}
		got = append(got, clockSec(t, smp.Data))
	}
	var want []int
	for i := n - depth + 1; i <= n; i++ {
		want = append(want, i)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("KEEP_LAST %d after %d samples: took %v, want %v (oldest dropped first)", depth, n, got, want)
	}
}

func testBestEffortSubReliablePub(t *testing.T, e *env) {
	p := e.pub(t, e.a, transport.ClockPublisherQoS)
	s := e.sub(t, e.b, transport.ClockSubscriptionQoS)
	e.waitMatched(t, p, s)
	publish(t, p, clock(7))
	got := e.takeN(t, s, 1)
	if sec := clockSec(t, got[0].Data); sec != 7 {
		t.Fatalf("got sec %d, want 7", sec)
	}
	if !transport.Compatible(transport.ClockPublisherQoS, transport.ClockSubscriptionQoS) {
		t.Error("Compatible(ClockPublisherQoS, ClockSubscriptionQoS) = false")
	}
}

func testReliableSubBestEffortPub(t *testing.T, e *env) {
	bePub := e.pub(t, e.a, transport.QoS{Depth: 1, Reliability: transport.BestEffort})
	relSub := e.sub(t, e.b, transport.QoS{Depth: 10, Reliability: transport.Reliable})
	// A best-effort subscription on the same topic proves discovery
	// happened, so the reliable one's silence means something.
	beSub := e.sub(t, e.b, transport.QoS{Depth: 10, Reliability: transport.BestEffort})
	e.waitMatched(t, bePub, beSub)
	publish(t, bePub, clock(1))
	e.takeN(t, beSub, 1)
	e.settle()
	if ids := relSub.MatchedPublishers(); len(ids) != 0 {
		t.Errorf("reliable subscription matched best-effort publishers %v", ids)
	}
	if n := bePub.MatchedSubscriptions(); n != 1 {
		t.Errorf("best-effort publisher matches %d subscriptions, want 1 (the best-effort one)", n)
	}
	if smp, ok := relSub.Take(); ok {
		t.Errorf("reliable subscription received % x from a best-effort publisher", smp.Data)
	}
	if transport.Compatible(transport.QoS{Reliability: transport.BestEffort}, transport.QoS{Reliability: transport.Reliable}) {
		t.Error("Compatible(best effort pub, reliable sub) = true")
	}
}

func testTwoPublishers(t *testing.T, e *env) {
	s := e.sub(t, e.b, transport.QoS{Depth: 10, Reliability: transport.BestEffort})
	p1 := e.pub(t, e.a, transport.ClockPublisherQoS)
	p2 := e.pub(t, e.a, transport.ClockPublisherQoS)
	if p1.ID() == p2.ID() {
		t.Fatalf("two publishers share the ID %q", p1.ID())
	}
	want := []transport.PublisherID{p1.ID(), p2.ID()}
	slices.Sort(want)
	e.eventually(t, "both publishers to match", func() bool { return slices.Equal(s.MatchedPublishers(), want) })
	e.eventually(t, "the publishers to see the subscription", func() bool {
		return p1.MatchedSubscriptions() == 1 && p2.MatchedSubscriptions() == 1
	})
	publish(t, p1, clock(1))
	publish(t, p2, clock(2))
	for _, smp := range e.takeN(t, s, 2) {
		wantID := map[int]transport.PublisherID{1: p1.ID(), 2: p2.ID()}[clockSec(t, smp.Data)]
		if smp.Publisher != wantID {
			t.Errorf("sample %d came from %q, want %q", clockSec(t, smp.Data), smp.Publisher, wantID)
		}
	}
	if err := p1.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	e.eventually(t, "the closed publisher to unmatch", func() bool {
		return slices.Equal(s.MatchedPublishers(), []transport.PublisherID{p2.ID()})
	})
}

func testMatchedSubscriptions(t *testing.T, e *env) {
	p := e.pub(t, e.a, transport.ClockPublisherQoS)
	if n := p.MatchedSubscriptions(); n != 0 {
		t.Errorf("MatchedSubscriptions with no subscription = %d", n)
	}
	s1 := e.sub(t, e.b, transport.ClockSubscriptionQoS)
	s2 := e.sub(t, e.b, transport.QoS{Depth: 5, Reliability: transport.Reliable})
	e.eventually(t, "two matched subscriptions", func() bool { return p.MatchedSubscriptions() == 2 })
	if err := s1.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	e.eventually(t, "one matched subscription", func() bool { return p.MatchedSubscriptions() == 1 })
	if err := e.b.Close(); err != nil {
		t.Fatalf("transport Close: %v", err)
	}
	e.eventually(t, "no matched subscription", func() bool { return p.MatchedSubscriptions() == 0 })
	_ = s2
}

func testClose(t *testing.T, e *env) {
	p := e.pub(t, e.a, transport.ClockPublisherQoS)
	s := e.sub(t, e.b, transport.QoS{Depth: 10, Reliability: transport.Reliable})
	e.waitMatched(t, p, s)
	publish(t, p, clock(1))
	e.takeN(t, s, 1)

	publish(t, p, clock(2))
	e.settle()
	if err := s.Close(); err != nil {
		t.Fatalf("Subscription.Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Subscription.Close: %v", err)
	}
	if smp, ok := s.Take(); ok {
		t.Errorf("Take after Close returned % x", smp.Data)
	}
	if ids := s.MatchedPublishers(); len(ids) != 0 {
		t.Errorf("MatchedPublishers after Close = %v", ids)
	}
	select {
	case _, open := <-s.Notify():
		if !open {
			t.Error("Notify channel closed by Close")
		}
	default:
	}

	if err := p.Close(); err != nil {
		t.Fatalf("Publisher.Close: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("second Publisher.Close: %v", err)
	}
	if err := p.Publish(context.Background(), clock(3)); !errors.Is(err, transport.ErrClosed) {
		t.Errorf("Publish after Close: got %v, want ErrClosed", err)
	}
	if n := p.MatchedSubscriptions(); n != 0 {
		t.Errorf("MatchedSubscriptions after Close = %d", n)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p2 := e.pub(t, e.a, transport.ClockPublisherQoS)
	if err := p2.Publish(ctx, clock(4)); !errors.Is(err, context.Canceled) {
		t.Errorf("Publish with a cancelled context: got %v, want context.Canceled", err)
	}

	if err := e.a.Close(); err != nil {
		t.Fatalf("Transport.Close: %v", err)
	}
	if err := e.a.Close(); err != nil {
		t.Errorf("second Transport.Close: %v", err)
	}
	if _, err := e.a.Publisher(e.topic, timemsg.ClockTypeName, transport.ClockPublisherQoS); !errors.Is(err, transport.ErrClosed) {
		t.Errorf("Publisher after Close: got %v, want ErrClosed", err)
	}
	if _, err := e.a.Subscribe(e.topic, timemsg.ClockTypeName, transport.ClockSubscriptionQoS); !errors.Is(err, transport.ErrClosed) {
		t.Errorf("Subscribe after Close: got %v, want ErrClosed", err)
	}
	if err := p2.Publish(context.Background(), clock(5)); !errors.Is(err, transport.ErrClosed) {
		t.Errorf("Publish on a publisher of a closed transport: got %v, want ErrClosed", err)
	}
}

func testNotifyCoalesces(t *testing.T, e *env) {
	p := e.pub(t, e.a, transport.ClockPublisherQoS)
	s := e.sub(t, e.b, transport.QoS{Depth: 10, Reliability: transport.Reliable})
	e.waitMatched(t, p, s)
	select {
	case <-s.Notify():
		t.Fatal("Notify fired before anything was published")
	default:
	}
	for i := 1; i <= 3; i++ {
		publish(t, p, clock(i))
	}
	select {
	case <-s.Notify():
	case <-time.After(e.f.timeout()):
		t.Fatal("Notify did not fire after 3 samples")
	}
	e.settle()
	select {
	case <-s.Notify():
		t.Fatal("Notify holds more than one pending wake-up for one burst")
	default:
	}
	got := e.takeN(t, s, 3)
	if len(got) != 3 {
		t.Fatalf("took %d samples, want 3", len(got))
	}
	// transport.Receive drains the queue then waits on Notify.
	publish(t, p, clock(4))
	ctx, cancel := context.WithTimeout(context.Background(), e.f.timeout())
	defer cancel()
	var seen []int
	err := transport.Receive(ctx, s, func(smp transport.Sample) {
		seen = append(seen, int(binary.LittleEndian.Uint32(smp.Data[4:8])))
		cancel()
	})
	if !errors.Is(err, context.Canceled) || !slices.Equal(seen, []int{4}) {
		t.Fatalf("Receive: err %v, saw %v; want context.Canceled after [4]", err, seen)
	}
}

func testTransientLocal(t *testing.T, e *env) {
	tl := transport.QoS{Depth: 2, Reliability: transport.Reliable, Durability: transport.TransientLocal}
	p := e.pub(t, e.a, tl)
	for i := 1; i <= 3; i++ {
		publish(t, p, clock(i))
	}
	s := e.sub(t, e.b, transport.QoS{Depth: 5, Reliability: transport.Reliable, Durability: transport.TransientLocal})
	got := e.takeN(t, s, 2)
	var secs []int
	for _, smp := range got {
		secs = append(secs, clockSec(t, smp.Data))
	}
	if !slices.Equal(secs, []int{2, 3}) {
		t.Fatalf("late transient-local subscription got %v, want [2 3]", secs)
	}
	vol := e.sub(t, e.b, transport.QoS{Depth: 5, Reliability: transport.Reliable})
	e.eventually(t, "the volatile subscription to match", func() bool { return slices.Contains(vol.MatchedPublishers(), p.ID()) })
	e.settle()
	if smp, ok := vol.Take(); ok {
		t.Errorf("late volatile subscription got old sample % x", smp.Data)
	}
}

// testUnsupportedQoS: a durability a transport cannot provide (TRANSIENT,
// PERSISTENT: they need a durability service) or an unknown reliability
// is refused with ErrUnsupportedQoS, never quietly made volatile.
func testUnsupportedQoS(t *testing.T, e *env) {
	for _, q := range []transport.QoS{
		{Depth: 1, Durability: transport.Transient},
		{Depth: 1, Durability: transport.Persistent},
		{Depth: 1, Reliability: transport.BestEffort + 1},
	} {
		if p, err := e.a.Publisher(e.topic, timemsg.ClockTypeName, q); !errors.Is(err, transport.ErrUnsupportedQoS) {
			t.Errorf("Publisher with %v, %v: %v, %v; want ErrUnsupportedQoS", q.Reliability, q.Durability, p, err)
		}
		if s, err := e.b.Subscribe(e.topic, timemsg.ClockTypeName, q); !errors.Is(err, transport.ErrUnsupportedQoS) {
			t.Errorf("Subscribe with %v, %v: %v, %v; want ErrUnsupportedQoS", q.Reliability, q.Durability, s, err)
		}
	}
}
