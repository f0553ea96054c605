package bag

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"github.com/simclock/simclock/timemsg"
)

// A recBuf builds MCAP records by hand, for files the mcap writer
// cannot make cheaply (one chunk of over 1 GiB).
type recBuf struct{ bytes.Buffer }

func (b *recBuf) u16(v uint16) { b.Write(binary.LittleEndian.AppendUint16(nil, v)) }
func (b *recBuf) u32(v uint32) { b.Write(binary.LittleEndian.AppendUint32(nil, v)) }
func (b *recBuf) u64(v uint64) { b.Write(binary.LittleEndian.AppendUint64(nil, v)) }
func (b *recBuf) str(s string) { b.u32(uint32(len(s))); b.WriteString(s) }

// record appends one record: opcode, length, content.
func record(w io.Writer, op byte, content []byte) {
	var h [9]byte
	h[0] = op
	binary.LittleEndian.PutUint64(h[1:], uint64(len(content)))
	w.Write(h[:])
	w.Write(content)
}

func messageRecord(ch uint16, log int64, data []byte) []byte {
	var b recBuf
	b.u16(ch)
	b.u32(0)
	b.u64(uint64(log))
	b.u64(uint64(log))
	b.Write(data)
	return b.Bytes()
}

// bigChunkBag writes an MCAP file whose one chunk holds a /clock message,
// n blob messages of size bytes (zeros: they compress to almost nothing)
// and a last /clock message; it returns the chunk's byte offset.
func bigChunkBag(t testing.TB, path, comp string, n, size int, indexed bool) int64 {
	t.Helper()
	var out recBuf
	out.Write([]byte("\x89MCAP0\r\n"))
	var h recBuf
	h.str("ros2")
	h.str("simclock big chunk test")
	record(&out, 0x01, h.Bytes())
	var meta recBuf
	schemas := func(w io.Writer) {
		var s recBuf
		s.u16(1)
		s.str(timemsg.ClockTypeName)
		s.str("ros2msg")
		s.str(clockSchema)
		record(w, 0x03, s.Bytes())
		s.Reset()
		s.u16(2)
		s.str("simclock_test/msg/Blob")
		s.str("ros2msg")
		s.str("uint8[] data")
		record(w, 0x03, s.Bytes())
		for id, topic := range []string{timemsg.ClockTopic, "/blob"} {
			var c recBuf
			c.u16(uint16(id + 1))
			c.u16(uint16(id + 1))
			c.str(topic)
			c.str("cdr")
			c.u32(0)
			record(w, 0x04, c.Bytes())
		}
	}
	schemas(&out)
	schemas(&meta)

	var z bytes.Buffer
	var cw io.WriteCloser
	switch comp {
	case "zstd":
		enc, err := zstd.NewWriter(&z, zstd.WithEncoderLevel(zstd.SpeedFastest))
		if err != nil {
			t.Fatal(err)
		}
		cw = enc
	case "lz4":
		cw = lz4.NewWriter(&z)
	default:
		cw = nopCloser{&z}
	}
	crc := crc32.NewIEEE()
	var usize uint64
	w := io.MultiWriter(cw, crc, countWriter{&usize})
	blob := make([]byte, size)
	blob[1] = 1 // CDR little-endian header; the rest is a zero-length sequence and padding
	record(w, 0x05, messageRecord(1, wall, timemsg.MarshalClock(timemsg.Clock{Clock: nsToTime(100 * sec)})))
	for i := range n {
		record(w, 0x05, messageRecord(2, wall+int64(i+1)*ms, blob))
	}
	record(w, 0x05, messageRecord(1, wall+int64(n+1)*ms, timemsg.MarshalClock(timemsg.Clock{Clock: nsToTime(100*sec + int64(n+1)*ms)})))
	if err := cw.Close(); err != nil {
		t.Fatal(err)
	}
	var c recBuf
	c.u64(uint64(wall))
	c.u64(uint64(wall + int64(n+1)*ms))
	c.u64(usize)
	c.u32(crc.Sum32())
	c.str(comp)
	c.u64(uint64(z.Len()))
	c.Write(z.Bytes())
	chunkOff := int64(out.Len())
	record(&out, 0x06, c.Bytes())
	chunkLen := int64(out.Len()) - chunkOff
	var de recBuf
	de.u32(0)
	record(&out, 0x0F, de.Bytes())
	summaryStart := uint64(0)
	if indexed {
		summaryStart = uint64(out.Len())
		out.Write(meta.Bytes())
		var ci recBuf
		ci.u64(uint64(wall))
		ci.u64(uint64(wall + int64(n+1)*ms))
		ci.u64(uint64(chunkOff))
		ci.u64(uint64(chunkLen))
		ci.u32(0) // no message index offsets
		ci.u64(0)
		ci.str(comp)
		ci.u64(uint64(z.Len()))
		ci.u64(usize)
		record(&out, 0x08, ci.Bytes())
	}
	var f recBuf
	f.u64(summaryStart)
	f.u64(0)
	f.u32(0)
	record(&out, 0x02, f.Bytes())
	out.Write([]byte("\x89MCAP0\r\n"))
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return chunkOff
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

type countWriter struct{ n *uint64 }

func (c countWriter) Write(p []byte) (int, error) { *c.n += uint64(len(p)); return len(p), nil }

// withStreamLimit lowers the in-memory chunk limit for one test.
func withStreamLimit(t *testing.T, n uint64) {
	old := streamLimit
	streamLimit = n
	t.Cleanup(func() { streamLimit = old })
}

// TestStreamedChunks: chunks above the in-memory limit are read as a
// stream, verified first, with the same result as in memory; a damaged
// one is skipped.
func TestStreamedChunks(t *testing.T) {
	for _, comp := range []string{"", "zstd", "lz4"} {
		for _, indexed := range []bool{false, true} {
			p := filepath.Join(t.TempDir(), "big_0.mcap")
			off := bigChunkBag(t, p, comp, 300, 1000, indexed)
			inMem, err := Inspect(context.Background(), []string{p}, Options{})
			if err != nil {
				t.Fatalf("%q indexed=%v: %v %+v", comp, indexed, err, inMem.Files[0].Damaged)
			}
			withStreamLimit(t, 4096)
			streamed, err := Inspect(context.Background(), []string{p}, Options{})
			if err != nil {
				t.Fatalf("%q indexed=%v streamed: %v %+v", comp, indexed, err, streamed.Files[0].Damaged)
			}
			if streamed.Messages != 302 || inMem.Messages != 302 || streamed.Clock.Messages != 2 {
				t.Errorf("%q indexed=%v: %d streamed, %d in memory, want 302", comp, indexed, streamed.Messages, inMem.Messages)
			}
			// Damage: flip a byte inside the chunk's records.
			data, _ := os.ReadFile(p)
			data[off+9+200] ^= 0x40
			os.WriteFile(p, data, 0o644)
			rep, err := Inspect(context.Background(), []string{p}, Options{})
			if !errors.Is(err, ErrDamaged) || rep.Messages != 0 || len(rep.Files[0].Damaged) != 1 || rep.Files[0].Damaged[0].Offset != off {
				t.Errorf("%q indexed=%v damaged: %v, %d messages, damaged %+v", comp, indexed, err, rep.Messages, rep.Files[0].Damaged)
			}
			streamLimit = 64 << 20
		}
	}
}

// TestChunkOver1GiB: a legal chunk that inflates to more than 1 GiB is
// read, streaming, with the heap far below the chunk's size.
func TestChunkOver1GiB(t *testing.T) {
	if testing.Short() {
		t.Skip("inflates 1.1 GiB twice")
	}
	p := filepath.Join(t.TempDir(), "huge_0.mcap")
	const n, size = 1100, 1 << 20 // 1100 messages of 1 MiB
	bigChunkBag(t, p, "zstd", n, size, true)
	st, _ := os.Stat(p)
	t.Logf("file %d bytes for a chunk of %d MiB", st.Size(), n*size>>20)
	runtime.GC()
	stop := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		var ms runtime.MemStats
		var mx uint64
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			mx = max(mx, ms.HeapInuse)
			select {
			case <-stop:
				peak <- mx
				return
			case <-tick.C:
			}
		}
	}()
	rep, err := Inspect(context.Background(), []string{p}, Options{})
	close(stop)
	heap := <-peak
	if err != nil {
		t.Fatal(err)
	}
	if rep.Messages != n+2 || rep.Clock.Messages != 2 {
		t.Errorf("%d messages, %d /clock; want %d, 2", rep.Messages, rep.Clock.Messages, n+2)
	}
	t.Logf("peak heap %d MiB", heap>>20)
	if heap > 256<<20 {
		t.Errorf("peak heap %d MiB reading a 1.1 GiB chunk, want a few MiB", heap>>20)
	}
}
