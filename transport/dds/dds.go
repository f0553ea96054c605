package dds

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/dds/internal/ddsc"
)

// ErrNoDDS reports that Cyclone DDS (libddsc) cannot be used: it is not
// installed, or this simclock was built without cgo. The wrapping error
// says what to install.
var ErrNoDDS = errors.New("no Cyclone DDS library (libddsc)")

// ErrInvalidPayload reports a payload that cannot travel as an RTPS
// serialized payload: shorter than the 4-byte encapsulation header, or with
// an encapsulation identifier DDS does not define. Receivers (Cyclone,
// and so every rmw_cyclonedds node) discard the whole RTPS packet carrying
// such a sample, heartbeats included, so Publish refuses to send it.
var ErrInvalidPayload = errors.New("not an RTPS serialized payload")

// checkPayload returns an error wrapping ErrInvalidPayload unless data
// starts with an encapsulation header of a defined representation: plain
// CDR (00 00, 00 01), parameter-list CDR (00 02, 00 03) or XCDR2
// (00 06 to 00 0b). Whether the body is valid is the reader's business.
func checkPayload(data []byte) error {
	if len(data) < 4 {
		return fmt.Errorf("dds: publish %d bytes: %w: shorter than the 4-byte encapsulation header", len(data), ErrInvalidPayload)
	}
	switch id := uint16(data[0])<<8 | uint16(data[1]); id {
	case 0x0000, 0x0001, 0x0002, 0x0003, 0x0006, 0x0007, 0x0008, 0x0009, 0x000a, 0x000b:
		return nil
	default:
		return fmt.Errorf("dds: publish: %w: unknown encapsulation identifier %#04x", ErrInvalidPayload, id)
	}
}

// installHint is appended to ErrNoDDS errors.
const installHint = "install it with 'apt-get install cyclonedds-dev' (Debian/Ubuntu), " +
	"or source a ROS 2 install (source /opt/ros/<distro>/setup.bash) so that its libddsc is found"

// libraryCandidates lists what Open tries when Config.Library is empty.
// Bare names go through the dynamic loader's search (LD_LIBRARY_PATH
// first, so a sourced ROS 2 install wins).
func libraryCandidates() []string {
	c := []string{"libddsc.so.0", "libddsc.so.0debian", "libddsc.so"}
	ros, _ := filepath.Glob("/opt/ros/*/lib/libddsc.so.0")
	return append(c, ros...)
}

func load(cfg Config) error {
	paths := libraryCandidates()
	if cfg.Library != "" {
		paths = []string{cfg.Library}
	}
	err := ddsc.Load(paths)
	if err == nil {
		return nil
	}
	if errors.Is(err, ddsc.ErrNoCgo) {
		return fmt.Errorf("dds: %w: %v; rebuild with CGO_ENABLED=1 after 'apt-get install cyclonedds-dev'", ErrNoDDS, err)
	}
	return fmt.Errorf("dds: %w: %v\n%s", ErrNoDDS, err, installHint)
}

// Available reports whether libddsc can be loaded, and if not, why.
func Available() error { return load(Config{}) }

// domains counts the transports of this process per domain, so the
// domain created with the first transport's configuration is deleted with
// the last one.
var domains struct {
	mu sync.Mutex // mu guards m
	m  map[uint32]*domainRef
}

type domainRef struct {
	e    ddsc.Entity // 0 when someone else created the domain
	refs int
}

func acquireDomain(cfg Config) error {
	domains.mu.Lock()
	defer domains.mu.Unlock()
	if domains.m == nil {
		domains.m = make(map[uint32]*domainRef)
	}
	if d := domains.m[cfg.Domain]; d != nil {
		d.refs++
		return nil
	}
	e, err := ddsc.CreateDomain(cfg.Domain, cfg.CycloneConfig())
	var re *ddsc.RetcodeError
	if errors.As(err, &re) && re.Code == ddsc.RetcodePreconditionNotMet {
		e, err = 0, nil // already created in this process by someone else
	}
	if err != nil {
		return fmt.Errorf("dds: domain %d: %w", cfg.Domain, err)
	}
	domains.m[cfg.Domain] = &domainRef{e: e, refs: 1}
	return nil
}

