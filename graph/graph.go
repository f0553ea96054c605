package graph

import (
	"cmp"
	"encoding/hex"
	"slices"
	"strings"
	"sync"
	"time"
)

// EndpointKind says whether an endpoint writes or reads.
type EndpointKind uint8

// Endpoint kinds.
const (
	Writer EndpointKind = iota
	Reader
)

// String returns "writer" or "reader".
func (k EndpointKind) String() string {
	if k == Reader {
		return "reader"
	}
	return "writer"
}

// An Endpoint is one DDS reader or writer.
type Endpoint struct {
	GUID        GUID
	Participant GUID
	Kind        EndpointKind
	// DDSTopic and DDSType are the names on the wire ("rt/clock",
	// "rosgraph_msgs::msg::dds_::Clock_").
	DDSTopic, DDSType string
	// Topic and Type are the ROS names ("/clock",
	// "rosgraph_msgs/msg/Clock") for ROS topics (DDS names starting with
	// "rt/"); empty otherwise.
	Topic, Type string
	// TypeHash is the RIHS01 type hash from USER_DATA "typehash=...;",
	// empty when the endpoint announces none.
	TypeHash string
	QoS      QoS
	// Partitions is the endpoint's DDS PARTITION policy; empty for the
	// default partition, where ROS 2 puts every endpoint.
	Partitions []string
	// Node is the full name of the ROS node owning the endpoint per its
	// participant's ros_discovery_info ("/ns/name"), or empty.
	Node string
}

// A Participant is one DDS domain participant.
type Participant struct {
	GUID GUID
	// Enclave is the ROS enclave from USER_DATA "enclave=...;", which
	// every ROS 2 participant announces; empty for plain DDS ones.
	Enclave string
	// Process, PID and Host come from Cyclone DDS's participant
	// properties; empty for other implementations.
	Process, PID, Host string
	// Vendor is a best guess of the DDS implementation: "eProsima Fast
	// DDS" from its GUID prefix, "Eclipse Cyclone DDS" from its
	// properties, or empty.
	Vendor string
	// HasDiscoveryInfo is true once the participant's ros_discovery_info
	// has been received.
	HasDiscoveryInfo bool
	// Nodes are the full names of its ROS nodes.
	Nodes []string
}

// IsROS reports whether p looks like a ROS 2 participant: it announces an
// enclave or publishes ros_discovery_info.
func (p Participant) IsROS() bool { return p.Enclave != "" || p.HasDiscoveryInfo }

// A Node is one ROS node.
type Node struct {
	Namespace, Name string
	Participant     GUID
	// Readers and Writers are the node's endpoints that have been
	// discovered (a node may list GIDs not yet seen on the builtin topics).
	Readers, Writers []Endpoint
	// Undiscovered are the GIDs the node lists in ros_discovery_info that
	// no builtin topic has shown (yet: discovery of endpoints may trail
	// the announcement; or never: the local DDS rejected them), with when
	// they were first listed.
	Undiscovered []Undiscovered
}

// Undiscovered is an endpoint a node announces that has not been seen.
type Undiscovered struct {
	GID    GUID
	Writer bool
	Since  time.Time
}

// FullName returns "/ns/name".
func (n Node) FullName() string { return FullName(n.Namespace, n.Name) }

// Hidden reports whether the node's name starts with an underscore, which
// ROS 2 tools hide unless asked (the ros2 daemon's node, simclock
// doctor's own).
func (n Node) Hidden() bool { return strings.HasPrefix(n.Name, "_") }

// A Graph accumulates discovery. The zero value is not usable; call New.
// Its methods are safe for concurrent use.
type Graph struct {
	mu           sync.Mutex
	participants map[GUID]Participant
	endpoints    map[GUID]Endpoint
	info         map[GUID]ParticipantEntitiesInfo
	listed       map[GUID]time.Time // when a GID first appeared in ros_discovery_info
	version      uint64
}

// New returns an empty graph.
func New() *Graph {
	return &Graph{participants: map[GUID]Participant{}, endpoints: map[GUID]Endpoint{},
		info: map[GUID]ParticipantEntitiesInfo{}, listed: map[GUID]time.Time{}}
}

