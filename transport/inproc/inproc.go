// Package inproc is simclock's in-process transport: a bus that connects
// publishers and subscriptions of one process with no serialization beyond
// the CDR payloads themselves. It is the embedded default and the transport
// of every virtual-time run.
//
// Publish copies the payload into each matched subscription's queue before
// it returns, so a single-threaded executor sees the sample at once:
// delivery has zero latency and a defined order. QoS matching follows the
// DDS request/offered rules (transport.Compatible), and TRANSIENT_LOCAL
// publishers replay their last Depth samples to late subscriptions.
package inproc

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/simclock/simclock/transport"
)

// A Bus is one isolated in-process graph, the counterpart of a DDS domain.
// The zero value is not usable; call NewBus.
type Bus struct {
	mu     sync.Mutex // mu guards the fields below and every endpoint's match lists
	topics map[string]*topic
	nextID int
}

type topic struct {
	typeName string
	pubs     []*publisher
	subs     []*subscription
}

// NewBus returns an empty bus.
func NewBus() *Bus { return &Bus{topics: make(map[string]*topic)} }

// Connect returns a transport attached to b. name appears in publisher IDs
// ("name/pub3"), so samples say which node sent them.
func (b *Bus) Connect(name string) transport.Transport {
	return &participant{bus: b, name: name}
}

// participant is one Transport attached to a bus.
type participant struct {
	bus    *Bus
	name   string
	mu     sync.Mutex // mu guards the fields below
	closed bool
	pubs   []*publisher
	subs   []*subscription
}

func (p *participant) topicLocked(name, typeName string) (*topic, error) {
	t := p.bus.topics[name]
	if t == nil {
		t = &topic{typeName: typeName}
		p.bus.topics[name] = t
	}
	if t.typeName != typeName {
		return nil, fmt.Errorf("inproc: topic %s carries %s, not %s", name, t.typeName, typeName)
	}
	return t, nil
}

// withTopic runs add with the participant and bus locked and the topic
// found or created: the common start of Publisher and Subscribe.
func (p *participant) withTopic(topicName, typeName string, add func(b *Bus, t *topic)) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return transport.ErrClosed
	}
	b := p.bus
	b.mu.Lock()
	defer b.mu.Unlock()
	t, err := p.topicLocked(topicName, typeName)
	if err != nil {
		return err
	}
	add(b, t)
	return nil
}

func (p *participant) Publisher(topicName, typeName string, qos transport.QoS) (transport.Publisher, error) {
	if err := qos.Check(); err != nil {
		return nil, fmt.Errorf("inproc: publisher on %s: %w", topicName, err)
	}
	var pub *publisher
	err := p.withTopic(topicName, typeName, func(b *Bus, t *topic) {
		b.nextID++
		pub = &publisher{bus: b, topic: t, qos: normalize(qos), id: transport.PublisherID(fmt.Sprintf("%s/pub%d", p.name, b.nextID))}
		t.pubs = append(t.pubs, pub)
		p.pubs = append(p.pubs, pub)
	})
	if err != nil {
		return nil, err
	}
	return pub, nil
}