func releaseDomain(domain uint32) {
	domains.mu.Lock()
	defer domains.mu.Unlock()
	d := domains.m[domain]
	if d == nil {
		return
	}
	if d.refs--; d.refs == 0 {
		delete(domains.m, domain)
		if d.e != 0 {
			ddsc.Delete(d.e) //nolint:errcheck // nothing to do about it
		}
	}
}

// A Transport is one DDS domain participant.
type Transport struct {
	domain uint32
	pp     ddsc.Entity

	// The ros_discovery_info writer announcing this participant's nodes.
	info   ddsc.Entity // the writer
	infoTp ddsc.Entity // its topic
	infoSt ddsc.Sertype
	gid    graph.GUID // the participant's GUID, its ROS GID

	mu     sync.Mutex // mu guards the fields below
	closed bool
	pubs   []*publisher
	subs   []*subscription
	raws   []*RawReader
	nodes  []*nodeView
}

var _ transport.Transport = (*Transport)(nil)

// Open joins the DDS domain cfg describes. It fails with an error
// wrapping ErrNoDDS when libddsc cannot be loaded.
func Open(ctx context.Context, cfg Config) (*Transport, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if cfg.Domain > MaxDomainID {
		return nil, fmt.Errorf("dds: domain %d: want 0 to %d", cfg.Domain, MaxDomainID)
	}
	if err := load(cfg); err != nil {
		return nil, err
	}
	if err := acquireDomain(cfg); err != nil {
		return nil, err
	}
	// "enclave=/;" is what rmw_cyclonedds puts in participant USER_DATA;
	// ROS graph tools list participants that carry it.
	pp, err := ddsc.CreateParticipant(cfg.Domain, "enclave=/;")
	if err != nil {
		releaseDomain(cfg.Domain)
		return nil, fmt.Errorf("dds: domain %d: %w", cfg.Domain, err)
	}
	t := &Transport{domain: cfg.Domain, pp: pp}
	if err := t.openDiscoveryWriter(); err != nil {
		ddsc.Delete(pp) //nolint:errcheck // best effort cleanup
		releaseDomain(cfg.Domain)
		return nil, fmt.Errorf("dds: domain %d: ros_discovery_info: %w", cfg.Domain, err)
	}
	return t, nil
}

// Domain returns the domain id t joined.
func (t *Transport) Domain() uint32 { return t.domain }

func (t *Transport) topic(rosTopic, rosType string) (ddsc.Entity, ddsc.Sertype, error) {
	name, err := TopicName(rosTopic)
	if err != nil {
		return 0, 0, err
	}
	typ, err := TypeName(rosType)
	if err != nil {
		return 0, 0, err
	}
	return t.ddsTopic(rosTopic, name, typ)
}

// ddsTopic creates the DDS topic name of type typ; label names it in errors.
func (t *Transport) ddsTopic(label, name, typ string) (ddsc.Entity, ddsc.Sertype, error) {
	tp, st, err := ddsc.CreateTopic(t.pp, name, typ)
	if err != nil {
		return 0, 0, fmt.Errorf("dds: topic %s: %w", label, err)
	}
	return tp, st, nil
}

// ddsQoS, reliabilityOf and durabilityOf are the one conversion between
// simclock's QoS kinds (package transport) and Cyclone's
// (dds_reliability_kind_t: BEST_EFFORT 0, RELIABLE 1;
// dds_durability_kind_t: VOLATILE 0, TRANSIENT_LOCAL 1, TRANSIENT 2,
// PERSISTENT 3).
func ddsQoS(q transport.QoS) ddsc.QoS {
	d := q.Depth
	if d <= 0 {
		d = 1
	}
	return ddsc.QoS{Depth: int32(min(d, math.MaxInt32)), Reliable: q.Reliability == transport.Reliable,
		TransientLocal: q.Durability == transport.TransientLocal}
}

func reliabilityOf(kind int32) transport.Reliability {
	if kind == 1 {
		return transport.Reliable
	}
	return transport.BestEffort
}

func durabilityOf(kind int32) transport.Durability {
	switch kind {
	case 1:
		return transport.TransientLocal
	case 2:
		return transport.Transient
	case 3:
		return transport.Persistent
	}
	return transport.Volatile
}

