package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/foxglove/mcap/go/mcap"

	"github.com/simclock/simclock/cdr"
	"github.com/simclock/simclock/doctor"
	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/timemsg"
)

// hostile is what a stranger's file or graph may hold in a name: an ANSI
// colour, an OSC sequence that sets the terminal's title (ended by BEL),
// a line break and a bidirectional override; hostileEscaped is how
// simclock prints it (term.Escape).
const (
	hostile        = "\x1b[31mred\x1b]0;pwned\x07\n\u202e"
	hostileEscaped = `\x1b[31mred\x1b]0;pwned\a\n\u202e`
)

// checkEscaped fails the test when the text a command printed holds
// anything a terminal would act on (terminalSafe), or holds hostile
// unescaped.
func checkEscaped(t *testing.T, what, text string) {
	t.Helper()
	if bad, ok := terminalSafe(text); !ok || strings.Contains(text, "red\x1b") || strings.Contains(text, "\n\u202e") {
		t.Errorf("%s: the output carries %U or a raw line break from a name:\n%q", what, bad, text)
	}
}

// terminalSafe reports what in text a terminal would act on: a control
// character other than newline, a format character, invalid UTF-8.
func terminalSafe(text string) (bad rune, ok bool) {
	if !utf8.ValidString(text) {
		return utf8.RuneError, false
	}
	for _, r := range text {
		if r != '\n' && r != ' ' && !unicode.IsPrint(r) {
			return r, false
		}
	}
	return 0, true
}

// FuzzDoctorText: whatever the network announces (a ros_discovery_info
// payload decoded from the fuzzer's bytes, topic and type names, a
// participant's process name), doctor's text report holds no control
// character and no line wider than 100 columns.
func FuzzDoctorText(f *testing.F) {
	info := func(ns, name string) []byte {
		return graph.ParticipantEntitiesInfo{GID: graph.GUID{1, 14: 1, 15: 0xc1}, Nodes: []graph.NodeEntitiesInfo{
			{Namespace: ns, Name: name, Writers: []graph.GUID{{1, 15: 2}}, Readers: []graph.GUID{{1, 15: 4}}}}}.MarshalCDR()
	}
	f.Add(info("/", "talker"), "rt/chatter", "std_msgs::msg::dds_::String_", "talker")
	f.Add(info("/evil", "\x1b[31mred\x1b[0m"), "rt/\x1b]0;pwned\x07", "x::msg::dds_::\nY_", "\u202eevil")
	f.Add(info("/"+strings.Repeat("n", 299), strings.Repeat("\x9b", 300)), "rt/"+strings.Repeat("t", 300), "", "\xff")
	f.Add([]byte{0, 1, 0, 0}, "rt/clock", doctor.ClockDDSType, "")
	f.Fuzz(func(t *testing.T, payload []byte, topic, typ, process string) {
		g := graph.New()
		p := graph.GUID{1, 14: 1, 15: 0xc1}
		g.SetParticipant(graph.Participant{GUID: p, Enclave: "/", Process: process, PID: process}, true)
		g.SetEndpoint(graph.Endpoint{GUID: graph.GUID{1, 15: 2}, Kind: graph.Writer, DDSTopic: topic, DDSType: typ,
			QoS: graph.DefaultWriterQoS, Partitions: []string{process}}, true)
		g.SetEndpoint(graph.Endpoint{GUID: graph.GUID{1, 15: 4}, Kind: graph.Reader, DDSTopic: "rt/clock", DDSType: doctor.ClockDDSType,
			QoS: graph.DefaultReaderQoS, Partitions: []string{topic}}, true)
		if pi, err := graph.UnmarshalParticipantEntitiesInfo(payload); err == nil {
			g.SetDiscoveryInfo(pi)
		}
		g.SetParticipant(graph.Participant{GUID: graph.GUID{2, 14: 1, 15: 0xc1}, Process: process, Vendor: typ}, true)
		sim := int64(1000e9)
		last := time.Second
		r := doctor.Analyze(doctor.Observation{Graph: g.Snapshot(), Elapsed: 5 * time.Second, Now: time.Unix(1e9, 0),
			Clock: map[string]doctor.ClockWriter{graph.GUID{1, 15: 2}.String(): {Msgs: 3, SimNs: &sim, SimTime: "1000.000000000",
				LastMsg: &last, Silence: 4 * time.Second, Malformed: 1, Node: process}},
			Network: doctor.Network{CycloneURI: process}})
		var text bytes.Buffer
		writeDoctorText(&text, r, false)
		out := text.String()
		if bad, ok := terminalSafe(out); !ok {
			t.Fatalf("text report carries %U:\n%s", bad, out)
		}
		for line := range strings.SplitSeq(out, "\n") {
			if n := utf8.RuneCountInString(line); n > tableWidth {
				t.Fatalf("%d columns: %q", n, line)
			}
		}
	})
}

