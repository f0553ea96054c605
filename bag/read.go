package bag

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"

	"github.com/foxglove/mcap/go/mcap"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// Sentinel errors of bag reading; a *ReadError wraps one of them.
var (
	// ErrNotMCAP reports a file that does not start with the MCAP magic.
	ErrNotMCAP = errors.New("not an MCAP file")
	// ErrTruncated reports a file that ends inside a record or before its
	// footer: a recording that was cut off.
	ErrTruncated = errors.New("file is truncated")
	// ErrCorrupt reports a record that cannot be valid: a length past the
	// end of its container, a chunk that does not decompress, a bad index.
	ErrCorrupt = errors.New("file is corrupt")
)

// A ReadError says which file failed, at which byte offset, in which
// record. Everything before Offset has been read and analysed.
type ReadError struct {
	Path   string
	Offset int64  // byte offset in the file of the record that failed
	Record string // what was being read, such as "chunk record" or "footer"
	Err    error  // wraps ErrTruncated, ErrCorrupt or ErrNotMCAP
}

// Error says which file, where and what.
func (e *ReadError) Error() string {
	return fmt.Sprintf("bag: %s: at byte %d (%s): %v", e.Path, e.Offset, e.Record, e.Err)
}

// Unwrap returns the sentinel-wrapping cause.
func (e *ReadError) Unwrap() error { return e.Err }

// FileInfo describes one file of a bag as read.
type FileInfo struct {
	Path     string `json:"path"`
	Bytes    int64  `json:"bytes"`
	Indexed  bool   `json:"indexed"` // read through the summary's chunk index
	Profile  string `json:"profile"`
	Library  string `json:"library"`
	Chunks   int    `json:"chunks"`
	Messages int64  `json:"messages"`
	// Compression lists the chunk compressions met ("", "zstd", "lz4"),
	// "none" standing for uncompressed chunks.
	Compression []string `json:"compression"`
	Error       string   `json:"error,omitempty"`
}

type chanSchema struct {
	ch  *mcap.Channel
	sch *mcap.Schema
}

// messageFunc receives every message of a bag. Data aliases a buffer
// that is reused after the call returns.
type messageFunc func(sch *mcap.Schema, ch *mcap.Channel, m *mcap.Message) error

// reader scans MCAP files. It is not safe for concurrent use.
type reader struct {
	onMessage messageFunc
	// onChannel, when set, is called for every channel of a file, before
	// its messages.
	onChannel func(sch *mcap.Schema, ch *mcap.Channel)
	// progress, when set, is called with the bytes consumed so far of the
	// current file (at least once per chunk).
	progress func(done int64)

	schemas  map[uint16]*mcap.Schema
	channels map[uint16]*mcap.Channel
	byID     []chanSchema // cache of channels[id] and its schema for small ids
	msg      mcap.Message
	recBuf   []byte
	dec      decompressor
	info     *FileInfo
	comps    map[string]bool
}

// buffers keeps chunk buffers between Inspect calls, so a tool that
// inspects many bags does not allocate and zero megabytes for each.
var buffers sync.Pool // of *[]byte

func getBuf() []byte {
	if b, ok := buffers.Get().(*[]byte); ok {
		return *b
	}
	return nil
}

func (r *reader) close() {
	r.dec.close()
	for _, b := range []*[]byte{&r.recBuf, &r.dec.out} {
		if cap(*b) > 0 && cap(*b) <= 64<<20 {
			buf := (*b)[:0]
			buffers.Put(&buf)
		}
		*b = nil
	}
}

// readFile reads one MCAP file: through its chunk index when the summary
// section is intact and indexes chunks, linearly otherwise.
func (r *reader) readFile(ctx context.Context, path string, fi *FileInfo) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("bag: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("bag: %w", err)
	}
	if st.IsDir() {
		return fmt.Errorf("bag: %s is a directory: give the .mcap files of the bag", path)
	}
	return r.read(ctx, path, f, st.Size(), fi)
}

// source is what the reader needs of a file.
type source interface {
	io.ReaderAt
	io.ReadSeeker
}

