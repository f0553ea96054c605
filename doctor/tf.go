package doctor

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/simclock/simclock/cdr"
	"github.com/simclock/simclock/transport"
)

// tf: doctor reads /tf and /tf_static (any topic of type
// tf2_msgs/msg/TFMessage, so /robot1/tf too) transform by transform: each
// TransformStamped's header stamp is classified like any stamp, and kept
// per writer and parent→child pair, with the distribution of how far it
// lags /clock. The check_tf_*.go files judge them.

// TFDDSType is tf2_msgs/msg/TFMessage as rmw names it on the wire.
const TFDDSType = "tf2_msgs::msg::dds_::TFMessage_"

const (
	// tfDepth is the queue depth of a tf topic's reader: tf carries many
	// small messages from several writers, and duplicates between writers
	// show only if every writer's messages are read.
	tfDepth = 64
	// lagWindow is how many of a transform's latest lags its distribution
	// is computed over.
	lagWindow = 256
	// maxTransforms bounds the transforms followed (a graph publishing
	// more frame pairs than this has other problems; the rest are
	// counted, not followed).
	maxTransforms = 4096
)

// decodeTF calls fn with the header stamp (nanoseconds), the parent frame
// (header.frame_id) and the child frame of every transform of a
// tf2_msgs/msg/TFMessage payload, in order. It returns the first decoding
// error; transforms before it have been passed to fn.
func decodeTF(data []byte, fn func(stamp int64, parent, child string)) error {
	r, err := cdr.NewReader(data)
	if err != nil {
		return err
	}
	// A TransformStamped is at least a Time, two empty strings and seven
	// doubles: 8 + 4 + 4 + 56 bytes.
	n := r.SequenceLength(72, "transforms")
	for range n {
		sec := r.Int32("header.stamp.sec")
		nsec := r.Uint32("header.stamp.nanosec")
		parent := r.String("header.frame_id")
		child := r.String("child_frame_id")
		r.Align(8)
		r.Bytes(56, "transform")
		if err := r.Err(); err != nil {
			return err
		}
		fn(int64(sec)*1e9+int64(nsec), parent, child)
	}
	return r.Err()
}

// TransformKey names one writer's transform: the writer's GUID and the
// parent→child pair it publishes.
type TransformKey struct {
	Writer, Parent, Child string
}

// TransformStamps is what one writer's stamps of one transform were.
type TransformStamps struct {
	// Topic is the DDS topic it came on (rt/tf, rt/tf_static).
	Topic string
	WriterStamps
	// Lags are the latest lags behind /clock (sim time at the write minus
	// the stamp; negative when ahead) of its stamps on /clock's time base,
	// at most lagWindow, oldest first.
	Lags []int64
	// OldTimeline counts stamps ahead of /clock by more than the tolerance
	// after /clock went back: the writer kept stamping on the timeline
	// from before the jump. OldExample is the first.
	OldTimeline int
	OldExample  OldTimelineStamp
}

// An OldTimelineStamp is a transform stamped on the old timeline after a
// /clock backward jump.
type OldTimelineStamp struct {
	Stamp, Sim int64 // the stamp, and /clock when it was written
	// JumpFrom and JumpTo are the /clock values around the jump, JumpAt
	// when it happened (since the start of the audit).
	JumpFrom, JumpTo int64
	JumpAt           time.Duration
}

// tfStats accumulates one writer's stamps of one transform.
type tfStats struct {
	topic string
	ws    WriterStamps
	lags  [lagWindow]int64
	nlags int // lags held: up to lagWindow
	next  int // where the next lag goes
	old   int
	oldEx OldTimelineStamp
}

func (s *tfStats) addLag(d int64) {
	s.lags[s.next] = d
	s.next = (s.next + 1) % lagWindow
	s.nlags = min(s.nlags+1, lagWindow)
}

// snapshot copies s for a report.
func (s *tfStats) snapshot() *TransformStamps {
	out := &TransformStamps{Topic: s.topic, WriterStamps: s.ws, OldTimeline: s.old, OldExample: s.oldEx}
	start := (s.next - s.nlags + lagWindow) % lagWindow
	for i := range s.nlags {
		out.Lags = append(out.Lags, s.lags[(start+i)%lagWindow])
	}
	return out
}

