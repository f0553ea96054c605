package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/simclock/simclock/doctor"
	"github.com/simclock/simclock/graph"
)

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