func (r *reader) read(ctx context.Context, path string, f source, size int64, fi *FileInfo) error {
	fi.Path, fi.Bytes = path, size
	r.info, r.comps = fi, map[string]bool{}
	r.schemas, r.channels = map[uint16]*mcap.Schema{}, map[uint16]*mcap.Channel{}
	r.byID = r.byID[:0]
	defer func() {
		for c := range r.comps {
			fi.Compression = append(fi.Compression, c)
		}
		sort.Strings(fi.Compression)
	}()
	if info := summary(f, size); info != nil {
		fi.Indexed = true
		return r.readIndexed(ctx, f, fi, info)
	}
	return r.readLinear(ctx, bufio.NewReaderSize(io.NewSectionReader(f, 0, size), int(min(size, 1<<20))+16), fi)
}

// summary returns the file's summary when it has a usable chunk index.
// A summary the mcap library cannot parse (even one that makes it panic)
// means reading linearly.
func summary(f source, size int64) (info *mcap.Info) {
	defer func() {
		if recover() != nil {
			info = nil
		}
	}()
	if !plausibleSummary(f, size) {
		return nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil
	}
	mr, err := mcap.NewReader(f)
	if err != nil {
		return nil
	}
	i, err := mr.Info()
	if err != nil || len(i.ChunkIndexes) == 0 || i.Header == nil {
		return nil
	}
	return i
}

// plausibleSummary checks, before the mcap library allocates anything,
// that the header record and every summary record lie inside the file:
// a corrupt length must not make it allocate gigabytes.
func plausibleSummary(f io.ReaderAt, size int64) bool {
	const tail = 9 + 20 + 8 // footer record and closing magic
	if size < 8+9+tail {
		return false
	}
	var b [tail]byte
	if _, err := f.ReadAt(b[:17], 0); err != nil || !bytes.Equal(b[:8], mcap.Magic) ||
		binary.LittleEndian.Uint64(b[9:17]) > uint64(size-17-tail) {
		return false
	}
	if _, err := f.ReadAt(b[:], size-tail); err != nil || !bytes.Equal(b[tail-8:], mcap.Magic) ||
		mcap.OpCode(b[0]) != mcap.OpFooter || binary.LittleEndian.Uint64(b[1:9]) != 20 {
		return false
	}
	start := binary.LittleEndian.Uint64(b[9:17])
	end := uint64(size - tail)
	if start == 0 || start > end {
		return false
	}
	for off := start; off < end; {
		if end-off < 9 {
			return false
		}
		var h [9]byte
		if _, err := f.ReadAt(h[:], int64(off)); err != nil {
			return false
		}
		n := binary.LittleEndian.Uint64(h[1:])
		if n > end-off-9 {
			return false
		}
		off += 9 + n
	}
	return true
}

func (r *reader) readIndexed(ctx context.Context, f io.ReaderAt, fi *FileInfo, info *mcap.Info) error {
	fi.Profile, fi.Library = info.Header.Profile, info.Header.Library
	for id, s := range info.Schemas {
		r.schemas[id] = s
	}
	ids := make([]int, 0, len(info.Channels))
	for id, c := range info.Channels {
		r.channels[id] = c
		ids = append(ids, int(id))
	}
	sort.Ints(ids)
	for _, id := range ids {
		if c := r.channels[uint16(id)]; r.onChannel != nil {
			r.onChannel(r.schemas[c.SchemaID], c)
		}
	}
	idx := append([]*mcap.ChunkIndex(nil), info.ChunkIndexes...)
	sort.SliceStable(idx, func(i, j int) bool {
		if idx[i].MessageStartTime != idx[j].MessageStartTime {
			return idx[i].MessageStartTime < idx[j].MessageStartTime
		}
		return idx[i].ChunkStartOffset < idx[j].ChunkStartOffset
	})
	compressed := false
	for _, ci := range idx {
		compressed = compressed || ci.Compression != ""
	}
	if workers := runtime.GOMAXPROCS(0); compressed && workers > 1 && len(idx) > 1 {
		return r.readParallel(ctx, f, fi, idx, workers)
	}
	var done int64
	for _, ci := range idx {
		if err := ctx.Err(); err != nil {
			return err
		}
		buf, err := loadChunk(f, fi, ci, &r.recBuf)
		if err != nil {
			return err
		}
		if err := r.chunk(buf, int64(ci.ChunkStartOffset)); err != nil {
			return err
		}
		done += int64(ci.ChunkLength)
		if r.progress != nil {
			r.progress(done)
		}
	}
	r.progressDone(fi.Bytes)
	return nil
}

