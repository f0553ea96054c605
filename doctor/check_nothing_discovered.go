package doctor

import (
	"fmt"
	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
	"strings"
)

// CodeNothingDiscovered: no participant but doctor's own: an empty domain is not a healthy graph.
const CodeNothingDiscovered rules.Code = "nothing_discovered"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeNothingDiscovered, Severity: rules.Error,
			Title: "no DDS participant was discovered: doctor is alone on its domain, so it cannot say anything about the graph",
			Fix:   "run doctor with the graph's ROS_DOMAIN_ID; make ROS_AUTOMATIC_DISCOVERY_RANGE (and ROS_STATIC_PEERS) reach the graph's hosts; check that CYCLONEDDS_URI does not restrict doctor to another network interface than the graph's"},
		Detect: nothingDiscovered,
	})
}

// nothingDiscovered: after the discovery grace, no participant but the
// observer: a wrong domain or a discovery setting that does not reach the
// graph, not a healthy graph.
func nothingDiscovered(a *analysis) []rules.Finding {
	if !a.empty() || a.obs.Elapsed < a.obs.DiscoveryGrace {
		return nil
	}
	n := a.obs.Network
	rng := n.DiscoveryRange
	if rng == "" {
		rng = "SUBNET"
	}
	var causes []string
	causes = append(causes, fmt.Sprintf("the graph runs on another ROS_DOMAIN_ID (doctor used %d)", n.Domain))
	peers := ""
	if len(n.StaticPeers) > 0 {
		peers = ", ROS_STATIC_PEERS " + strings.Join(n.StaticPeers, ";")
	}
	causes = append(causes, fmt.Sprintf("discovery does not reach it (doctor used ROS_AUTOMATIC_DISCOVERY_RANGE %s%s; "+
		"LOCALHOST on one side and SUBNET on the other, OFF, or a host outside the range never meet)", rng, peers))
	if n.CycloneURI != "" {
		causes = append(causes, "CYCLONEDDS_URI ("+n.CycloneURI+") puts doctor on another network interface than the graph, or disables multicast without peers")
	} else {
		causes = append(causes, "doctor and the graph use different network interfaces (CYCLONEDDS_URI, FASTRTPS_DEFAULT_PROFILES_FILE)")
	}
	causes = append(causes, "the graph is not running, or uses a middleware doctor cannot see (rmw_zenoh); "+
		"a Fast DDS application announcing XTypes type information would still show as a participant")
	return []rules.Finding{finding("", "", fmt.Sprintf(
		"no DDS participant answered on domain %d in %s s: %s", n.Domain, units.Span(a.obs.Elapsed), strings.Join(causes, "; ")))}
}
