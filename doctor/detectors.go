package doctor

import (
	"slices"
	"strings"

	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/rules"
	"github.com/simclock/simclock/transport"
)

// detectors holds every check of doctor, each registered from its file,
// check_<code>.go: the check's table entry and its detector together, so
// adding a finding is one such file plus its line in docs/rules.md.
var detectors rules.Detectors[*analysis]

// Checks returns every kind of finding doctor reports, by code.
func Checks() []rules.Check { return detectors.Checks() }

// finding is a finding about a node (or participant) and a topic; Run
// fills in its check.
func finding(node, topic, message string) rules.Finding {
	return rules.Finding{Subject: rules.Subject{Node: node, Topic: topic}, Message: message}
}

// clockSources names the clock writers' owners, for messages.
func (a *analysis) clockSources() string { return a.sourcesOf(a.clockWriters) }

// sourcesOf names the owners of writers, sorted, for messages.
func (a *analysis) sourcesOf(writers []graph.Endpoint) string {
	var names []string
	for _, w := range writers {
		if s := a.who(w); !slices.Contains(names, s) {
			names = append(names, s)
		}
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// A stampedWriter is one writer of a stamped topic, with the stamps
// sampled from it.
type stampedWriter struct {
	topic  string // the ROS topic
	writer graph.Endpoint
	who    string // its node, or participant
	stamps *WriterStamps
	// tf is true on a tf topic: its stamps are judged transform by
	// transform (check_tf_*.go), not here.
	tf bool
}

// stampedWriters lists, topic by topic, the writers whose stamps were
// sampled (clock topics aside).
func (a *analysis) stampedWriters() []stampedWriter {
	var out []stampedWriter
	for _, t := range a.snap.Topics() {
		if t.Topic == "" || isClockTopic(t) {
			continue
		}
		for _, w := range t.Writers {
			if ws := a.obs.Stamps[t.DDSTopic][w.GUID.String()]; ws != nil {
				out = append(out, stampedWriter{t.Topic, w, a.who(w), ws, isTFType(w.DDSType)})
			}
		}
	}
	return out
}

// offClockStamps lists, per topic and volatile writer, the stamps of class
// c (ahead of or behind /clock) with a message from describe; a transient
// local writer's latched samples are old by design, and tf topics are
// judged transform by transform (check_tf_*.go).
func (a *analysis) offClockStamps(c StampClass, describe func(s stampedWriter, n int, stamp, ref int64) string) []rules.Finding {
	if len(a.clockWriters) == 0 {
		return nil
	}
	var out []rules.Finding
	for _, s := range a.stampedWriters() {
		if s.tf || s.writer.QoS.Durability != transport.Volatile {
			continue
		}
		if n := s.stamps.Counts[c]; n > 0 {
			ex := s.stamps.Example[c]
			out = append(out, finding(s.who, s.topic, describe(s, n, ex.Stamp, ex.Ref)))
		}
	}
	return out
}

// describeClocks lists the clock topics with their writers' owners:
// "/clock by /sim, /robot1/clock by /relay".
func (a *analysis) describeClocks() string {
	var parts []string
	for _, t := range a.clockTopics() {
		parts = append(parts, rosTopicOr(t)+" by "+a.sourcesOf(a.writersOn(t)))
	}
	return strings.Join(parts, ", ")
}

// publishedClocks says which clock topics are published: "/clock is
// published by /sim/gazebo".
func (a *analysis) publishedClocks() string {
	var parts []string
	for _, t := range a.clockTopics() {
		parts = append(parts, rosTopicOr(t)+" is published by "+a.sourcesOf(a.writersOn(t)))
	}
	return strings.Join(parts, ", ")
}