// A clockJump is a backward jump of a clock topic: when (wall ns since the
// epoch, and since the start of the audit), from and to.
type clockJump struct {
	wall     int64
	at       time.Duration
	from, to int64
}

// LagStats summarise a transform's lags behind /clock.
type LagStats struct {
	// P50, P95 and Max are the median, 95th percentile and largest lag of
	// the latest stamps (Count of them), in ns; negative is ahead of
	// /clock.
	P50   int64 `json:"p50_ns"`
	P95   int64 `json:"p95_ns"`
	Max   int64 `json:"max_ns"`
	Count int   `json:"count"`
}

// lagStats returns the distribution of lags, or nil without any.
func lagStats(lags []int64) *LagStats {
	if len(lags) == 0 {
		return nil
	}
	s := slices.Clone(lags)
	slices.Sort(s)
	q := func(p float64) int64 { return s[int(p*float64(len(s)-1)+0.5)] }
	return &LagStats{P50: q(0.5), P95: q(0.95), Max: s[len(s)-1], Count: len(s)}
}

// TransformReport is one writer's transform.
type TransformReport struct {
	Parent string `json:"parent"`
	Child  string `json:"child"`
	// Topic is the ROS topic: /tf, /tf_static, or a namespaced one.
	Topic string `json:"topic"`
	// Static is true when its writer is transient local, as tf2_ros's
	// StaticTransformBroadcaster's is: tf2 keeps such a transform for
	// all time, whatever its stamp.
	Static    bool   `json:"static"`
	Publisher string `json:"publisher"` // node name, or participant description
	GUID      string `json:"guid"`
	Samples   int    `json:"samples"`
	Sim       int    `json:"sim"`
	Wall      int    `json:"wall"`
	Zero      int    `json:"zero"`
	Stale     int    `json:"stale"`
	Future    int    `json:"future"`
	Base      string `json:"base"`
	// Lag is how far its latest stamps on /clock's time base are behind
	// /clock; null without any.
	Lag *LagStats `json:"lag"`
	// OldTimeline counts stamps on the timeline from before a /clock
	// backward jump.
	OldTimeline int `json:"old_timeline"`

	stamps *TransformStamps
}

// String names a transform by its frames:
// "odom→base_link".
func (t TransformReport) String() string { return fmt.Sprintf("%s→%s", t.Parent, t.Child) }

// transforms lists every transform of a writer in the graph, by topic,
// parent, child and publisher.
func (a *analysis) transformTable() []TransformReport {
	out := []TransformReport{}
	for k, st := range a.obs.Transforms {
		w, ok := a.endpoint(k.Writer)
		if !ok {
			continue // its writer left: it is no longer in anyone's tf
		}
		c := st.Counts
		tr := TransformReport{Parent: k.Parent, Child: k.Child, Topic: rosTopicOr(w.DDSTopic),
			Static: w.QoS.Durability != transport.Volatile, Publisher: a.who(w), GUID: k.Writer, Samples: c.Total(),
			Sim: c[Sim], Wall: c[Wall], Zero: c[Zero], Stale: c[Stale], Future: c[Future], Base: c.Base(),
			OldTimeline: st.OldTimeline, stamps: st}
		if !tr.Static { // a static transform's stamp says nothing of its time
			tr.Lag = lagStats(st.Lags)
		}
		out = append(out, tr)
	}
	slices.SortFunc(out, func(x, y TransformReport) int {
		return cmp.Or(cmp.Compare(x.Topic, y.Topic), cmp.Compare(x.Parent, y.Parent), cmp.Compare(x.Child, y.Child),
			cmp.Compare(x.Publisher, y.Publisher), cmp.Compare(x.GUID, y.GUID))
	})
	return out
}

// isTFType reports whether ddsType is tf2_msgs/msg/TFMessage.
func isTFType(ddsType string) bool { return ddsType == TFDDSType }
