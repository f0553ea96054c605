package dds

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/dds/internal/ddsc"
)

// discoveryWriterQoS is rmw_cyclonedds's ros_discovery_info writer QoS:
// RELIABLE, TRANSIENT_LOCAL, KEEP_LAST 1.
var discoveryWriterQoS = ddsc.QoS{Depth: 1, Reliable: true, TransientLocal: true}

// discoveryReaderQoS is its reader QoS: the same, but KEEP_ALL.
var discoveryReaderQoS = ddsc.QoS{Depth: -1, Reliable: true, TransientLocal: true}

// openDiscoveryWriter creates the ros_discovery_info writer and announces
// the participant with no nodes yet.
func (t *Transport) openDiscoveryWriter() error {
	g, err := ddsc.GUID(t.pp)
	if err != nil {
		return err
	}
	t.gid = graph.GUID(g)
	tp, st, err := ddsc.CreateTopic(t.pp, graph.DiscoveryTopic, graph.DiscoveryType)
	if err != nil {
		return err
	}
	w, err := ddsc.CreateWriter(t.pp, tp, discoveryWriterQoS, "typehash="+graph.DiscoveryTypeHash+";")
	if err != nil {
		ddsc.Delete(tp) //nolint:errcheck // best effort cleanup
		return err
	}
	t.info, t.infoTp, t.infoSt = w, tp, st
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.announceLocked()
}

// GID returns the participant's GUID, which is its ROS GID.
func (t *Transport) GID() graph.GUID { return t.gid }

// announceLocked publishes the participant's nodes on ros_discovery_info,
// as rmw_dds_common's graph cache does after every change. The caller
// holds t.mu.
func (t *Transport) announceLocked() error {
	msg := graph.ParticipantEntitiesInfo{GID: t.gid}
	for _, n := range t.nodes {
		n.mu.Lock()
		msg.Nodes = append(msg.Nodes, graph.NodeEntitiesInfo{Namespace: n.namespace, Name: n.name,
			Readers: slices.Clone(n.readers), Writers: slices.Clone(n.writers)})
		n.mu.Unlock()
	}
	if err := ddsc.Write(t.info, t.infoSt, msg.MarshalCDR()); err != nil {
		return fmt.Errorf("dds: ros_discovery_info: %w", err)
	}
	return nil
}

func (t *Transport) announce() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil
	}
	return t.announceLocked()
}

// ForNode returns a view of t whose publishers and subscriptions belong to
// the ROS node namespace/name: t announces the node on ros_discovery_info
// with their GIDs, so that ros2 node list and ros2 topic info -v show
// them under that node. Many nodes may share one transport (one
// participant), as in ROS 2. Closing the view closes the endpoints made
// through it and withdraws the node; the transport stays open. name and
// namespace are taken as given: validate them first (node.ValidateName).
func (t *Transport) ForNode(name, namespace string) (transport.Transport, error) {
	if namespace == "" {
		namespace = "/"
	}
	if len(name) > graph.MaxNameLength || len(namespace) > graph.MaxNameLength {
		return nil, fmt.Errorf("dds: node %s: name or namespace longer than %d bytes", graph.FullName(namespace, name), graph.MaxNameLength)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, transport.ErrClosed
	}
	n := &nodeView{t: t, name: name, namespace: namespace}
	t.nodes = append(t.nodes, n)
	if err := t.announceLocked(); err != nil {
		t.nodes = t.nodes[:len(t.nodes)-1]
		return nil, err
	}
	return n, nil
}

var _ transport.NodeScoper = (*Transport)(nil)

// A nodeView is one ROS node of a Transport.
type nodeView struct {
	t               *Transport
	name, namespace string

	mu               sync.Mutex // mu guards the fields below
	closed           bool
	readers, writers []graph.GUID
	closers          []func() error
}

func (n *nodeView) Publisher(topic, typeName string, qos transport.QoS) (transport.Publisher, error) {
	if n.isClosed() {
		return nil, transport.ErrClosed
	}
	p, err := n.t.Publisher(topic, typeName, qos)
	if err != nil {
		return nil, err
	}
	g, err := ddsc.GUID(p.(*publisher).w)
	if err != nil {
		p.Close() //nolint:errcheck // best effort cleanup
		return nil, fmt.Errorf("dds: publisher on %s: %w", topic, err)
	}
	np := &nodePublisher{Publisher: p, n: n, gid: graph.GUID(g)}
	if err := n.add(np.gid, true, p.Close); err != nil {
		p.Close() //nolint:errcheck // best effort cleanup
		return nil, err
	}
	return np, nil
}

func (n *nodeView) Subscribe(topic, typeName string, qos transport.QoS) (transport.Subscription, error) {
	if n.isClosed() {
		return nil, transport.ErrClosed
	}
	s, err := n.t.Subscribe(topic, typeName, qos)
	if err != nil {
		return nil, err
	}
	g, err := ddsc.GUID(s.(*subscription).r)
	if err != nil {
		s.Close() //nolint:errcheck // best effort cleanup
		return nil, fmt.Errorf("dds: subscription on %s: %w", topic, err)
	}
	ns := &nodeSubscription{Subscription: s, n: n, gid: graph.GUID(g)}
	if err := n.add(ns.gid, false, s.Close); err != nil {
		s.Close() //nolint:errcheck // best effort cleanup
		return nil, err
	}
	return ns, nil
}

