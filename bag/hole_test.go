package bag

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/foxglove/mcap/go/mcap"
)

// holeBag is one bag of the damage runs: its bytes, clean.
type holeBag struct {
	name string
	data []byte
}

// holeBags are the bags the damage runs flip bits in: generated sim-time
// recordings, written as rosbag2's MCAP plugin writes them (one channel
// per topic, chunked, with chunk CRCs or as rosbag2 by default without,
// zstd or lz4 or none, or without a summary as after a crash), and the real recordings of shared/bags
// rewritten by the same writer in small chunks (as recorded, they are one
// chunk each, whose loss leaves nothing to judge).
func holeBags(t *testing.T) []holeBag {
	t.Helper()
	var bags []holeBag
	// /clock at 100 Hz, /range at 10 Hz one ms after a /clock.
	fast := simBag(100*sec, 20)
	// /clock at 20 Hz, /range at 100 Hz stamped with the sim time between
	// two /clock messages (at most 50 ms ahead of the latest: not future).
	var slow []genMsg
	for i := range 20 * 100 {
		log := wall + int64(i)*10*ms
		v := 500*sec + int64(i)*10*ms
		if i%5 == 0 {
			slow = append(slow, clockMsg(log, v))
		}
		slow = append(slow, rangeMsg(log+ms, v))
	}
	// Chunks of 4 KiB (with SIMCLOCK_FLIPS=all, of 1 KiB too: 4 times the
	// chunks, each a hole in a different place).
	sizes := []int64{4096}
	if os.Getenv("SIMCLOCK_FLIPS") == "all" {
		sizes = []int64{1024, 4096}
	}
	for _, g := range []struct {
		name string
		msgs []genMsg
	}{{"clock100hz", fast}, {"clock20hz", slow}} {
		// rosbag2 writes no chunk CRC by default (mcap_storage.cpp), and
		// its zstd_fast preset compresses: zstd's own checks find the damage.
		for _, mode := range []string{"chunked+crc", "zstd+crc", "zstd", "lz4+crc", "noindex+crc"} {
			for _, size := range sizes {
				name, crc := strings.CutSuffix(mode, "+crc")
				wo := writerModes[name]
				wo.ChunkSize, wo.IncludeCRC = size, crc
				bags = append(bags, holeBag{fmt.Sprintf("%s/%s/%d", g.name, mode, size),
					bagBytes(t, wo, []genTopic{clockTopic, rangeTopic}, g.msgs)})
			}
		}
	}
	if _, err := os.Stat(realBagDir); err != nil {
		t.Logf("real bags not available: %v", err)
		return bags
	}
	paths, _ := filepath.Glob(filepath.Join(realBagDir, "*.mcap"))
	for _, p := range paths {
		data := rechunk(t, p, mcap.WriterOptions{Chunked: true, ChunkSize: 1024, IncludeCRC: true, Compression: mcap.CompressionZSTD})
		bags = append(bags, holeBag{"real/" + filepath.Base(p), data})
	}
	return bags
}

