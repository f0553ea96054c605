package doctor

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/simclock/simclock/cdr"
	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
)

// /diagnostics: a report as diagnostic_msgs/msg/DiagnosticArray, so that
// rqt_robot_monitor, Foxglove's diagnostics panel and diagnostic_aggregator
// show the graph's time health beside the rest of the robot, as
// ros-tooling's graph monitor (rosgraph_monitor) shows the graph's.

// The ROS names of what doctor publishes.
const (
	DiagnosticsTopic = "/diagnostics"
	DiagnosticsType  = "diagnostic_msgs/msg/DiagnosticArray"
)

// A Level is a DiagnosticStatus level (diagnostic_msgs/msg/DiagnosticStatus
// OK, WARN, ERROR, STALE).
type Level byte

// The levels.
const (
	LevelOK    Level = 0
	LevelWarn  Level = 1
	LevelError Level = 2
	// LevelStale: no data, or not up to date (a node that left, a report
	// made while discovery goes on).
	LevelStale Level = 3
)

// A KeyValue is a diagnostic_msgs/msg/KeyValue.
type KeyValue struct{ Key, Value string }

// A DiagnosticStatus is a diagnostic_msgs/msg/DiagnosticStatus.
type DiagnosticStatus struct {
	Level      Level
	Name       string
	Message    string
	HardwareID string
	Values     []KeyValue
}

// Diagnostics turns reports into statuses for /diagnostics, one per check
// and one per node, and one for the graph: the same names every time, so
// that an aggregator tracks each. It remembers the nodes of earlier
// reports, to say STALE for a node that left rather than drop it
// silently. Use one per stream of reports; it is not safe for concurrent
// use.
type Diagnostics struct {
	// Prefix starts every status name (as rosgraph_monitor's
	// diagnostic_namespace, "rosgraph"); defaults to "simclock_doctor".
	Prefix string
	// HardwareID is the graph-wide statuses' hardware_id (the graph's
	// statuses; a node's is its participant); defaults to "ros_domain".
	HardwareID string
	// Escape, when set, is applied to every string of every status, as
	// the text report escapes what came from the network (the CLI passes
	// term.Escape): names cannot carry control characters into a
	// monitor.
	Escape func(string) string
	// gone counts, for each node that left, the reports since.
	gone map[string]int
	seen map[string]bool
}

// keepGone is how many reports a node that left stays listed as STALE.
const keepGone = 60

// maxValuesPerStatus bounds the key/values of one status (a check's
// findings are listed one per value).
const maxValuesPerStatus = 32

func (d *Diagnostics) prefix() string {
	if d.Prefix == "" {
		return "simclock_doctor"
	}
	return d.Prefix
}

func (d *Diagnostics) hardwareID() string {
	if d.HardwareID == "" {
		return "ros_domain"
	}
	return d.HardwareID
}

func levelOf(s rules.Severity) Level {
	switch s {
	case rules.Error:
		return LevelError
	case rules.Warning:
		return LevelWarn
	}
	return LevelOK
}

// Statuses returns the statuses of r: "<prefix>/graph" (the summary),
// "<prefix>/checks/<code>" for every check, and "<prefix>/nodes/<node>"
// for every node (and, STALE, for a node of an earlier report that left,
// for a while), each string passed through Escape.
func (d *Diagnostics) Statuses(r Report) []DiagnosticStatus {
	if d.gone == nil {
		d.gone, d.seen = map[string]int{}, map[string]bool{}
	}
	p := d.prefix()
	out := []DiagnosticStatus{d.graphStatus(r)}
	byCode := map[rules.Code][]rules.Finding{}
	byNode := map[string][]rules.Finding{}
	for _, f := range r.Findings {
		byCode[f.Code] = append(byCode[f.Code], f)
		if f.Node != "" {
			byNode[f.Node] = append(byNode[f.Node], f)
		}
	}
	for _, c := range Checks() {
		out = append(out, checkStatus(p+"/checks/"+string(c.Code), d.hardwareID(), c, byCode[c.Code]))
	}
	current := map[string]bool{}
	for _, n := range r.Nodes {
		current[n.Name] = true
		out = append(out, nodeStatus(p, n, r, byNode[n.Name]))
	}
	for name := range d.seen {
		if current[name] {
			delete(d.gone, name)
			continue
		}
		d.gone[name]++
		if d.gone[name] > keepGone {
			delete(d.gone, name)
			delete(d.seen, name)
			continue
		}
		st := DiagnosticStatus{Level: LevelStale, Name: p + "/nodes" + name, HardwareID: d.hardwareID(),
			Message: "no longer in the graph"}
		if fs := byNode[name]; len(fs) > 0 { // a clock writer that stopped is still named
			st.Level, st.Message = worst(fs), fs[0].Message
		}
		st.Values = []KeyValue{{"node", name}}
		out = append(out, st)
	}
	for name := range current {
		d.seen[name] = true
	}
	slices.SortStableFunc(out[1:], func(x, y DiagnosticStatus) int { return cmp.Compare(x.Name, y.Name) })
	if d.Escape != nil {
		for i := range out {
			out[i] = escaped(out[i], d.Escape)
		}
	}
	return out
}