// loadChunk reads the chunk record ci points at into *buf and returns its
// content.
func loadChunk(f io.ReaderAt, fi *FileInfo, ci *mcap.ChunkIndex, buf *[]byte) ([]byte, error) {
	off := int64(ci.ChunkStartOffset)
	if ci.ChunkLength < 9 || ci.ChunkStartOffset > uint64(fi.Bytes) || ci.ChunkLength > uint64(fi.Bytes)-ci.ChunkStartOffset {
		return nil, &ReadError{Path: fi.Path, Offset: off, Record: "chunk index record",
			Err: fmt.Errorf("%w: chunk of %d bytes at byte %d lies outside the %d-byte file", ErrCorrupt, ci.ChunkLength, off, fi.Bytes)}
	}
	b := grow(buf, int(ci.ChunkLength))
	if _, err := f.ReadAt(b, off); err != nil {
		return nil, &ReadError{Path: fi.Path, Offset: off, Record: "chunk record", Err: fmt.Errorf("%w: %w", ErrCorrupt, err)}
	}
	if mcap.OpCode(b[0]) != mcap.OpChunk || binary.LittleEndian.Uint64(b[1:9]) != ci.ChunkLength-9 {
		return nil, &ReadError{Path: fi.Path, Offset: off, Record: "chunk record",
			Err: fmt.Errorf("%w: the chunk index points at no chunk record", ErrCorrupt)}
	}
	return b[9:], nil
}

// A chunkSlot holds the buffers and decoders of one chunk being read and
// decompressed ahead of the analysis.
type chunkSlot struct {
	raw    []byte
	dec    decompressor
	result chan chunkResult // capacity 1: one job per slot at a time
}

type chunkResult struct {
	data []byte // aliases the slot's buffers
	comp string
	err  error
}

// readParallel reads and decompresses up to workers+1 chunks ahead on
// other goroutines, and hands their records to the analysis in index
// order on this one. Memory stays bounded by the slots.
func (r *reader) readParallel(ctx context.Context, f io.ReaderAt, fi *FileInfo, idx []*mcap.ChunkIndex, workers int) error {
	depth := workers + 1
	slots := make([]*chunkSlot, depth)
	for i := range slots {
		slots[i] = &chunkSlot{result: make(chan chunkResult, 1)}
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
		for _, s := range slots {
			s.dec.close()
		}
	}()
	start := func(i int) {
		s, ci := slots[i%depth], idx[i]
		wg.Go(func() {
			if ctx.Err() != nil {
				s.result <- chunkResult{err: ctx.Err()}
				return
			}
			buf, err := loadChunk(f, fi, ci, &s.raw)
			if err != nil {
				s.result <- chunkResult{err: err}
				return
			}
			data, comp, _, err := s.dec.decode(buf, false)
			if err != nil {
				err = &ReadError{Path: fi.Path, Offset: int64(ci.ChunkStartOffset), Record: "chunk record", Err: err}
			}
			s.result <- chunkResult{data: data, comp: comp, err: err}
		})
	}
	for i := range min(depth, len(idx)) {
		start(i)
	}
	var done int64
	for i, ci := range idx {
		res := <-slots[i%depth].result
		if res.err != nil {
			if err := ctx.Err(); err != nil {
				return err
			}
			return res.err
		}
		r.info.Chunks++
		r.comps[compName(res.comp)] = true
		if err := r.records(res.data, int64(ci.ChunkStartOffset), false); err != nil {
			return err
		}
		if i+depth < len(idx) {
			start(i + depth)
		}
		done += int64(ci.ChunkLength)
		if r.progress != nil {
			r.progress(done)
		}
	}
	r.progressDone(fi.Bytes)
	return nil
}

// maxChunk bounds the uncompressed size of one chunk.
const maxChunk = 1 << 30

// grow returns (*b)[:n], reallocating when needed.
func grow(b *[]byte, n int) []byte {
	if cap(*b) < n {
		*b = make([]byte, n, n+n/4)
	}
	return (*b)[:n]
}