// SubscribeRaw is Transport.SubscribeRaw for the node: the reader is
// announced as the node's, so ros2 topic info -v names it.
func (n *nodeView) SubscribeRaw(ddsTopic, ddsType string, qos transport.QoS) (transport.Subscription, error) {
	if n.isClosed() {
		return nil, transport.ErrClosed
	}
	s, err := n.t.SubscribeRaw(ddsTopic, ddsType, qos)
	if err != nil {
		return nil, err
	}
	g, err := ddsc.GUID(s.(*subscription).r)
	if err != nil {
		s.Close() //nolint:errcheck // best effort cleanup
		return nil, fmt.Errorf("dds: subscription on %s: %w", ddsTopic, err)
	}
	ns := &nodeSubscription{Subscription: s, n: n, gid: graph.GUID(g)}
	if err := n.add(ns.gid, false, s.Close); err != nil {
		s.Close() //nolint:errcheck // best effort cleanup
		return nil, err
	}
	return ns, nil
}

// Sampler is Transport.Sampler for the node: the polled reader is
// announced as the node's.
func (n *nodeView) Sampler(ddsTopic, ddsType string, qos transport.QoS) (transport.Sampler, error) {
	if n.isClosed() {
		return nil, transport.ErrClosed
	}
	r, err := n.t.RawReader(ddsTopic, ddsType, qos)
	if err != nil {
		return nil, err
	}
	g, err := ddsc.GUID(r.r)
	if err != nil {
		r.Close() //nolint:errcheck // best effort cleanup
		return nil, fmt.Errorf("dds: reader on %s: %w", ddsTopic, err)
	}
	ns := &nodeSampler{RawReader: r, n: n, gid: graph.GUID(g)}
	if err := n.add(ns.gid, false, r.Close); err != nil {
		r.Close() //nolint:errcheck // best effort cleanup
		return nil, err
	}
	return ns, nil
}

// A RawNode is a node's view that also reads raw DDS topics, as
// ForNode returns it: doctor's observer is one.
type RawNode interface {
	transport.Transport
	SubscribeRaw(ddsTopic, ddsType string, qos transport.QoS) (transport.Subscription, error)
	Sampler(ddsTopic, ddsType string, qos transport.QoS) (transport.Sampler, error)
}

var _ RawNode = (*nodeView)(nil)

func (n *nodeView) isClosed() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.closed
}

// add records an endpoint of the node and announces it.
func (n *nodeView) add(g graph.GUID, writer bool, closer func() error) error {
	n.mu.Lock()
	if writer {
		n.writers = append(n.writers, g)
	} else {
		n.readers = append(n.readers, g)
	}
	n.closers = append(n.closers, closer)
	n.mu.Unlock()
	return n.t.announce()
}

// remove forgets an endpoint of the node and announces it.
func (n *nodeView) remove(g graph.GUID) {
	n.mu.Lock()
	n.writers = slices.DeleteFunc(n.writers, func(x graph.GUID) bool { return x == g })
	n.readers = slices.DeleteFunc(n.readers, func(x graph.GUID) bool { return x == g })
	closed := n.closed
	n.mu.Unlock()
	if !closed {
		n.t.announce() //nolint:errcheck // the next announcement repairs it
	}
}

// Close closes the node's endpoints and withdraws the node.
func (n *nodeView) Close() error {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return nil
	}
	n.closed = true
	closers := n.closers
	n.closers = nil
	n.mu.Unlock()
	for _, c := range closers {
		c() //nolint:errcheck // Close of a child never fails
	}
	n.t.mu.Lock()
	defer n.t.mu.Unlock()
	n.t.nodes = slices.DeleteFunc(n.t.nodes, func(x *nodeView) bool { return x == n })
	if n.t.closed {
		return nil
	}
	return n.t.announceLocked()
}

type nodePublisher struct {
	transport.Publisher
	n   *nodeView
	gid graph.GUID
}

func (p *nodePublisher) Close() error {
	err := p.Publisher.Close()
	p.n.remove(p.gid)
	return err
}

type nodeSampler struct {
	*RawReader
	n   *nodeView
	gid graph.GUID
}

func (s *nodeSampler) Close() error {
	err := s.RawReader.Close()
	s.n.remove(s.gid)
	return err
}

type nodeSubscription struct {
	transport.Subscription
	n   *nodeView
	gid graph.GUID
}

func (s *nodeSubscription) Close() error {
	err := s.Subscription.Close()
	s.n.remove(s.gid)
	return err
}

