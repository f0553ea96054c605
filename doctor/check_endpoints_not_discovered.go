package doctor

import (
	"fmt"
	"time"

	"github.com/simclock/simclock/rules"
)

// CodeEndpointsNotDiscovered: a node lists endpoints in
// ros_discovery_info that Cyclone DDS never discovered.
const CodeEndpointsNotDiscovered rules.Code = "endpoints_not_discovered"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeEndpointsNotDiscovered, Severity: rules.Info,
			Title: "a node lists readers or writers in ros_discovery_info that this Cyclone DDS never discovered",
			Fix:   "if the node's participant is Fast DDS with XTypes type information on (a plain Fast DDS application, not rmw_fastrtps), turn off auto_fill_type_information and auto_fill_type_object: Cyclone DDS 0.10 rejects such endpoints, so nothing on the Cyclone side can hear them"},
		Detect: endpointsNotDiscovered,
	})
}

// undiscoveredAfter is how long a listed endpoint may stay undiscovered
// before it is reported: endpoint discovery may trail ros_discovery_info.
const undiscoveredAfter = time.Second

// endpointsNotDiscovered: a node announces endpoints that the builtin
// topics never showed.
func endpointsNotDiscovered(a *analysis) []rules.Finding {
	var out []rules.Finding
	for _, n := range a.snap.Nodes {
		var readers, writers int
		for _, u := range n.Undiscovered {
			if a.obs.Now.Sub(u.Since) < undiscoveredAfter {
				continue
			}
			if u.Writer {
				writers++
			} else {
				readers++
			}
		}
		if readers+writers == 0 {
			continue
		}
		p, _ := a.snap.Participant(n.Participant)
		msg := fmt.Sprintf("%s announces %d writer(s) and %d reader(s) in ros_discovery_info that Cyclone DDS never discovered", n.FullName(), writers, readers)
		if p.Vendor == "eProsima Fast DDS" {
			msg += "; its participant is Fast DDS, and Cyclone DDS 0.10 rejects Fast DDS endpoints that announce XTypes TypeInformation, so their topics are invisible and unheard here"
		}
		out = append(out, finding(n.FullName(), "", msg))
	}
	return out
}
