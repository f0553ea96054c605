package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/foxglove/mcap/go/mcap"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
)

// One /clock stream, seen live by simclock monitor and recorded for
// simclock bag inspect, is described the same way: the same messages,
// values, gaps, pauses, jumps and RTF. The stream is the faulty simulator
// (a pause, a backward jump, dropped messages); the recording holds what
// the monitor received, logged at the times it received them.
func TestMonitorAndBagInspectAgree(t *testing.T) {
	mon, bagClock := monitorAndBag(t, faulty)
	if mon["pauses"] != 1.0 || mon["backward_jumps"] != 1.0 {
		t.Errorf("the faulty stream should show 1 pause and 1 backward jump: %v", mon)
	}
	if bagClock["rtf"] == nil {
		t.Errorf("one publisher, no RTF: %v", bagClock)
	}
}

// Two /clock publishers interleaved (a simulator at 2× real time from
// 1.7e9 s and a second at real time from 0, a second late): the monitor
// knows each message's publisher, the recording does not (rosbag2 stores
// none), yet bag inspect finds the same two streams in the values: no
// RTF of the whole, and each timeline the messages, RTF and last value
// of the monitor's publisher.
func TestMonitorAndBagInspectAgreeOnTwoPublishers(t *testing.T) {
	mon, bagClock := monitorAndBag(t, steady, late)
	if mon["rtf"] != nil || bagClock["rtf"] != nil || bagClock["rtf_min"] != nil || bagClock["rtf_max"] != nil {
		t.Errorf("an RTF of two interleaved clocks: monitor %v, bag %v %v %v", mon["rtf"], bagClock["rtf"], bagClock["rtf_min"], bagClock["rtf_max"])
	}
	pubs, _ := mon["publishers"].([]any)
	lines, _ := bagClock["timelines"].([]any)
	if len(pubs) != 2 || len(lines) != 2 {
		t.Fatalf("monitor publishers %v, bag timelines %v", pubs, lines)
	}
	for _, p := range pubs {
		p := p.(map[string]any)
		var match map[string]any
		for _, l := range lines {
			if l := l.(map[string]any); l["value_ns"] == p["value_ns"] {
				match = l
			}
		}
		if match == nil {
			t.Errorf("publisher %v: no timeline ends on its last value (%v)", p, lines)
			continue
		}
		// The monitor's rate runs to the end of its watch, the bag's to its
		// last message: they differ by that last interval.
		if match["messages"] != p["messages"] || match["rtf"] != p["rtf"] ||
			math.Abs(match["rate_hz"].(float64)/p["rate_hz"].(float64)-1) > 0.01 {
			t.Errorf("publisher %v, timeline %v", p, match)
		}
	}
}

// monitorAndBag runs simclock monitor for 3 s of virtual time beside the
// peers, records what it received as a bag (each message logged at its
// receive time, on one channel with no publisher), runs bag inspect on it
// and returns both JSON summaries of /clock, after checking that the
// counts of the stream agree.
func monitorAndBag(t *testing.T, peers ...peer) (mon, bagClock map[string]any) {
	t.Helper()
	out, errOut, _ := virtualRun(t, peers, 0).run("monitor", "--transport", "inproc", "--duration", "3", "--format", "json")
	mon = lastKind(t, out, "summary")
	if mon == nil {
		t.Fatalf("no monitor summary; stderr %q", errOut)
	}

	// The same schedules, recorded: the monitor's executor starts at
	// virtual time 0, so the samples' times are its receive times.
	var samples []clockstream.Sample
	for i, p := range peers {
		sch, err := clockstream.NewSchedule(p.cfg)
		if err != nil {
			t.Fatal(err)
		}
		src := clockstream.FromSchedule(sch, transport.PublisherID(strconv.Itoa(i)))
		for n := 0; n < int(mon["messages"].(float64)); n++ {
			s, err := src.Next(context.Background())
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			samples = append(samples, s)
		}
	}
	slices.SortStableFunc(samples, func(a, b clockstream.Sample) int { return cmp.Compare(a.At, b.At) })
	samples = samples[:int(mon["messages"].(float64))]
	const logBase = 1_764_000_000 * time.Second // any wall-clock epoch: only differences count
	var msgs []*mcap.Message
	for _, s := range samples {
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
	bagClock = lastKind(t, out, "clock")
	if bagClock == nil {
		t.Fatalf("no clock object from bag inspect; stderr %q", errOut)
	}
	for _, k := range []string{"messages", "first_ns", "last_ns", "gaps", "pauses", "backward_jumps", "forward_jumps", "period_ns", "step_ns", "rtf"} {
		if mon[k] != bagClock[k] {
			t.Errorf("%s: monitor %v, bag inspect %v", k, mon[k], bagClock[k])
		}
	}
	return mon, bagClock
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
