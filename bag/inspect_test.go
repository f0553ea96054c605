package bag

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/foxglove/mcap/go/mcap"
	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"

	"github.com/simclock/simclock/cdr"
	"github.com/simclock/simclock/timemsg"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// codes returns finding code -> count for findings of severity error or
// warning, plus info findings prefixed "info:".
func codes(r *Report) map[string]int64 {
	out := map[string]int64{}
	for _, f := range r.Findings {
		k := string(f.Code)
		if f.Topic != "" && f.Topic != timemsg.ClockTopic {
			k += " " + f.Topic
		}
		if f.Field != "" {
			k += " " + f.Field
		}
		out[k] += f.Count
	}
	return out
}

func modify(ms []genMsg, f func(i int, m *genMsg) bool) []genMsg {
	var out []genMsg
	for i := range ms {
		m := ms[i]
		if f(i, &m) {
			out = append(out, m)
		}
	}
	return out
}

func TestInspectHazards(t *testing.T) {
	topics := []genTopic{clockTopic, rangeTopic}
	cases := []struct {
		rule, name string
		msgs       []genMsg
		opts       Options
		want       map[string]int64
	}{
		{"-", "clean", simBag(100*sec, 3), Options{}, map[string]int64{}},
		{"R14,R22", "looped recording", func() []genMsg {
			a := simBag(100*sec, 2)
			b := modify(simBag(100*sec, 2), func(_ int, m *genMsg) bool { m.log += 2 * sec; return true })
			return append(a, b...)
		}(), Options{}, map[string]int64{"clock_backward": 1, "non_monotonic_stamp /range header.stamp": 1}},
		{"-", "gap", modify(simBag(100*sec, 3), func(i int, m *genMsg) bool {
			return m.log < wall+sec || m.log >= wall+2*sec
		}), Options{}, map[string]int64{"clock_gap": 1}},
		{"-", "stall", modify(simBag(100*sec, 3), func(i int, m *genMsg) bool {
			// Paused from 1 s to 2 s of log time, then resumed where it stopped.
			switch t := m.log - wall; {
			case m.topic != timemsg.ClockTopic:
				return false
			case t > sec && t <= 2*sec:
				*m = clockMsg(m.log, 101*sec)
			case t > 2*sec:
				*m = clockMsg(m.log, 100*sec+t-sec)
			}
			return true
		}), Options{}, map[string]int64{"clock_stall": 1}},
		{"R22,R23", "forward jump", modify(simBag(100*sec, 3), func(i int, m *genMsg) bool {
			if m.topic == timemsg.ClockTopic && m.log >= wall+sec {
				*m = clockMsg(m.log, 110*sec+m.log-wall)
			}
			return m.topic == timemsg.ClockTopic
		}), Options{}, map[string]int64{"clock_jump_forward": 1}},
		{"R26,R10", "before first clock", append([]genMsg{rangeMsg(wall-2*sec, 0), rangeMsg(wall-sec, 0)}, simBag(100*sec, 3)...),
			Options{}, map[string]int64{"before_first_clock /range": 2, "zero_stamp /range header.stamp": 2}},
		{"R3,R30", "system time stamps in a sim bag", modify(simBag(100*sec, 3), func(i int, m *genMsg) bool {
			if m.topic == "/range" && m.log > wall+1400*ms {
				*m = rangeMsg(m.log, m.log-5*ms)
			}
			return true
		}), Options{}, map[string]int64{"time_base_mismatch /range header.stamp": 16}},
		{"-", "future stamps", modify(simBag(100*sec, 3), func(i int, m *genMsg) bool {
			if m.topic == "/range" {
				*m = rangeMsg(m.log, 100*sec+m.log-wall+sec) // stamped 1 s ahead of /clock
			}
			return true
		}), Options{}, map[string]int64{"future_stamp /range header.stamp": 30}},
		{"-", "non-monotonic stamps", modify(simBag(100*sec, 3), func(i int, m *genMsg) bool {
			if m.topic == "/range" && m.log == wall+1051*ms {
				*m = rangeMsg(m.log, 100*sec)
			}
			return true
		}), Options{}, map[string]int64{"non_monotonic_stamp /range header.stamp": 1}},
		{"R25,R27", "window from sim start 0", simBag(0, 3), Options{Window: time.Second},
			// Clock values 0 .. 1 s: 0 (excluded from stamps: zero) ..; stamps at 0.05, 0.15 .. 0.95 are < W.
			map[string]int64{"clock_window": 101, "window_negative /range header.stamp": 10, "window_zero /range header.stamp": 0}},
		{"R25,R27", "window boundary tick", modify(simBag(0, 3), func(i int, m *genMsg) bool {
			if m.topic == "/range" {
				*m = rangeMsg(m.log, (m.log-wall)/(100*ms)*(100*ms)) // 10 Hz tick stamps k/10
			}
			return true
		}), Options{Window: 500 * time.Millisecond},
			// Ticks at k/10 s: tick 0 is a zero stamp (R10), 1..4 make stamp − W negative, tick 5 makes it exactly 0 (R25).
			map[string]int64{"clock_window": 51, "zero_stamp /range header.stamp": 1,
				"window_negative /range header.stamp": 4, "window_zero /range header.stamp": 1}},
		{"-", "unknown schema is skipped", append(simBag(100*sec, 1), genMsg{"/idl", wall, []byte{0, 1, 0, 0}}),
			Options{}, map[string]int64{"unknown_schema /idl": 1}},
		{"-", "undecodable message", append(simBag(100*sec, 1), genMsg{"/range", wall + 2*sec, []byte{0, 1, 0, 0, 1}}),
			Options{}, map[string]int64{"decode_error /range": 1}},
	}
	for _, tc := range cases {
		for _, mode := range []string{"chunked", "zstd", "lz4", "unchunked", "noindex"} {
			t.Run(tc.rule+"/"+tc.name+"/"+mode, func(t *testing.T) {
				tps := topics
				if tc.name == "unknown schema is skipped" {
					tps = append(slices.Clone(topics), genTopic{"/idl", "pkg/msg/Idl", "ros2idl", "module pkg {};", ""})
				}
				ms := slices.Clone(tc.msgs)
				sort.SliceStable(ms, func(i, j int) bool { return ms[i].log < ms[j].log })
				p := writeFile(t, bagBytes(t, writerModes[mode], tps, ms))
				rep, err := Inspect(context.Background(), []string{p}, tc.opts)
				if err != nil {
					t.Fatal(err)
				}
				if !rep.Complete || rep.Messages != int64(len(ms)) {
					t.Errorf("complete=%v messages=%d, want true, %d", rep.Complete, rep.Messages, len(ms))
				}
				got := codes(rep)
				want := map[string]int64{}
				for k, v := range tc.want {
					if v > 0 {
						want[k] = v
					}
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("findings (-want +got):\n%s", d)
					for _, f := range rep.Findings {
						t.Logf("%+v", f)
					}
				}
				wantIndexed := mode != "unchunked" && mode != "noindex"
				if rep.Files[0].Indexed != wantIndexed {
					t.Errorf("indexed=%v, want %v", rep.Files[0].Indexed, wantIndexed)
				}
			})
		}
	}
}

