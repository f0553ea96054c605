package doctor

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/rules"
)

// The DDS names of /clock (timemsg.ClockTopic, timemsg.ClockTypeName) as
// rmw writes them on the wire: doctor watches a graph at the DDS level.
// A node's time source is its reader of any topic of type ClockDDSType,
// whatever the topic: /clock, or /robot1/clock after
// --ros-args -r /clock:=/robot1/clock.
const (
	ClockDDSTopic = "rt/clock"
	ClockDDSType  = "rosgraph_msgs::msg::dds_::Clock_"
)

// A Report is what doctor found. Every slice is sorted, so two reports of
// the same graph print the same.
type Report struct {
	Nodes []NodeReport `json:"nodes"`
	// Participants lists the DDS participants that host no ROS node.
	Participants []ParticipantReport `json:"participants"`
	Clock        []ClockWriter       `json:"clock"`
	Topics       []TopicReport       `json:"topics"`
	// Transforms lists, per writer, every parent→child transform seen on
	// a tf topic (tf2_msgs/msg/TFMessage: /tf, /tf_static).
	Transforms []TransformReport `json:"transforms"`
	// Expectations says, for each expectation (Options.Expect), whether
	// it held: one result when it did, one per node, topic or writer that
	// failed it (each also a finding).
	Expectations []ExpectationResult `json:"expectations"`
	Findings     []rules.Finding     `json:"findings"`
	Summary      Summary             `json:"summary"`
}

// NodeReport is one ROS node.
type NodeReport struct {
	Name        string `json:"name"` // "/ns/name"
	Namespace   string `json:"namespace"`
	Participant string `json:"participant"`
	Vendor      string `json:"vendor,omitempty"`
	Process     string `json:"process,omitempty"`
	// SimTime is true when the node has a time source: a reader of a
	// topic of type rosgraph_msgs/msg/Clock, which rclcpp, rclpy and
	// rclnodejs create only with use_sim_time on.
	SimTime bool `json:"sim_time"`
	// ClockTopic is the topic its time source reads: /clock, or a
	// remapped one (/robot1/clock); empty without one.
	ClockTopic string `json:"clock_topic,omitempty"`
	// ClockQoS is the QoS of that reader, and its DDS partitions when it
	// has some; empty without one.
	ClockQoS string `json:"clock_qos,omitempty"`
	// ClockMatched is how many writers of its clock topic that reader
	// matches under the DDS rules (QoS, type, partitions); null without a
	// reader.
	ClockMatched *int `json:"clock_writers_matched"`
	// PublishesClock is true when the node writes a clock topic (a
	// simulator, a bag player, a bridge or relay of /clock).
	PublishesClock bool     `json:"publishes_clock"`
	Publishes      []string `json:"publishes"`
	Subscribes     []string `json:"subscribes"`
}

// ParticipantReport is one DDS participant hosting no ROS node.
type ParticipantReport struct {
	GUID      string `json:"guid"`
	Vendor    string `json:"vendor,omitempty"`
	Process   string `json:"process,omitempty"`
	PID       string `json:"pid,omitempty"`
	ROS       bool   `json:"ros"` // announces an enclave or ros_discovery_info
	Endpoints int    `json:"endpoints"`
}

// TopicReport is one ROS topic (other than the clock topics, reported as
// Clock).
type TopicReport struct {
	Name        string   `json:"name"`
	Type        string   `json:"type"`
	Publishers  []string `json:"publishers"`
	Subscribers []string `json:"subscribers"`
	// StampBase is "sim", "wall", "zero", "mixed", "unknown" (type not
	// known, or no sample yet), "none" (the type has no stamp) or
	// "ignored" (Options.IgnoreStamps).
	StampBase   string            `json:"stamp_base"`
	Samples     int               `json:"samples"`
	ByPublisher []PublisherStamps `json:"by_publisher,omitempty"`
}

// PublisherStamps is what one writer's stamps were.
type PublisherStamps struct {
	Publisher string `json:"publisher"` // node name, or participant description
	GUID      string `json:"guid"`
	Samples   int    `json:"samples"`
	Sim       int    `json:"sim"`
	Wall      int    `json:"wall"`
	Zero      int    `json:"zero"`
	Stale     int    `json:"stale"`
	Future    int    `json:"future"`
	Base      string `json:"base"`
	// Malformed counts samples that did not decode with the type's
	// definition.
	Malformed int `json:"malformed,omitempty"`
}

