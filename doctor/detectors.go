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
// is an entry in Checks and a detector here (or in its own file, as the
// /clock stream's are in clockchecks.go).
type detector func(a *analysis) []Finding

var detectors = []detector{
	nothingDiscovered,
	nodeNotOnSimTime,
	clockQoSMismatch,
	multipleClockPublishers,
	noClockPublisher,
	clockTopicUnpublished,
	clockStopped,
	clockGaps,
	clockStalls,
	clockBackward,
	clockJumpsForward,
	clockMalformed,
	stampFindings,
	participantsWithoutEndpoints,
	endpointsNotDiscovered,
}

// clockSources names the writers' owners, for messages.
func (a *analysis) clockSources(writers []graph.Endpoint) string {
	var names []string
	for _, w := range writers {
		if s := a.who(w); !slices.Contains(names, s) {
			names = append(names, s)
		}
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// nothingDiscovered: after the discovery grace, no participant but the
// observer: a wrong domain or a discovery setting that does not reach the
// graph, not a healthy graph.
func nothingDiscovered(a *analysis) []Finding {
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
	return []Finding{finding(CodeNothingDiscovered, "", "", fmt.Sprintf(
		"no DDS participant answered on domain %d in %s s: %s", n.Domain, units.Span(a.obs.Elapsed), strings.Join(causes, "; ")))}
}

// nodeNotOnSimTime: in a sim-time graph, a node with no reader of a clock
// topic that does not publish one itself (a simulator, bag play, a
// bridge) and is not hidden (ros2 daemon, tools).
func nodeNotOnSimTime(a *analysis) []Finding {
	if !a.simGraph() {
		return nil
	}
	why := "nodes follow /clock"
	if len(a.clockWriters) > 0 {
		why = "/clock is published by " + a.clockSources(a.clockWriters)
		if t := a.clockTopics(); len(t) > 1 || t[0] != ClockDDSTopic {
			why = "clocks are published (" + a.describeClocks() + ")"
		}
	}
	var out []Finding
	for _, n := range a.snap.Nodes {
		if n.Hidden() {
			continue
		}
		if slices.ContainsFunc(n.Readers, isClockEndpoint) || slices.ContainsFunc(n.Writers, isClockEndpoint) {
			continue
		}
		out = append(out, finding(CodeNodeNotOnSimTime, n.FullName(), "/clock",
			fmt.Sprintf("%s has no /clock reader while %s: it runs on wall time (use_sim_time is false)", n.FullName(), why)))
	}
	return out
}

// describeClocks lists the clock topics with their writers' owners:
// "/clock by /sim, /robot1/clock by /relay".
func (a *analysis) describeClocks() string {
	var parts []string
	for _, t := range a.clockTopics() {
		parts = append(parts, rosTopicOr(t)+" by "+a.clockSources(a.writersOn(t)))
	}
	return strings.Join(parts, ", ")
}

// clockQoSMismatch and clock_partition_mismatch: a reader of a published
// clock topic that matches none of its writers. When partitions alone
// keep it apart, the finding says so (its fix is elsewhere).
func clockQoSMismatch(a *analysis) []Finding {
	var out []Finding
	for _, r := range a.clockReaders {
		writers := a.writersOn(r.DDSTopic)
		if len(writers) == 0 || len(a.snap.Matches(r)) > 0 {
			continue
		}
		topic := rosTopicOr(r.DDSTopic)
		onlyPartitions := true
		var why []string
		for _, w := range writers {
			var parts []string
			if w.DDSType != r.DDSType {
				parts = append(parts, fmt.Sprintf("type %s, reader wants %s", w.DDSType, r.DDSType))
			}
			for _, inc := range graph.Incompatible(w.QoS, r.QoS) {
				parts = append(parts, inc.String())
			}
			if len(parts) > 0 {
				onlyPartitions = false
			}
			if !graph.PartitionsMatch(w.Partitions, r.Partitions) {
				parts = append(parts, fmt.Sprintf("partition: writer in %s, reader in %s",
					graph.PartitionsString(w.Partitions), graph.PartitionsString(r.Partitions)))
			}
			why = append(why, fmt.Sprintf("%s (%s)", a.who(w), strings.Join(parts, "; ")))
		}
		if onlyPartitions {
			out = append(out, finding(CodeClockPartition, a.who(r), topic,
				fmt.Sprintf("the %s reader of %s is in %s and matches no %s writer: %s; it hears no sample, its sim time stays 0",
					topic, a.who(r), graph.PartitionsString(r.Partitions), topic, strings.Join(why, ", "))))
			continue
		}
		out = append(out, finding(CodeClockQoSMismatch, a.who(r), topic,
			fmt.Sprintf("the %s reader of %s (%s) matches no %s writer: %s; its sim time stays 0",
				topic, a.who(r), r.QoS, topic, strings.Join(why, ", "))))
	}
	return out
}

// multipleClockPublishers: more than one writer on one clock topic (R18).
// Per-namespace clocks (/robot1/clock and /robot2/clock) are one writer
// each and not a finding.
func multipleClockPublishers(a *analysis) []Finding {
	var out []Finding
	for _, t := range a.clockTopics() {
		writers := a.writersOn(t)
		if len(writers) < 2 {
			continue
		}
		var names []string
		for _, w := range writers {
			names = append(names, a.who(w))
		}
		out = append(out, finding(CodeMultipleClockPubs, names[0], rosTopicOr(t),
			fmt.Sprintf("%d writers publish %s: %s", len(writers), rosTopicOr(t), strings.Join(names, ", "))))
	}
	return out
}

// noClockPublisher: clock readers and no clock writer at all; one finding
// per node.
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
		topic := rosTopicOr(r.DDSTopic)
		out = append(out, finding(CodeNoClockPublisher, who, topic,
			fmt.Sprintf("%s uses sim time (it reads %s) but nobody publishes a clock: its time stays 0, its ROS timers never fire", who, topic)))
	}
	return out
}