func (r *reader) readLinear(ctx context.Context, br *bufio.Reader, fi *FileInfo) error {
	var magic [8]byte
	if n, err := io.ReadFull(br, magic[:]); err != nil || !bytes.Equal(magic[:], mcap.Magic) {
		if n < len(magic) && bytes.Equal(magic[:n], mcap.Magic[:n]) {
			return &ReadError{Path: fi.Path, Offset: 0, Record: "magic", Err: fmt.Errorf("%w: %d bytes", ErrTruncated, n)}
		}
		return &ReadError{Path: fi.Path, Offset: 0, Record: "magic", Err: ErrNotMCAP}
	}
	off := int64(len(magic))
	var hdr [9]byte
	var lastProgress int64
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if r.progress != nil && off-lastProgress >= 1<<20 {
			r.progress(off)
			lastProgress = off
		}
		left := fi.Bytes - off
		if left == 0 {
			return &ReadError{Path: fi.Path, Offset: off, Record: "footer",
				Err: fmt.Errorf("%w: the file ends after %d bytes with no footer", ErrTruncated, off)}
		}
		if left < 9 {
			return &ReadError{Path: fi.Path, Offset: off, Record: "record header",
				Err: fmt.Errorf("%w: %d bytes left, a record header needs 9", ErrTruncated, left)}
		}
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			return &ReadError{Path: fi.Path, Offset: off, Record: "record header", Err: fmt.Errorf("%w: %w", ErrTruncated, err)}
		}
		op := mcap.OpCode(hdr[0])
		n := binary.LittleEndian.Uint64(hdr[1:])
		name := recordName(op)
		if n > uint64(left-9) {
			err := fmt.Errorf("%w: the record declares %d bytes, %d are left", ErrTruncated, n, left-9)
			if op == mcap.OpChunk {
				// Salvage the complete messages of an uncompressed chunk cut short.
				buf := grow(&r.recBuf, int(left-9))
				if _, rerr := io.ReadFull(br, buf); rerr == nil {
					before := r.info.Messages
					if cerr := r.chunkData(buf, off, true); cerr != nil {
						return cerr
					}
					if got := r.info.Messages - before; got > 0 {
						err = fmt.Errorf("%w (%d messages of it recovered)", err, got)
					}
				}
			}
			return &ReadError{Path: fi.Path, Offset: off, Record: name, Err: err}
		}
		switch op {
		case mcap.OpChunk, mcap.OpMessage, mcap.OpSchema, mcap.OpChannel, mcap.OpHeader, mcap.OpFooter:
			buf := grow(&r.recBuf, int(n))
			if _, err := io.ReadFull(br, buf); err != nil {
				return &ReadError{Path: fi.Path, Offset: off, Record: name, Err: fmt.Errorf("%w: %w", ErrTruncated, err)}
			}
			if op == mcap.OpFooter {
				end := off + 9 + int64(n)
				var tail [8]byte
				k, _ := io.ReadFull(br, tail[:])
				if !bytes.Equal(tail[:k], mcap.Magic) || end+8 != fi.Bytes {
					if end+int64(k) == fi.Bytes && bytes.Equal(tail[:k], mcap.Magic[:k]) {
						return &ReadError{Path: fi.Path, Offset: end, Record: "closing magic", Err: fmt.Errorf("%w: %d of its 8 bytes", ErrTruncated, k)}
					}
					return &ReadError{Path: fi.Path, Offset: end, Record: "closing magic", Err: fmt.Errorf("%w: want the MCAP magic and the end of the file", ErrCorrupt)}
				}
				r.progressDone(fi.Bytes)
				return nil
			}
			if err := r.record(op, buf, off, true); err != nil {
				return err
			}
		default:
			if _, err := br.Discard(int(n)); err != nil {
				return &ReadError{Path: fi.Path, Offset: off, Record: name, Err: fmt.Errorf("%w: %w", ErrTruncated, err)}
			}
		}
		off += 9 + int64(n)
	}
}

func (r *reader) progressDone(n int64) {
	if r.progress != nil {
		r.progress(n)
	}
}

func recordName(op mcap.OpCode) string {
	if op == mcap.OpMessage {
		return "message record"
	}
	return op.String() + " record"
}

