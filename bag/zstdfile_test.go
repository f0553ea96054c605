package bag

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// zstdFrames writes to path the zstd frames of parts, one after the other
// (as one stream: frames concatenate), each part repeated times[i] times.
func zstdFrames(t *testing.T, path string, parts [][]byte, times []int) {
	t.Helper()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	var out bytes.Buffer
	for i, p := range parts {
		frame := enc.EncodeAll(p, nil)
		for range times[i] {
			out.Write(frame)
		}
	}
	writeText(t, path, out.String())
}

// TestFileCompressionStreamed: a file compressed whole is inflated as a
// stream and checked as it comes, so what is not MCAP or SQLite stops at
// its first wrong byte instead of inflating whole first (4 GiB of zeros
// from a few hundred kilobytes, as a user's garbage file did), and the
// temporary file never fills the disk.
func TestFileCompressionStreamed(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	topics := []genTopic{clockTopic, rangeTopic}
	msgs := hazardMsgs()
	good := bagBytes(t, writerModes["chunked"], topics, msgs)
	db := filepath.Join(t.TempDir(), "good_0.db3")
	writeDB3(t, db, db3Options{definitions: true}, topics, msgs)
	goodDB, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	zeros := make([]byte, 64<<20)
	dir := t.TempDir()
	cases := []struct {
		name  string
		parts [][]byte
		times []int
		want  string // in the error
		msgs  int64  // messages still read
	}{
		{"zeros.mcap.zstd", [][]byte{zeros}, []int{64}, "not an MCAP file: the file compressed whole starts with 00 00", -1},
		{"zeros.db3.zstd", [][]byte{zeros}, []int{64}, "not an SQLite database", -1},
		{"text.mcap.zstd", [][]byte{[]byte("hello, world\n")}, []int{1}, "not an MCAP file", -1},
		{"magic_then_zeros.mcap.zstd", [][]byte{good[:8], zeros}, []int{1, 64}, "byte 8 holds opcode 0x00, which is no MCAP record", 0},
		{"bag_then_zeros.mcap.zstd", [][]byte{good, zeros}, []int{1, 64}, "more bytes after the end of the MCAP file", int64(len(msgs))},
		{"db3_then_zeros.db3.zstd", [][]byte{goodDB, zeros}, []int{1, 64}, "more data after the", int64(len(msgs))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, c.name)
			zstdFrames(t, p, c.parts, c.times)
			rep, err := Inspect(context.Background(), []string{p}, Options{})
			var re *ReadError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want a *ReadError saying %q", err, c.want)
			}
			if rep == nil || rep.Complete {
				t.Fatalf("report %v: want an incomplete one", rep)
			}
			if c.msgs >= 0 && rep.Messages != c.msgs {
				t.Errorf("%d messages read, want the %d before the damage", rep.Messages, c.msgs)
			}
			if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
				t.Errorf("temporary files left: %v", ents)
			}
		})
	}
	// A chunk of zeros that frames well is bounded by the room left in
	// the temporary directory.
	t.Run("bounded", func(t *testing.T) {
		defer func(f func(string) int64) { tempFree = f }(tempFree)
		tempFree = func(string) int64 { return tempReserve + 1<<20 }
		chunk := append([]byte{0x06}, make([]byte, 8)...)
		chunk[4] = 0x10 // a chunk record of 256 MiB, of zeros
		p := filepath.Join(dir, "bomb.mcap.zstd")
		zstdFrames(t, p, [][]byte{good[:len(good)-8-29], chunk, zeros}, []int{1, 1, 64})
		_, err := Inspect(context.Background(), []string{p}, Options{})
		if err == nil || !strings.Contains(err.Error(), "MiB free in the temporary directory") {
			t.Fatalf("got %v, want the temporary directory's bound", err)
		}
	})
}

// FuzzInflateCheck feeds arbitrary inflated data to the checks of a file
// compressed whole, split into writes at arbitrary points: no panic, what
// is kept never exceeds what came, and the verdict does not depend on how
// the data was split.
func FuzzInflateCheck(f *testing.F) {
	good := bagBytes(f, writerModes["chunked"], []genTopic{clockTopic, rangeTopic}, simBag(0, 1)[:20])
	f.Add(good, uint16(7), false)
	f.Add(append(good, 0, 0, 0), uint16(100), false)
	f.Add(good[:len(good)/2], uint16(3), false)
	f.Add([]byte("SQLite format 3\x00"), uint16(1), true)
	f.Fuzz(func(t *testing.T, data []byte, split uint16, sqlite bool) {
		storage := "mcap"
		if sqlite {
			storage = "sqlite3"
		}
		run := func(step int) (int64, bool) {
			c := newInflateCheck(storage)
			n := min(c.headLen(), len(data))
			if c.start(data[:n]) != nil {
				return 0, true
			}
			var kept int64
			for off := 0; off < len(data); off += step {
				b := data[off:min(off+step, len(data))]
				keep, err := c.feed(int64(off), b)
				if keep < 0 || keep > len(b) {
					t.Fatalf("kept %d of %d", keep, len(b))
				}
				kept += int64(keep)
				if err != nil {
					return kept, true
				}
			}
			return kept, false
		}
		k1, e1 := run(len(data) + 1)
		k2, e2 := run(int(split%512) + 1)
		if e1 != e2 {
			t.Fatalf("verdict depends on the split: whole %v (kept %d), by %d: %v (kept %d)", e1, k1, split%512+1, e2, k2)
		}
	})
}