// writeHostileBag writes an MCAP recording with /clock and a Header topic
// whose topic, type and recorder library are named with hostile (and
// whose stamps are zero: a finding on that topic).
func writeHostileBag(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := mcap.NewWriter(f, &mcap.WriterOptions{Chunked: true, ChunkSize: 1 << 16})
	if err != nil {
		t.Fatal(err)
	}
	const timeDef = "\n================================================================================\nMSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n"
	steps := []error{
		w.WriteHeader(&mcap.Header{Profile: "ros2", Library: "rosbag2 " + hostile}),
		w.WriteSchema(&mcap.Schema{ID: 1, Name: timemsg.ClockTypeName, Encoding: "ros2msg", Data: []byte("builtin_interfaces/Time clock" + timeDef)}),
		w.WriteChannel(&mcap.Channel{ID: 1, SchemaID: 1, Topic: timemsg.ClockTopic, MessageEncoding: "cdr"}),
		w.WriteSchema(&mcap.Schema{ID: 2, Name: "evil_msgs/msg/Header" + hostile, Encoding: "ros2msg", Data: []byte("builtin_interfaces/Time stamp\nstring frame_id" + timeDef)}),
		w.WriteChannel(&mcap.Channel{ID: 2, SchemaID: 2, Topic: "/imu" + hostile, MessageEncoding: "cdr"}),
	}
	const start = int64(1_700_000_000e9)
	for i := range int64(20) {
		at := start + i*int64(100*time.Millisecond)
		steps = append(steps, w.WriteMessage(&mcap.Message{ChannelID: 1, LogTime: uint64(at), PublishTime: uint64(at),
			Data: timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: int32(at / 1e9), Nanosec: uint32(at % 1e9)}})}))
		h := cdr.NewWriter(32)
		h.Int32(0) // a zero stamp
		h.Uint32(0)
		h.String("frame" + hostile)
		steps = append(steps, w.WriteMessage(&mcap.Message{ChannelID: 2, LogTime: uint64(at + 1), PublishTime: uint64(at + 1), Data: h.Bytes()}))
	}
	steps = append(steps, w.Close())
	for _, err := range steps {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// Names from a recording (its file's path, a topic, a type, the recorder's
// library) reach the terminal escaped in bag inspect's and bag info's text,
// in findings, tables and messages on stderr alike.
func TestBagTextEscapesNames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run"+hostile+"_0.mcap")
	writeHostileBag(t, path)
	for _, args := range [][]string{
		{"bag", "inspect", path},
		{"bag", "inspect", "--wide", path},
		{"bag", "inspect", "--topics", "/none\x1b]0;pwned\x07", path}, // (--topics reads a comma-separated line)
		{"bag", "info", path},
		{"bag", "inspect", path + ".missing"},
	} {
		out, errOut, code := runSimclock(t, args...)
		what := strings.Join(args[:len(args)-1], " ")
		checkEscaped(t, what+" (stdout)", out)
		checkEscaped(t, what+" (stderr)", errOut)
		if strings.HasSuffix(args[len(args)-1], ".missing") {
			if code != ExitUsage || !strings.Contains(errOut, "run"+hostileEscaped+"_0.mcap.missing") {
				t.Errorf("%s: exit %d, stderr %q", what, code, errOut)
			}
			continue
		}
		if args[2] == "--topics" {
			if !strings.Contains(errOut, `--topics /none\x1b]0;pwned\a: the bag has no such topic`) {
				t.Errorf("%s: stderr %q", what, errOut)
			}
			continue
		}
		if !strings.Contains(out, "/imu"+hostileEscaped) || !strings.Contains(out, "run"+hostileEscaped+"_0.mcap") {
			t.Errorf("%s: exit %d, the names are not printed escaped:\n%s%s", what, code, out, errOut)
		}
	}
}

// A name quoted in a finding's message is escaped once, by the text
// writer: a type named with a double quote and an ESC prints as
// "evil"msgs/msg/X\x1b[31m" in text (not "evil\\"msgs/msg/X\\x1b[31m",
// quoted by the message and escaped again), and exactly as read in JSON.
func TestBagMessageQuotesOnce(t *testing.T) {
	const typ, enc = "evil\"msgs/msg/X\x1b[31m", "json\"\x1b"
	path := filepath.Join(t.TempDir(), "quoted.mcap")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := mcap.NewWriter(f, &mcap.WriterOptions{Chunked: true, ChunkSize: 1 << 16})
	if err != nil {
		t.Fatal(err)
	}
	steps := []error{
		w.WriteHeader(&mcap.Header{Profile: "ros2", Library: "rosbag2"}),
		w.WriteSchema(&mcap.Schema{ID: 1, Name: typ, Encoding: "ros2msg", Data: []byte("int32 x\n")}),
		w.WriteChannel(&mcap.Channel{ID: 1, SchemaID: 1, Topic: "/evil", MessageEncoding: enc}),
		w.WriteMessage(&mcap.Message{ChannelID: 1, LogTime: 1_700_000_000e9, PublishTime: 1_700_000_000e9, Data: []byte{0, 1, 0, 0, 1, 0, 0, 0}}),
		w.Close(), f.Close(),
	}
	for _, err := range steps {
		if err != nil {
			t.Fatal(err)
		}
	}
	want := `messages of type "evil"msgs/msg/X\x1b[31m" not analysed: message encoding "json"\x1b" is not cdr`
	out, errOut, _ := runSimclock(t, "bag", "inspect", "--wide", path)
	checkEscaped(t, "bag inspect", out+errOut)
	if !strings.Contains(out, want) {
		t.Errorf("text: want %s in\n%s%s", want, out, errOut)
	}
	out, errOut, _ = runSimclock(t, "bag", "inspect", "--format", "json", path)
	wantJSON := `messages of type "` + typ + `" not analysed: message encoding "` + enc + `" is not cdr`
	found := false
	for line := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
		var v struct{ Kind, Code, Message string }
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if v.Kind == "finding" && v.Code == "unknown_schema" {
			found = true
			if v.Message != wantJSON {
				t.Errorf("json message %q, want %q", v.Message, wantJSON)
			}
		}
	}
	if !found {
		t.Errorf("no unknown_schema finding in\n%s%s", out, errOut)
	}
}