// Publisher creates a DDS writer on rt/<topic>.
func (t *Transport) Publisher(topic, typeName string, qos transport.QoS) (transport.Publisher, error) {
	if err := qos.Check(); err != nil {
		return nil, fmt.Errorf("dds: publisher on %s: %w", topic, err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, transport.ErrClosed
	}
	tp, st, err := t.topic(topic, typeName)
	if err != nil {
		return nil, err
	}
	w, err := ddsc.CreateWriter(t.pp, tp, ddsQoS(qos), endpointUserData(typeName))
	if err != nil {
		ddsc.Delete(tp) //nolint:errcheck // best effort cleanup
		return nil, fmt.Errorf("dds: publisher on %s: %w", topic, err)
	}
	g, err := ddsc.GUID(w)
	if err != nil {
		ddsc.Delete(w)  //nolint:errcheck // best effort cleanup
		ddsc.Delete(tp) //nolint:errcheck // best effort cleanup
		return nil, fmt.Errorf("dds: publisher on %s: %w", topic, err)
	}
	p := &publisher{t: t, topic: tp, w: w, st: st, id: guidID(g)}
	t.pubs = append(t.pubs, p)
	return p, nil
}

// Subscribe creates a DDS reader on rt/<topic>.
func (t *Transport) Subscribe(topic, typeName string, qos transport.QoS) (transport.Subscription, error) {
	if err := qos.Check(); err != nil {
		return nil, fmt.Errorf("dds: subscription on %s: %w", topic, err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, transport.ErrClosed
	}
	tp, _, err := t.topic(topic, typeName)
	if err != nil {
		return nil, err
	}
	s, err := t.subscribeLocked(topic, tp, ddsQoS(qos), endpointUserData(typeName))
	if err != nil {
		return nil, err
	}
	return s, nil
}

// SubscribeRaw creates a reader on the DDS topic ddsTopic of DDS type
// ddsType, names taken as they are on the wire ("rt/scan",
// "sensor_msgs::msg::dds_::LaserScan_"), so that any topic can be sampled
// as raw CDR whatever its type.
func (t *Transport) SubscribeRaw(ddsTopic, ddsType string, qos transport.QoS) (transport.Subscription, error) {
	if err := qos.Check(); err != nil {
		return nil, fmt.Errorf("dds: subscription on %s: %w", ddsTopic, err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, transport.ErrClosed
	}
	tp, _, err := t.ddsTopic(ddsTopic, ddsTopic, ddsType)
	if err != nil {
		return nil, err
	}
	s, err := t.subscribeLocked(ddsTopic, tp, ddsQoS(qos), "")
	if err != nil {
		return nil, err
	}
	return s, nil
}

// subscribeLocked creates a reader on tp. The caller holds t.mu.
func (t *Transport) subscribeLocked(topic string, tp ddsc.Entity, q ddsc.QoS, userData string) (*subscription, error) {
	r, err := ddsc.CreateReader(t.pp, tp, q, userData)
	if err != nil {
		ddsc.Delete(tp) //nolint:errcheck // best effort cleanup
		return nil, fmt.Errorf("dds: subscription on %s: %w", topic, err)
	}
	ws, guard, err := ddsc.NewWaiter(t.pp, r)
	if err != nil {
		ddsc.Delete(r)  //nolint:errcheck // best effort cleanup
		ddsc.Delete(tp) //nolint:errcheck // best effort cleanup
		return nil, fmt.Errorf("dds: subscription on %s: %w", topic, err)
	}
	s := &subscription{t: t, topic: tp, r: r, ws: ws, guard: guard,
		notify: make(chan struct{}, 1), ids: make(map[uint64]transport.PublisherID),
		batch: new(ddsc.Batch), depth: int(q.Depth)}
	s.pending.Store(true)
	t.subs = append(t.subs, s)
	return s, nil
}

// Close deletes the participant with every publisher and subscription it
// created. Closing twice is harmless.
func (t *Transport) Close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closed = true
	pubs, subs, raws := t.pubs, t.subs, t.raws
	t.pubs, t.subs, t.raws, t.nodes = nil, nil, nil, nil
	t.mu.Unlock()
	for _, r := range raws {
		r.Close() //nolint:errcheck // Close of a child never fails
	}
	for _, p := range pubs {
		p.Close() //nolint:errcheck // Close of a child never fails
	}
	for _, s := range subs {
		s.Close() //nolint:errcheck // Close of a child never fails
	}
	err := ddsc.Delete(t.pp)
	releaseDomain(t.domain)
	if err != nil {
		return fmt.Errorf("dds: close: %w", err)
	}
	return nil
}

func (t *Transport) forget(p *publisher, s *subscription) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pubs = slices.DeleteFunc(t.pubs, func(x *publisher) bool { return x == p })
	t.subs = slices.DeleteFunc(t.subs, func(x *subscription) bool { return x == s })
}

// guidID formats a DDS GUID the way Cyclone's traces do:
// four dot-separated groups of eight hex digits.
func guidID(g [16]byte) transport.PublisherID {
	return transport.PublisherID(fmt.Sprintf("%x.%x.%x.%x", g[0:4], g[4:8], g[8:12], g[12:16]))
}

type publisher struct {
	t     *Transport
	topic ddsc.Entity
	w     ddsc.Entity
	st    ddsc.Sertype
	id    transport.PublisherID

	mu     sync.RWMutex // mu guards closed against Publish racing Close
	closed bool
}

// ID is the writer's DDS GUID.
func (p *publisher) ID() transport.PublisherID { return p.id }

// Publish writes data. A reliable writer may block for flow control for
// up to 100 ms, after which the write fails with a timeout. Payloads that
// are not RTPS serialized payloads fail with ErrInvalidPayload.
func (p *publisher) Publish(ctx context.Context, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.closed {
		return transport.ErrClosed
	}
	if err := checkPayload(data); err != nil {
		return err
	}
	if err := ddsc.Write(p.w, p.st, data); err != nil {
		return fmt.Errorf("dds: publish: %w", err)
	}
	return nil
}

// MatchedSubscriptions is the writer's current publication-matched count.
func (p *publisher) MatchedSubscriptions() int {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.closed {
		return 0
	}
	n, err := ddsc.MatchedSubscriptions(p.w)
	if err != nil {
		return 0
	}
	return n
}

// Close deletes the writer.
func (p *publisher) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	ddsc.Delete(p.w)     //nolint:errcheck // the participant's deletion would catch it
	ddsc.Delete(p.topic) //nolint:errcheck // idem
	p.mu.Unlock()
	p.t.forget(p, nil)
	return nil
}

