package bag

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/foxglove/mcap/go/mcap"

	"github.com/simclock/simclock/cdr"
	"github.com/simclock/simclock/timemsg"
)

// A pubChannel is one MCAP channel of a written bag: a topic, its type
// and schema text, and its offered_qos_profiles (one entry per publisher,
// as rosbag2 writes them).
type pubChannel struct {
	topic, typ, schema string
	publishers         int
}

// A pubMsg is one message on channel ch (an index into the channels).
type pubMsg struct {
	ch   int
	log  int64
	data []byte
}

// writeChannels writes an MCAP file as rosbag2's plugin does (a schema
// per type, ros2msg, cdr, offered_qos_profiles on the channel), except
// that a topic may have several channels, as MCAP allows and a storage
// keeping publishers apart would write them.
func writeChannels(t *testing.T, path string, chans []pubChannel, msgs []pubMsg) {
	t.Helper()
	var b bytes.Buffer
	w, err := mcap.NewWriter(&b, &mcap.WriterOptions{Chunked: true, ChunkSize: 4096, Compression: mcap.CompressionZSTD})
	if err != nil {
		t.Fatal(err)
	}
	steps := []error{w.WriteHeader(&mcap.Header{Profile: "ros2", Library: "simclock bag tests"})}
	schemas := map[string]uint16{}
	for i, c := range chans {
		id, ok := schemas[c.typ]
		if !ok {
			id = uint16(len(schemas) + 1)
			schemas[c.typ] = id
			steps = append(steps, w.WriteSchema(&mcap.Schema{ID: id, Name: c.typ, Encoding: "ros2msg", Data: []byte(c.schema)}))
		}
		qos := strings.Repeat(qosV9+"\n", c.publishers)
		steps = append(steps, w.WriteChannel(&mcap.Channel{ID: uint16(i + 1), SchemaID: id, Topic: c.topic, MessageEncoding: "cdr",
			Metadata: map[string]string{"offered_qos_profiles": qos, "topic_type_hash": ""}}))
	}
	for _, m := range msgs {
		steps = append(steps, w.WriteMessage(&mcap.Message{ChannelID: uint16(m.ch + 1), LogTime: uint64(m.log), PublishTime: uint64(m.log), Data: m.data}))
	}
	steps = append(steps, w.Close())
	for _, err := range steps {
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// realRosout returns the rcl_interfaces/msg/Log schema and the /rosout
// payloads of talker.mcap, a real recording.
func realRosout(t *testing.T) (schema string, payloads [][]byte) {
	t.Helper()
	f, err := os.Open(filepath.Join(realBags(t), "talker.mcap"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := mcap.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	it, err := r.Messages(mcap.WithTopics([]string{"/rosout"}))
	if err != nil {
		t.Fatal(err)
	}
	for {
		s, _, m, err := it.NextInto(nil)
		if err != nil {
			break
		}
		schema = string(s.Data)
		payloads = append(payloads, slices.Clone(m.Data))
	}
	if len(payloads) == 0 {
		t.Fatal("no /rosout in talker.mcap")
	}
	return schema, payloads
}

// withStamp returns a copy of a CDR payload whose first Time (at the
// start, after the encapsulation header) is v.
func withStamp(data []byte, v int64) []byte {
	out := slices.Clone(data)
	binary.LittleEndian.PutUint32(out[4:], uint32(int32(v/1e9)))
	binary.LittleEndian.PutUint32(out[8:], uint32(v%1e9))
	return out
}

// simClock returns /clock at 100 Hz on channel ch from sim time start, n
// seconds of it, logged from wall.
func simClock(ch int, start int64, n int) []pubMsg {
	var out []pubMsg
	for i := range n * 100 {
		out = append(out, pubMsg{ch, wall + int64(i)*10*ms, timemsg.MarshalClock(timemsg.Clock{Clock: nsToTime(start + int64(i)*10*ms)})})
	}
	return out
}

func byLog(msgs []pubMsg) []pubMsg {
	slices.SortStableFunc(msgs, func(a, b pubMsg) int { return int(a.log - b.log) })
	return msgs
}

// /rosout of a sim-time graph, from two nodes: the real Log messages of
// talker.mcap, stamped by rcutils with the system clock as rcl always
// does (its stamp is 2020's wall time, far from the sim's /clock), the
// two nodes' stamps interleaving. Nothing of it is a hazard: Log.stamp is
// not the graph's clock (no time_base_mismatch, no non_monotonic_stamp,
// no future_stamp); its values are still counted.
func TestRosoutStampIsTheSystemClock(t *testing.T) {
	schema, logs := realRosout(t)
	chans := []pubChannel{{timemsg.ClockTopic, timemsg.ClockTypeName, clockSchema, 1}, {"/rosout", "rcl_interfaces/msg/Log", schema, 2}}
	msgs := simClock(0, 100*sec, 3)
	sys := int64(1585866235112130688) // talker's first stamp
	for i := range 20 {
		// Node a logs at sys + 100 ms × i, node b 30 ms before it, and b's
		// message is received first every other time.
		a, b := sys+int64(i)*100*ms, sys+int64(i)*100*ms-30*ms
		log := wall + int64(i)*100*ms + 5*ms
		first, second := a, b
		if i%2 == 1 {
			first, second = b, a
		}
		msgs = append(msgs, pubMsg{1, log, withStamp(logs[i%len(logs)], first)}, pubMsg{1, log + ms, withStamp(logs[i%len(logs)], second)})
	}
	p := filepath.Join(t.TempDir(), "rosout_0.mcap")
	writeChannels(t, p, chans, byLog(msgs))
	rep, err := Inspect(context.Background(), []string{p}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if f.Topic == "/rosout" {
			t.Errorf("finding on /rosout: %s %s ×%d: %s", f.Code, f.Field, f.Count, f.Message)
		}
	}
	tf := rep.Topics[1].TimeFields[0]
	if rep.Topics[1].Topic != "/rosout" || tf.Field != "stamp" || tf.Count != 40 || tf.OtherClock != "system" || tf.Reference != "none" {
		t.Errorf("/rosout stamp %+v", tf)
	}
}

// timeRefSchema is sensor_msgs/msg/TimeReference as rosbag2 stores it.
const timeRefSchema = "std_msgs/Header header\nbuiltin_interfaces/Time time_ref\nstring source" +
	delim + "MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id" + delim + timeMsg

func timeRefMsg(stamp, ref int64) []byte {
	w := cdr.NewWriter(48)
	s, r := nsToTime(stamp), nsToTime(ref)
	w.Int32(s.Sec)
	w.Uint32(s.Nanosec)
	w.String("gps")
	w.Int32(r.Sec)
	w.Uint32(r.Nanosec)
	w.String("gps")
	return w.Bytes()
}

// A GPS driver's sensor_msgs/TimeReference in a sim-time graph: its
// header.stamp is the graph's clock and is judged like any stamp (a wall
// stamp there is time_base_mismatch), its time_ref is the GPS receiver's
// time, an external clock on purpose, and is not.
func TestTimeReferenceIsAnExternalClock(t *testing.T) {
	chans := []pubChannel{{timemsg.ClockTopic, timemsg.ClockTypeName, clockSchema, 1}, {"/gps/time_reference", "sensor_msgs/msg/TimeReference", timeRefSchema, 1}}
	for _, tc := range []struct {
		name       string
		wallHeader bool
		want       []string
	}{
		{"sim header", false, nil},
		{"wall header", true, []string{"time_base_mismatch header.stamp"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msgs := simClock(0, 100*sec, 3)
			gps := int64(1_400_000_000) * sec
			for i := range 30 {
				log := wall + int64(i)*100*ms + ms
				stamp := 100*sec + int64(i)*100*ms
				if tc.wallHeader {
					stamp = log
				}
				// The receiver's time goes back once: a GPS fix lost and found.
				ref := gps + int64(i)*100*ms
				if i == 20 {
					ref -= 10 * sec
				}
				msgs = append(msgs, pubMsg{1, log, timeRefMsg(stamp, ref)})
			}
			p := filepath.Join(t.TempDir(), "gps_0.mcap")
			writeChannels(t, p, chans, byLog(msgs))
			rep, err := Inspect(context.Background(), []string{p}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range rep.Findings {
				got = append(got, string(f.Code)+" "+f.Field)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("findings %v, want %v", got, tc.want)
			}
			for _, tf := range rep.Topics[1].TimeFields {
				if wantOther := tf.Field == "time_ref"; (tf.OtherClock == "external") != wantOther || tf.Count != 30 {
					t.Errorf("field %+v", tf)
				}
			}
		})
	}
}

// rangeAt is a /range message stamped v.
func rangeAt(v int64) []byte { return rangeMsg(0, v).data }

// Stamps going back on a topic, by how the storage records its
// publishers: per publisher where it keeps them apart (MCAP channels of
// their own), interleaved_stamps (info, no hazard) where several share
// one channel, non_monotonic_stamp where there is one, also across the
// files of a split bag.
func TestNonMonotonicPerPublisher(t *testing.T) {
	// Two sensors, a and b, at 10 Hz, b's stamps 30 ms behind a's, b's
	// message received first every other time; and c at the same times
	// whose stamp goes back once.
	var a, b, c []pubMsg
	for i := range 20 {
		log := wall + int64(i)*100*ms + 5*ms
		sa, sb := 100*sec+int64(i)*100*ms, 100*sec+int64(i)*100*ms-30*ms
		la, lb := log+ms, log
		if i%2 == 1 {
			la, lb = log, log+ms
		}
		a = append(a, pubMsg{0, la, rangeAt(sa)})
		b = append(b, pubMsg{0, lb, rangeAt(sb)})
		sc := sa
		if i == 10 {
			sc -= 500 * ms
		}
		c = append(c, pubMsg{0, log + 2*ms, rangeAt(sc)})
	}
	on := func(ch int, msgs []pubMsg) []pubMsg {
		out := slices.Clone(msgs)
		for i := range out {
			out[i].ch = ch
		}
		return out
	}
	clock := pubChannel{timemsg.ClockTopic, timemsg.ClockTypeName, clockSchema, 1}
	rng := func(pubs int) pubChannel { return pubChannel{"/range", rangeType, rangeSchema, pubs} }
	for _, tc := range []struct {
		name  string
		chans []pubChannel
		msgs  []pubMsg
		want  []string
	}{
		{"two publishers, one channel", []pubChannel{clock, rng(2)}, append(on(1, a), on(1, b)...),
			[]string{"interleaved_stamps ×10"}},
		{"two publishers, a channel each", []pubChannel{clock, rng(1), rng(1)}, append(on(1, a), on(2, b)...), nil},
		{"three publishers, a channel each, one goes back", []pubChannel{clock, rng(1), rng(1), rng(1)},
			append(append(on(1, a), on(2, b)...), on(3, c)...), []string{"non_monotonic_stamp ×1"}},
		{"one publisher goes back", []pubChannel{clock, rng(1)}, on(1, c), []string{"non_monotonic_stamp ×1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "range_0.mcap")
			writeChannels(t, p, tc.chans, byLog(append(simClock(0, 100*sec, 3), tc.msgs...)))
			rep, err := Inspect(context.Background(), []string{p}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range rep.Findings {
				got = append(got, fmt.Sprintf("%s ×%d", f.Code, f.Count))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("findings %v, want %v", got, tc.want)
			}
		})
	}
	t.Run("split bag, one channel a file", func(t *testing.T) {
		dir := t.TempDir()
		all := byLog(append(simClock(0, 100*sec, 3), on(1, c)...))
		half := len(all) / 2
		// c goes back at its 11th message: put the file boundary just before it.
		for i, m := range all {
			if m.ch == 1 && bytes.Equal(m.data, c[10].data) {
				half = i
			}
		}
		chans := []pubChannel{clock, rng(1)}
		writeChannels(t, filepath.Join(dir, "range_0.mcap"), chans, all[:half])
		writeChannels(t, filepath.Join(dir, "range_1.mcap"), chans, all[half:])
		rep, err := Inspect(context.Background(), []string{filepath.Join(dir, "range_0.mcap"), filepath.Join(dir, "range_1.mcap")}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if f := findingOf(rep, CodeNonMonotonic); f == nil || f.Count != 1 {
			t.Errorf("non_monotonic_stamp across the files: %+v", f)
		}
	})
}