// SetParticipant records p, or removes it with its endpoints and nodes
// when alive is false.
func (g *Graph) SetParticipant(p Participant, alive bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.version++
	if !alive {
		delete(g.participants, p.GUID)
		if info, ok := g.info[p.GUID]; ok {
			for _, n := range info.Nodes {
				for _, id := range append(slices.Clone(n.Readers), n.Writers...) {
					delete(g.listed, id)
				}
			}
		}
		delete(g.info, p.GUID)
		for k, e := range g.endpoints {
			if e.Participant == p.GUID {
				delete(g.endpoints, k)
			}
		}
		return
	}
	if p.Vendor == "" {
		p.Vendor = vendorOf(p)
	}
	g.participants[p.GUID] = p
}

// vendorOf guesses the DDS implementation of p.
func vendorOf(p Participant) string {
	switch {
	case p.GUID[0] == 0x01 && p.GUID[1] == 0x0f:
		return "eProsima Fast DDS"
	case p.Process != "" || p.PID != "":
		return "Eclipse Cyclone DDS"
	}
	return ""
}

// SetEndpoint records e, or removes it when alive is false (only e.GUID
// is needed then). Empty ROS names are derived from the DDS ones.
func (g *Graph) SetEndpoint(e Endpoint, alive bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.version++
	if !alive {
		delete(g.endpoints, e.GUID)
		return
	}
	if e.Participant.IsZero() {
		e.Participant = e.GUID.Prefix()
	}
	if e.Topic == "" {
		e.Topic = ROSTopic(e.DDSTopic)
	}
	if e.Type == "" {
		e.Type = ROSType(e.DDSType)
	}
	g.endpoints[e.GUID] = e
}

// SetDiscoveryInfo records a participant's ros_discovery_info, replacing
// the previous one.
func (g *Graph) SetDiscoveryInfo(info ParticipantEntitiesInfo) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.version++
	g.info[info.GID] = info
	now := time.Now()
	for _, n := range info.Nodes {
		for _, ids := range [][]GUID{n.Readers, n.Writers} {
			for _, id := range ids {
				if _, ok := g.listed[id]; !ok {
					g.listed[id] = now
				}
			}
		}
	}
}

// NodeOf returns the full name of the ROS node that lists the reader or
// writer gid in its participant's ros_discovery_info ("/ns/name"), as
// ros2 topic info -v names endpoints, or "" when no node lists it (yet).
func (g *Graph) NodeOf(gid GUID) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, info := range g.info {
		for _, n := range info.Nodes {
			if slices.Contains(n.Writers, gid) || slices.Contains(n.Readers, gid) {
				return n.FullName()
			}
		}
	}
	return ""
}

// ParseGUID reads a GUID as String writes it (four dot-separated groups
// of eight hex digits), the form transports use for publisher IDs.
func ParseGUID(s string) (GUID, bool) {
	var g GUID
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return g, false
	}
	for i, p := range parts {
		if len(p) != 8 {
			return g, false
		}
		b, err := hex.DecodeString(p)
		if err != nil {
			return g, false
		}
		copy(g[4*i:], b)
	}
	return g, true
}

// Version increases with every change; a caller can poll it to know
// whether a new Snapshot would differ.
func (g *Graph) Version() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.version
}

// A Snapshot is a consistent copy of the graph, sorted for stable output.
type Snapshot struct {
	Participants []Participant // by GUID
	Nodes        []Node        // by full name, then participant
	Endpoints    []Endpoint    // by DDS topic, kind, node, GUID
}