// Summary counts what the report holds.
type Summary struct {
	Elapsed      time.Duration `json:"elapsed_ns"`
	Nodes        int           `json:"nodes"`
	Participants int           `json:"participants"`
	Topics       int           `json:"topics"`
	ClockWriters int           `json:"clock_writers"`
	Errors       int           `json:"errors"`
	Warnings     int           `json:"warnings"`
	Infos        int           `json:"infos"`
	// Discovering is true while discovery has not finished: ROS
	// participants whose ros_discovery_info has not arrived (Pending of
	// them; their nodes are missing), or an empty graph younger than the
	// discovery grace. The report is then incomplete and not OK.
	Discovering bool `json:"discovering"`
	Pending     int  `json:"pending"`
	// Partial is true when the audit was cut short (interrupted): what it
	// covers is incomplete, and not OK.
	Partial bool `json:"partial"`
	// OK is false when a finding fails the run (Observation.FailOn: by
	// default a warning or an error), and while the report is incomplete
	// (Discovering or Partial).
	OK bool `json:"ok"`
}

// MarkPartial marks r as the report of an audit cut short: it is never
// OK.
func (r *Report) MarkPartial() {
	r.Summary.Partial = true
	r.Summary.OK = false
}

// Observation is everything a Report is computed from.
type Observation struct {
	Graph graph.Snapshot
	// Self is the observer's own participant, left out of the report.
	Self    graph.GUID
	Elapsed time.Duration
	// Now is when the observation was taken.
	Now time.Time
	// DiscoveryGrace is how long a graph may stay empty before that is a
	// finding; 0 means at once.
	DiscoveryGrace time.Duration
	// Network is how the observer joined the domain.
	Network Network
	// Clock has the measurements of each writer of a clock topic, by GUID
	// string, including writers that have left the graph (their Node
	// says who they were).
	Clock map[string]ClockWriter
	// Stamps has the classified stamps by DDS topic, then writer GUID.
	Stamps map[string]map[string]*WriterStamps
	// FailOn says which findings make Summary.OK false.
	FailOn rules.FailOn
	// Schemas says, by DDS topic, whether its type carries a stamp:
	// BaseNone, BaseUnknown (no definition), "ignored", or "" (stamped).
	Schemas map[string]string
	// Transforms has the stamps of every transform seen on a tf topic, by
	// writer and parent→child pair.
	Transforms map[TransformKey]*TransformStamps
	// Tolerance is how far a stamp may be from /clock and still be on
	// time (Options.Tolerance); 0 means the default, 1 s.
	Tolerance time.Duration
	// Expect are what the graph must show (Options.Expect).
	Expect []Expectation
}

// WriterStamps accumulates one writer's classified stamps on one topic.
type WriterStamps struct {
	Counts    StampCounts
	Malformed int
	// Example holds, per class, the first stamp seen and the reference it
	// was compared with (sim time, or wall time for Wall), in ns.
	Example [numClasses]struct{ Stamp, Ref int64 }
}

// add counts one classified stamp.
func (w *WriterStamps) add(c StampClass, stamp, ref int64) {
	if w.Counts[c] == 0 {
		w.Example[c].Stamp, w.Example[c].Ref = stamp, ref
	}
	w.Counts[c]++
}

// Analyze builds the report of obs: the tables, and the findings of every
// check (the check_*.go files), most severe first, then by code and node.
func Analyze(obs Observation) Report {
	a := newAnalysis(obs)
	var r Report
	r.Nodes = a.nodes()
	r.Participants = a.participants()
	r.Clock = a.clockRows
	r.Topics = a.topics()
	r.Transforms = a.tf
	r.Expectations = a.expects
	r.Findings = detectors.Run(a)
	rules.Sort(r.Findings)
	r.Summary = Summary{Elapsed: obs.Elapsed, Nodes: len(r.Nodes), Participants: len(r.Participants),
		Topics: len(r.Topics), ClockWriters: len(r.Clock), Pending: pending(a.snap, obs.Self),
		Errors: rules.Count(r.Findings, rules.Error), Warnings: rules.Count(r.Findings, rules.Warning),
		Infos: rules.Count(r.Findings, rules.Info)}
	r.Summary.Discovering = r.Summary.Pending > 0 || a.empty() && obs.Elapsed < obs.DiscoveryGrace
	r.Summary.OK = !rules.Fails(r.Findings, obs.FailOn) && !r.Summary.Discovering
	return r
}

// analysis is the observation with the observer left out, and indexes.
type analysis struct {
	obs  Observation
	snap graph.Snapshot
	// clockWriters and clockReaders are the endpoints of every clock
	// topic (type rosgraph_msgs/msg/Clock, or the DDS topic rt/clock).
	clockWriters []graph.Endpoint
	clockReaders []graph.Endpoint
	// clockRows is the clock table: each writer's measurements.
	clockRows []ClockWriter
	// endpoints indexes the endpoints by GUID string.
	endpoints map[string]graph.Endpoint
	// tf is the transform table.
	tf []TransformReport
	// expects is what became of each expectation.
	expects []ExpectationResult
}

