package clockstream

import (
	"cmp"
	"context"
	"errors"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp/cmpopts"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/simclock/simclock/transport"
)

// samplesOf returns what the schedules publish, each from its publisher,
// merged in receive order (a stable merge: at equal times, in the order
// the schedules are given).
func samplesOf(t *testing.T, cfgs map[transport.PublisherID]ScheduleConfig, until time.Duration) []Sample {
	t.Helper()
	var all []Sample
	for pub, cfg := range cfgs {
		sch, err := NewSchedule(cfg)
		if err != nil {
			t.Fatal(err)
		}
		src := FromSchedule(sch, pub)
		for {
			s, err := src.Next(context.Background())
			if errors.Is(err, io.EOF) || err == nil && s.At > until {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, s)
		}
	}
	slices.SortStableFunc(all, func(a, b Sample) int {
		if c := cmp.Compare(a.At, b.At); c != 0 {
			return c
		}
		return cmp.Compare(a.Publisher, b.Publisher)
	})
	return all
}

// split runs a Splitter over samples and returns it, with the timeline of
// each sample.
func split(samples []Sample) (*Splitter, []transport.PublisherID) {
	sp := NewSplitter(Config{})
	ids := make([]transport.PublisherID, len(samples))
	for i, s := range samples {
		ids[i] = sp.Observe(s)
	}
	return sp, ids
}

// Several publishers interleaved on one /clock, told apart without their
// IDs: each message lands on its publisher's timeline, and each
// timeline's stats are what the Analyzer gives that publisher when it
// knows the IDs (simclock monitor's per-publisher lines).
func TestSplitterTellsInterleavedPublishers(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfgs map[transport.PublisherID]ScheduleConfig
	}{
		{"sim beside bag play", map[transport.PublisherID]ScheduleConfig{
			"gazebo": {Start: 1_700_000_000 * time.Second, Period: 10 * time.Millisecond, Step: 20 * time.Millisecond},
			"stage":  {Period: 20 * time.Millisecond, Step: 20 * time.Millisecond, PreClock: time.Second}}},
		{"two sims 1 s apart", map[transport.PublisherID]ScheduleConfig{
			"a": {Period: time.Millisecond, Step: time.Millisecond},
			"b": {Period: time.Millisecond, Step: time.Millisecond, PreClock: time.Second}}},
		{"a rare second publisher", map[transport.PublisherID]ScheduleConfig{
			"sim":   {Start: 50 * time.Second, Period: time.Millisecond, Step: 2 * time.Millisecond},
			"stray": {Start: 10 * time.Second, Period: 500 * time.Millisecond, Step: 500 * time.Millisecond, PreClock: 300 * time.Millisecond}}},
		{"three, with drops and jitter", map[transport.PublisherID]ScheduleConfig{
			"x": {Start: 100 * time.Second, Period: 10 * time.Millisecond, Step: 10 * time.Millisecond, Drop: 0.1, Seed: 1},
			"y": {Start: 5000 * time.Second, Period: 4 * time.Millisecond, Step: 40 * time.Millisecond, Jitter: time.Millisecond, Seed: 2},
			"z": {Start: 0, Period: 33 * time.Millisecond, Step: 33 * time.Millisecond, PreClock: 200 * time.Millisecond}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			samples := samplesOf(t, tc.cfgs, 3*time.Second)
			sp, ids := split(samples)
			if !sp.Interleaved() {
				t.Fatalf("%d publishers not found interleaved", len(tc.cfgs))
			}
			// Each timeline holds exactly one publisher's messages.
			byLine := map[transport.PublisherID]transport.PublisherID{}
			for i, s := range samples {
				if p, ok := byLine[ids[i]]; ok && p != s.Publisher {
					t.Fatalf("message %d (%s, value %d) on %s, which holds %s's", i, s.Publisher, s.Value, ids[i], p)
				}
				byLine[ids[i]] = s.Publisher
			}
			a := NewAnalyzer(Config{}, samples[0].At)
			for _, s := range samples {
				a.Observe(s)
			}
			now := samples[len(samples)-1].At
			want := a.Totals(now).Publishers
			got := sp.Timelines(now)
			for i := range got {
				got[i].ID = string(byLine[transport.PublisherID(got[i].ID)])
			}
			slices.SortFunc(got, func(a, b PublisherStats) int { return cmp.Compare(a.ID, b.ID) })
			if d := gocmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-12)); d != "" {
				t.Errorf("timelines differ from the per-publisher stats (-analyzer +splitter):\n%s", d)
			}
		})
	}
}

