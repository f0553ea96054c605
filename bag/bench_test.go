package bag

import (
	"bufio"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/foxglove/mcap/go/mcap"

	"github.com/simclock/simclock/cdr"
	"github.com/simclock/simclock/internal/benchround"
)

// scanSchema is a sensor_msgs/LaserScan-shaped message: a Header, then a
// float32 sequence that makes it a few kilobytes.
const scanSchema = "std_msgs/Header header\nfloat32 angle_min\nfloat32 angle_max\nfloat32[] ranges" +
	delim + "MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id" + delim + timeMsg

var scanTopic = genTopic{"/scan", "sensor_msgs/msg/LaserScan", "ros2msg", scanSchema, ""}

// scanMsg returns a scan whose ranges are noisy, as real ones are, so
// that compression ratios stay realistic (about 1.5 for zstd).
func scanMsg(log, stamp int64, rng *rand.Rand) genMsg {
	w := cdr.NewWriter(4200)
	t := nsToTime(stamp)
	w.Int32(t.Sec)
	w.Uint32(t.Nanosec)
	w.String("laser")
	w.Float32(-1.5)
	w.Float32(1.5)
	w.Uint32(1000)
	for i := range 1000 {
		w.Float32(float32(i%97)*0.1 + float32(rng.IntN(1000))*1e-4)
	}
	return genMsg{"/scan", log, w.Bytes()}
}

// benchBagMB is the size of the generated benchmark bag: 100 MB, or
// SIMCLOCK_BENCH_BAG_MB (1000 for the 1 GB figure).
func benchBagMB() int {
	if n, err := strconv.Atoi(os.Getenv("SIMCLOCK_BENCH_BAG_MB")); err == nil && n > 0 {
		return n
	}
	return 100
}

var benchBags sync.Map // "mode/MB" -> path