// worst is the level of the most severe of fs.
func worst(fs []rules.Finding) Level {
	l := LevelOK
	for _, f := range fs {
		l = max(l, levelOf(f.Severity))
	}
	return l
}

func (d *Diagnostics) graphStatus(r Report) DiagnosticStatus {
	s := r.Summary
	st := DiagnosticStatus{Name: d.prefix() + "/graph", HardwareID: d.hardwareID(), Level: worst(r.Findings)}
	switch {
	case s.Errors+s.Warnings > 0:
		st.Message = fmt.Sprintf("%d errors, %d warnings", s.Errors, s.Warnings)
	default:
		st.Message = "graph time healthy"
	}
	switch {
	case s.Partial:
		st.Message += "; partial: the audit was cut short"
	case s.Discovering:
		st.Message += "; discovering: the graph is not known in full yet"
	}
	if (s.Discovering || s.Partial) && st.Level == LevelOK {
		st.Level = LevelStale
	}
	st.Values = []KeyValue{
		{"nodes", strconv.Itoa(s.Nodes)}, {"participants", strconv.Itoa(s.Participants)},
		{"topics", strconv.Itoa(s.Topics)}, {"transforms", strconv.Itoa(len(r.Transforms))},
		{"clock_writers", strconv.Itoa(s.ClockWriters)}, {"errors", strconv.Itoa(s.Errors)},
		{"warnings", strconv.Itoa(s.Warnings)}, {"infos", strconv.Itoa(s.Infos)},
		{"discovering", strconv.FormatBool(s.Discovering)}, {"pending", strconv.Itoa(s.Pending)},
		{"elapsed", units.Span(s.Elapsed) + " s"}, {"ok", strconv.FormatBool(s.OK)},
	}
	for _, c := range r.Clock {
		kv := fmt.Sprintf("%s by %s: %.1f Hz", c.Topic, c.Node, c.RateHz)
		if c.RTF != nil {
			kv += fmt.Sprintf(", rtf %.3f", *c.RTF)
		}
		if c.SimTime != "" {
			kv += ", sim time " + c.SimTime
		}
		st.Values = append(st.Values, KeyValue{"clock " + c.GUID, kv})
	}
	return st
}

func checkStatus(name, hw string, c rules.Check, fs []rules.Finding) DiagnosticStatus {
	st := DiagnosticStatus{Name: name, HardwareID: hw, Level: worst(fs), Message: "ok"}
	switch len(fs) {
	case 0:
	case 1:
		st.Message = fs[0].Message
	default:
		st.Message = fmt.Sprintf("%d findings; %s", len(fs), fs[0].Message)
	}
	st.Values = []KeyValue{{"code", string(c.Code)}, {"severity", c.Severity.String()}, {"rules", rules.IDs(c.Rules).String()},
		{"title", c.Title}, {"fix", c.Fix}, {"findings", strconv.Itoa(len(fs))}}
	for i, f := range fs {
		if i == maxValuesPerStatus {
			st.Values = append(st.Values, KeyValue{"more", strconv.Itoa(len(fs) - i)})
			break
		}
		st.Values = append(st.Values, KeyValue{strings.TrimSpace(f.Node + " " + f.Topic), f.Message})
	}
	return st
}

