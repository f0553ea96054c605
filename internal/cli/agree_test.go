package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/foxglove/mcap/go/mcap"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/timemsg"
)

// One /clock stream, seen live by simclock monitor and recorded for
// simclock bag inspect, is described the same way: the same messages,
// values, gaps, pauses, jumps and RTF. The stream is the faulty simulator
// (a pause, a backward jump, dropped messages); the recording holds what
// the monitor received, logged at the times it received them.
func TestMonitorAndBagInspectAgree(t *testing.T) {
	out, errOut, _ := runVirtual(t, []peer{faulty}, 0, "monitor", "--transport", "inproc", "--duration", "3", "--format", "json")
	mon := lastKind(t, out, "summary")
	if mon == nil {
		t.Fatalf("no monitor summary; stderr %q", errOut)
	}

	// The same schedule, recorded: the monitor's executor starts at
	// virtual time 0, so the samples' times are its receive times.
	sch, err := clockstream.NewSchedule(faulty.cfg)
	if err != nil {
		t.Fatal(err)
	}
	src := clockstream.FromSchedule(sch, "bagplay/pub1")
	const logBase = 1_764_000_000 * time.Second // any wall-clock epoch: only differences count
	var msgs []*mcap.Message
	for int64(len(msgs)) < int64(mon["messages"].(float64)) {
		s, err := src.Next(context.Background())
		if err != nil {
			t.Fatalf("the schedule ended after %d messages: %v", len(msgs), err)
		}
		data, err := clockstream.Encode(nil, time.Duration(s.Value))
		if err != nil {
			t.Fatal(err)
		}
		at := uint64(logBase + s.At)
		msgs = append(msgs, &mcap.Message{ChannelID: 1, Sequence: uint32(len(msgs)), LogTime: at, PublishTime: at, Data: data})
	}
	path := filepath.Join(t.TempDir(), "clock.mcap")
	writeClockBag(t, path, msgs)

	out, errOut, _ = runSimclock(t, "bag", "inspect", "--format", "json", path)
	bagClock := lastKind(t, out, "clock")
	if bagClock == nil {
		t.Fatalf("no clock object from bag inspect; stderr %q", errOut)
	}
	for _, k := range []string{"messages", "first_ns", "last_ns", "gaps", "pauses", "backward_jumps", "forward_jumps", "period_ns", "step_ns", "rtf"} {
		if mon[k] != bagClock[k] {
			t.Errorf("%s: monitor %v, bag inspect %v", k, mon[k], bagClock[k])
		}
	}
	if mon["pauses"] != 1.0 || mon["backward_jumps"] != 1.0 {
		t.Errorf("the faulty stream should show 1 pause and 1 backward jump: %v", mon)
	}
}

// lastKind returns the last JSON line of out whose kind is kind.
func lastKind(t *testing.T, out, kind string) map[string]any {
	t.Helper()
	var found map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if m["kind"] == kind {
			found = m
		}
	}
	return found
}

// writeClockBag writes a ROS 2 MCAP file holding /clock messages.
func writeClockBag(t *testing.T, path string, msgs []*mcap.Message) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := mcap.NewWriter(f, &mcap.WriterOptions{Chunked: true, ChunkSize: 1 << 16, Compression: mcap.CompressionZSTD})
	if err != nil {
		t.Fatal(err)
	}
	steps := []error{
		w.WriteHeader(&mcap.Header{Profile: "ros2", Library: "simclock agreement test"}),
		w.WriteSchema(&mcap.Schema{ID: 1, Name: timemsg.ClockTypeName, Encoding: "ros2msg", Data: []byte("builtin_interfaces/Time clock\n")}),
		w.WriteChannel(&mcap.Channel{ID: 1, SchemaID: 1, Topic: timemsg.ClockTopic, MessageEncoding: "cdr"}),
	}
	for _, m := range msgs {
		steps = append(steps, w.WriteMessage(m))
	}
	steps = append(steps, w.Close())
	for _, err := range steps {
		if err != nil {
			t.Fatal(err)
		}
	}
}
