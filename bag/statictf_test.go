package bag

import (
	"context"
	"strings"
	"testing"

	"github.com/simclock/simclock/cdr"
)

// qosV4TransientLocal is the offered_qos_profiles of a
// StaticTransformBroadcaster as rosbag2 wrote it before metadata version 9
// (rmw enum integers: durability 1 is transient local), as the users'
// recordings of bag/testdata/users-bags.md hold it.
const qosV4TransientLocal = "- history: 3\n  depth: 0\n  reliability: 1\n  durability: 1\n  deadline:\n    sec: 2147483647\n" +
	"    nsec: 4294967295\n  lifespan:\n    sec: 2147483647\n    nsec: 4294967295\n  liveliness: 1\n" +
	"  liveliness_lease_duration:\n    sec: 2147483647\n    nsec: 4294967295\n  avoid_ros_namespace_conventions: false"

// tfMsg is a tf2_msgs/msg/TFMessage on topic with one transform per
// stamp (ns).
func tfMsg(topic string, log int64, stamps ...int64) genMsg {
	w := cdr.NewWriter(128)
	w.Uint32(uint32(len(stamps)))
	for _, s := range stamps {
		t := nsToTime(s)
		w.Int32(t.Sec)
		w.Uint32(t.Nanosec)
		w.String("base_link")
		w.String("laser")
		for range 3 {
			w.Float64(0.5) // translation
		}
		for _, q := range []float64{0, 0, 0, 1} {
			w.Float64(q) // rotation
		}
	}
	return genMsg{topic, log, w.Bytes()}
}

// TestStaticTransformsNotJudged: tf2 keeps a static transform for all
// time, and the recorder receives a latched one whenever it subscribes,
// so a /tf_static stamped hours before the recording, or 0, is no hazard
// (the users' bags of testdata/users-bags.md: 4 h before, and 0 from a
// robot_state_publisher started before /clock). The same stamps on /tf
// are still judged.
func TestStaticTransformsNotJudged(t *testing.T) {
	old := wall - 4*3600*sec
	for _, tc := range []struct{ name, topic, qos string }{
		{"v9 words", "/tf_static", strings.Replace(qosV9, "durability: volatile", "durability: transient_local", 1)},
		{"v4 integers", "/tf_static", qosV4TransientLocal},
		{"no QoS recorded", "/robot1/tf_static", " "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			topics := []genTopic{
				{tc.topic, "tf2_msgs/msg/TFMessage", "unknown", "", tc.qos},
				{"/tf", "tf2_msgs/msg/TFMessage", "unknown", "", ""},
			}
			msgs := []genMsg{tfMsg(tc.topic, wall, old, 0), tfMsg("/tf", wall+sec, old, 0)}
			p := writeFile(t, bagBytes(t, writerModes["chunked"], topics, msgs))
			rep, err := Inspect(context.Background(), []string{p}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			onTF := map[string]bool{}
			for _, f := range rep.Findings {
				switch f.Topic {
				case tc.topic:
					t.Errorf("%s judged: %s %s", tc.topic, f.Code, f.Message)
				case "/tf":
					onTF[string(f.Code)] = true
				}
			}
			if !onTF[string(CodeZeroStamp)] || !onTF[string(CodeTimeBase)] {
				t.Errorf("/tf findings %v, want zero_stamp and time_base_mismatch", onTF)
			}
			for _, tp := range rep.Topics {
				if tp.Topic != tc.topic {
					continue
				}
				if len(tp.TimeFields) != 1 || tp.TimeFields[0].Count != 2 || tp.TimeFields[0].Reference != "none" ||
					tp.TimeFields[0].OtherClock != "static" {
					t.Errorf("%s time fields %+v, want its 2 stamps shown, reference none, other_clock static", tc.topic, tp.TimeFields)
				}
			}
		})
	}
}
