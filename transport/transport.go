// Package transport defines how simclock nodes exchange serialized ROS 2
// messages: publish and take raw CDR payloads on named topics with a QoS,
// and know who published each sample.
//
// Two implementations ship with simclock: transport/inproc, an in-process
// bus that is the embedded default, and transport/dds, which speaks ROS 2's
// wire format over Cyclone DDS. Every implementation passes the shared
// conformance suite in transport/transporttest.
//
// # Delivery model
//
// Delivery follows rcl rather than callbacks: a Subscription keeps a queue
// bounded by its QoS depth (KEEP_LAST; the oldest sample is dropped when a
// new one arrives on a full queue), Notify wakes whoever waits for data, and
// the owner Takes samples when it chooses. This lets an executor dispatch
// subscription callbacks in a defined order, and lets virtual-time runs stay
// deterministic.
//
// # Names
//
// Topics are ROS names ("/clock") and types are ROS type names
// ("rosgraph_msgs/msg/Clock"); a transport maps them to its own conventions
// (DDS: "rt/clock", "rosgraph_msgs::msg::dds_::Clock_").
//
// # Thread safety
//
// Every method of Transport, Publisher and Subscription is safe for
// concurrent use.
package transport

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Reliability is the DDS RELIABILITY QoS policy: simclock's one
// vocabulary for it, used by the transports and by the discovered graph
// (package graph). The zero value is Reliable, as in ROS 2's default
// profile; values follow rmw's order (RELIABLE before BEST_EFFORT), not
// strength, so compare them with Satisfies.
type Reliability uint8

const (
	// Reliable retransmits lost samples. A reliable publisher matches both
	// reliable and best-effort subscriptions.
	Reliable Reliability = iota
	// BestEffort never retransmits. A best-effort subscription matches
	// every publisher; a best-effort publisher matches only best-effort
	// subscriptions.
	BestEffort
)

// String returns the kind as ros2 topic info -v prints it: "RELIABLE" or
// "BEST_EFFORT".
func (r Reliability) String() string {
	switch r {
	case Reliable:
		return "RELIABLE"
	case BestEffort:
		return "BEST_EFFORT"
	}
	return fmt.Sprintf("Reliability(%d)", uint8(r))
}

// Satisfies reports whether a writer offering r serves a reader requesting
// want, by the DDS requested/offered rule: only BEST_EFFORT offered to a
// RELIABLE request fails.
func (r Reliability) Satisfies(want Reliability) bool { return r == Reliable || want != Reliable }

// Durability is the DDS DURABILITY QoS policy, ordered weakest first. A
// discovered endpoint may have any kind; simclock's transports create
// Volatile and TransientLocal endpoints and refuse the others
// (ErrUnsupportedQoS).
type Durability uint8

const (
	// Volatile delivers only samples published after a subscription matched.
	Volatile Durability = iota
	// TransientLocal keeps the last Depth samples for late subscriptions.
	TransientLocal
	// Transient keeps samples beyond the writer, in a durability service.
	Transient
	// Persistent keeps samples in permanent storage.
	Persistent
)

// String returns the kind as ros2 topic info -v prints it, such as
// "TRANSIENT_LOCAL".
func (d Durability) String() string {
	switch d {
	case Volatile:
		return "VOLATILE"
	case TransientLocal:
		return "TRANSIENT_LOCAL"
	case Transient:
		return "TRANSIENT"
	case Persistent:
		return "PERSISTENT"
	}
	return fmt.Sprintf("Durability(%d)", uint8(d))
}

// Satisfies reports whether a writer offering d serves a reader requesting
// want, by the DDS requested/offered rule: the offer must be at least as
// strong as the request.
func (d Durability) Satisfies(want Durability) bool { return d >= want }

// QoS is the subset of ROS 2 QoS that simclock uses. History is always
// KEEP_LAST with the given Depth. The zero value is reliable, volatile,
// depth 0, which transports treat as depth 1.
type QoS struct {
	Depth       int
	Reliability Reliability
	Durability  Durability
}

// Check returns an error wrapping ErrUnsupportedQoS unless a transport can
// create an endpoint with q: a known reliability, and a volatile or
// transient-local durability.
func (q QoS) Check() error {
	if q.Reliability > BestEffort || q.Durability > TransientLocal {
		return fmt.Errorf("%w: %v, %v", ErrUnsupportedQoS, q.Reliability, q.Durability)
	}
	return nil
}

// ClockSubscriptionQoS is what rclpy and rclcpp use to subscribe to /clock:
// KEEP_LAST 1, BEST_EFFORT, VOLATILE (R16).
var ClockSubscriptionQoS = QoS{Depth: 1, Reliability: BestEffort, Durability: Volatile}

// ClockPublisherQoS is what simclock publishes /clock with: RELIABLE and
// VOLATILE, which matches best-effort and reliable subscriptions alike.
var ClockPublisherQoS = QoS{Depth: 1, Reliability: Reliable, Durability: Volatile}

// Compatible reports whether a publisher offering pub matches a
// subscription requesting sub, by the DDS request/offered rules.
func Compatible(pub, sub QoS) bool {
	return pub.Reliability.Satisfies(sub.Reliability) && pub.Durability.Satisfies(sub.Durability)
}

// A PublisherID identifies one publisher across the graph: a DDS GUID in
// hex for the dds transport, a bus-unique name for inproc. The empty ID
// means unknown.
type PublisherID string

// A Sample is one received message.
type Sample struct {
	// Data is the serialized payload, CDR encapsulation header included.
	// The receiver owns it.
	Data []byte
	// Publisher identifies who sent the sample, when the transport knows.
	Publisher PublisherID
	// SourceTimestamp is the publisher's wall-clock time of publication in
	// nanoseconds since the Unix epoch, or 0 when the transport does not
	// carry it.
	SourceTimestamp int64
}