type subscription struct {
	t     *Transport
	topic ddsc.Entity
	r     ddsc.Entity
	ws    ddsc.Entity
	guard ddsc.Entity

	notify chan struct{} // capacity 1: a pending wake-up coalesces later ones
	wg     sync.WaitGroup
	// pending is set by the waiter (or Wait) when the reader signalled
	// data, and cleared by Take just before it takes: Take calls into C
	// only when there may be something to take, so polling an empty
	// subscription (as the executor does every round) costs no cgo call.
	pending atomic.Bool
	wake    atomic.Pointer[func()] // set by SetWake: called instead of signalling notify
	yield   yielder                // used by the one inline Wait (inline, below)

	mu      sync.Mutex // mu guards the fields below and serialises use of r
	closed  bool
	waiting bool                             // the waiter goroutine runs (Notify was called)
	inline  bool                             // a Wait is blocked in the waitset on its caller's thread
	waited  bool                             // Wait was called: pending is kept up to date
	inSets  int                              // wait sets holding the reader, which keep pending up to date
	ids     map[uint64]transport.PublisherID // writer instance handle → GUID
	batch   *ddsc.Batch
	depth   int          // the reader's KEEP_LAST depth
	taken   []ddsc.Taken // taken from the reader, not yet returned
	next    int          // taken[next] is the oldest not yet returned
}

// wait runs on its own goroutine until Close triggers the guard.
func (s *subscription) wait() {
	for {
		res, err := ddsc.Wait(s.ws, s.r, waitForever)
		if err != nil || res == ddsc.WaitGuard {
			return
		}
		if res == ddsc.WaitData {
			s.pending.Store(true)
			if f := s.wake.Load(); f != nil {
				(*f)()
				runtime.Gosched() // as below: let the woken executor run now
				continue
			}
			select {
			case s.notify <- struct{}{}:
				// The woken consumer sits in this P's run queue; blocking in
				// C right away would leave it there until sysmon retakes the
				// P (20 µs to 10 ms). Yield so it runs now.
				runtime.Gosched()
			default:
			}
		}
	}
}

