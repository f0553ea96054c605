package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/foxglove/mcap/go/mcap"

	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport"
)

// clockSeen is a /clock value a subscriber received, at the virtual wall
// time it arrived (since the command started).
type clockSeen struct {
	wall  time.Duration
	value int64
}

// fakeKeyboard types keys into bag clock.
type fakeKeyboard struct{ ch chan byte }

func (k *fakeKeyboard) Keys() <-chan byte { return k.ch }
func (k *fakeKeyboard) Close() error      { return nil }

// bagClockRun returns a virtual-time run (virtualRun) with a node's
// best-effort /clock subscriber beside the command, recording into *seen
// what it receives; keys are typed at the virtual wall times given.
func bagClockRun(t *testing.T, keys map[time.Duration]byte) (r *testRun, seen *[]clockSeen) {
	t.Helper()
	r = virtualRun(t, nil, 0)
	seen = new([]clockSeen)
	kb := &fakeKeyboard{ch: make(chan byte, 16)}
	r.OnExecutor = func(exec *executor.Executor) {
		tr := r.Bus.Connect("node")
		sub, err := tr.Subscribe(timemsg.ClockTopic, timemsg.ClockTypeName, transport.QoS{Depth: 1000, Reliability: transport.BestEffort})
		if err != nil {
			t.Fatal(err)
		}
		origin := exec.Steady().Now()
		remove := exec.Subscribe(sub, func(s transport.Sample) {
			c, err := timemsg.UnmarshalClock(s.Data)
			if err != nil {
				t.Errorf("bad /clock: %v", err)
			}
			*seen = append(*seen, clockSeen{time.Duration(exec.Steady().Now().Nanoseconds() - origin.Nanoseconds()), c.Clock.Nanoseconds()})
		})
		q := timer.NewQueue(exec.Steady())
		exec.AddQueue(q)
		for at, k := range keys {
			var once *timer.Timer
			once, _ = q.New(at, func(timer.Info) { once.Cancel(); kb.ch <- k }, true)
		}
		r.after = append(r.after, remove, func() { exec.RemoveQueue(q); q.Close(); tr.Close() })
	}
	if keys != nil {
		r.Keyboard = func() (Keyboard, error) { return kb, nil }
	}
	return r, seen
}

// bagClockInproc is simclock bag clock with args on the in-process bus.
func bagClockInproc(args ...string) []string {
	return append([]string{"bag", "clock", "--transport", "inproc"}, args...)
}

// logTimes reads the log times of an MCAP file's messages on topic (all
// topics when empty) with the mcap library, not with simclock's reader.
func logTimes(t *testing.T, path, topic string) []int64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := mcap.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	it, err := r.Messages(mcap.UsingIndex(false))
	if err != nil {
		t.Fatal(err)
	}
	var times []int64
	for {
		_, ch, m, err := it.NextInto(nil)
		if err != nil {
			break
		}
		if topic == "" || ch.Topic == topic {
			times = append(times, int64(m.LogTime))
		}
	}
	slices.Sort(times)
	return times
}

func values(seen []clockSeen) []int64 {
	var v []int64
	for _, s := range seen {
		v = append(v, s.value)
	}
	return v
}