// Snapshot returns the graph as it is now. Endpoints are attributed to
// nodes through ros_discovery_info.
func (g *Graph) Snapshot() Snapshot {
	g.mu.Lock()
	defer g.mu.Unlock()
	var s Snapshot
	owner := map[GUID]string{}
	pps := map[GUID]Participant{}
	for k, p := range g.participants {
		p.Nodes = nil
		p.HasDiscoveryInfo = false
		pps[k] = p
	}
	for gid, info := range g.info {
		p, ok := pps[gid]
		if !ok {
			// Info can arrive before the participant's DCPSParticipant
			// sample; the participant is there all the same.
			p = Participant{GUID: gid}
		}
		p.HasDiscoveryInfo = true
		for _, n := range info.Nodes {
			full := n.FullName()
			p.Nodes = append(p.Nodes, full)
			node := Node{Namespace: n.Namespace, Name: n.Name, Participant: gid}
			for _, r := range n.Readers {
				owner[r] = full
				if e, ok := g.endpoints[r]; ok {
					node.Readers = append(node.Readers, e)
				} else {
					node.Undiscovered = append(node.Undiscovered, Undiscovered{GID: r, Since: g.listed[r]})
				}
			}
			for _, w := range n.Writers {
				owner[w] = full
				if e, ok := g.endpoints[w]; ok {
					node.Writers = append(node.Writers, e)
				} else {
					node.Undiscovered = append(node.Undiscovered, Undiscovered{GID: w, Writer: true, Since: g.listed[w]})
				}
			}
			s.Nodes = append(s.Nodes, node)
		}
		slices.Sort(p.Nodes)
		pps[gid] = p
	}
	for _, p := range pps {
		s.Participants = append(s.Participants, p)
	}
	for _, e := range g.endpoints {
		e.Node = owner[e.GUID]
		s.Endpoints = append(s.Endpoints, e)
	}
	for i := range s.Nodes {
		for j := range s.Nodes[i].Readers {
			s.Nodes[i].Readers[j].Node = s.Nodes[i].FullName()
		}
		for j := range s.Nodes[i].Writers {
			s.Nodes[i].Writers[j].Node = s.Nodes[i].FullName()
		}
		slices.SortFunc(s.Nodes[i].Readers, compareEndpoints)
		slices.SortFunc(s.Nodes[i].Writers, compareEndpoints)
	}
	slices.SortFunc(s.Participants, func(a, b Participant) int { return slices.Compare(a.GUID[:], b.GUID[:]) })
	slices.SortFunc(s.Nodes, func(a, b Node) int {
		return cmp.Or(cmp.Compare(a.FullName(), b.FullName()), slices.Compare(a.Participant[:], b.Participant[:]))
	})
	slices.SortFunc(s.Endpoints, compareEndpoints)
	return s
}

func compareEndpoints(a, b Endpoint) int {
	return cmp.Or(cmp.Compare(a.DDSTopic, b.DDSTopic), cmp.Compare(a.Kind, b.Kind),
		cmp.Compare(a.Node, b.Node), slices.Compare(a.GUID[:], b.GUID[:]))
}

// Participant returns the participant with GUID id.
func (s Snapshot) Participant(id GUID) (Participant, bool) {
	i, ok := slices.BinarySearchFunc(s.Participants, id, func(p Participant, id GUID) int {
		return slices.Compare(p.GUID[:], id[:])
	})
	if !ok {
		return Participant{}, false
	}
	return s.Participants[i], true
}

// OnTopic returns the endpoints of kind on the DDS topic ddsTopic.
func (s Snapshot) OnTopic(ddsTopic string, kind EndpointKind) []Endpoint {
	var out []Endpoint
	for _, e := range s.Endpoints {
		if e.DDSTopic == ddsTopic && e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// Matches returns the writers that reader r matches: same topic and type,
// a shared partition (PartitionsMatch), and QoS compatible (Incompatible
// is empty).
func (s Snapshot) Matches(r Endpoint) []Endpoint {
	var out []Endpoint
	for _, w := range s.OnTopic(r.DDSTopic, Writer) {
		if w.DDSType == r.DDSType && PartitionsMatch(w.Partitions, r.Partitions) && len(Incompatible(w.QoS, r.QoS)) == 0 {
			out = append(out, w)
		}
	}
	return out
}

// A Topic gathers the endpoints of one DDS topic.
type Topic struct {
	DDSTopic string
	Topic    string   // ROS name, empty for non-ROS topics
	Types    []string // ROS type names (DDS names for non-ROS types), sorted, usually one
	Writers  []Endpoint
	Readers  []Endpoint
}

// Topics returns every topic with at least one endpoint, by DDS name.
func (s Snapshot) Topics() []Topic {
	byName := map[string]*Topic{}
	var names []string
	for _, e := range s.Endpoints {
		t := byName[e.DDSTopic]
		if t == nil {
			t = &Topic{DDSTopic: e.DDSTopic, Topic: e.Topic}
			byName[e.DDSTopic] = t
			names = append(names, e.DDSTopic)
		}
		typ := cmp.Or(e.Type, e.DDSType)
		if !slices.Contains(t.Types, typ) {
			t.Types = append(t.Types, typ)
		}
		if e.Kind == Writer {
			t.Writers = append(t.Writers, e)
		} else {
			t.Readers = append(t.Readers, e)
		}
	}
	slices.Sort(names)
	out := make([]Topic, 0, len(names))
	for _, n := range names {
		slices.Sort(byName[n].Types)
		out = append(out, *byName[n])
	}
	return out
}