func nodeStatus(prefix string, n NodeReport, r Report, fs []rules.Finding) DiagnosticStatus {
	st := DiagnosticStatus{Name: prefix + "/nodes" + n.Name, HardwareID: n.Participant, Level: worst(fs)}
	switch {
	case len(fs) > 0:
		st.Message = fs[0].Message
		if len(fs) > 1 {
			st.Message = fmt.Sprintf("%d findings; %s", len(fs), st.Message)
		}
	case n.PublishesClock:
		st.Message = "publishes a clock"
	case n.SimTime:
		st.Message = "on sim time (" + n.ClockTopic + ")"
	default:
		st.Message = "on wall time"
	}
	if n.Process != "" {
		st.HardwareID = n.Process
	}
	matched := "-"
	if n.ClockMatched != nil {
		matched = strconv.Itoa(*n.ClockMatched)
	}
	st.Values = []KeyValue{{"node", n.Name}, {"participant", n.Participant}, {"vendor", n.Vendor},
		{"sim_time", strconv.FormatBool(n.SimTime)}, {"clock_topic", n.ClockTopic}, {"clock_qos", n.ClockQoS},
		{"clock_writers_matched", matched}, {"publishes_clock", strconv.FormatBool(n.PublishesClock)},
		{"publishes", strings.Join(n.Publishes, " ")}, {"subscribes", strings.Join(n.Subscribes, " ")}}
	var codes []string
	for _, f := range fs {
		if !slices.Contains(codes, string(f.Code)) {
			codes = append(codes, string(f.Code))
		}
	}
	st.Values = append(st.Values, KeyValue{"findings", strings.Join(codes, " ")})
	for _, t := range r.Topics {
		for _, ps := range t.ByPublisher {
			if ps.Publisher == n.Name && len(st.Values) < maxValuesPerStatus {
				st.Values = append(st.Values, KeyValue{"stamps " + t.Name, fmt.Sprintf("%s (%d samples)", ps.Base, ps.Samples)})
			}
		}
	}
	for _, t := range r.Transforms {
		if t.Publisher == n.Name && len(st.Values) < maxValuesPerStatus {
			v := t.Base
			if t.Lag != nil {
				v += fmt.Sprintf(", lag p50 %s s, p95 %s s", units.Span(t.Lag.P50), units.Span(t.Lag.P95))
			}
			st.Values = append(st.Values, KeyValue{"tf " + t.String(), v})
		}
	}
	return st
}

// escaped passes every string of st through escape.
func escaped(st DiagnosticStatus, escape func(string) string) DiagnosticStatus {
	st.Name, st.Message, st.HardwareID = escape(st.Name), escape(st.Message), escape(st.HardwareID)
	vs := make([]KeyValue, len(st.Values))
	for i, kv := range st.Values {
		vs[i] = KeyValue{escape(kv.Key), escape(kv.Value)}
	}
	st.Values = vs
	return st
}

// EncodeDiagnosticArray serializes a diagnostic_msgs/msg/DiagnosticArray
// (std_msgs/Header header, DiagnosticStatus[] status) as rmw writes it.
// stamp is the header's, in ns.
func EncodeDiagnosticArray(stamp int64, frameID string, statuses []DiagnosticStatus) ([]byte, error) {
	sec, nsec := stamp/1e9, stamp%1e9
	if nsec < 0 {
		sec, nsec = sec-1, nsec+1e9
	}
	if sec < -1<<31 || sec > 1<<31-1 {
		return nil, fmt.Errorf("doctor: diagnostics stamp %s does not fit builtin_interfaces/Time", units.Value(stamp))
	}
	w := cdr.NewWriter(256 * (len(statuses) + 1))
	w.Int32(int32(sec))
	w.Uint32(uint32(nsec))
	w.String(frameID)
	w.Uint32(uint32(len(statuses)))
	for _, st := range statuses {
		w.Uint8(uint8(st.Level))
		w.String(st.Name)
		w.String(st.Message)
		w.String(st.HardwareID)
		w.Uint32(uint32(len(st.Values)))
		for _, kv := range st.Values {
			w.String(kv.Key)
			w.String(kv.Value)
		}
	}
	return w.Bytes(), nil
}

// DiagnosticsStamp is the stamp of a DiagnosticArray made from r at wall
// time now (ns since the epoch): what a node on sim time stamps, the last
// value of /clock, when the graph has one; else the wall clock (a stamp of
// 0 makes diagnostic_aggregator warn).
func DiagnosticsStamp(r Report, now int64) int64 {
	var best *ClockWriter
	for i, c := range r.Clock {
		if c.Topic != "/clock" || c.Left || c.SimNs == nil || c.LastMsg == nil {
			continue
		}
		if best == nil || *c.LastMsg > *best.LastMsg {
			best = &r.Clock[i]
		}
	}
	if best == nil || *best.SimNs == 0 {
		return now
	}
	return *best.SimNs
}
