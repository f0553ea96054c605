package bag

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/foxglove/mcap/go/mcap"
)

// smallBag writes (once per process) a chunked, indexed bag of about mb
// megabytes of small messages, as the 11.6 M messages in 1 GB:
// /clock (12 bytes) at 1 kHz and /range (40 bytes, a Header stamp) at
// 1 kHz, with CRCs, as the mcap writer makes them; its chunks are
// compressed with compression ("" for none, "zstd", "lz4").
func smallBag(b *testing.B, mb int, compression mcap.CompressionFormat) string {
	key := "small/" + string(compression) + "/" + strconv.Itoa(mb)
	if p, ok := benchBags.Load(key); ok {
		return p.(string)
	}
	if p, ok := keptBag(key, "small_0.mcap"); ok {
		benchBags.Store(key, p)
		return p
	}
	dir, err := os.MkdirTemp("", "simclock-bench")
	if err != nil {
		b.Fatal(err)
	}
	benchDirs = append(benchDirs, dir)
	p := filepath.Join(dir, "small_0.mcap")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	w, err := mcap.NewWriter(bw, &mcap.WriterOptions{Chunked: true, ChunkSize: 4 << 20, IncludeCRC: true, Compression: compression})
	if err != nil {
		b.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	must(w.WriteHeader(&mcap.Header{Profile: "ros2", Library: "simclock bench"}))
	for i, tp := range []genTopic{clockTopic, rangeTopic} {
		id := uint16(i + 1)
		must(w.WriteSchema(&mcap.Schema{ID: id, Name: tp.typ, Encoding: tp.encoding, Data: []byte(tp.schema)}))
		must(w.WriteChannel(&mcap.Channel{ID: id, SchemaID: id, Topic: tp.topic, MessageEncoding: "cdr",
			Metadata: map[string]string{"offered_qos_profiles": qosV9}}))
	}
	var written int64
	for i := int64(0); written < int64(mb)<<20; i++ {
		log := wall + i*ms
		v := 50*sec + i*ms
		c := clockMsg(log, v)
		must(w.WriteMessage(&mcap.Message{ChannelID: 1, LogTime: uint64(log), PublishTime: uint64(log), Data: c.data}))
		r := rangeMsg(log+100_000, v)
		must(w.WriteMessage(&mcap.Message{ChannelID: 2, LogTime: uint64(r.log), PublishTime: uint64(log), Data: r.data}))
		written += int64(len(c.data)+len(r.data)) + 2*(9+22) + 2*16 // records plus their message index entries
	}
	must(w.Close())
	must(bw.Flush())
	must(f.Close())
	keepBag(key, p)
	benchBags.Store(key, p)
	return p
}

// mcapLoop is the baseline: the mcap Go library's own message loop over
// the file (by its index when it has one, in the library's default order),
// touching every message.
func mcapLoop(b *testing.B, p string) int64 {
	f, err := os.Open(p)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	r, err := mcap.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	// A file without a summary (noindex) is read in file order without
	// the index, which the library's default needs.
	info, err := r.Info()
	indexed := err == nil && len(info.ChunkIndexes) > 0
	if !indexed { // Info moved the file offset: read from the start again
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			b.Fatal(err)
		}
		if r, err = mcap.NewReader(f); err != nil {
			b.Fatal(err)
		}
	}
	it, err := r.Messages(mcap.UsingIndex(indexed))
	if err != nil {
		b.Fatal(err)
	}
	var m mcap.Message
	var n, bytes int64
	for {
		_, _, msg, err := it.NextInto(&m)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		n++
		bytes += int64(len(msg.Data))
	}
	return n
}

// BenchmarkSmallMessages measures Inspect on small messages against a
// bare mcap-library loop over the same file (the baseline), with
// uncompressed, zstd and lz4 chunks. Each iteration runs the library loop,
// then Inspect, so drift on a shared machine hits them alike. lib-ratio is
// Inspect's speed over the library loop's (higher is better).
//
//	go test -run XXX -bench SmallMessages -benchtime 5x ./bag
//	SIMCLOCK_BENCH_BAG_MB=1000 go test -run XXX -bench SmallMessages -benchtime 3x ./bag
func BenchmarkSmallMessages(b *testing.B) {
	mb := benchBagMB()
	defer removeBenchDirs()
	for _, c := range []mcap.CompressionFormat{mcap.CompressionNone, mcap.CompressionZSTD, mcap.CompressionLZ4} {
		name := string(c)
		if name == "" {
			name = "none"
		}
		b.Run(name, func(b *testing.B) { versusLibrary(b, smallBag(b, mb, c)) })
	}
}
