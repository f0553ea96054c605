package graph

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/simclock/simclock/transport"
)

// Infinite is the duration of a policy with no limit (DDS_INFINITY).
const Infinite time.Duration = math.MaxInt64

// History is the DDS HISTORY policy kind.
type History uint8

// History kinds.
const (
	KeepLast History = iota
	KeepAll
)

// String returns the kind as ros2 topic info -v spells it.
func (h History) String() string {
	if h == KeepAll {
		return "KEEP_ALL"
	}
	return "KEEP_LAST"
}

// Liveliness is the DDS LIVELINESS policy kind, ordered weakest first.
type Liveliness uint8

// Liveliness kinds.
const (
	Automatic Liveliness = iota
	ManualByParticipant
	ManualByTopic
)

// String returns the kind as ros2 topic info -v spells it.
func (l Liveliness) String() string {
	switch l {
	case Automatic:
		return "AUTOMATIC"
	case ManualByParticipant:
		return "MANUAL_BY_PARTICIPANT"
	case ManualByTopic:
		return "MANUAL_BY_TOPIC"
	}
	return fmt.Sprintf("Liveliness(%d)", uint8(l))
}

// Ownership is the DDS OWNERSHIP policy kind.
type Ownership uint8

// Ownership kinds.
const (
	Shared Ownership = iota
	Exclusive
)

// String returns the kind in DDS spelling.
func (o Ownership) String() string {
	if o == Exclusive {
		return "EXCLUSIVE"
	}
	return "SHARED"
}

// DestinationOrder is the DDS DESTINATION_ORDER policy kind, ordered
// weakest first.
type DestinationOrder uint8

// Destination order kinds.
const (
	ByReceptionTimestamp DestinationOrder = iota
	BySourceTimestamp
)

// String returns the kind in DDS spelling.
func (d DestinationOrder) String() string {
	if d == BySourceTimestamp {
		return "BY_SOURCE_TIMESTAMP"
	}
	return "BY_RECEPTION_TIMESTAMP"
}

// DataRepresentation is a DDS-XTypes data representation identifier.
type DataRepresentation int16

// Data representations.
const (
	XCDR1 DataRepresentation = 0
	XML   DataRepresentation = 1
	XCDR2 DataRepresentation = 2
)

// String returns the representation's name.
func (d DataRepresentation) String() string {
	switch d {
	case XCDR1:
		return "XCDR1"
	case XML:
		return "XML"
	case XCDR2:
		return "XCDR2"
	}
	return fmt.Sprintf("DataRepresentation(%d)", int16(d))
}

// QoS is an endpoint's discovered QoS: what a writer offers or a reader
// requests.
//
// Reliability and Durability are transport's kinds: one vocabulary, one
// spelling (ros2 topic info -v's), for what a node asks for and what a
// graph discovers.
type QoS struct {
	Reliability transport.Reliability
	Durability  transport.Durability
	// History and Depth are known for local endpoints only: RTPS
	// discovery does not carry them.
	History           History
	Depth             int
	Deadline          time.Duration // Infinite for none
	Lifespan          time.Duration // Infinite for none
	Liveliness        Liveliness
	LeaseDuration     time.Duration // Infinite for none
	Ownership         Ownership
	OwnershipStrength int
	DestinationOrder  DestinationOrder
	// DataRepresentation is what a writer offers (it uses the first) or
	// a reader accepts; empty means XCDR1 only.
	DataRepresentation []DataRepresentation
}

// DefaultReaderQoS and DefaultWriterQoS are the DDS defaults.
var (
	DefaultWriterQoS = QoS{Reliability: transport.Reliable, Depth: 1, Deadline: Infinite, Lifespan: Infinite, LeaseDuration: Infinite}
	DefaultReaderQoS = QoS{Reliability: transport.BestEffort, Depth: 1, Deadline: Infinite, Lifespan: Infinite, LeaseDuration: Infinite}
)

// String is the compact form used in reports, kinds spelt as ros2 topic
// info -v prints them: "BEST_EFFORT VOLATILE", plus any policy that is not
// the default ("deadline 100ms", "liveliness MANUAL_BY_TOPIC lease 2s",
// "EXCLUSIVE"). History is left out: RTPS discovery does not carry it, so
// a remote endpoint's history is unknown (ros2 topic info -v prints
// UNKNOWN; Cyclone DDS fills in its default).
func (q QoS) String() string {
	var b strings.Builder
	b.WriteString(q.Reliability.String())
	b.WriteString(" " + q.Durability.String())
	if q.Deadline != Infinite {
		fmt.Fprintf(&b, " deadline %v", q.Deadline)
	}
	if q.Liveliness != Automatic || q.LeaseDuration != Infinite {
		fmt.Fprintf(&b, " liveliness %v", q.Liveliness)
		if q.LeaseDuration != Infinite {
			fmt.Fprintf(&b, " lease %v", q.LeaseDuration)
		}
	}
	if q.Ownership == Exclusive {
		b.WriteString(" " + q.Ownership.String())
	}
	return b.String()
}

// An Incompatibility is one policy for which a writer's offer does not
// satisfy a reader's request.
type Incompatibility struct {
	Policy string `json:"policy"` // "reliability", "durability", ...
	Offer  string `json:"offered"`
	Want   string `json:"requested"`
}

// String reads "durability: offered VOLATILE, requested TRANSIENT_LOCAL".
func (i Incompatibility) String() string {
	return fmt.Sprintf("%s: offered %s, requested %s", i.Policy, i.Offer, i.Want)
}

// Incompatible lists the policies for which a writer offering w cannot
// serve a reader requesting r, by the DDS requested/offered rules:
// reliability, durability, deadline, liveliness (kind and lease),
// ownership, destination order, and data representation (the reader
// must accept the representation the writer uses). Nil means they match.
func Incompatible(w, r QoS) []Incompatibility {
	var out []Incompatibility
	add := func(policy, offer, want string) {
		out = append(out, Incompatibility{Policy: policy, Offer: offer, Want: want})
	}
	if !w.Reliability.Satisfies(r.Reliability) {
		add("reliability", w.Reliability.String(), r.Reliability.String())
	}
	if !w.Durability.Satisfies(r.Durability) {
		add("durability", w.Durability.String(), r.Durability.String())
	}
	if w.Deadline > r.Deadline {
		add("deadline", durString(w.Deadline), durString(r.Deadline))
	}
	if w.Liveliness < r.Liveliness {
		add("liveliness", w.Liveliness.String(), r.Liveliness.String())
	}
	if w.LeaseDuration > r.LeaseDuration {
		add("liveliness_lease_duration", durString(w.LeaseDuration), durString(r.LeaseDuration))
	}
	if w.Ownership != r.Ownership {
		add("ownership", w.Ownership.String(), r.Ownership.String())
	}
	if w.DestinationOrder < r.DestinationOrder {
		add("destination_order", w.DestinationOrder.String(), r.DestinationOrder.String())
	}
	used := XCDR1
	if len(w.DataRepresentation) > 0 {
		used = w.DataRepresentation[0]
	}
	accepts := r.DataRepresentation
	if len(accepts) == 0 {
		accepts = []DataRepresentation{XCDR1}
	}
	ok := false
	for _, a := range accepts {
		ok = ok || a == used
	}
	if !ok {
		var names []string
		for _, a := range accepts {
			names = append(names, a.String())
		}
		add("data_representation", used.String(), strings.Join(names, ","))
	}
	return out
}

func durString(d time.Duration) string {
	if d == Infinite {
		return "infinite"
	}
	return d.String()
}
