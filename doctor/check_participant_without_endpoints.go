package doctor

import (
	"slices"

	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/rules"
)

// CodeParticipantNoEndpoints: a participant none of whose endpoints
// Cyclone DDS accepted.
const CodeParticipantNoEndpoints rules.Code = "participant_without_endpoints"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeParticipantNoEndpoints, Severity: rules.Info,
			Title: "a DDS participant announces no readers or writers that this Cyclone DDS accepted",
			Fix:   "if it is Fast DDS outside ROS 2, disable XTypes type information (Cyclone DDS 0.10 ignores endpoints announcing it); ROS 2 nodes on rmw_fastrtps are not affected"},
		Detect: participantsWithoutEndpoints,
	})
}

// participantsWithoutEndpoints: a participant none of whose endpoints
// this Cyclone DDS accepted; every ROS 2 participant has at least its
// ros_discovery_info reader and writer.
func participantsWithoutEndpoints(a *analysis) []rules.Finding {
	var out []rules.Finding
	for _, p := range a.snap.Participants {
		if slices.ContainsFunc(a.snap.Endpoints, func(e graph.Endpoint) bool { return e.Participant == p.GUID }) {
			continue
		}
		desc := describeParticipant(p, p.GUID)
		msg := desc + " announces no reader or writer that Cyclone DDS accepted"
		if p.Vendor == "eProsima Fast DDS" {
			msg += "; Cyclone DDS 0.10 ignores Fast DDS endpoints that announce XTypes TypeInformation (Fast DDS's default outside ROS 2), so its topics are invisible here"
		}
		out = append(out, finding(desc, "", msg))
	}
	return out
}