const waitForever = math.MaxInt64

// Take takes the oldest sample from the reader's history, skipping
// samples that carry only a state change. It takes up to the reader's
// depth (at most 16) at once, in one cgo call, and returns them one by
// one: a reader holds at most depth samples, so one take empties it and
// the queue here never holds more than depth either.
func (s *subscription) Take() (transport.Sample, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return transport.Sample{}, false
	}
	for {
		for s.next < len(s.taken) {
			tk := s.taken[s.next]
			s.taken[s.next] = ddsc.Taken{}
			s.next++
			if !tk.Valid {
				continue // a state change (writer gone), not data
			}
			return transport.Sample{Data: tk.Data, Publisher: s.idLocked(tk.PubHandle),
				SourceTimestamp: tk.SourceTimestamp}, true
		}
		// Cleared before taking: data arriving from now on sets it again.
		// Only a subscription that someone waits on (Notify, Wait) has
		// its pending flag kept; one only polled always looks.
		if !s.pending.Swap(false) && (s.waiting || s.waited || s.inSets > 0) {
			return transport.Sample{}, false
		}
		taken, full, err := ddsc.TakeBatch(s.r, s.batch, s.depth, s.taken[:0])
		s.taken, s.next = taken, 0
		if err != nil || len(taken) == 0 {
			return transport.Sample{}, false
		}
		if full && s.depth > ddsc.BatchMax {
			s.pending.Store(true) // a deeper reader may hold more
		}
	}
}

// idLocked maps a writer handle to its GUID. The caller must hold s.mu.
func (s *subscription) idLocked(h uint64) transport.PublisherID { return publisherID(s.r, s.ids, h) }

// publisherID maps writer handle h of reader r to its GUID, caching in ids.
func publisherID(r ddsc.Entity, ids map[uint64]transport.PublisherID, h uint64) transport.PublisherID {
	if id, ok := ids[h]; ok {
		return id
	}
	g, err := ddsc.PublicationGUID(r, h)
	if err != nil {
		return transport.PublisherID(fmt.Sprintf("handle-%x", h))
	}
	id := guidID(g)
	ids[h] = id
	return id
}

// Notify is signalled by the waiter goroutine when data arrives. The
// goroutine starts with the first call: a subscription read with Wait
// (transport.Receive) needs none.
func (s *subscription) Notify() <-chan struct{} {
	s.mu.Lock()
	if !s.waiting && !s.closed {
		s.waiting = true
		s.pending.Store(true) // samples may have come before: make Take look
		s.wg.Go(s.wait)
	}
	s.mu.Unlock()
	return s.notify
}

// SetWake makes the waiter goroutine call f instead of signalling Notify
// (transport.WakeSetter); nil goes back to Notify.
func (s *subscription) SetWake(f func()) {
	if f == nil {
		s.wake.Store(nil)
		return
	}
	s.wake.Store(&f)
	s.Notify() // starts the waiter goroutine
}

