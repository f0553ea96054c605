package bag

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/simclock/simclock/clockstream"
)

// interleavedClock returns the /clock messages of several simulators
// publishing at once, merged in log-time order from wall, as a recorder
// subscribed to all of them logs them (one channel: rosbag2 records no
// publisher per message).
func interleavedClock(t *testing.T, until time.Duration, cfgs ...clockstream.ScheduleConfig) []genMsg {
	t.Helper()
	type at struct {
		log, v int64
		pub    int
	}
	var all []at
	for i, cfg := range cfgs {
		sch, err := clockstream.NewSchedule(cfg)
		if err != nil {
			t.Fatal(err)
		}
		src := clockstream.FromSchedule(sch, "")
		for {
			s, err := src.Next(context.Background())
			if errors.Is(err, io.EOF) || err == nil && s.At > until {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, at{wall + int64(s.At), s.Value, i})
		}
	}
	slices.SortStableFunc(all, func(a, b at) int { return cmp.Or(cmp.Compare(a.log, b.log), cmp.Compare(a.pub, b.pub)) })
	msgs := make([]genMsg, len(all))
	for i, m := range all {
		msgs[i] = clockMsg(m.log, m.v)
	}
	return msgs
}

// Two /clock publishers interleaved in a recording (a simulator at 2×
// real time from 1.7e9 s, and a second at real time from 0 starting a
// second later) are clock_publishers, each timeline with its own rate and
// RTF, and no RTF of the whole is given anywhere: JSON, text, plot.
func TestInspectInterleavedClock(t *testing.T) {
	msgs := interleavedClock(t, 3*time.Second,
		clockstream.ScheduleConfig{Start: 1_700_000_000 * time.Second, Period: 10 * time.Millisecond, Step: 20 * time.Millisecond},
		clockstream.ScheduleConfig{Period: 20 * time.Millisecond, Step: 20 * time.Millisecond, PreClock: time.Second})
	p := writeFile(t, bagBytes(t, writerModes["zstd"], []genTopic{clockTopic}, msgs))
	rep, err := Inspect(context.Background(), []string{p}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Clock
	if c.RTF != nil || c.RTFMin != nil || c.RTFMax != nil {
		t.Errorf("an RTF of the whole: %v %v %v", c.RTF, c.RTFMin, c.RTFMax)
	}
	if len(c.Timelines) != 2 {
		t.Fatalf("timelines %+v, want 2", c.Timelines)
	}
	for i, want := range []struct {
		msgs int
		rtf  float64
		last int64
	}{{301, 2, 1_700_000_006 * sec}, {101, 1, 2 * sec}} {
		tl := c.Timelines[i]
		if tl.Messages != want.msgs || tl.RTF == nil || math.Abs(*tl.RTF-want.rtf) > 1e-9 || tl.Value != want.last {
			t.Errorf("timeline %d: %d messages, RTF %v, last %d; want %d, %v, %d", i+1, tl.Messages, f64(tl.RTF), tl.Value, want.msgs, want.rtf, want.last)
		}
	}
	f := findingOf(rep, CodeClockPublishers)
	if f == nil || f.Count != 2 || len(f.Examples) != 2 || !strings.Contains(f.Message, "RTF 2.000") || !strings.Contains(f.Message, "RTF 1.000") {
		t.Fatalf("clock_publishers %+v", f)
	}
	js, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(js, []byte(`"rtf":null,"rtf_min":null,"rtf_max":null`)) || !bytes.Contains(js, []byte(`"timelines":[{"id":"timeline 1","messages":301`)) {
		t.Errorf("clock JSON %s", js)
	}
	var svg, page bytes.Buffer
	if err := rep.WriteSVG(&svg); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	// The busiest timeline sets the scale, the other is named off it: no
	// axis from 0 to 1.7e9 s.
	if !strings.Contains(svg.String(), "/clock (timeline 2) (off this scale: not drawn)") || strings.Contains(svg.String(), `text-anchor="end">0</text>`) {
		t.Errorf("plot: %s", svg.String())
	}
	if !strings.Contains(page.String(), "RTF - (the values alternate between 2 timelines") {
		t.Errorf("HTML gives an RTF: %s", page.String())
	}
}

// One simulator with every fault a single publisher has (a pause, a
// backward jump, forward jumps, a looped replay, drops) is never taken
// for several, and keeps its one RTF.
func TestInspectOneClockPublisher(t *testing.T) {
	for name, cfg := range map[string]clockstream.ScheduleConfig{
		"faulty": {Start: 100 * time.Second, Period: 10 * time.Millisecond, Step: 10 * time.Millisecond,
			Pause: true, PauseAt: 101200 * time.Millisecond, ResumeAfter: 500 * time.Millisecond,
			Jump: true, JumpAt: 102 * time.Second, JumpTo: 50 * time.Second, Drop: 0.05, Seed: 3},
		"looped": {Period: 10 * time.Millisecond, Step: 10 * time.Millisecond, HasUntil: true, Until: 300 * time.Millisecond, Loop: true},
		"jumps":  {Period: 10 * time.Millisecond, Step: 10 * time.Millisecond, Jump: true, JumpAt: time.Second, JumpTo: time.Hour},
	} {
		msgs := interleavedClock(t, 3*time.Second, cfg)
		rep, err := Inspect(context.Background(), []string{writeFile(t, bagBytes(t, writerModes["chunked"], []genTopic{clockTopic}, msgs))}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if f := findingOf(rep, CodeClockPublishers); f != nil || len(rep.Clock.Timelines) != 0 || rep.Clock.RTF == nil {
			t.Errorf("%s: clock_publishers %+v, timelines %+v, RTF %v", name, f, rep.Clock.Timelines, rep.Clock.RTF)
		}
	}
}