// record handles one top-level or in-chunk record whose content is buf,
// found at byte off of the file.
func (r *reader) record(op mcap.OpCode, buf []byte, off int64, topLevel bool) error {
	fail := func(err error) error {
		return &ReadError{Path: r.info.Path, Offset: off, Record: recordName(op), Err: fmt.Errorf("%w: %w", ErrCorrupt, err)}
	}
	switch op {
	case mcap.OpHeader:
		h, err := mcap.ParseHeader(buf)
		if err != nil {
			return fail(err)
		}
		r.info.Profile, r.info.Library = h.Profile, h.Library
	case mcap.OpSchema:
		s, err := mcap.ParseSchema(buf)
		if err != nil {
			return fail(err)
		}
		if _, ok := r.schemas[s.ID]; !ok {
			s.Data = bytes.Clone(s.Data)
			r.schemas[s.ID] = s
		}
	case mcap.OpChannel:
		c, err := mcap.ParseChannel(buf)
		if err != nil {
			return fail(err)
		}
		if _, ok := r.channels[c.ID]; !ok {
			r.channels[c.ID] = c
			if r.onChannel != nil {
				r.onChannel(r.schemas[c.SchemaID], c)
			}
		}
	case mcap.OpChunk:
		if !topLevel {
			return fail(errors.New("chunk inside a chunk"))
		}
		return r.chunk(buf, off)
	case mcap.OpMessage:
		if err := r.msg.PopulateFrom(buf, false); err != nil {
			return fail(err)
		}
		id := r.msg.ChannelID
		var cs chanSchema
		if int(id) < len(r.byID) {
			cs = r.byID[id]
		}
		if cs.ch == nil {
			cs.ch = r.channels[id]
			if cs.ch == nil {
				return fail(fmt.Errorf("message on unknown channel %d", id))
			}
			cs.sch = r.schemas[cs.ch.SchemaID]
			if int(id) < 1<<12 {
				for len(r.byID) <= int(id) {
					r.byID = append(r.byID, chanSchema{})
				}
				r.byID[id] = cs
			}
		}
		r.info.Messages++
		return r.onMessage(cs.sch, cs.ch, &r.msg)
	}
	return nil
}

// chunk decodes a chunk record's content (buf, found at byte off) and
// handles the records inside.
func (r *reader) chunk(buf []byte, off int64) error { return r.chunkData(buf, off, false) }

// chunkData is chunk; with partial set, buf is the start of a chunk cut
// short by the end of the file: the complete records of an uncompressed
// chunk are handled and the rest is ignored.
func (r *reader) chunkData(buf []byte, off int64, partial bool) error {
	data, comp, ok, err := r.dec.decode(buf, partial)
	if !ok {
		return nil
	}
	r.info.Chunks++
	r.comps[compName(comp)] = true
	if err != nil {
		return &ReadError{Path: r.info.Path, Offset: off, Record: "chunk record", Err: err}
	}
	return r.records(data, off, partial)
}

func compName(c string) string {
	if c == "" {
		return "none"
	}
	return c
}

// records handles the records of a decompressed chunk found at byte off.
func (r *reader) records(data []byte, off int64, partial bool) error {
	for q := 0; q < len(data); {
		if len(data)-q < 9 {
			if partial {
				return nil
			}
			return &ReadError{Path: r.info.Path, Offset: off, Record: "chunk record",
				Err: fmt.Errorf("%w: %d stray bytes at the end of the chunk", ErrCorrupt, len(data)-q)}
		}
		op := mcap.OpCode(data[q])
		n := binary.LittleEndian.Uint64(data[q+1:])
		if n > uint64(len(data)-q-9) {
			if partial {
				return nil
			}
			return &ReadError{Path: r.info.Path, Offset: off, Record: "chunk record",
				Err: fmt.Errorf("%w: %s at chunk byte %d declares %d bytes, %d are left", ErrCorrupt, recordName(op), q, n, len(data)-q-9)}
		}
		if err := r.record(op, data[q+9:q+9+int(n)], off, false); err != nil {
			return err
		}
		q += 9 + int(n)
	}
	return nil
}

// A decompressor turns chunk records into their records, reusing its
// decoders and output buffer. The data it returns is valid until the next
// call.
type decompressor struct {
	zstd *zstd.Decoder
	lz4  *lz4.Reader
	out  []byte
}

func (d *decompressor) close() {
	if d.zstd != nil {
		d.zstd.Close()
		d.zstd = nil
	}
}