// Wait blocks until the reader may have data, ctx is done (its error is
// returned) or the subscription is closed (ErrClosed). It waits in
// Cyclone's waitset on the calling goroutine's thread, as ddsperf's
// waitset mode does: the sample is taken by the thread that woke, with no
// hand-off to another goroutine. Once Notify has been called it waits on
// Notify instead.
func (s *subscription) Wait(ctx context.Context) error {
	s.mu.Lock()
	switch {
	case s.closed:
		s.mu.Unlock()
		return transport.ErrClosed
	case s.waiting || s.inline:
		if !s.waiting { // another Wait holds the waitset: wait for the waiter goroutine
			s.waiting = true
			s.wg.Go(s.wait)
		}
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.notify:
			return nil
		}
	}
	s.inline, s.waited = true, true
	s.wg.Add(1)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inline = false
		s.mu.Unlock()
		s.wg.Done()
	}()
	stop := context.AfterFunc(ctx, func() {
		s.mu.Lock()
		ddsc.Trigger(s.guard) //nolint:errcheck // Close or a later wait sees the state
		s.mu.Unlock()
	})
	defer stop()
	for {
		s.yield.beforeBlock()
		res, err := ddsc.Wait(s.ws, s.r, waitForever)
		switch {
		case err != nil:
			return fmt.Errorf("dds: wait: %w", err)
		case res == ddsc.WaitData:
			s.pending.Store(true)
			return nil
		case res == ddsc.WaitGuard:
			// Close, or ctx: Close triggers the guard holding s.mu after
			// setting closed, so checking and resetting under s.mu loses
			// neither.
			s.mu.Lock()
			closed := s.closed
			if !closed {
				ddsc.Untrigger(s.guard) //nolint:errcheck // a later wake-up re-checks
			}
			s.mu.Unlock()
			if closed {
				return transport.ErrClosed
			}
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
}

// MatchedPublishers lists the GUIDs of the matched writers, sorted.
func (s *subscription) MatchedPublishers() []transport.PublisherID {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	hs, err := ddsc.MatchedPublications(s.r)
	if err != nil {
		return nil
	}
	ids := make([]transport.PublisherID, 0, len(hs))
	for _, h := range hs {
		ids = append(ids, s.idLocked(h))
	}
	slices.Sort(ids)
	return ids
}

// Close stops the waiter goroutine and deletes the reader.
func (s *subscription) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	ddsc.Trigger(s.guard) //nolint:errcheck // if it fails, Delete below wakes the waitset
	s.mu.Unlock()
	s.wg.Wait()
	for _, e := range []ddsc.Entity{s.ws, s.guard, s.r, s.topic} {
		ddsc.Delete(e) //nolint:errcheck // the participant's deletion would catch it
	}
	s.t.forget(nil, s)
	return nil
}

// A RawReader is a DDS reader of any topic and type, read as raw CDR by
// polling Take: no goroutine or thread waits for its data, so sampling
// many busy topics costs only what is taken.
type RawReader struct {
	t     *Transport
	topic ddsc.Entity
	r     ddsc.Entity

	mu     sync.Mutex // mu guards the fields below and serialises use of r
	closed bool
	ids    map[uint64]transport.PublisherID
}

// RawReader creates a polled reader on the DDS topic ddsTopic of DDS type
// ddsType, names as on the wire ("rt/scan",
// "sensor_msgs::msg::dds_::LaserScan_"). Its history keeps the last
// qos.Depth samples.
func (t *Transport) RawReader(ddsTopic, ddsType string, qos transport.QoS) (*RawReader, error) {
	if err := qos.Check(); err != nil {
		return nil, fmt.Errorf("dds: reader on %s: %w", ddsTopic, err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, transport.ErrClosed
	}
	tp, _, err := t.ddsTopic(ddsTopic, ddsTopic, ddsType)
	if err != nil {
		return nil, err
	}
	r, err := ddsc.CreateReader(t.pp, tp, ddsQoS(qos), "")
	if err != nil {
		ddsc.Delete(tp) //nolint:errcheck // best effort cleanup
		return nil, fmt.Errorf("dds: reader on %s: %w", ddsTopic, err)
	}
	rr := &RawReader{t: t, topic: tp, r: r, ids: map[uint64]transport.PublisherID{}}
	t.raws = append(t.raws, rr)
	return rr, nil
}

// Take takes the oldest queued sample, skipping state changes.
func (r *RawReader) Take() (transport.Sample, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return transport.Sample{}, false
	}
	for {
		tk, ok, err := ddsc.Take(r.r)
		if err != nil || !ok {
			return transport.Sample{}, false
		}
		if tk.Valid {
			return transport.Sample{Data: tk.Data, Publisher: publisherID(r.r, r.ids, tk.PubHandle),
				SourceTimestamp: tk.SourceTimestamp}, true
		}
	}
}

// Close deletes the reader.
func (r *RawReader) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	ddsc.Delete(r.r)     //nolint:errcheck // the participant's deletion would catch it
	ddsc.Delete(r.topic) //nolint:errcheck // idem
	r.mu.Unlock()
	r.t.mu.Lock()
	r.t.raws = slices.DeleteFunc(r.t.raws, func(x *RawReader) bool { return x == r })
	r.t.mu.Unlock()
	return nil
}
