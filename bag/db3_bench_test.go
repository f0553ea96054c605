package bag

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/simclock/simclock/internal/benchround"
)

// smallDB3 writes (once per process) a sqlite3 bag (rosbag2's schema, as
// writeDB3 makes it) of about mb megabytes of file holding the small
// messages of smallBag: /clock and a stamped /range at 1 kHz each.
func smallDB3(b *testing.B, mb int) string {
	key := "db3/" + strconv.Itoa(mb)
	if p, ok := benchBags.Load(key); ok {
		return p.(string)
	}
	if p, ok := keptBag(key, "small_0.db3"); ok {
		benchBags.Store(key, p)
		return p
	}
	dir, err := os.MkdirTemp("", "simclock-bench")
	if err != nil {
		b.Fatal(err)
	}
	benchDirs = append(benchDirs, dir)
	p := filepath.Join(dir, "small_0.db3")
	// About 150 bytes of file per pair of rows (both rows, their record
	// headers and the timestamp index).
	pairs := int64(mb) << 20 / 150
	msgs := make([]genMsg, 0, 2*pairs)
	for i := range pairs {
		log := wall + i*ms
		v := 50*sec + i*ms
		msgs = append(msgs, clockMsg(log, v), rangeMsg(log+100_000, v))
	}
	writeDB3(b, p, db3Options{definitions: true}, []genTopic{clockTopic, rangeTopic}, msgs)
	keepBag(key, p)
	benchBags.Store(key, p)
	return p
}

// BenchmarkInspectDB3 measures Inspect on a .db3 of small messages
// against the sqlite3 command-line tool's full scan of the same file:
// the query Inspect runs (SELECT topic_id, timestamp, data FROM messages
// ORDER BY timestamp, id), read-only and immutable, its output thrown
// away. Each iteration is one round: the tool and Inspect in turn, in
// alternating order (internal/benchround), so drift on a shared machine
// hits both alike. x_sqlite3 is the median over the rounds of Inspect's
// time over the tool's (lower is better). The bag is a quarter of SIMCLOCK_BENCH_BAG_MB.
//
//	go test -run XXX -bench InspectDB3 -benchtime 3x ./bag
func BenchmarkInspectDB3(b *testing.B) {
	cli, err := exec.LookPath("sqlite3")
	if err != nil {
		if os.Getenv("CI") != "" {
			b.Fatalf("CI is set and the sqlite3 tool is missing (apt-get install sqlite3): %v", err)
		}
		b.Skipf("no sqlite3 command-line tool (apt-get install sqlite3): %v", err)
	}
	defer removeBenchDirs()
	p := smallDB3(b, max(benchBagMB()/4, 1))
	b.SetBytes(fileSize(b, p))
	scan := func(int) {
		cmd := exec.Command(cli, "-readonly", "file:"+p+"?immutable=1",
			"SELECT topic_id, timestamp, data FROM messages ORDER BY timestamp, id")
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil { // Stdout nil: the output goes to /dev/null
			b.Fatalf("sqlite3: %v", err)
		}
	}
	inspect := func(int) {
		rep, err := Inspect(context.Background(), []string{p}, Options{})
		if err != nil || rep.Clock.Messages == 0 {
			b.Fatalf("Inspect: %v (%d /clock messages)", err, rep.Clock.Messages)
		}
	}
	scan(1) // warm the page cache
	inspect(1)
	res := benchround.Run(b, benchround.Config{Once: true, WarmRound: true},
		benchround.Side{Run: inspect},
		benchround.Side{Name: "sqlite3", Run: scan})
	if r, ok := res.Ratio["sqlite3"]; ok {
		b.ReportMetric(r, "x_sqlite3")
		mbs := func(ns float64) float64 { return float64(fileSize(b, p)) / (1 << 20) / (ns / 1e9) }
		b.ReportMetric(mbs(res.PerOp["fig"]), "inspect-MB/s")
		b.ReportMetric(mbs(res.PerOp["sqlite3"]), "sqlite3-MB/s")
	}
}