// decode returns the uncompressed records of the chunk record content
// buf and its compression. ok is false when partial is set and nothing
// can be recovered. Errors wrap ErrCorrupt.
func (d *decompressor) decode(buf []byte, partial bool) (data []byte, comp string, ok bool, err error) {
	corrupt := func(format string, args ...any) ([]byte, string, bool, error) {
		return nil, comp, true, fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
	}
	if partial && (len(buf) < 8+8+8+4+4+8 || uint64(binary.LittleEndian.Uint32(buf[28:])) > uint64(len(buf)-40)) {
		return nil, "", false, nil // not even the chunk header is complete
	}
	if len(buf) < 8+8+8+4+4+8 {
		return corrupt("chunk header of %d bytes", len(buf))
	}
	usize := binary.LittleEndian.Uint64(buf[16:])
	clen := binary.LittleEndian.Uint32(buf[28:])
	p := 32
	if uint64(clen) > uint64(len(buf)-p-8) {
		return corrupt("compression name of %d bytes", clen)
	}
	comp = string(buf[p : p+int(clen)])
	p += int(clen)
	rlen := binary.LittleEndian.Uint64(buf[p:])
	p += 8
	if partial {
		records := buf[p : p+int(min(rlen, uint64(len(buf)-p)))]
		switch comp {
		case "":
			return records, comp, true, nil
		case "zstd", "lz4":
			// Decode the stream as far as it goes.
			var src io.Reader
			if comp == "zstd" {
				z, err := zstd.NewReader(bytes.NewReader(records), zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxChunk))
				if err != nil {
					return nil, comp, false, nil
				}
				defer z.Close()
				src = z
			} else {
				src = lz4.NewReader(bytes.NewReader(records))
			}
			out := bytes.NewBuffer(d.out[:0])
			_, _ = io.Copy(out, io.LimitReader(src, int64(min(usize, maxChunk))))
			d.out = out.Bytes()
			return d.out, comp, true, nil
		}
		return nil, comp, false, nil
	}
	if rlen > uint64(len(buf)-p) {
		return corrupt("records of %d bytes in a chunk of %d", rlen, len(buf))
	}
	records := buf[p : p+int(rlen)]
	if usize > maxChunk {
		return corrupt("uncompressed size %d is over the %d-byte limit", usize, maxChunk)
	}
	switch comp {
	case "":
		data = records
	case "zstd":
		if d.zstd == nil {
			z, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxChunk))
			if err != nil {
				return corrupt("zstd: %v", err)
			}
			d.zstd = z
		}
		// Preallocate no more than a plausible ratio; DecodeAll grows it.
		out, err := d.zstd.DecodeAll(records, grow(&d.out, int(min(usize, 64*uint64(len(records))+1<<20)))[:0])
		if err != nil {
			return corrupt("zstd: %v", err)
		}
		if cap(out) > cap(d.out) {
			d.out = out
		}
		data = out
	case "lz4":
		if usize > 256*uint64(len(records))+1<<16 { // beyond LZ4's best ratio
			return corrupt("lz4 chunk of %d bytes cannot hold %d", len(records), usize)
		}
		if d.lz4 == nil {
			d.lz4 = lz4.NewReader(bytes.NewReader(records))
		} else {
			d.lz4.Reset(bytes.NewReader(records))
		}
		out := grow(&d.out, int(usize))
		if _, err := io.ReadFull(d.lz4, out); err != nil {
			return corrupt("lz4: %v", err)
		}
		data = out
	default:
		return corrupt("unsupported compression %q", comp)
	}
	if uint64(len(data)) != usize {
		return corrupt("chunk decompresses to %d bytes, its header says %d", len(data), usize)
	}
	return data, comp, true, nil
}

// orderFiles sorts the files of a split bag by their first message time
// when every file's summary gives it, and keeps the given order otherwise.
func orderFiles(paths []string) []string {
	type ft struct {
		path  string
		start uint64
	}
	var fts []ft
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return paths
		}
		st, err := f.Stat()
		var info *mcap.Info
		if err == nil {
			info = summary(f, st.Size())
		}
		f.Close()
		if info == nil || info.Statistics == nil || info.Statistics.MessageCount == 0 {
			return paths
		}
		fts = append(fts, ft{p, info.Statistics.MessageStartTime})
	}
	sort.SliceStable(fts, func(i, j int) bool { return fts[i].start < fts[j].start })
	out := make([]string, len(fts))
	for i, f := range fts {
		out[i] = f.path
	}
	return out
}

func baseName(p string) string { return filepath.Base(p) }
