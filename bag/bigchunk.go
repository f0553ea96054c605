package bag

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/foxglove/mcap/go/mcap"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// bigChunk reads a chunk too big to hold in memory (its record content is
// n bytes at byte off+9 of f) as a stream, in two passes: the first
// decompresses it to check its size, CRC, lz4 checksum and the framing of
// its records, counting its messages; only a chunk that passes is
// decompressed again and handed to the sink record by record. With
// --no-crc the first pass is skipped. Memory is one record at a time.
func (r *mcapReader) bigChunk(ctx context.Context, f io.ReaderAt, off int64, n uint64, count func() int64) error {
	hb := make([]byte, min(n, 4096))
	if _, err := f.ReadAt(hb, off+9); err != nil {
		return &ReadError{Path: r.info.Path, Offset: off, Record: "chunk record", Err: fmt.Errorf("%w: %w", ErrTruncated, err)}
	}
	h, err := parseChunkHeader(hb, n)
	r.info.Chunks++
	if err != nil {
		r.damage(off, countOr(count), err)
		return nil
	}
	r.comps[compName(h.comp)] = true
	open := func() (io.Reader, func(), error) {
		sec := io.NewSectionReader(f, off+9+int64(h.records), int64(h.rlen))
		switch h.comp {
		case "":
			return sec, func() {}, nil
		case "zstd":
			z, err := zstd.NewReader(sec, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true))
			if err != nil {
				return nil, nil, err
			}
			return z, z.Close, nil
		case "lz4":
			return lz4.NewReader(sec), func() {}, nil
		}
		return nil, nil, fmt.Errorf("%w: unsupported compression \"%s\"", ErrCorrupt, h.comp)
	}
	if !r.s.noCRC {
		sc := &recordScanner{}
		if err := verifyStream(ctx, open, h, sc); err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return err
			}
			m := sc.messages
			if !errors.Is(err, ErrChecksum) || sc.err != nil || !sc.atBoundary() {
				m = countOr(count)
			}
			r.damage(off, m, err)
			return nil
		}
	}
	src, done, err := open()
	if err != nil {
		r.damage(off, countOr(count), err)
		return nil
	}
	defer done()
	br := bufio.NewReaderSize(io.LimitReader(src, int64(h.usize)), 1<<20)
	fail := func(err error) error {
		return &ReadError{Path: r.info.Path, Offset: off, Record: "chunk record", Err: fmt.Errorf("%w: %w", ErrCorrupt, err)}
	}
	var hdr [9]byte
	for i := 0; ; i++ {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			if err == io.EOF {
				return nil
			}
			return fail(err)
		}
		l := binary.LittleEndian.Uint64(hdr[1:])
		if l > h.usize {
			return fail(fmt.Errorf("a record of %d bytes in a chunk of %d", l, h.usize))
		}
		buf := grow(&r.recBuf, int(l))
		if _, err := io.ReadFull(br, buf); err != nil {
			return fail(err)
		}
		if err := r.record(mcap.OpCode(hdr[0]), buf, off, false); err != nil {
			return err
		}
	}
}

func countOr(count func() int64) int64 {
	if count == nil {
		return -1
	}
	return count()
}

// verifyStream decompresses a chunk's records once, checking their size,
// CRC and lz4 checksum, and scanning their framing with sc.
func verifyStream(ctx context.Context, open func() (io.Reader, func(), error), h chunkHeader, sc *recordScanner) error {
	src, done, err := open()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	defer done()
	crc := crc32.NewIEEE()
	w := io.MultiWriter(crc, sc)
	buf := make([]byte, 1<<20)
	var total uint64
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		k, err := src.Read(buf)
		if k > 0 {
			total += uint64(k)
			if total > h.usize {
				return fmt.Errorf("%w: chunk decompresses to more than the %d bytes its header says", ErrCorrupt, h.usize)
			}
			_, _ = w.Write(buf[:k])
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			if errors.Is(err, lz4.ErrInvalidFrameChecksum) || errors.Is(err, lz4.ErrInvalidBlockChecksum) {
				return fmt.Errorf("%w: lz4 frame: %v", ErrChecksum, err)
			}
			return fmt.Errorf("%w: %s: %v", ErrCorrupt, compName(h.comp), err)
		}
	}
	if total != h.usize {
		return fmt.Errorf("%w: chunk decompresses to %d bytes, its header says %d", ErrCorrupt, total, h.usize)
	}
	if sc.err != nil {
		return sc.err
	}
	if !sc.atBoundary() {
		return fmt.Errorf("%w: the last record of the chunk is cut", ErrCorrupt)
	}
	if h.crc != 0 && crc.Sum32() != h.crc {
		return fmt.Errorf("%w: chunk CRC is %08x, its content's is %08x", ErrChecksum, h.crc, crc.Sum32())
	}
	return nil
}

// A recordScanner follows the record framing of a stream of chunk
// content written to it, counting messages, without keeping the data.
type recordScanner struct {
	hdr      [9]byte
	inHdr    int    // header bytes seen of the current record
	left     uint64 // content bytes still to skip
	pos      uint64
	messages int64
	err      error
}

func (s *recordScanner) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 && s.err == nil {
		if s.left > 0 {
			k := min(uint64(len(p)), s.left)
			s.left -= k
			s.pos += k
			p = p[k:]
			continue
		}
		k := copy(s.hdr[s.inHdr:], p)
		s.inHdr += k
		s.pos += uint64(k)
		p = p[k:]
		if s.inHdr == 9 {
			s.inHdr = 0
			s.left = binary.LittleEndian.Uint64(s.hdr[1:])
			if mcap.OpCode(s.hdr[0]) == mcap.OpMessage {
				if s.left < 22 {
					s.err = fmt.Errorf("%w: message record at chunk byte %d of %d bytes, under the 22 of its fields", ErrCorrupt, s.pos-9, s.left)
				}
				s.messages++
			}
		}
	}
	return n, nil
}

// atBoundary reports whether the stream ended between two records.
func (s *recordScanner) atBoundary() bool { return s.inHdr == 0 && s.left == 0 }