// clockTopicUnpublished: a reader of a clock topic nobody publishes while
// another clock topic is published: a remapping that points the wrong
// way (the node reads /robot1/clock, the simulator publishes /clock).
func clockTopicUnpublished(a *analysis) []Finding {
	if len(a.clockWriters) == 0 {
		return nil // noClockPublisher
	}
	var out []Finding
	seen := map[string]bool{}
	for _, r := range a.clockReaders {
		if len(a.writersOn(r.DDSTopic)) > 0 {
			continue
		}
		who, topic := a.who(r), rosTopicOr(r.DDSTopic)
		if seen[who+"\x00"+topic] {
			continue
		}
		seen[who+"\x00"+topic] = true
		out = append(out, finding(CodeClockTopicUnpublished, who, topic,
			fmt.Sprintf("the time source of %s reads %s, which nobody publishes, while %s: its sim time stays 0, its ROS timers never fire",
				who, topic, a.publishedClocks())))
	}
	return out
}

// publishedClocks says which clock topics are published: "/clock is
// published by /sim/gazebo".
func (a *analysis) publishedClocks() string {
	var parts []string
	for _, t := range a.clockTopics() {
		parts = append(parts, rosTopicOr(t)+" is published by "+a.clockSources(a.writersOn(t)))
	}
	return strings.Join(parts, ", ")
}

// stampFindings: per topic and writer, wall stamps in a sim-time graph,
// zero stamps, and stale or future stamps (not for transient local
// writers, whose latched samples are old by design).
func stampFindings(a *analysis) []Finding {
	var out []Finding
	sim := len(a.clockWriters) > 0
	for _, t := range a.snap.Topics() {
		if t.Topic == "" || isClockTopic(t) {
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
						who, t.Topic, c, n, units.Value(ex.Stamp), units.Value(ex.Ref), a.clockSources(a.clockWriters))))
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