func TestInspectClockFigures(t *testing.T) {
	p := writeFile(t, bagBytes(t, writerModes["zstd"], []genTopic{clockTopic, rangeTopic}, simBag(100*sec, 4)))
	rep, err := Inspect(context.Background(), []string{p}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Clock
	if !c.Present || c.Messages != 400 || c.FirstNS != 100*sec || c.LastNS != 100*sec+399*10*ms {
		t.Errorf("clock %+v", c)
	}
	if math.Abs(c.RateHz-100) > 0.01 || math.Abs(f64(c.RTF)-1) > 1e-9 || c.PeriodNS != 10*ms || c.StepNS != 10*ms {
		t.Errorf("rate %v rtf %v period %v step %v, want 100 Hz, 1, 10ms, 10ms", c.RateHz, f64(c.RTF), c.PeriodNS, c.StepNS)
	}
	if c.SimTimeLog {
		t.Error("SimTimeLog true for a wall-clock recording")
	}
	if math.Abs(f64(c.RTFMin)-1) > 1e-9 || math.Abs(f64(c.RTFMax)-1) > 1e-9 {
		t.Errorf("RTF per second %v..%v, want 1..1", f64(c.RTFMin), f64(c.RTFMax))
	}
	if len(rep.Topics) != 2 || rep.Topics[1].Topic != "/range" || rep.Topics[1].TimeFields[0].Reference != "clock" {
		t.Fatalf("topics %+v", rep.Topics)
	}
	tf := rep.Topics[1].TimeFields[0]
	if tf.Field != "header.stamp" || !tf.Header || tf.Count != 40 || tf.MaxLeadNS != 0 {
		t.Errorf("time field %+v", tf)
	}
}

// TestInspectNoClock: without /clock the report says so and compares stamps
// with log time.
// TestInspectRTFWindows: a simulation running at half speed for its
// second second shows in rtf_min, and in the overall RTF.
func TestInspectRTFWindows(t *testing.T) {
	var msgs []genMsg
	v := 100 * sec
	for i := range 300 {
		log := wall + int64(i)*10*ms
		msgs = append(msgs, clockMsg(log, v))
		if i >= 100 && i < 200 {
			v += 5 * ms
		} else {
			v += 10 * ms
		}
	}
	p := writeFile(t, bagBytes(t, writerModes["chunked"], []genTopic{clockTopic}, msgs))
	rep, err := Inspect(context.Background(), []string{p}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Clock
	if math.Abs(f64(c.RTFMin)-0.5) > 0.02 || math.Abs(f64(c.RTFMax)-1) > 0.02 || math.Abs(f64(c.RTF)-2.5/2.99) > 0.02 {
		t.Errorf("RTF %v, per second %v..%v; want about 0.84, 0.5..1", f64(c.RTF), f64(c.RTFMin), f64(c.RTFMax))
	}
}

func TestInspectNoClock(t *testing.T) {
	var msgs []genMsg
	for i := range 20 {
		log := wall + int64(i)*100*ms
		stamp := log - ms
		if i == 7 {
			stamp = 5 * sec // a sim-time stamp in a wall-clock bag
		}
		msgs = append(msgs, rangeMsg(log, stamp))
	}
	p := writeFile(t, bagBytes(t, writerModes["chunked"], []genTopic{rangeTopic}, msgs))
	rep, err := Inspect(context.Background(), []string{p}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"no_clock": 1, "time_base_mismatch /range header.stamp": 1, "non_monotonic_stamp /range header.stamp": 1}
	if d := cmp.Diff(want, codes(rep)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if rep.Topics[0].TimeFields[0].Reference != "log" || rep.Topics[0].BeforeClk != 0 {
		t.Errorf("topic %+v", rep.Topics[0])
	}
}

// TestSplitBag: a bag written as three files reads as one, in start-time
// order whatever order the files are given in.
func TestSplitBag(t *testing.T) {
	msgs := simBag(100*sec, 3)
	whole := writeFile(t, bagBytes(t, writerModes["chunked"], []genTopic{clockTopic, rangeTopic}, msgs))
	dir := t.TempDir()
	var parts []string
	for i, r := range [][2]int{{0, 100}, {100, 250}, {250, len(msgs)}} {
		p := filepath.Join(dir, "split_"+string(rune('0'+i))+".mcap")
		writeBag(t, p, writerModes["zstd"], []genTopic{clockTopic, rangeTopic}, msgs[r[0]:r[1]])
		parts = append(parts, p)
	}
	want, err := Inspect(context.Background(), []string{whole}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Inspect(context.Background(), []string{parts[2], parts[0], parts[1]}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Files[0].Path != parts[0] || len(got.Files) != 3 {
		t.Errorf("files %+v", got.Files)
	}
	opt := cmp.FilterPath(func(p cmp.Path) bool {
		s := p.String()
		return s == "Files" || s == "Bytes" || s == "Series"
	}, cmp.Ignore())
	if d := cmp.Diff(want, got, opt); d != "" {
		t.Errorf("split bag differs from the whole (-whole +split):\n%s", d)
	}
}

// TestTruncated cuts a bag at many points: every cut gives a *ReadError
// with ErrTruncated and the offset, plus the report of what came before.
func TestTruncated(t *testing.T) {
	for _, mode := range []string{"chunked", "zstd", "unchunked"} {
		t.Run(mode, func(t *testing.T) {
			msgs := simBag(100*sec, 2)
			data := bagBytes(t, writerModes[mode], []genTopic{clockTopic, rangeTopic}, msgs)
			lastMsgs := int64(-1)
			for _, cut := range []int{3, 8, 20, len(data) / 4, len(data) / 2, len(data) * 3 / 4, len(data) - 30, len(data) - 1} {
				p := writeFile(t, data[:cut])
				rep, err := Inspect(context.Background(), []string{p}, Options{})
				if rep == nil {
					t.Fatal("nil report")
				}
				re, ok := errors.AsType[*ReadError](err)
				if !ok || !errors.Is(err, ErrTruncated) {
					t.Fatalf("cut %d: got %v, want a *ReadError wrapping ErrTruncated", cut, err)
				}
				if re.Offset < 0 || re.Offset > int64(cut) || re.Path != p {
					t.Errorf("cut %d: offset %d path %q", cut, re.Offset, re.Path)
				}
				if rep.Complete || rep.Findings[0].Code != CodeReadError {
					t.Errorf("cut %d: complete=%v first finding %+v", cut, rep.Complete, rep.Findings[0])
				}
				if rep.Messages < lastMsgs {
					t.Errorf("cut %d: %d messages, fewer than the %d of a shorter cut", cut, rep.Messages, lastMsgs)
				}
				lastMsgs = rep.Messages
			}
			if lastMsgs < int64(len(msgs))/2 {
				t.Errorf("a cut near the end kept %d of %d messages", lastMsgs, len(msgs))
			}
		})
	}
}

// TestTruncatedChunkSalvage: the complete messages of an uncompressed
// chunk cut by the end of the file are kept.
func TestTruncatedChunkSalvage(t *testing.T) {
	// Compressed streams decode block by block (zstd blocks are at most
	// 128 kB), so the chunk holds a megabyte of noisy scans. LZ4 chunks
	// written by the mcap library are one 4 MB block: nothing to recover.
	msgs := simBag(100*sec, 2)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 250 {
		msgs = append(msgs, scanMsg(wall+int64(i)*8*ms+3*ms, 100*sec+int64(i)*8*ms, rng))
	}
	sort.SliceStable(msgs, func(i, j int) bool { return msgs[i].log < msgs[j].log })
	for _, mode := range []string{"chunked", "zstd"} {
		t.Run(mode, func(t *testing.T) {
			wo := writerModes[mode]
			wo.ChunkSize = 8 << 20 // one chunk for the whole bag
			data := bagBytes(t, wo, []genTopic{clockTopic, rangeTopic, scanTopic}, msgs)
			// Cut in the middle of the chunk.
			off := 8
			for mcap.OpCode(data[off]) != mcap.OpChunk {
				off += 9 + int(binary.LittleEndian.Uint64(data[off+1:]))
			}
			n := int(binary.LittleEndian.Uint64(data[off+1:]))
			p := writeFile(t, data[:off+9+n/2])
			rep, err := Inspect(context.Background(), []string{p}, Options{})
			if !errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), "recovered") {
				t.Fatalf("got %v, want ErrTruncated with messages recovered", err)
			}
			if rep.Messages < int64(len(msgs))/4 || rep.Messages >= int64(len(msgs)) {
				t.Errorf("recovered %d of %d messages from half the file", rep.Messages, len(msgs))
			}
		})
	}
}

func TestCorrupt(t *testing.T) {
	msgs := simBag(100*sec, 1)
	data := bagBytes(t, writerModes["unchunked"], []genTopic{clockTopic, rangeTopic}, msgs)
	t.Run("not mcap", func(t *testing.T) {
		p := writeFile(t, []byte("#ROSBAG V2.0\n and more bytes"))
		_, err := Inspect(context.Background(), []string{p}, Options{})
		if !errors.Is(err, ErrNotMCAP) {
			t.Errorf("got %v, want ErrNotMCAP", err)
		}
	})
	t.Run("record length", func(t *testing.T) {
		bad := slices.Clone(data)
		// The first record after the magic is the header: make its length huge.
		bad[8+1+7] = 0x40
		p := writeFile(t, bad)
		_, err := Inspect(context.Background(), []string{p}, Options{})
		re, ok := errors.AsType[*ReadError](err)
		if !ok || re.Offset != 8 {
			t.Errorf("got %v, want a *ReadError at byte 8", err)
		}
	})
	t.Run("zstd chunk", func(t *testing.T) {
		z := bagBytes(t, writerModes["zstd"], []genTopic{clockTopic, rangeTopic}, msgs)
		bad := slices.Clone(z)
		for i := 200; i < 260 && i < len(bad); i++ {
			bad[i] ^= 0x5a
		}
		p := writeFile(t, bad)
		rep, err := Inspect(context.Background(), []string{p}, Options{})
		if !errors.Is(err, ErrDamaged) && !errors.Is(err, ErrTruncated) {
			t.Errorf("got %v, want ErrDamaged", err)
		}
		if rep == nil || rep.Complete {
			t.Errorf("report %v", rep)
		}
	})
}

func TestProgress(t *testing.T) {
	p := writeFile(t, bagBytes(t, writerModes["chunked"], []genTopic{clockTopic, rangeTopic}, simBag(0, 5)))
	st, _ := os.Stat(p)
	var last, total int64
	_, err := Inspect(context.Background(), []string{p}, Options{Progress: func(d, tot int64) { last, total = d, tot }})
	if err != nil {
		t.Fatal(err)
	}
	if total != st.Size() || last <= 0 || last > total {
		t.Errorf("progress %d/%d, file %d bytes", last, total, st.Size())
	}
}

// TestParallelDecompression: chunks decompressed ahead on other goroutines
// give the same report as one goroutine.
func TestParallelDecompression(t *testing.T) {
	ms := simBag(100*sec, 4)
	for _, mode := range []string{"zstd", "lz4"} {
		p := writeFile(t, bagBytes(t, writerModes[mode], []genTopic{clockTopic, rangeTopic}, ms))
		prev := runtime.GOMAXPROCS(1)
		seq, err1 := Inspect(context.Background(), []string{p}, Options{})
		runtime.GOMAXPROCS(max(prev, 4))
		par, err2 := Inspect(context.Background(), []string{p}, Options{})
		runtime.GOMAXPROCS(prev)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if seq.Files[0].Chunks < 3 {
			t.Fatalf("%s: %d chunks, want several", mode, seq.Files[0].Chunks)
		}
		if d := cmp.Diff(seq, par); d != "" {
			t.Errorf("%s: parallel differs (-sequential +parallel):\n%s", mode, d)
		}
	}
}

// TestNonStampTimeIsWarning: a zero Time field that is not a stamp (an
// unset expiry, say) is a warning, a zero Header stamp an error (R10).
func TestNonStampTimeIsWarning(t *testing.T) {
	lease := genTopic{"/lease", "pkg/msg/Lease", "ros2msg", "std_msgs/Header header\nbuiltin_interfaces/Time expiry" +
		delim + "MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id" + delim + timeMsg, ""}
	var msgs []genMsg
	for i := range 5 {
		log := wall + int64(i)*sec
		w := cdr.NewWriter(32)
		w.Int32(0) // header.stamp: zero
		w.Uint32(0)
		w.String("")
		w.Int32(0) // expiry: zero
		w.Uint32(0)
		msgs = append(msgs, genMsg{"/lease", log, w.Bytes()})
	}
	p := writeFile(t, bagBytes(t, writerModes["chunked"], []genTopic{lease}, msgs))
	rep, err := Inspect(context.Background(), []string{p}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sev := map[string]Severity{}
	for _, f := range rep.Findings {
		if f.Code == CodeZeroStamp {
			sev[f.Field] = f.Severity
		}
	}
	if sev["header.stamp"] != SeverityError || sev["expiry"] != SeverityWarning {
		t.Errorf("zero_stamp severities %v, want header.stamp error, expiry warning", sev)
	}
}

// TestClockWithoutSchemaText: a /clock whose schema has no ros2msg text
// (encoding "unknown", as rosbag2 writes when it finds no definition) is
// still decoded by its type.
func TestClockWithoutSchemaText(t *testing.T) {
	clk := genTopic{timemsg.ClockTopic, timemsg.ClockTypeName, "unknown", "", ""}
	clocks := modify(simBag(100*sec, 1), func(i int, m *genMsg) bool { return m.topic == timemsg.ClockTopic })[:50]
	p := writeFile(t, bagBytes(t, writerModes["chunked"], []genTopic{clk}, clocks))
	rep, err := Inspect(context.Background(), []string{p}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Clock.Messages != 50 || len(rep.Findings) != 0 || !rep.Topics[0].Decoded {
		t.Errorf("clock %+v findings %+v", rep.Clock, rep.Findings)
	}
}

// TestClockPublishers: rosbag2 stores one offered QoS profile per
// publisher it saw; two on /clock is a fault (R18).
func TestClockPublishers(t *testing.T) {
	two := clockTopic
	two.qos = qosV9 + "\n" + qosV9
	p := writeFile(t, bagBytes(t, writerModes["chunked"], []genTopic{two, rangeTopic}, simBag(100*sec, 1)))
	rep, err := Inspect(context.Background(), []string{p}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(map[string]int64{"clock_publishers": 2}, codes(rep)); d != "" || rep.Clock.Publishers != 2 {
		t.Errorf("publishers %d, findings (-want +got):\n%s", rep.Clock.Publishers, d)
	}
	if rep.Topics[1].Publishers != 1 {
		t.Errorf("/range publishers %d, want 1", rep.Topics[1].Publishers)
	}
}

// f64 is the value of a real-time factor, NaN for none.
func f64(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}