// A Transport creates publishers and subscriptions in one participant
// (one DDS domain participant, or one attachment to an in-process bus).
type Transport interface {
	// Publisher creates a publisher on topic carrying typeName.
	Publisher(topic, typeName string, qos QoS) (Publisher, error)
	// Subscribe creates a subscription on topic carrying typeName.
	Subscribe(topic, typeName string, qos QoS) (Subscription, error)
	// Close releases every publisher and subscription created by this
	// transport. Methods called after Close return ErrClosed.
	Close() error
}

// A Publisher sends samples on one topic.
type Publisher interface {
	// Publish sends one serialized payload (CDR header included). It may
	// block for flow control until ctx is done.
	Publish(ctx context.Context, data []byte) error
	// ID is this publisher's identity as subscribers see it.
	ID() PublisherID
	// MatchedSubscriptions reports how many subscriptions currently match.
	MatchedSubscriptions() int
	// Close stops the publisher. Subscribers see it unmatched.
	Close() error
}

// A Subscription receives samples on one topic.
type Subscription interface {
	// Take removes and returns the oldest queued sample. ok is false when
	// the queue is empty.
	Take() (s Sample, ok bool)
	// Notify returns a channel that receives a value (capacity 1,
	// coalescing) whenever samples are queued. It is never closed: after
	// Close, Take reports no samples.
	Notify() <-chan struct{}
	// MatchedPublishers lists the publishers currently matched, sorted.
	// More than one publisher on /clock is a fault worth reporting (R18).
	MatchedPublishers() []PublisherID
	// Close stops the subscription.
	Close() error
}

// ErrClosed is returned by operations on a closed transport, publisher or
// subscription.
var ErrClosed = errors.New("transport closed")

// ErrUnsupportedQoS is returned for a QoS a transport cannot create an
// endpoint with (see QoS.Check).
var ErrUnsupportedQoS = errors.New("unsupported QoS")

// ErrIncompatibleQoS is returned when a publisher's offered QoS cannot
// serve a subscription's requested QoS. Transports that cannot tell (DDS
// silently does not match) never return it.
var ErrIncompatibleQoS = errors.New("incompatible QoS")

// A Waiter is a Subscription that can block its caller until samples may
// be queued, without a hand-off through another goroutine: the dds
// transport waits in Cyclone's waitset on the caller's thread. Receive
// uses it when a subscription offers it.
type Waiter interface {
	// Wait blocks until samples may be queued (it may return with none),
	// ctx is done (ctx's error) or the subscription is closed
	// (ErrClosed).
	Wait(ctx context.Context) error
}

// A WakeSetter is a Subscription that can call a function when samples
// may be queued, from the goroutine that noticed them, in place of
// signalling Notify: an executor uses it to be woken without a forwarding
// goroutine (and one more hand-off) per subscription.
type WakeSetter interface {
	// SetWake makes the subscription call f, which must not block,
	// whenever samples may be queued; SetWake(nil) goes back to Notify.
	SetWake(f func())
}

// A WaitSet blocks one goroutine until any of several subscriptions may
// have samples, Wake is called, or a timeout passes, in the transport's
// own wait primitive (the dds transport: one Cyclone waitset for all of
// them), so that the goroutine that waits is the one that takes, with no
// hand-off through another goroutine or thread. An executor waits in one
// between rounds.
type WaitSet interface {
	// Add makes Wait return when sub may have samples. It reports false,
	// changing nothing, when sub cannot join this set (another
	// transport's); the caller then watches sub some other way.
	Add(sub Subscription) bool
	// Remove undoes Add. Removing a subscription that is not in the set
	// does nothing.
	Remove(sub Subscription)
	// Wait blocks until a subscription of the set may have samples, Wake
	// has been called since the last Wait returned, or timeout passes (a
	// negative timeout never passes). It may return early with nothing
	// ready. One goroutine waits at a time.
	Wait(timeout time.Duration) error
	// Wake makes the Wait in progress, or else the next one, return. It
	// never blocks and is safe from any goroutine.
	Wake()
	// Close frees the set. Its subscriptions are not closed.
	Close() error
}

// A Waitable is a Subscription, or a Transport, that can make a WaitSet
// which the subscriptions of its transport can join.
type Waitable interface {
	NewWaitSet() (WaitSet, error)
}

// Receive calls handle for every sample sub receives until ctx is done,
// then returns ctx's error (or ErrClosed when sub is closed while it
// waits on a Waiter). handle runs on the calling goroutine.
func Receive(ctx context.Context, sub Subscription, handle func(Sample)) error {
	w, _ := sub.(Waiter)
	for {
		for {
			s, ok := sub.Take()
			if !ok {
				break
			}
			handle(s)
		}
		if w != nil {
			if err := w.Wait(ctx); err != nil {
				return err
			}
			continue
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-sub.Notify():
		}
	}
}

// A NodeScoper is a Transport that can attribute endpoints to named ROS
// nodes, so that the graph sees them as ROS 2 does (transport/dds
// announces them on ros_discovery_info). node.New uses it when the
// transport offers it.
type NodeScoper interface {
	// ForNode returns a view whose endpoints belong to the node
	// namespace/name. Closing the view closes them and withdraws the node,
	// leaving the underlying transport open.
	ForNode(name, namespace string) (Transport, error)
}

// A Sampler is a polled reader: no goroutine waits for its data, and its
// owner takes samples when it chooses (transport/dds's RawReader).
type Sampler interface {
	// Take removes and returns the oldest queued sample. ok is false
	// when there is none.
	Take() (s Sample, ok bool)
	// Close stops the reader.
	Close() error
}