// One publisher is never taken for several, whatever its faults: a
// backward jump (and catching up with where it jumped from), pauses,
// forward jumps, drops and jitter, a looped recording, stray values, a
// damaged stretch skipped.
func TestSplitterOnePublisher(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  ScheduleConfig
	}{
		{"steady", ScheduleConfig{Start: 100 * time.Second, Period: 10 * time.Millisecond, Step: 10 * time.Millisecond}},
		{"faulty", ScheduleConfig{Start: 100 * time.Second, Period: 10 * time.Millisecond, Step: 10 * time.Millisecond,
			Pause: true, PauseAt: 101200 * time.Millisecond, ResumeAfter: 500 * time.Millisecond,
			Jump: true, JumpAt: 102 * time.Second, JumpTo: 50 * time.Second, Drop: 0.05, Seed: 3}},
		{"back 1 s, catching up", ScheduleConfig{Start: 10 * time.Second, Period: 10 * time.Millisecond, Step: 10 * time.Millisecond,
			Jump: true, JumpAt: 11 * time.Second, JumpTo: 10 * time.Second}},
		{"forward jump", ScheduleConfig{Period: 10 * time.Millisecond, Step: 10 * time.Millisecond,
			Jump: true, JumpAt: time.Second, JumpTo: 60 * time.Second}},
		{"looped 30 times", ScheduleConfig{Period: 10 * time.Millisecond, Step: 10 * time.Millisecond,
			HasUntil: true, Until: 100 * time.Millisecond, Loop: true}},
		{"fast, jittered, dropping", ScheduleConfig{Period: time.Millisecond, Step: 50 * time.Millisecond,
			Jitter: 500 * time.Microsecond, Drop: 0.3, Seed: 9}},
		{"every 10th", ScheduleConfig{Period: time.Millisecond, Step: time.Millisecond, Every: 10}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			samples := samplesOf(t, map[transport.PublisherID]ScheduleConfig{"": tc.cfg}, 3*time.Second)
			if sp, _ := split(samples); sp.Interleaved() {
				t.Errorf("one publisher found interleaved: %+v", sp.Timelines(samples[len(samples)-1].At))
			}
		})
	}
	t.Run("stray values and a hole", func(t *testing.T) {
		samples := samplesOf(t, map[transport.PublisherID]ScheduleConfig{"": {Start: 100 * time.Second,
			Period: 10 * time.Millisecond, Step: 10 * time.Millisecond}}, 3*time.Second)
		samples[50].Value = 0                // a zero
		samples[120].Value = 1 << 50         // far ahead
		samples[121].Err = ErrMalformed      // not a value
		samples[200].Value = 99 * int64(1e9) // a second back
		sp := NewSplitter(Config{})
		for i, s := range samples {
			if i == 250 {
				sp.Break()
			}
			if i < 250 || i > 260 { // 10 messages lost in the hole
				sp.Observe(s)
			}
		}
		if sp.Interleaved() {
			t.Errorf("one publisher found interleaved: %+v", sp.Timelines(samples[len(samples)-1].At))
		}
	})
}

// Timelines started beyond maxTimelines give up the one unused longest:
// memory stays bounded however often a recording loops.
func TestSplitterBounded(t *testing.T) {
	samples := samplesOf(t, map[transport.PublisherID]ScheduleConfig{"": {Period: time.Millisecond, Step: time.Millisecond,
		HasUntil: true, Until: 5 * time.Millisecond, Loop: true}}, 2*time.Second)
	sp, ids := split(samples)
	if len(sp.lines) > maxTimelines {
		t.Errorf("%d timelines followed", len(sp.lines))
	}
	if ids[len(ids)-1] == ids[0] || sp.Interleaved() {
		t.Errorf("a looped recording: last timeline %s, interleaved %v", ids[len(ids)-1], sp.Interleaved())
	}
}

// FuzzSplitter feeds arbitrary (log time, value) pairs, as a hostile
// recording may hold them, to the Splitter: it never panics, never
// follows more than maxTimelines timelines, every message lands on one
// (the timelines' messages never exceed those given), and a timeline never
// goes back.
func FuzzSplitter(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add([]byte{255, 255, 255, 255, 255, 255, 255, 127, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 255, 255, 255, 255, 255, 255, 255, 127})
	f.Fuzz(func(t *testing.T, data []byte) {
		sp := NewSplitter(Config{})
		last := map[transport.PublisherID]int64{}
		n := 0
		for ; len(data) >= 16; data = data[16:] {
			at := time.Duration(int64(leU64(data)))
			v := int64(leU64(data[8:]) >> 1) // a value is not negative
			s := Sample{At: at, Value: v}
			if data[0]&1 == 1 {
				s.Err = ErrMalformed
			}
			id := sp.Observe(s)
			n++
			if s.Err == nil {
				if p, ok := last[id]; ok && v < p {
					t.Fatalf("%s went back from %d to %d", id, p, v)
				}
				last[id] = v
			}
			if len(sp.lines) > maxTimelines {
				t.Fatalf("%d timelines", len(sp.lines))
			}
			if data[1]&7 == 0 {
				sp.Break()
			}
		}
		total := 0
		for _, tl := range sp.Timelines(0) {
			total += tl.Messages
		}
		if total > n {
			t.Fatalf("%d messages on the timelines, %d given", total, n)
		}
		sp.Interleaved()
	})
}

func leU64(b []byte) uint64 {
	var v uint64
	for i := 7; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}
