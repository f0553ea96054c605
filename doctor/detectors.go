package doctor

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/transport"
)

// A detector finds one kind of problem in the analysis. Adding a finding
// is an entry in Checks and a detector here.
type detector func(a *analysis) []Finding

var detectors = []detector{
	nodeNotOnSimTime,
	clockQoSMismatch,
	multipleClockPublishers,
	noClockPublisher,
	stampFindings,
	participantsWithoutEndpoints,
	endpointsNotDiscovered,
}

// clockSources names the /clock writers' owners, for messages.
func (a *analysis) clockSources() string {
	var names []string
	for _, w := range a.clockWriters {
		if s := a.who(w); !slices.Contains(names, s) {
			names = append(names, s)
		}
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// nodeNotOnSimTime: in a sim-time graph, a node with no /clock reader
// that does not publish /clock itself (a simulator, bag play) and is not
// hidden (ros2 daemon, tools).
func nodeNotOnSimTime(a *analysis) []Finding {
	if !a.simGraph() {
		return nil
	}
	why := "nodes follow /clock"
	if len(a.clockWriters) > 0 {
		why = "/clock is published by " + a.clockSources()
	}
	var out []Finding
	for _, n := range a.snap.Nodes {
		if n.Hidden() {
			continue
		}
		readsClock := slices.ContainsFunc(n.Readers, func(e graph.Endpoint) bool { return e.DDSTopic == ClockDDSTopic })
		writesClock := slices.ContainsFunc(n.Writers, func(e graph.Endpoint) bool { return e.DDSTopic == ClockDDSTopic })
		if readsClock || writesClock {
			continue
		}
		out = append(out, finding(CodeNodeNotOnSimTime, n.FullName(), "/clock",
			fmt.Sprintf("%s has no /clock reader while %s: it runs on wall time (use_sim_time is false)", n.FullName(), why)))
	}
	return out
}

// clockQoSMismatch: a /clock reader that matches none of the writers.
func clockQoSMismatch(a *analysis) []Finding {
	if len(a.clockWriters) == 0 {
		return nil
	}
	var out []Finding
	for _, r := range a.clockReaders {
		if len(a.snap.Matches(r)) > 0 {
			continue
		}
		var why []string
		for _, w := range a.clockWriters {
			var parts []string
			if w.DDSType != r.DDSType {
				parts = append(parts, fmt.Sprintf("type %s, reader wants %s", w.DDSType, r.DDSType))
			}
			for _, inc := range graph.Incompatible(w.QoS, r.QoS) {
				parts = append(parts, inc.String())
			}
			why = append(why, fmt.Sprintf("%s (%s)", a.who(w), strings.Join(parts, "; ")))
		}
		out = append(out, finding(CodeClockQoSMismatch, a.who(r), "/clock",
			fmt.Sprintf("the /clock reader of %s (%s) matches no /clock writer: %s; its sim time stays 0",
				a.who(r), r.QoS, strings.Join(why, ", "))))
	}
	return out
}

// multipleClockPublishers: more than one /clock writer (R18).
func multipleClockPublishers(a *analysis) []Finding {
	if len(a.clockWriters) < 2 {
		return nil
	}
	var names []string
	for _, w := range a.clockWriters {
		names = append(names, a.who(w))
	}
	return []Finding{finding(CodeMultipleClockPubs, names[0], "/clock",
		fmt.Sprintf("%d writers publish /clock: %s", len(a.clockWriters), strings.Join(names, ", ")))}
}

// noClockPublisher: /clock readers and no writer; one finding per node.
func noClockPublisher(a *analysis) []Finding {
	if len(a.clockWriters) > 0 {
		return nil
	}
	var out []Finding
	seen := map[string]bool{}
	for _, r := range a.clockReaders {
		who := a.who(r)
		if seen[who] {
			continue
		}
		seen[who] = true
		out = append(out, finding(CodeNoClockPublisher, who, "/clock",
			fmt.Sprintf("%s uses sim time (it reads /clock) but nobody publishes /clock: its time stays 0, its ROS timers never fire", who)))
	}
	return out
}

// stampFindings: per topic and writer, wall stamps in a sim-time graph,
// zero stamps, and stale or future stamps (not for transient local
// writers, whose latched samples are old by design).
func stampFindings(a *analysis) []Finding {
	var out []Finding
	sim := len(a.clockWriters) > 0
	for _, t := range a.snap.Topics() {
		if t.Topic == "" || t.DDSTopic == ClockDDSTopic {
			continue
		}
		for _, w := range t.Writers {
			ws := a.obs.Stamps[t.DDSTopic][w.GUID.String()]
			if ws == nil {
				continue
			}
			who, n := a.who(w), ws.Counts.Total()
			if c := ws.Counts[Wall]; c > 0 && sim {
				ex := ws.Example[Wall]
				out = append(out, finding(CodeWallStamps, who, t.Topic,
					fmt.Sprintf("%s stamps %s with wall time: %d of %d stamps (e.g. %s, wall clock %s) while /clock from %s is at sim time",
						who, t.Topic, c, n, units.Value(ex.Stamp), units.Value(ex.Ref), a.clockSources())))
			}
			if c := ws.Counts[Zero]; c > 0 {
				out = append(out, finding(CodeZeroStamps, who, t.Topic,
					fmt.Sprintf("%s publishes %s with stamp 0: %d of %d stamps", who, t.Topic, c, n)))
			}
			if w.QoS.Durability != transport.Volatile || !sim {
				continue
			}
			if c := ws.Counts[Stale]; c > 0 {
				ex := ws.Example[Stale]
				out = append(out, finding(CodeStaleStamps, who, t.Topic,
					fmt.Sprintf("%s stamps %s behind /clock: %d of %d stamps (e.g. %s at sim time %s, %s s behind)",
						who, t.Topic, c, n, units.Value(ex.Stamp), units.Value(ex.Ref), units.Span(ex.Ref-ex.Stamp))))
			}
			if c := ws.Counts[Future]; c > 0 {
				ex := ws.Example[Future]
				out = append(out, finding(CodeFutureStamps, who, t.Topic,
					fmt.Sprintf("%s stamps %s ahead of /clock: %d of %d stamps (e.g. %s at sim time %s, %s s ahead)",
						who, t.Topic, c, n, units.Value(ex.Stamp), units.Value(ex.Ref), units.Span(ex.Stamp-ex.Ref))))
			}
		}
	}
	return out
}

// participantsWithoutEndpoints: a participant none of whose endpoints
// this Cyclone DDS accepted; every ROS 2 participant has at least its
// ros_discovery_info reader and writer.
func participantsWithoutEndpoints(a *analysis) []Finding {
	var out []Finding
	for _, p := range a.snap.Participants {
		if slices.ContainsFunc(a.snap.Endpoints, func(e graph.Endpoint) bool { return e.Participant == p.GUID }) {
			continue
		}
		desc := describeParticipant(p, p.GUID)
		msg := desc + " announces no reader or writer that Cyclone DDS accepted"
		if p.Vendor == "eProsima Fast DDS" {
			msg += "; Cyclone DDS 0.10 ignores Fast DDS endpoints that announce XTypes TypeInformation (Fast DDS's default outside ROS 2), so its topics are invisible here"
		}
		out = append(out, finding(CodeParticipantNoEndpoints, desc, "", msg))
	}
	return out
}

// undiscoveredAfter is how long a listed endpoint may stay undiscovered
// before it is reported: endpoint discovery may trail ros_discovery_info.
const undiscoveredAfter = time.Second

// endpointsNotDiscovered: a node announces endpoints that the builtin
// topics never showed.
func endpointsNotDiscovered(a *analysis) []Finding {
	var out []Finding
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
		out = append(out, finding(CodeEndpointsNotDiscovered, n.FullName(), "", msg))
	}
	return out
}
