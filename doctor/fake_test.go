package doctor_test

import (
	"context"
	"encoding/binary"
	"sync"
	"testing"
	"time"

	"github.com/simclock/simclock/doctor"
	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/rules"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/virtualclock"
)

// A fakeSource is a Source a test drives by hand: it discovers nothing by
// itself (the test feeds the Watcher's graph), and its readers hold what
// the test publishes. With a virtual clock the Watcher then runs in
// virtual time: every report is a function of what the test did.
type fakeSource struct {
	self graph.GUID

	mu       sync.Mutex
	subs     map[string]*fakeQueue // clock readers, by DDS topic
	samplers map[string]*fakeQueue
}

func newFakeSource() *fakeSource {
	return &fakeSource{self: graph.GUID{0xee, 14: 1, 15: 0xc1}, subs: map[string]*fakeQueue{}, samplers: map[string]*fakeQueue{}}
}

func (f *fakeSource) WatchGraph(ctx context.Context, g *graph.Graph, poll time.Duration) error {
	<-ctx.Done()
	return ctx.Err()
}

func (f *fakeSource) SubscribeRaw(ddsTopic, ddsType string, qos transport.QoS) (transport.Subscription, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	q := f.subs[ddsTopic]
	if q == nil {
		q = newFakeQueue()
		f.subs[ddsTopic] = q
	}
	return q, nil
}

func (f *fakeSource) Sampler(ddsTopic, ddsType string, qos transport.QoS) (transport.Sampler, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	q := f.samplers[ddsTopic]
	if q == nil || q.isClosed() {
		q = newFakeQueue()
		f.samplers[ddsTopic] = q
	}
	return q, nil
}

func (f *fakeSource) GID() graph.GUID { return f.self }

// reader returns the queue of the reader on ddsTopic (clock or sampled),
// failing the test when the Watcher opened none.
func (f *fakeSource) reader(t *testing.T, ddsTopic string, clock bool) *fakeQueue {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	m := f.samplers
	if clock {
		m = f.subs
	}
	q := m[ddsTopic]
	if q == nil {
		t.Fatalf("the watcher reads no %s", ddsTopic)
	}
	return q
}

// A fakeQueue is a reader's history: a transport.Subscription and a
// transport.Sampler.
type fakeQueue struct {
	mu      sync.Mutex
	samples []transport.Sample
	closed  bool
	notify  chan struct{}
}

func newFakeQueue() *fakeQueue { return &fakeQueue{notify: make(chan struct{}, 1)} }

func (q *fakeQueue) push(s transport.Sample) {
	q.mu.Lock()
	if !q.closed {
		q.samples = append(q.samples, s)
	}
	q.mu.Unlock()
	select {
	case q.notify <- struct{}{}:
	default:
	}
}

func (q *fakeQueue) Take() (transport.Sample, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.samples) == 0 {
		return transport.Sample{}, false
	}
	s := q.samples[0]
	q.samples[0] = transport.Sample{} // the queue keeps no sample it gave away
	q.samples = q.samples[1:]
	return s, true
}

func (q *fakeQueue) Notify() <-chan struct{}                    { return q.notify }
func (q *fakeQueue) MatchedPublishers() []transport.PublisherID { return nil }

// Close drops what the queue holds: a closed reader receives nothing.
func (q *fakeQueue) Close() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed, q.samples = true, nil
	return nil
}

func (q *fakeQueue) isClosed() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.closed
}