func newAnalysis(obs Observation) *analysis {
	a := &analysis{obs: obs, endpoints: map[string]graph.Endpoint{}}
	if a.obs.Tolerance <= 0 {
		a.obs.Tolerance = time.Second
	}
	s := obs.Graph
	a.snap.Participants = slices.DeleteFunc(slices.Clone(s.Participants), func(p graph.Participant) bool { return p.GUID == obs.Self })
	a.snap.Nodes = slices.DeleteFunc(slices.Clone(s.Nodes), func(n graph.Node) bool { return n.Participant == obs.Self })
	a.snap.Endpoints = slices.DeleteFunc(slices.Clone(s.Endpoints), func(e graph.Endpoint) bool { return e.Participant == obs.Self })
	for _, e := range a.snap.Endpoints {
		a.endpoints[e.GUID.String()] = e
		if !isClockEndpoint(e) {
			continue
		}
		if e.Kind == graph.Writer {
			a.clockWriters = append(a.clockWriters, e)
		} else {
			a.clockReaders = append(a.clockReaders, e)
		}
	}
	a.clockRows = a.clockTable()
	a.tf = a.transformTable()
	a.expects = a.expectations()
	return a
}

// endpoint returns the endpoint of GUID string id.
func (a *analysis) endpoint(id string) (graph.Endpoint, bool) {
	e, ok := a.endpoints[id]
	return e, ok
}

// isClockEndpoint reports whether e reads or writes clock values: its
// type is rosgraph_msgs/msg/Clock, whatever its topic, or its topic is
// /clock, whatever its type.
func isClockEndpoint(e graph.Endpoint) bool {
	return e.DDSType == ClockDDSType || e.DDSTopic == ClockDDSTopic
}

// empty reports whether nothing but the observer was discovered.
func (a *analysis) empty() bool { return len(a.snap.Participants) == 0 }

// writersOn returns the clock writers on DDS topic topic.
func (a *analysis) writersOn(topic string) []graph.Endpoint {
	var out []graph.Endpoint
	for _, w := range a.clockWriters {
		if w.DDSTopic == topic {
			out = append(out, w)
		}
	}
	return out
}

// clockTopics returns the DDS clock topics with a writer, sorted.
func (a *analysis) clockTopics() []string {
	var out []string
	for _, w := range a.clockWriters {
		if !slices.Contains(out, w.DDSTopic) {
			out = append(out, w.DDSTopic)
		}
	}
	slices.Sort(out)
	return out
}

// rosTopicOr returns the ROS name of a DDS topic, or the DDS name for a
// topic outside ROS's conventions.
func rosTopicOr(ddsTopic string) string {
	if t := graph.ROSTopic(ddsTopic); t != "" {
		return t
	}
	return ddsTopic
}

// describeEndpoint names an endpoint's owner in snapshot s: its node, or
// its participant.
func describeEndpoint(s graph.Snapshot, e graph.Endpoint) string {
	if e.Node != "" {
		return e.Node
	}
	p, _ := s.Participant(e.Participant)
	return describeParticipant(p, e.Participant)
}

// who names an endpoint's owner: its node, or its participant.
func (a *analysis) who(e graph.Endpoint) string { return describeEndpoint(a.snap, e) }

func describeParticipant(p graph.Participant, id graph.GUID) string {
	var extra []string
	if p.Process != "" {
		extra = append(extra, p.Process)
	}
	if p.PID != "" {
		extra = append(extra, "pid "+p.PID)
	}
	if p.Vendor != "" && len(extra) == 0 {
		extra = append(extra, p.Vendor)
	}
	s := "participant " + id.String()
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, ", ") + ")"
	}
	return s
}

// simGraph reports whether the graph runs on sim time: someone publishes
// a clock topic, or a node reads one.
func (a *analysis) simGraph() bool { return len(a.clockWriters) > 0 || len(a.clockReaders) > 0 }

func (a *analysis) nodes() []NodeReport {
	out := []NodeReport{}
	for _, n := range a.snap.Nodes {
		p, _ := a.snap.Participant(n.Participant)
		nr := NodeReport{Name: n.FullName(), Namespace: n.Namespace, Participant: n.Participant.String(),
			Vendor: p.Vendor, Process: p.Process, Publishes: []string{}, Subscribes: []string{}}
		for _, r := range clockReaderFirst(n.Readers) {
			if isClockEndpoint(r) && !nr.SimTime {
				nr.SimTime = true
				nr.ClockTopic = rosTopicOr(r.DDSTopic)
				nr.ClockQoS = r.QoS.String()
				if len(r.Partitions) > 0 {
					nr.ClockQoS += " " + graph.PartitionsString(r.Partitions)
				}
				m := len(a.snap.Matches(r))
				nr.ClockMatched = &m
			}
			if r.Topic != "" && !slices.Contains(nr.Subscribes, r.Topic) {
				nr.Subscribes = append(nr.Subscribes, r.Topic)
			}
		}
		for _, w := range n.Writers {
			nr.PublishesClock = nr.PublishesClock || isClockEndpoint(w)
			if w.Topic != "" && !slices.Contains(nr.Publishes, w.Topic) {
				nr.Publishes = append(nr.Publishes, w.Topic)
			}
		}
		slices.Sort(nr.Publishes)
		slices.Sort(nr.Subscribes)
		out = append(out, nr)
	}
	return out
}

