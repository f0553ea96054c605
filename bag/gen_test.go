package bag

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/foxglove/mcap/go/mcap"

	"github.com/simclock/simclock/cdr"
	"github.com/simclock/simclock/timemsg"
)

// Schemas exactly as rosbag2 (Jazzy) writes them: root text, a line of 80
// '=', "MSG: pkg/Type" and each dependency (interop notes 4.1).
const (
	delim       = "\n================================================================================\n"
	timeMsg     = "MSG: builtin_interfaces/Time\n# comment\nint32 sec\nuint32 nanosec\n"
	clockSchema = "# This message communicates the current time.\nbuiltin_interfaces/Time clock" + delim + timeMsg
	rangeSchema = "std_msgs/Header header\nuint8 ULTRASOUND=0\nuint8 radiation_type\nfloat32 field_of_view\nfloat32 min_range\nfloat32 max_range\nfloat32 range" +
		delim + "MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id" + delim + timeMsg
	rangeType = "sensor_msgs/msg/Range"
)

// qosV9 is an offered_qos_profiles value in metadata version 9 form.
const qosV9 = `- history: keep_last
  depth: 1
  reliability: best_effort
  durability: volatile
  deadline:
    sec: 9223372036
    nsec: 854775807
  lifespan:
    sec: 9223372036
    nsec: 854775807
  liveliness: automatic
  liveliness_lease_duration:
    sec: 9223372036
    nsec: 854775807
  avoid_ros_namespace_conventions: false`

// A genTopic is one channel of a generated bag.
type genTopic struct {
	topic, typ, encoding, schema string
	qos                          string // offered_qos_profiles; qosV9 when empty
}

var (
	clockTopic = genTopic{timemsg.ClockTopic, timemsg.ClockTypeName, "ros2msg", clockSchema, ""}
	rangeTopic = genTopic{"/range", rangeType, "ros2msg", rangeSchema, ""}
)

// A genMsg is one message of a generated bag.
type genMsg struct {
	topic string
	log   int64
	data  []byte
}

func clockMsg(log, v int64) genMsg {
	return genMsg{timemsg.ClockTopic, log, timemsg.MarshalClock(timemsg.Clock{Clock: nsToTime(v)})}
}

func nsToTime(v int64) timemsg.Time {
	return timemsg.Time{Sec: int32(v / 1e9), Nanosec: uint32(v % 1e9)}
}

func rangeMsg(log, stamp int64) genMsg {
	w := cdr.NewWriter(48)
	t := nsToTime(stamp)
	w.Int32(t.Sec)
	w.Uint32(t.Nanosec)
	w.String("sonar")
	w.Uint8(0)
	for range 4 {
		w.Float32(1.5)
	}
	return genMsg{"/range", log, w.Bytes()}
}

// writeBag writes a rosbag2-style MCAP file with the writer options given.
func writeBag(t testing.TB, path string, wo mcap.WriterOptions, topics []genTopic, msgs []genMsg) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := encodeBag(f, wo, topics, msgs); err != nil {
		t.Fatal(err)
	}
}

func encodeBag(f interface{ Write([]byte) (int, error) }, wo mcap.WriterOptions, topics []genTopic, msgs []genMsg) error {
	w, err := mcap.NewWriter(f, &wo)
	if err != nil {
		return err
	}
	if err := w.WriteHeader(&mcap.Header{Profile: "ros2", Library: "simclock bag tests"}); err != nil {
		return err
	}
	ids := map[string]uint16{}
	for i, tp := range topics {
		id := uint16(i + 1)
		if err := w.WriteSchema(&mcap.Schema{ID: id, Name: tp.typ, Encoding: tp.encoding, Data: []byte(tp.schema)}); err != nil {
			return err
		}
		qos := tp.qos
		if qos == "" {
			qos = qosV9
		}
		if err := w.WriteChannel(&mcap.Channel{ID: id, SchemaID: id, Topic: tp.topic, MessageEncoding: "cdr",
			Metadata: map[string]string{"offered_qos_profiles": qos, "topic_type_hash": ""}}); err != nil {
			return err
		}
		ids[tp.topic] = id
	}
	for _, m := range msgs {
		if err := w.WriteMessage(&mcap.Message{ChannelID: ids[m.topic], LogTime: uint64(m.log), PublishTime: uint64(m.log), Data: m.data}); err != nil {
			return err
		}
	}
	if err := w.WriteMetadata(&mcap.Metadata{Name: "rosbag2", Metadata: map[string]string{
		"serialized_metadata": "version: 9\nstorage_identifier: mcap\n"}}); err != nil {
		return err
	}
	return w.Close()
}

// bagBytes encodes a bag in memory. The "noindex" mode drops the
// summary section, as a recorder that crashed before closing would.
func bagBytes(t testing.TB, wo mcap.WriterOptions, topics []genTopic, msgs []genMsg) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := encodeBag(&b, wo, topics, msgs); err != nil {
		t.Fatal(err)
	}
	if wo.SkipMessageIndexing {
		return stripSummary(t, b.Bytes())
	}
	return b.Bytes()
}

// stripSummary keeps the data section up to its DataEnd record and
// appends a footer with no summary.
func stripSummary(t testing.TB, data []byte) []byte {
	t.Helper()
	off := 8
	for off+9 <= len(data) {
		op := mcap.OpCode(data[off])
		n := int(binary.LittleEndian.Uint64(data[off+1:]))
		off += 9 + n
		if op == mcap.OpDataEnd {
			out := append([]byte(nil), data[:off]...)
			out = append(out, byte(mcap.OpFooter), 20, 0, 0, 0, 0, 0, 0, 0)
			out = append(out, make([]byte, 20)...)
			return append(out, mcap.Magic...)
		}
	}
	t.Fatal("no DataEnd record")
	return nil
}

func writeFile(t testing.TB, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "bag_0.mcap")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Writer settings covering the reader's modes.
var writerModes = map[string]mcap.WriterOptions{
	"chunked":   {Chunked: true, ChunkSize: 4096},
	"zstd":      {Chunked: true, ChunkSize: 4096, Compression: mcap.CompressionZSTD},
	"lz4":       {Chunked: true, ChunkSize: 4096, Compression: mcap.CompressionLZ4},
	"unchunked": {Chunked: false},
	"noindex":   {Chunked: true, ChunkSize: 4096, SkipMessageIndexing: true, SkipStatistics: true},
}

const (
	sec  = int64(1e9)
	ms   = int64(1e6)
	wall = int64(1_764_000_000) * sec // log time base: wall clock
)

// simBag generates a sim-time recording: /clock at 100 Hz from start (sim
// ns) with RTF 1, and /range at 10 Hz stamped with the latest clock value,
// n seconds long. Log times are wall time.
func simBag(start int64, n int) []genMsg {
	var out []genMsg
	for i := range n * 100 {
		log := wall + int64(i)*10*ms
		v := start + int64(i)*10*ms
		out = append(out, clockMsg(log, v))
		if i%10 == 5 {
			out = append(out, rangeMsg(log+ms, v))
		}
	}
	return out
}