// The playback ends at the bag's last message, as rosbag2's does, even
// when metadata.yaml says the bag lasts 52 s longer.
func TestBagClockStopsAtLastMessage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bag")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"metadata.yaml", "sqlite3_0.db3"} {
		b, err := os.ReadFile(filepath.Join("testdata/bag/sqlite3", name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "metadata.yaml" {
			b = bytes.Replace(b, []byte("nanoseconds: 5990000000"), []byte("nanoseconds: 57990000000"), 1)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, got := bagClockRun(t, nil)
	out, errOut, code := r.run(bagClockInproc("--clock", "10", dir)...)
	seen := *got
	const first, last = 1763999998 * int64(time.Second), 1764000003990 * int64(time.Millisecond)
	v := values(seen)
	if code != ExitOK || len(v) == 0 || v[0] != first || v[len(v)-1] != last || slices.Max(v) != last {
		t.Fatalf("exit %d, values %d from %v to %v; want %d → %d\n%s%s", code, len(v), v[0], v[len(v)-1], first, last, out, errOut)
	}
	if !strings.Contains(out, "bag 1763999998.000000000 → 1764000003.990000000 s (first to last message played)") {
		t.Errorf("header:\n%s", out)
	}
}

// --clock-topics: /clock carries each message's log time just before it,
// and nothing else goes out; --clock-topics-all does it for every message;
// with --clock the timer publishes too, in time order.
func TestBagClockTopics(t *testing.T) {
	rangeTimes := logTimes(t, hazardsBag, "/range")
	all := logTimes(t, hazardsBag, "")
	for _, tc := range []struct {
		args []string
		want []int64
	}{
		{[]string{"--clock-topics", "/range"}, rangeTimes},
		{[]string{"--clock-topics", "/range", "/nosuch"}, rangeTimes}, // ros2 bag play's space-separated form
		{[]string{"--clock-topics-all"}, all},
	} {
		args := append(append([]string{"--rate", "5"}, tc.args...), hazardsBag)
		r, got := bagClockRun(t, nil)
		out, errOut, code := r.run(bagClockInproc(args...)...)
		seen := *got
		if code != ExitOK || !slices.Equal(values(seen), tc.want) {
			t.Errorf("%v: exit %d, %d values, want the %d log times\n%s%s", tc.args, code, len(seen), len(tc.want), out, errOut)
		}
		for i := 1; i < len(seen); i++ {
			// Each at its log time over the rate, from the first message.
			want := time.Duration(float64(tc.want[i]-all[0]) / 5)
			if d := seen[i].wall - want; d < -time.Microsecond || d > time.Microsecond {
				t.Errorf("%v: value %d published at %v, want %v", tc.args, seen[i].value, seen[i].wall, want)
				break
			}
		}
		if strings.Contains(strings.Join(tc.args, " "), "/nosuch") && !strings.Contains(errOut, "--clock-topics /nosuch: the bag has no message on it") {
			t.Errorf("no warning for a topic the bag lacks: %s", errOut)
		}
	}
	r, got := bagClockRun(t, nil)
	_, _, code := r.run(bagClockInproc("--clock-topics", "/range", "--clock", "4", hazardsBag)...)
	seen := *got
	v := values(seen)
	if code != ExitOK || len(v) <= len(rangeTimes) || !slices.IsSorted(v) || v[len(v)-1] != all[len(all)-1] {
		t.Errorf("--clock-topics with --clock: exit %d, values %v", code, v)
	}
	for _, rt := range rangeTimes {
		if !slices.Contains(v, rt) {
			t.Errorf("--clock-topics with --clock: /range at %d missing", rt)
		}
	}
}

// --playback-duration and --playback-until-*: the playback stops at the
// last message at or before the limit (the later of the two, as rosbag2).
func TestBagClockPlaybackUntil(t *testing.T) {
	all := logTimes(t, hazardsBag, "")
	lastBefore := func(limit int64) int64 {
		i, _ := slices.BinarySearch(all, limit+1)
		return all[i-1]
	}
	for _, tc := range []struct {
		args  []string
		limit int64
	}{
		{[]string{"--playback-duration", "2.5"}, all[0] + 2500*int64(time.Millisecond)},
		{[]string{"--playback-until-nsec", "1764000001000000000"}, 1764000001000000000},
		{[]string{"--playback-until-sec", "1764000001.5"}, 1764000001500000000},
		{[]string{"--playback-until-sec", "1764000001.5", "--playback-duration", "4"}, all[0] + 4*int64(time.Second)},
	} {
		r, got := bagClockRun(t, nil)
		out, errOut, code := r.run(bagClockInproc(append(append([]string{"-r", "4", "--clock", "20"}, tc.args...), hazardsBag)...)...)
		seen := *got
		v := values(seen)
		if want := lastBefore(tc.limit); code != ExitOK || len(v) == 0 || v[len(v)-1] != want || slices.Max(v) != want {
			t.Errorf("%v: exit %d, last value %v, want %d\n%s%s", tc.args, code, v[len(v)-1:], want, out, errOut)
		}
	}
}

// --start-paused holds the clock at the bag's start until space; space
// pauses again, and the clock goes on from where it stood.
func TestBagClockPauseKeys(t *testing.T) {
	all := logTimes(t, hazardsBag, "")
	start := all[0]
	keys := map[time.Duration]byte{2 * time.Second: ' ', 3 * time.Second: ' ', 4 * time.Second: ' ', 5 * time.Second: 'x'}
	r, got := bagClockRun(t, keys)
	out, errOut, code := r.run(bagClockInproc("--start-paused", "--clock", "10", "--duration", "6", hazardsBag)...)
	seen := *got
	if code != ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	at := func(wall time.Duration) int64 {
		v := int64(-1)
		for _, s := range seen {
			if s.wall <= wall {
				v = s.value
			}
		}
		return v
	}
	for _, c := range []struct {
		wall time.Duration
		want int64
	}{
		{0, start}, {1900 * time.Millisecond, start}, // paused from the start
		{2500 * time.Millisecond, start + 500*int64(time.Millisecond)},  // playing
		{3500 * time.Millisecond, start + 1000*int64(time.Millisecond)}, // paused again at 3 s
		{5 * time.Second, start + 2000*int64(time.Millisecond)},         // resumed at 4 s
		{5500 * time.Millisecond, start + 2500*int64(time.Millisecond)}, // 'x' does nothing
	} {
		if got := at(c.wall); got != c.want {
			t.Errorf("at %v: /clock %d, want %d (+%v)", c.wall, got, c.want, time.Duration(c.want-start))
		}
	}
	if !slices.IsSorted(values(seen)) {
		t.Error("/clock went back while pausing")
	}
	if !strings.Contains(out, "summary      60        0  1764000000.900000000      1  start,resume,pause") {
		t.Errorf("events not reported:\n%s", out)
	}
}

// ros2 bag play's short flags and --clock's optional value.
func TestBagClockROS2Flags(t *testing.T) {
	r, got := bagClockRun(t, nil)
	out, errOut, code := r.run(bagClockInproc("-r", "2", "-l", "--clock", "10", "-d", "0.5", "--duration", "8", hazardsBag)...)
	seen := *got
	v := values(seen)
	backward := 0
	for i := 1; i < len(v); i++ {
		if v[i] < v[i-1] {
			backward++
		}
	}
	if code != ExitOK || backward == 0 || !strings.Contains(out, "every 0.100 s, +0.200 s per message (rtf 2, BEST_EFFORT)") {
		t.Errorf("-r 2 -l --clock 10: exit %d, %d backward jumps\n%s%s", code, backward, out, errOut)
	}
	if len(seen) == 0 || seen[0].wall != 500*time.Millisecond {
		t.Errorf("-d 0.5: first /clock at %v", seen[0].wall)
	}
	// --clock alone is 40 Hz, before the bag or after it.
	for _, args := range [][]string{{"--clock", hazardsBag}, {hazardsBag, "--clock"}} {
		r, _ := bagClockRun(t, nil)
		out, errOut, code := r.run(bagClockInproc(args...)...)
		if code != ExitOK || !strings.Contains(out, "every 0.025 s") {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
	}
}