// clockReaderFirst orders a node's readers so that a /clock reader comes
// before readers of other clock topics: a node reading both (a relay) has
// /clock as its time source.
func clockReaderFirst(rs []graph.Endpoint) []graph.Endpoint {
	out := slices.Clone(rs)
	slices.SortStableFunc(out, func(x, y graph.Endpoint) int {
		return cmp.Compare(b2i(x.DDSTopic != ClockDDSTopic), b2i(y.DDSTopic != ClockDDSTopic))
	})
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (a *analysis) participants() []ParticipantReport {
	out := []ParticipantReport{}
	for _, p := range a.snap.Participants {
		if len(p.Nodes) > 0 {
			continue
		}
		n := 0
		for _, e := range a.snap.Endpoints {
			if e.Participant == p.GUID {
				n++
			}
		}
		out = append(out, ParticipantReport{GUID: p.GUID.String(), Vendor: p.Vendor, Process: p.Process,
			PID: p.PID, ROS: p.IsROS(), Endpoints: n})
	}
	return out
}

// clockTable lists every clock writer in the graph, and those that sent
// messages and have left it since (Left), by topic then owner.
func (a *analysis) clockTable() []ClockWriter {
	out := []ClockWriter{}
	seen := map[string]bool{}
	for _, w := range a.clockWriters {
		cw, ok := a.obs.Clock[w.GUID.String()]
		if !ok {
			cw = ClockWriter{GUID: w.GUID.String()}
		}
		cw.Node = a.who(w)
		cw.Topic = rosTopicOr(w.DDSTopic)
		cw.QoS = w.QoS.String()
		if len(w.Partitions) > 0 {
			cw.QoS += " " + graph.PartitionsString(w.Partitions)
		}
		seen[cw.GUID] = true
		out = append(out, cw)
	}
	for guid, cw := range a.obs.Clock {
		if seen[guid] || cw.Msgs == 0 {
			continue
		}
		cw.GUID, cw.Left = guid, true
		if cw.Node == "" {
			cw.Node = "writer " + guid
		}
		out = append(out, cw)
	}
	slices.SortFunc(out, func(x, y ClockWriter) int {
		return cmp.Or(cmp.Compare(x.Topic, y.Topic), cmp.Compare(x.Node, y.Node), cmp.Compare(x.GUID, y.GUID))
	})
	return out
}

func (a *analysis) topics() []TopicReport {
	out := []TopicReport{}
	for _, t := range a.snap.Topics() {
		if t.Topic == "" || isClockTopic(t) {
			continue
		}
		tr := TopicReport{Name: t.Topic, Type: strings.Join(t.Types, ","), Publishers: []string{}, Subscribers: []string{}}
		for _, w := range t.Writers {
			if s := a.who(w); !slices.Contains(tr.Publishers, s) {
				tr.Publishers = append(tr.Publishers, s)
			}
		}
		for _, r := range t.Readers {
			if s := a.who(r); !slices.Contains(tr.Subscribers, s) {
				tr.Subscribers = append(tr.Subscribers, s)
			}
		}
		slices.Sort(tr.Publishers)
		slices.Sort(tr.Subscribers)
		var all StampCounts
		for _, w := range t.Writers {
			ws := a.obs.Stamps[t.DDSTopic][w.GUID.String()]
			if ws == nil {
				continue
			}
			ps := PublisherStamps{Publisher: a.who(w), GUID: w.GUID.String(), Samples: ws.Counts.Total(),
				Sim: ws.Counts[Sim], Wall: ws.Counts[Wall], Zero: ws.Counts[Zero], Stale: ws.Counts[Stale],
				Future: ws.Counts[Future], Base: ws.Counts.Base(), Malformed: ws.Malformed}
			for i, c := range ws.Counts {
				all[i] += c
			}
			tr.ByPublisher = append(tr.ByPublisher, ps)
		}
		slices.SortFunc(tr.ByPublisher, func(x, y PublisherStamps) int {
			return cmp.Or(cmp.Compare(x.Publisher, y.Publisher), cmp.Compare(x.GUID, y.GUID))
		})
		tr.Samples = all.Total()
		switch base, known := a.obs.Schemas[t.DDSTopic]; {
		case known && base != "":
			tr.StampBase = base
		default:
			tr.StampBase = all.Base()
		}
		out = append(out, tr)
	}
	return out
}