// rechunk rewrites an MCAP file record for record with the mcap writer
// in the options given.
func rechunk(t *testing.T, path string, wo mcap.WriterOptions) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lex, err := mcap.NewLexer(f, &mcap.LexerOptions{EmitChunks: false})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w, err := mcap.NewWriter(&b, &wo)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1024)
	for {
		tok, rec, err := lex.Next(buf)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(rec) > len(buf) {
			buf = rec
		}
		switch tok {
		case mcap.TokenHeader:
			h, _ := mcap.ParseHeader(rec)
			err = w.WriteHeader(h)
		case mcap.TokenSchema:
			s, _ := mcap.ParseSchema(rec)
			err = w.WriteSchema(s)
		case mcap.TokenChannel:
			c, _ := mcap.ParseChannel(rec)
			err = w.WriteChannel(c)
		case mcap.TokenMessage:
			m, _ := mcap.ParseMessage(rec)
			err = w.WriteMessage(m)
		case mcap.TokenMetadata:
			m, _ := mcap.ParseMetadata(rec)
			err = w.WriteMetadata(m)
		case mcap.TokenDataEnd:
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			return b.Bytes()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// damageRuns flips one bit in the middle of every chunk of every bag (at
// a quarter, half and three quarters with SIMCLOCK_FLIPS=all), inspects
// each damaged copy with opts, and returns how many runs damaged a chunk,
// how many of them made up hazards the clean bag does not have, and what.
func damageRuns(t *testing.T, bags []holeBag, opts Options) (runs, bad int, made []string) {
	t.Helper()
	dir := t.TempDir()
	quarters := []int{2}
	if os.Getenv("SIMCLOCK_FLIPS") == "all" {
		quarters = []int{1, 2, 3}
	}
	for _, b := range bags {
		clean, err := Inspect(context.Background(), []string{writeNamed(t, dir, "clean_0.mcap", b.data)}, opts)
		if err != nil {
			t.Fatalf("%s clean: %v", b.name, err)
		}
		for c := 0; ; c++ {
			off, n, ok := chunkAt(b.data, c)
			if !ok {
				break
			}
			for _, q := range quarters {
				at := off + 9 + max(48, n*q/4)
				if at >= off+9+n {
					continue
				}
				flipped := slices.Clone(b.data)
				flipped[at] ^= 1 << (at % 8)
				got, _ := Inspect(context.Background(), []string{writeNamed(t, dir, "bad_0.mcap", flipped)}, opts)
				if got == nil || got.DamagedChunks() == 0 {
					continue // a bit the chunk's checks do not depend on
				}
				runs++
				if m := madeUp(clean, got); len(m) > 0 {
					bad++
					made = append(made, fmt.Sprintf("%s chunk %d byte %d: %s", b.name, c, at, strings.Join(m, ", ")))
				}
			}
		}
	}
	return runs, bad, made
}

// chunkAt returns the offset and content length of the n-th chunk record.
func chunkAt(data []byte, n int) (off, length int, ok bool) {
	off = 8
	for off+9 <= len(data) {
		l := int(leUint64(data[off+1:]))
		if mcap.OpCode(data[off]) == mcap.OpChunk {
			if n == 0 {
				return off, l, true
			}
			n--
		}
		off += 9 + l
	}
	return 0, 0, false
}

func leUint64(b []byte) uint64 {
	var v uint64
	for i := 7; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

func writeNamed(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestHoleResetsClockReferences: after a damaged chunk is skipped, what
// follows is judged against no /clock from before the hole. Stamps after
// the hole were compared with the last /clock before it (future_stamp,
// time_base_mismatch from one flipped bit), and messages after a hole
// that held the first /clock were counted as before_first_clock. The same
// damage runs are read the old way (the hole keeps the /clock reference)
// and the new: the old makes up hazards, so the runs reproduce the
// problem, and the new makes up none.
func TestHoleResetsClockReferences(t *testing.T) {
	if testing.Short() {
		t.Skip("damage runs: -short")
	}
	var badOld int
	var made []string
	bags := holeBags(t)
	for _, real := range []bool{false, true} {
		group := slices.DeleteFunc(slices.Clone(bags), func(b holeBag) bool { return strings.HasPrefix(b.name, "real/") != real })
		runs, old, _ := damageRuns(t, group, Options{holesKeepClock: true})
		_, bad, m := damageRuns(t, group, Options{})
		t.Logf("%d bags (real %v), %d runs with a damaged chunk: made-up hazards in %d runs when the hole keeps /clock, %d when it resets it",
			len(group), real, runs, old, bad)
		badOld += old
		made = append(made, m...)
	}
	if badOld == 0 {
		t.Errorf("no run made up a hazard with the old behaviour: the damage runs do not reproduce the problem")
	}
	for i, m := range made {
		if i == 10 {
			t.Errorf("... %d more", len(made)-10)
			break
		}
		t.Errorf("made up: %s", m)
	}
}