// clockMsg encodes a rosgraph_msgs/msg/Clock of value ns.
func clockMsg(ns int64) []byte {
	b := []byte{0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	binary.LittleEndian.PutUint32(b[4:], uint32(ns/1e9))
	binary.LittleEndian.PutUint32(b[8:], uint32(ns%1e9))
	return b
}

// harness is a Watcher on a fakeSource in virtual time.
type harness struct {
	t   *testing.T
	vc  *virtualclock.Clock
	src *fakeSource
	w   *doctor.Watcher
	t0  int64 // wall ns at the start of the audit
}

func newHarness(t *testing.T, opts doctor.Options) *harness {
	t.Helper()
	h := &harness{t: t, vc: virtualclock.New(), src: newFakeSource()}
	opts.Steady, opts.System = h.vc.Steady(), h.vc.System()
	h.t0 = h.vc.System().Now().Nanoseconds()
	w, err := doctor.Start(context.Background(), h.src, opts)
	if err != nil {
		t.Fatal(err)
	}
	h.w = w
	t.Cleanup(func() {
		if err := w.Close(); err != nil {
			t.Error(err)
		}
	})
	return h
}

// pp and ep make participant and endpoint GUIDs.
func pp(b byte) graph.GUID                   { return graph.GUID{b, 14: 1, 15: 0xc1} }
func ep(p, id byte) graph.GUID               { return graph.GUID{p, 15: id} }
func pub(g graph.GUID) transport.PublisherID { return transport.PublisherID(g.String()) }

// node adds a participant hosting one ROS node with the given endpoints.
func (h *harness) node(p byte, ns, name string, endpoints ...graph.Endpoint) {
	g := h.w.Graph()
	g.SetParticipant(graph.Participant{GUID: pp(p), Enclave: "/"}, true)
	info := graph.NodeEntitiesInfo{Namespace: ns, Name: name}
	for _, e := range endpoints {
		e.Participant = pp(p)
		g.SetEndpoint(e, true)
		if e.Kind == graph.Writer {
			info.Writers = append(info.Writers, e.GUID)
		} else {
			info.Readers = append(info.Readers, e.GUID)
		}
	}
	g.SetDiscoveryInfo(graph.ParticipantEntitiesInfo{GID: pp(p), Nodes: []graph.NodeEntitiesInfo{info}})
}

// clock publishes /clock-type messages on ddsTopic from writer: n
// messages every period of wall time from offset after the start of the
// audit, the value advancing by step from value. The watcher must read
// ddsTopic already (Report follows the graph).
func (h *harness) clock(ddsTopic string, writer graph.GUID, offset time.Duration, n int, period, step time.Duration, value int64) {
	q := h.src.reader(h.t, ddsTopic, true)
	for i := range n {
		q.push(transport.Sample{Data: clockMsg(value + int64(i)*int64(step)), Publisher: pub(writer),
			SourceTimestamp: h.t0 + int64(offset) + int64(i)*int64(period)})
	}
	// Observed now, as a live /clock is before the samples that follow
	// it: the Watcher's own goroutines might otherwise take those first,
	// and find no /clock yet to date them by (a flake under -race).
	h.w.Report()
}

// at moves virtual time to offset after the start and reports.
func (h *harness) at(offset time.Duration) doctor.Report {
	now := h.vc.System().Now().Nanoseconds()
	h.vc.Advance(time.Duration(h.t0 + int64(offset) - now))
	return h.w.Report()
}

// finding returns the finding of code for node, failing without one.
func finding(t *testing.T, r doctor.Report, code rules.Code, node string) rules.Finding {
	t.Helper()
	for _, f := range r.Findings {
		if f.Code == code && (node == "" || f.Node == node) {
			return f
		}
	}
	t.Fatalf("no %s finding for %q in %+v", code, node, r.Findings)
	return rules.Finding{}
}

func hasFinding(r doctor.Report, code rules.Code) bool {
	for _, f := range r.Findings {
		if f.Code == code {
			return true
		}
	}
	return false
}

const clockType = doctor.ClockDDSType

func clockWriter(id graph.GUID, ddsTopic string) graph.Endpoint {
	return graph.Endpoint{GUID: id, Kind: graph.Writer, DDSTopic: ddsTopic, DDSType: clockType, QoS: graph.DefaultWriterQoS}
}

func clockReader(id graph.GUID, ddsTopic string) graph.Endpoint {
	return graph.Endpoint{GUID: id, Kind: graph.Reader, DDSTopic: ddsTopic, DDSType: clockType, QoS: graph.DefaultReaderQoS}
}
