package bag

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/foxglove/mcap/go/mcap"
	"github.com/klauspost/compress/zstd"
)

// errStop ends the inflation of a file compressed whole at the first
// byte that cannot belong to the storage it should hold.
var errStop = errors.New("stop")

// tempReserve is left free in the temporary directory: inflating a file
// never fills the disk.
const tempReserve = 256 << 20

// decompressFile inflates a file compressed whole with zstd
// (compression_mode: file) into a temporary file, which the caller
// removes: both storages need random access. It inflates as a stream and
// checks what comes out as it comes: the MCAP magic and then each
// record's opcode and framing, or the SQLite header and then no byte past
// the size the header declares. It stops at the first byte that cannot
// belong there, when the temporary directory would come within
// tempReserve of full, or when ctx is canceled: a small file of garbage
// never inflates into gigabytes first. Memory stays at the decoder's
// window.
//
// A file that does not start as it should returns no temporary file. A
// file that goes wrong later returns the temporary file holding what
// inflated up to there, with a *ReadError saying where (in the inflated
// data) and why: the report covers what came before.
func decompressFile(ctx context.Context, path string, format storageFormat) (string, error) {
	in, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("bag: %w", err)
	}
	defer in.Close()
	z, err := zstd.NewReader(in, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxMemory(1<<30))
	if err != nil {
		return "", fmt.Errorf("bag: %s: zstd: %w", path, err)
	}
	defer z.Close()
	fail := func(off int64, sentinel error, format string, args ...any) *ReadError {
		return &ReadError{Path: path, Offset: -1, Record: fmt.Sprintf("zstd file compression, at byte %d of the inflated data", off),
			Err: fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)}
	}
	// The start says what the file is before anything is written.
	check := format.inflate()
	head := make([]byte, check.headLen())
	n, err := io.ReadFull(z, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", fail(int64(n), ErrCorrupt, "zstd: %v", err)
	}
	if err := check.start(head[:n]); err != nil {
		return "", fail(0, err, "the file compressed whole starts with % x", head[:min(n, 16)])
	}
	out, err := os.CreateTemp("", "simclock-bag-*"+format.ext)
	if err != nil {
		return "", fmt.Errorf("bag: %w", err)
	}
	free := tempFree(out.Name())
	w := &inflateWriter{ctx: ctx, w: out, check: check, limit: free - tempReserve}
	if _, err := w.Write(head[:n]); err == nil {
		_, err = io.Copy(w, z)
		if err != nil && w.err == nil {
			w.err = fail(w.off, ErrCorrupt, "zstd: %v", err)
		}
	}
	if err := w.check.end(); err != nil && w.err == nil {
		w.err = fail(w.off, ErrTruncated, "%v", err)
	}
	cerr := out.Close()
	switch {
	case w.err != nil && errors.Is(w.err, ctx.Err()) && ctx.Err() != nil:
		os.Remove(out.Name())
		return "", ctx.Err()
	case w.err != nil:
		return out.Name(), w.rerr(path)
	case cerr != nil:
		os.Remove(out.Name())
		return "", fmt.Errorf("bag: %w", cerr)
	}
	return out.Name(), nil
}

// tempFree says how many bytes the temporary directory can take; tests
// make it small.
var tempFree = freeBytes

// freeBytes is the space left to an unprivileged user on the file system
// holding path; a very large number when it cannot be told.
func freeBytes(path string) int64 {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return 1 << 62
	}
	return int64(st.Bavail) * int64(st.Bsize)
}

// An inflateWriter writes inflated data to the temporary file, checking
// it and the context as it goes.
type inflateWriter struct {
	ctx   context.Context
	w     io.Writer
	check inflateCheck
	limit int64 // bytes the temporary directory can take
	off   int64
	err   error // why it stopped
	why   string
}

func (w *inflateWriter) Write(b []byte) (int, error) {
	if err := w.ctx.Err(); err != nil {
		w.err = err
		return 0, err
	}
	if w.off+int64(len(b)) > w.limit {
		w.err = errStop
		w.why = fmt.Sprintf("the inflated file would leave less than %d MiB free in the temporary directory", tempReserve>>20)
		return 0, w.err
	}
	keep, err := w.check.feed(w.off, b)
	if keep > 0 {
		if _, werr := w.w.Write(b[:keep]); werr != nil {
			w.err = werr
			return 0, werr
		}
		w.off += int64(keep)
	}
	if err != nil {
		w.err = errStop
		w.why = err.Error()
		return keep, err
	}
	return len(b), nil
}

// rerr turns why the inflation stopped into a *ReadError.
func (w *inflateWriter) rerr(path string) error {
	if !errors.Is(w.err, errStop) {
		if _, ok := w.err.(*ReadError); ok {
			return w.err
		}
		return &ReadError{Path: path, Offset: -1, Record: "zstd file compression", Err: fmt.Errorf("%w: %v", ErrCorrupt, w.err)}
	}
	return &ReadError{Path: path, Offset: -1, Record: fmt.Sprintf("zstd file compression, at byte %d of the inflated data", w.off),
		Err: fmt.Errorf("%w: %s; the report covers the %d bytes before", ErrCorrupt, w.why, w.off)}
}