func (p *participant) Subscribe(topicName, typeName string, qos transport.QoS) (transport.Subscription, error) {
	if err := qos.Check(); err != nil {
		return nil, fmt.Errorf("inproc: subscription on %s: %w", topicName, err)
	}
	var sub *subscription
	err := p.withTopic(topicName, typeName, func(b *Bus, t *topic) {
		sub = &subscription{bus: b, topic: t, qos: normalize(qos), notify: make(chan struct{}, 1)}
		t.subs = append(t.subs, sub)
		p.subs = append(p.subs, sub)
		// A late transient-local subscription gets what transient-local
		// publishers kept; a volatile one gets only what is published later.
		for _, pub := range t.pubs {
			if transport.Compatible(pub.qos, sub.qos) && pub.qos.Durability == transport.TransientLocal &&
				sub.qos.Durability == transport.TransientLocal {
				for _, data := range pub.kept {
					sub.pushLocked(transport.Sample{Data: slices.Clone(data), Publisher: pub.id})
				}
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return sub, nil
}

func (p *participant) Close() error {
	p.mu.Lock()
	pubs, subs := p.pubs, p.subs
	p.pubs, p.subs, p.closed = nil, nil, true
	p.mu.Unlock()
	for _, pub := range pubs {
		pub.Close()
	}
	for _, sub := range subs {
		sub.Close()
	}
	return nil
}

func normalize(q transport.QoS) transport.QoS {
	if q.Depth <= 0 {
		q.Depth = 1
	}
	return q
}

type publisher struct {
	bus    *Bus
	topic  *topic
	qos    transport.QoS
	id     transport.PublisherID
	closed bool     // guarded by bus.mu
	kept   [][]byte // last Depth samples, for transient-local; guarded by bus.mu
}

func (p *publisher) ID() transport.PublisherID { return p.id }

func (p *publisher) Publish(ctx context.Context, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b := p.bus
	b.mu.Lock()
	defer b.mu.Unlock()
	if p.closed {
		return transport.ErrClosed
	}
	if p.qos.Durability == transport.TransientLocal {
		if len(p.kept) == p.qos.Depth {
			p.kept = p.kept[1:]
		}
		p.kept = append(p.kept, slices.Clone(data))
	}
	for _, sub := range p.topic.subs {
		if transport.Compatible(p.qos, sub.qos) {
			sub.pushLocked(transport.Sample{Data: slices.Clone(data), Publisher: p.id})
		}
	}
	return nil
}

func (p *publisher) MatchedSubscriptions() int {
	b := p.bus
	b.mu.Lock()
	defer b.mu.Unlock()
	if p.closed {
		return 0
	}
	n := 0
	for _, sub := range p.topic.subs {
		if transport.Compatible(p.qos, sub.qos) {
			n++
		}
	}
	return n
}

func (p *publisher) Close() error {
	b := p.bus
	b.mu.Lock()
	defer b.mu.Unlock()
	if !p.closed {
		p.closed = true
		p.topic.pubs = slices.DeleteFunc(p.topic.pubs, func(x *publisher) bool { return x == p })
	}
	return nil
}

type subscription struct {
	bus    *Bus
	topic  *topic
	qos    transport.QoS
	notify chan struct{} // capacity 1: a pending wake-up coalesces later ones
	closed bool          // guarded by bus.mu
	queue  []transport.Sample
}

// pushLocked queues s, dropping the oldest sample when the queue is at its
// KEEP_LAST depth. The caller must hold bus.mu.
func (s *subscription) pushLocked(sample transport.Sample) {
	if s.closed {
		return
	}
	if len(s.queue) == s.qos.Depth {
		copy(s.queue, s.queue[1:])
		s.queue = s.queue[:len(s.queue)-1]
	}
	s.queue = append(s.queue, sample)
	select {
	case s.notify <- struct{}{}:
	default:
	}
}

func (s *subscription) Take() (transport.Sample, bool) {
	b := s.bus
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(s.queue) == 0 {
		return transport.Sample{}, false
	}
	sample := s.queue[0]
	copy(s.queue, s.queue[1:])
	s.queue[len(s.queue)-1] = transport.Sample{}
	s.queue = s.queue[:len(s.queue)-1]
	return sample, true
}

func (s *subscription) Notify() <-chan struct{} { return s.notify }

func (s *subscription) MatchedPublishers() []transport.PublisherID {
	b := s.bus
	b.mu.Lock()
	defer b.mu.Unlock()
	var ids []transport.PublisherID
	if s.closed {
		return nil
	}
	for _, pub := range s.topic.pubs {
		if transport.Compatible(pub.qos, s.qos) {
			ids = append(ids, pub.id)
		}
	}
	slices.Sort(ids)
	return ids
}

func (s *subscription) Close() error {
	b := s.bus
	b.mu.Lock()
	defer b.mu.Unlock()
	if !s.closed {
		s.closed = true
		s.queue = nil
		s.topic.subs = slices.DeleteFunc(s.topic.subs, func(x *subscription) bool { return x == s })
	}
	return nil
}
