package graph

import (
	"errors"
	"fmt"
	"strings"

	"github.com/simclock/simclock/cdr"
)

// The ros_discovery_info topic: every ROS 2 participant publishes its
// nodes there, and graph tools read it to name the endpoints they see.
// Names and QoS are rmw_cyclonedds's (Jazzy): the DDS topic has no "rt/"
// prefix; the writer is RELIABLE, TRANSIENT_LOCAL, KEEP_LAST 1 so that a
// late joiner gets each participant's latest list; the reader is the same
// but KEEP_ALL.
const (
	DiscoveryTopic    = "ros_discovery_info"
	DiscoveryType     = "rmw_dds_common::msg::dds_::ParticipantEntitiesInfo_"
	DiscoveryROSType  = "rmw_dds_common/msg/ParticipantEntitiesInfo"
	DiscoveryTypeHash = "RIHS01_91a0593bacdcc50ea9bdcf849a938b128412cc1ea821245c663bcd26f83c295e"
)

// MaxNameLength is the bound of node_name and node_namespace in
// rmw_dds_common/msg/NodeEntitiesInfo (string<=256).
const MaxNameLength = 256

// ErrBadDiscoveryInfo reports a ros_discovery_info payload that does not
// decode.
var ErrBadDiscoveryInfo = errors.New("malformed ros_discovery_info")

// A GUID is a DDS GUID: a 12-byte participant prefix and a 4-byte entity
// id. In Jazzy a ROS GID (rmw_gid_t, rmw_dds_common/msg/Gid) is exactly
// these 16 bytes, as rmw_cyclonedds and rmw_fastrtps copy them.
type GUID [16]byte

// String formats g as Cyclone DDS traces do: four dot-separated groups of
// eight hex digits.
func (g GUID) String() string {
	return fmt.Sprintf("%x.%x.%x.%x", g[0:4], g[4:8], g[8:12], g[12:16])
}

// Prefix returns the GUID of g's participant: g's prefix with the
// participant entity id 00.00.01.c1.
func (g GUID) Prefix() GUID {
	var p GUID
	copy(p[:12], g[:12])
	p[12], p[13], p[14], p[15] = 0, 0, 1, 0xc1
	return p
}

// IsZero reports whether g is all zeros.
func (g GUID) IsZero() bool { return g == GUID{} }

// NodeEntitiesInfo is one node of a ParticipantEntitiesInfo.
type NodeEntitiesInfo struct {
	Namespace string
	Name      string
	Readers   []GUID
	Writers   []GUID
}

// FullName joins namespace and name the ROS way: "/ns/name", "/name".
func (n NodeEntitiesInfo) FullName() string { return FullName(n.Namespace, n.Name) }

// FullName joins a node namespace and name: ("/", "talker") gives
// "/talker", ("/robot", "talker") gives "/robot/talker".
func FullName(namespace, name string) string {
	return strings.TrimSuffix(namespace, "/") + "/" + name
}

// ParticipantEntitiesInfo is the message of ros_discovery_info:
// a participant's GID and the nodes it hosts.
type ParticipantEntitiesInfo struct {
	GID   GUID
	Nodes []NodeEntitiesInfo
}

// MarshalCDR encodes p as a little-endian XCDR1 payload, encapsulation
// header included, ready to publish.
func (p ParticipantEntitiesInfo) MarshalCDR() []byte {
	w := cdr.NewWriter(64 + 64*len(p.Nodes))
	w.RawBytes(p.GID[:])
	w.Uint32(uint32(len(p.Nodes)))
	gids := func(gs []GUID) {
		w.Uint32(uint32(len(gs)))
		for _, g := range gs {
			w.RawBytes(g[:])
		}
	}
	for _, n := range p.Nodes {
		w.String(n.Namespace)
		w.String(n.Name)
		gids(n.Readers)
		gids(n.Writers)
	}
	return w.Bytes()
}

// UnmarshalParticipantEntitiesInfo decodes a ros_discovery_info payload
// (either endianness). Errors wrap ErrBadDiscoveryInfo.
func UnmarshalParticipantEntitiesInfo(data []byte) (ParticipantEntitiesInfo, error) {
	var p ParticipantEntitiesInfo
	r, err := cdr.NewReader(data)
	if err != nil {
		return p, fmt.Errorf("%w: %w", ErrBadDiscoveryInfo, err)
	}
	copy(p.GID[:], r.Bytes(16, "gid"))
	gids := func(field string) []GUID {
		n := r.SequenceLength(16, field)
		if n == 0 {
			return nil
		}
		out := make([]GUID, n)
		for i := range out {
			copy(out[i][:], r.Bytes(16, field))
		}
		return out
	}
	n := r.SequenceLength(16, "node_entities_info_seq")
	for range n {
		var ni NodeEntitiesInfo
		ni.Namespace = r.String("node_namespace")
		ni.Name = r.String("node_name")
		ni.Readers = gids("reader_gid_seq")
		ni.Writers = gids("writer_gid_seq")
		if r.Err() != nil {
			break
		}
		p.Nodes = append(p.Nodes, ni)
	}
	if err := r.Err(); err != nil {
		return ParticipantEntitiesInfo{}, fmt.Errorf("%w: %w", ErrBadDiscoveryInfo, err)
	}
	return p, nil
}