// WatchGraph feeds g with what t's participant discovers until ctx is
// done: participants (DCPSParticipant), writers (DCPSPublication) and
// readers (DCPSSubscription) with their QoS, and every participant's
// ros_discovery_info. It takes what the builtin readers hold every poll
// (100 ms when poll is 0), so g trails the network by at most that. It
// returns ctx's error, or the first DDS error.
func (t *Transport) WatchGraph(ctx context.Context, g *graph.Graph, poll time.Duration) error {
	if poll <= 0 {
		poll = 100 * time.Millisecond
	}
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return transport.ErrClosed
	}
	var created []ddsc.Entity
	cleanup := func() {
		for _, e := range slices.Backward(created) {
			ddsc.Delete(e) //nolint:errcheck // the participant's deletion would catch it
		}
	}
	mk := func(e ddsc.Entity, err error) ddsc.Entity {
		if err == nil {
			created = append(created, e)
		}
		return e
	}
	var errs []error
	try := func(e ddsc.Entity, err error) ddsc.Entity {
		errs = append(errs, err)
		return mk(e, err)
	}
	rdPP := try(ddsc.CreateBuiltinReader(t.pp, ddsc.BuiltinParticipant))
	rdPub := try(ddsc.CreateBuiltinReader(t.pp, ddsc.BuiltinPublication))
	rdSub := try(ddsc.CreateBuiltinReader(t.pp, ddsc.BuiltinSubscription))
	infoTp, _, err := ddsc.CreateTopic(t.pp, graph.DiscoveryTopic, graph.DiscoveryType)
	mk(infoTp, err)
	errs = append(errs, err)
	var rdInfo ddsc.Entity
	if err == nil {
		rdInfo = try(ddsc.CreateReader(t.pp, infoTp, discoveryReaderQoS, "typehash="+graph.DiscoveryTypeHash+";"))
	}
	t.mu.Unlock()
	defer cleanup()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("dds: watch graph: %w", err)
	}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		if err := drainGraph(g, rdPP, rdPub, rdSub, rdInfo); err != nil {
			if t.isClosed() {
				return transport.ErrClosed
			}
			return fmt.Errorf("dds: watch graph: %w", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

func (t *Transport) isClosed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.closed
}

// drainGraph takes every queued discovery sample into g. Participants go
// first so that endpoints find theirs.
func drainGraph(g *graph.Graph, rdPP, rdPub, rdSub, rdInfo ddsc.Entity) error {
	for {
		s, ok, err := ddsc.TakeParticipant(rdPP)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		p := graph.Participant{GUID: graph.GUID(s.Key), Process: s.Process, PID: s.PID, Host: s.Host}
		p.Enclave, _ = graph.UserDataValue(s.UserData, "enclave")
		g.SetParticipant(p, s.Alive)
	}
	for _, rd := range []struct {
		e    ddsc.Entity
		kind graph.EndpointKind
	}{{rdPub, graph.Writer}, {rdSub, graph.Reader}} {
		for {
			s, ok, err := ddsc.TakeEndpoint(rd.e, rd.kind == graph.Writer)
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			g.SetEndpoint(endpointOf(s, rd.kind), s.Alive)
		}
	}
	for {
		tk, ok, err := ddsc.Take(rdInfo)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if !tk.Valid {
			continue
		}
		info, err := graph.UnmarshalParticipantEntitiesInfo(tk.Data)
		if err != nil {
			continue // a malformed announcement names no one; skip it
		}
		g.SetDiscoveryInfo(info)
	}
	return nil
}

func endpointOf(s ddsc.EndpointSample, kind graph.EndpointKind) graph.Endpoint {
	e := graph.Endpoint{GUID: graph.GUID(s.Key), Participant: graph.GUID(s.Participant), Kind: kind,
		DDSTopic: s.Topic, DDSType: s.Type, Topic: graph.ROSTopic(s.Topic), Type: graph.ROSType(s.Type)}
	e.TypeHash, _ = graph.UserDataValue(s.UserData, "typehash")
	e.Partitions = s.Partitions
	q := s.QoS
	e.QoS = graph.QoS{Reliability: reliabilityOf(q.Reliability), Durability: durabilityOf(q.Durability),
		History: graph.History(q.HistoryKind), Depth: int(q.HistoryDepth),
		Deadline: time.Duration(q.Deadline), Lifespan: time.Duration(q.Lifespan),
		Liveliness: graph.Liveliness(q.LivelinessKind), LeaseDuration: time.Duration(q.LeaseDuration),
		Ownership: graph.Ownership(q.Ownership), OwnershipStrength: int(q.OwnershipStrength),
		DestinationOrder: graph.DestinationOrder(q.DestinationOrder)}
	for _, r := range q.DataRepresentation {
		e.QoS.DataRepresentation = append(e.QoS.DataRepresentation, graph.DataRepresentation(r))
	}
	return e
}

// Sampler is RawReader as doctor.Source wants it; see RawReader.
func (t *Transport) Sampler(ddsTopic, ddsType string, qos transport.QoS) (transport.Sampler, error) {
	r, err := t.RawReader(ddsTopic, ddsType, qos)
	if err != nil {
		return nil, err
	}
	return r, nil
}