// benchBag writes (once per process) a sim-time bag of about mb megabytes:
// /clock at 1 kHz, /scan (4 kB) at 500 Hz, /range at 100 Hz.
func benchBag(b *testing.B, mode string, mb int) string {
	key := mode + "/" + strconv.Itoa(mb)
	if p, ok := benchBags.Load(key); ok {
		return p.(string)
	}
	if p, ok := keptBag(key, "bench_0.mcap"); ok {
		benchBags.Store(key, p)
		return p
	}
	dir, err := os.MkdirTemp("", "simclock-bench")
	if err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(dir, "bench_0.mcap")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	wo := writerModes[mode]
	wo.ChunkSize = 4 << 20
	w, err := mcap.NewWriter(bw, &wo)
	if err != nil {
		b.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	must(w.WriteHeader(&mcap.Header{Profile: "ros2", Library: "simclock bench"}))
	for i, tp := range []genTopic{clockTopic, scanTopic, rangeTopic} {
		id := uint16(i + 1)
		must(w.WriteSchema(&mcap.Schema{ID: id, Name: tp.typ, Encoding: tp.encoding, Data: []byte(tp.schema)}))
		must(w.WriteChannel(&mcap.Channel{ID: id, SchemaID: id, Topic: tp.topic, MessageEncoding: "cdr",
			Metadata: map[string]string{"offered_qos_profiles": qosV9}}))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var written int64
	for i := int64(0); written < int64(mb)<<20; i++ {
		log := wall + i*ms
		v := 50*sec + i*ms
		c := clockMsg(log, v)
		must(w.WriteMessage(&mcap.Message{ChannelID: 1, LogTime: uint64(log), PublishTime: uint64(log), Data: c.data}))
		written += int64(len(c.data)) + 31
		if i%2 == 0 {
			scan := scanMsg(log, v, rng).data
			must(w.WriteMessage(&mcap.Message{ChannelID: 2, LogTime: uint64(log + 100_000), PublishTime: uint64(log), Data: scan}))
			written += int64(len(scan)) + 31
		}
		if i%10 == 0 {
			r := rangeMsg(log+200_000, v)
			must(w.WriteMessage(&mcap.Message{ChannelID: 3, LogTime: uint64(r.log), PublishTime: uint64(log), Data: r.data}))
		}
	}
	must(w.Close())
	must(bw.Flush())
	must(f.Close())
	if wo.SkipMessageIndexing { // "noindex": drop the summary
		data, err := os.ReadFile(p)
		must(err)
		must(os.WriteFile(p, stripSummary(b, data), 0o644))
	}
	keepBag(key, p)
	benchBags.Store(key, p)
	benchDirs = append(benchDirs, dir)
	return p
}

var benchDirs []string

// benchCacheEnv names a directory in which generated benchmark files
// outlive the process: scripts/bench sets it to a directory of its own
// run, so that its repetitions, one process each, generate each bag once
// (the generators are seeded: every process would write the same bytes).
const benchCacheEnv = "SIMCLOCK_BENCH_CACHE"

// keptBag returns the path key's bag has in the cache, and whether it
// is there; "" when there is no cache.
func keptBag(key, name string) (string, bool) {
	dir := os.Getenv(benchCacheEnv)
	if dir == "" {
		return "", false
	}
	p := filepath.Join(dir, "bag-"+strings.ReplaceAll(key, "/", "-"), name)
	_, err := os.Stat(p)
	return p, err == nil
}

// keepBag links the bag just written at p into the cache, when there is
// one; a bag it cannot keep is written again by the next process.
func keepBag(key, p string) {
	if kept, _ := keptBag(key, filepath.Base(p)); kept != "" {
		if os.MkdirAll(filepath.Dir(kept), 0o755) == nil {
			_ = os.Link(p, kept)
		}
	}
}

func fileSize(b *testing.B, p string) int64 {
	st, err := os.Stat(p)
	if err != nil {
		b.Fatal(err)
	}
	return st.Size()
}

// BenchmarkInspect measures Inspect's throughput (MB/s of file) on a bag
// of 4 kB scans, /clock and a stamped /range (benchBag), in each chunk
// layout, against the mcap library's own read loop over the same file
// (mcapLoop): each iteration runs the loop, then Inspect, so drift on a
// shared machine hits both alike. lib-ratio is Inspect's speed over the
// loop's (higher is better).
//
//	go test -run XXX -bench Inspect -benchtime 3x ./bag
//	SIMCLOCK_BENCH_BAG_MB=1000 go test -run XXX -bench Inspect -benchtime 2x ./bag
func BenchmarkInspect(b *testing.B) {
	mb := benchBagMB()
	defer removeBenchDirs()
	for _, mode := range []string{"chunked", "noindex", "zstd", "lz4"} {
		if mode != "chunked" && testing.Short() { // scripts/bench: the README's row is chunked
			continue
		}
		b.Run(mode, func(b *testing.B) {
			p := benchBag(b, mode, mb)
			versusLibrary(b, p)
		})
	}
}

// versusLibrary runs the mcap library's loop and Inspect over p in turn,
// one round per iteration, the loop first in even rounds and last in odd
// ones (internal/benchround), and reports lib-ratio (Inspect's speed over
// the loop's: the median over the rounds of the per-round ratios; the
// time ratios' spread is ratio_lib_min and ratio_lib_max), inspect-MB/s
// and lib-MB/s (the rounds' medians).
func versusLibrary(b *testing.B, p string) {
	b.SetBytes(fileSize(b, p))
	msgs := mcapLoop(b, p) // also warms the page cache
	inspect := func(int) {
		rep, err := Inspect(context.Background(), []string{p}, Options{})
		if err != nil || rep.Messages != msgs || rep.Clock.Messages == 0 {
			b.Fatalf("%v: %d messages, the library read %d", err, rep.Messages, msgs)
		}
	}
	inspect(1) // warm the buffer pool
	res := benchround.Run(b, benchround.Config{Once: true, WarmRound: true},
		benchround.Side{Run: inspect},
		benchround.Side{Name: "lib", Run: func(int) { mcapLoop(b, p) }})
	reportSpeeds(b, res, "lib", fileSize(b, p))
}

// reportSpeeds reports a benchround result of whole-file passes as
// speeds: BASE-ratio, the figure's speed over the baseline's (1 over
// benchround's time ratio, so higher is better), with _min and _max, and
// inspect-MB/s and BASE-MB/s.
func reportSpeeds(b *testing.B, res benchround.Result, base string, size int64) {
	r, ok := res.Ratio[base]
	if !ok {
		return
	}
	b.ReportMetric(1/r, base+"-ratio")
	mbs := func(ns float64) float64 { return float64(size) / (1 << 20) / (ns / 1e9) }
	b.ReportMetric(mbs(res.PerOp["fig"]), "inspect-MB/s")
	b.ReportMetric(mbs(res.PerOp[base]), base+"-MB/s")
}

// BenchmarkInspectMemory reports the peak heap in use while inspecting
// an uncompressed bag and a zstd bag at two sizes (100 MB and the
// benchmark size, or a quarter of it when that is 100 MB or less): flat
// memory gives the same figure.
func BenchmarkInspectMemory(b *testing.B) {
	mb := benchBagMB()
	defer removeBenchDirs()
	for _, mode := range []string{"chunked", "zstd"} {
		small := 100 // the issue asks for 100 MB and 1 GB
		if mb <= small {
			small = max(mb/4, 1)
		}
		for _, size := range []int{small, mb} {
			b.Run(mode+"/"+strconv.Itoa(size)+"MB", func(b *testing.B) {
				p := benchBag(b, mode, size)
				b.SetBytes(fileSize(b, p))
				var peak uint64
				for b.Loop() {
					runtime.GC()
					stop := make(chan struct{})
					done := make(chan uint64)
					go func() {
						var ms runtime.MemStats
						var mx uint64
						t := time.NewTicker(2 * time.Millisecond)
						defer t.Stop()
						for {
							runtime.ReadMemStats(&ms)
							mx = max(mx, ms.HeapInuse)
							select {
							case <-stop:
								done <- mx
								return
							case <-t.C:
							}
						}
					}()
					if _, err := Inspect(context.Background(), []string{p}, Options{}); err != nil {
						b.Fatal(err)
					}
					close(stop)
					peak = max(peak, <-done)
				}
				b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			})
		}
	}
}

func removeBenchDirs() {
	for _, d := range benchDirs {
		os.RemoveAll(d)
	}
	benchDirs = nil
	benchBags.Clear()
}