// An inflateCheck follows the inflated data of one storage.
type inflateCheck interface {
	headLen() int
	// start checks the first bytes, and returns ErrNotMCAP or ErrNotSQLite.
	start(head []byte) error
	// feed checks b, found at offset off of the inflated data; keep is
	// how much of it can belong to the file.
	feed(off int64, b []byte) (keep int, err error)
	// end says what is wrong with the data ending here, or nil.
	end() error
}

// newInflateCheck returns the inflation check of the storage named.
func newInflateCheck(storage string) inflateCheck {
	f, ok := formatNamed(storage)
	if !ok {
		f = storageFormats[0]
	}
	return f.inflate()
}

// mcapInflate follows MCAP's framing: the magic, then records (an opcode
// and a length, then that many bytes), the first a header, until the
// footer and the closing magic, after which nothing may come.
type mcapInflate struct {
	hdr      [9]byte
	have     int    // bytes of hdr filled
	skip     uint64 // content bytes of the current record still to come
	records  int
	inFooter bool // the footer's content is being skipped; the magic follows
	tail     int  // bytes of the closing magic seen
}

func (c *mcapInflate) headLen() int { return len(mcap.Magic) }

func (c *mcapInflate) start(head []byte) error {
	if !bytes.Equal(head, mcap.Magic) {
		return ErrNotMCAP
	}
	return nil
}

func (c *mcapInflate) feed(off int64, b []byte) (int, error) {
	i := 0
	if off < int64(len(mcap.Magic)) { // the magic, checked by start
		i = min(len(b), len(mcap.Magic)-int(off))
	}
	for i < len(b) {
		switch {
		case c.skip > 0:
			n := int(min(uint64(len(b)-i), c.skip))
			c.skip -= uint64(n)
			i += n
		case c.inFooter:
			n := min(len(b)-i, len(mcap.Magic)-c.tail)
			if n == 0 {
				return i, fmt.Errorf("%d more bytes after the end of the MCAP file", len(b)-i)
			}
			if !bytes.Equal(b[i:i+n], mcap.Magic[c.tail:c.tail+n]) {
				return i, errors.New("the footer is not followed by the MCAP magic")
			}
			c.tail += n
			i += n
		default:
			n := min(len(b)-i, len(c.hdr)-c.have)
			copy(c.hdr[c.have:], b[i:i+n])
			c.have += n
			i += n
			if c.have < len(c.hdr) {
				continue
			}
			op := mcap.OpCode(c.hdr[0])
			at := off + int64(i) - int64(len(c.hdr))
			keep := i - len(c.hdr)
			if keep < 0 {
				keep = 0 // the header began in an earlier write, already kept
			}
			if op == 0 || op > mcap.OpDataEnd && op < 0x80 {
				return keep, fmt.Errorf("byte %d holds opcode 0x%02x, which is no MCAP record", at, byte(op))
			}
			if c.records == 0 && op != mcap.OpHeader {
				return keep, fmt.Errorf("the first record is a %s, not a header", recordName(op))
			}
			c.records++
			c.have = 0
			c.skip = binary.LittleEndian.Uint64(c.hdr[1:])
			if op == mcap.OpFooter {
				if c.skip != 20 {
					return keep, fmt.Errorf("a footer record of %d bytes, not 20", c.skip)
				}
				c.inFooter = true
			}
		}
	}
	return len(b), nil
}

// The reader says precisely where a file cut short ends.
func (c *mcapInflate) end() error { return nil }

// sqliteInflate checks the SQLite header and keeps no byte past the
// database size it declares (when the header's page count is valid).
type sqliteInflate struct {
	size int64 // declared size; 0: unknown
}

func (c *sqliteInflate) headLen() int { return 100 }

func (c *sqliteInflate) start(head []byte) error {
	if len(head) < len(sqliteMagic) || !bytes.Equal(head[:len(sqliteMagic)], sqliteMagic) {
		return ErrNotSQLite
	}
	if len(head) == 100 {
		pageSize := int64(binary.BigEndian.Uint16(head[16:]))
		if pageSize == 1 {
			pageSize = 65536
		}
		pages := int64(binary.BigEndian.Uint32(head[28:]))
		if binary.BigEndian.Uint32(head[24:]) == binary.BigEndian.Uint32(head[92:]) && pages > 0 {
			c.size = pages * pageSize
		}
	}
	return nil
}

func (c *sqliteInflate) feed(off int64, b []byte) (int, error) {
	if c.size > 0 && off+int64(len(b)) > c.size {
		keep := int(max(0, c.size-off))
		return keep, fmt.Errorf("more data after the %d bytes the SQLite header declares", c.size)
	}
	return len(b), nil
}

func (c *sqliteInflate) end() error { return nil }
