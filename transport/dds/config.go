package dds

import (
	"encoding/xml"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// DiscoveryRange is ROS 2's automatic discovery range
// (ROS_AUTOMATIC_DISCOVERY_RANGE).
type DiscoveryRange uint8

// Discovery ranges, as rcl names them.
const (
	// Subnet is the ROS 2 default: Cyclone's defaults (multicast discovery).
	Subnet DiscoveryRange = iota
	// Localhost discovers only on this host: no multicast, unicast
	// discovery to localhost ports.
	Localhost
	// Off discovers nothing: no multicast, and the domain is tagged with
	// the process id so that no other process matches it.
	Off
	// SystemDefault leaves the configuration to CYCLONEDDS_URI alone.
	SystemDefault
)

// String returns the range as ROS_AUTOMATIC_DISCOVERY_RANGE spells it.
func (r DiscoveryRange) String() string {
	switch r {
	case Subnet:
		return "SUBNET"
	case Localhost:
		return "LOCALHOST"
	case Off:
		return "OFF"
	case SystemDefault:
		return "SYSTEM_DEFAULT"
	}
	return fmt.Sprintf("DiscoveryRange(%d)", uint8(r))
}

// Config says which domain to join and how. The zero value is domain 0,
// SUBNET discovery and Cyclone's defaults.
type Config struct {
	// Domain is the DDS domain id; defaults to 0.
	Domain uint32
	// URI is the Cyclone configuration (CYCLONEDDS_URI): file:// URIs or
	// XML, comma separated. It is applied after the discovery fragment, so
	// it overrides it. Defaults to none.
	URI string
	// Range is the automatic discovery range; defaults to Subnet.
	Range DiscoveryRange
	// StaticPeers are extra unicast discovery addresses (ROS_STATIC_PEERS).
	StaticPeers []string
	// Library is the libddsc to load; defaults to the search described in
	// package ddsc (LD_LIBRARY_PATH, Debian's library, /opt/ros/*/lib).
	Library string
}

// MaxDomainID is the largest domain id ROS 2 accepts.
const MaxDomainID = 232

// ConfigFromEnv reads ROS 2's environment variables as rcl and
// rmw_cyclonedds (Jazzy) do: ROS_DOMAIN_ID (empty means 0, otherwise a
// number up to MaxDomainID), ROS_LOCALHOST_ONLY=1 (deprecated; forces
// LOCALHOST and ignores the other two), ROS_AUTOMATIC_DISCOVERY_RANGE
// (empty means SUBNET; an unknown value is a warning and LOCALHOST),
// ROS_STATIC_PEERS (semicolon separated) and CYCLONEDDS_URI. Warnings are
// returned for the caller to print.
func ConfigFromEnv(getenv func(string) string) (cfg Config, warnings []string, err error) {
	if s := strings.TrimSpace(getenv("ROS_DOMAIN_ID")); s != "" {
		n, perr := strconv.ParseUint(s, 10, 32)
		if perr != nil || n > MaxDomainID {
			return Config{}, nil, fmt.Errorf("dds: ROS_DOMAIN_ID %q: want a number from 0 to %d", s, MaxDomainID)
		}
		cfg.Domain = uint32(n)
	}
	cfg.URI = getenv("CYCLONEDDS_URI")
	if getenv("ROS_LOCALHOST_ONLY") == "1" {
		cfg.Range = Localhost
		warnings = append(warnings, "ROS_LOCALHOST_ONLY is deprecated; use ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST")
		return cfg, warnings, nil
	}
	switch r := getenv("ROS_AUTOMATIC_DISCOVERY_RANGE"); r {
	case "", "SUBNET":
		cfg.Range = Subnet
	case "LOCALHOST":
		cfg.Range = Localhost
	case "OFF":
		cfg.Range = Off
	case "SYSTEM_DEFAULT":
		cfg.Range = SystemDefault
	default:
		cfg.Range = Localhost
		warnings = append(warnings, fmt.Sprintf("ROS_AUTOMATIC_DISCOVERY_RANGE=%q is not OFF, LOCALHOST, SUBNET or SYSTEM_DEFAULT; using LOCALHOST", r))
	}
	for p := range strings.SplitSeq(getenv("ROS_STATIC_PEERS"), ";") {
		if p = strings.TrimSpace(p); p != "" {
			cfg.StaticPeers = append(cfg.StaticPeers, p)
		}
	}
	return cfg, warnings, nil
}

// CycloneConfig returns the configuration string passed to
// dds_create_domain: the discovery fragment rmw_cyclonedds would build
// for c.Range and c.StaticPeers, then c.URI.
func (c Config) CycloneConfig() string {
	var frag string
	peers := func(list []string) string {
		var b strings.Builder
		b.WriteString("<Peers>")
		for _, p := range list {
			b.WriteString(`<Peer address="`)
			xml.EscapeText(&b, []byte(p)) //nolint:errcheck // strings.Builder never fails
			b.WriteString(`"/>`)
		}
		b.WriteString("</Peers>")
		return b.String()
	}
	const autoIndex = "<ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>32</MaxAutoParticipantIndex>"
	noMulticast := "<General><AllowMulticast>false</AllowMulticast></General>"
	switch c.Range {
	case Localhost:
		frag = noMulticast + "<Discovery>" + autoIndex + peers(append([]string{"localhost"}, c.StaticPeers...)) + "</Discovery>"
	case Off:
		frag = noMulticast + "<Discovery><ParticipantIndex>none</ParticipantIndex>" +
			fmt.Sprintf("<Tag>ros_discovery_off_%d</Tag>", os.Getpid()) + "</Discovery>"
	case Subnet:
		if len(c.StaticPeers) > 0 {
			frag = "<Discovery>" + autoIndex + peers(c.StaticPeers) + "</Discovery>"
		}
	}
	var parts []string
	if frag != "" {
		parts = append(parts, `<CycloneDDS><Domain id="any">`+frag+`</Domain></CycloneDDS>`)
	}
	if c.URI != "" {
		parts = append(parts, c.URI)
	}
	return strings.Join(parts, ",")
}
