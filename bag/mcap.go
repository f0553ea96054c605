package bag

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"math"
	"os"
	"runtime"
	"sort"
	"sync"

	"github.com/foxglove/mcap/go/mcap"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// mcapReader is the MCAP storage. It reads a file through its chunk index
// when the summary section is intact and indexes chunks, linearly
// otherwise. Every chunk is checked before any of its messages reaches
// the sink: its CRC (when the writer stored one), its lz4 frame checksum,
// its size and the framing of its records. A chunk that fails is skipped
// whole and recorded in FileInfo.Damaged with the count of its messages;
// reading goes on with the next chunk.
type mcapReader struct {
	s        *sink
	schemas  map[uint16]*mcap.Schema
	channels map[uint16]*channel
	byID     []*channel // cache of channels[id] for small ids
	out      message
	recBuf   []byte
	dec      decompressor
	info     *FileInfo
	comps    map[string]bool
	// summaryAt is the offset of the summary section, which holds the
	// chunk index records: where a bad one is reported.
	summaryAt int64
	// sum is the summary read by (indexed reading): its schemas and
	// channels stand in for records the data has not (yet) given, and are
	// checked against those it gives.
	sum *mcap.Info
	// dataEnd: the data section is over (its Data End record was read):
	// what follows is the summary's, not data. The footer's summary_start
	// is not used for this: a damaged one would cut the data short.
	dataEnd bool
	// pendingCount is the index in info.Damaged of a chunk whose messages
	// are counted from the message index records that follow it (linear
	// reading), or -1.
	pendingCount int
}

func newMCAPReader() *mcapReader {
	return &mcapReader{recBuf: getBuf(), dec: decompressor{out: getBuf()}}
}

func (r *mcapReader) close() {
	r.dec.close()
	putBuf(&r.recBuf)
	putBuf(&r.dec.out)
}

// source is what the reader needs of a file.
type source interface {
	io.ReaderAt
	io.ReadSeeker
}

func (r *mcapReader) read(ctx context.Context, path string, fi *FileInfo, s *sink) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("bag: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("bag: %w", err)
	}
	return r.readFrom(ctx, f, st.Size(), fi, s)
}

// readFrom reads the MCAP file f of size bytes; fi.Path names it in errors.
func (r *mcapReader) readFrom(ctx context.Context, f source, size int64, fi *FileInfo, s *sink) error {
	if fi.Bytes == 0 {
		fi.Bytes = size
	}
	fi.Storage = "mcap"
	r.s, r.info, r.comps, r.pendingCount = s, fi, map[string]bool{}, -1
	r.schemas, r.channels = map[uint16]*mcap.Schema{}, map[uint16]*channel{}
	r.byID = r.byID[:0]
	r.sum, r.dataEnd, r.summaryAt = nil, false, -1
	defer func() {
		for c := range r.comps {
			fi.Compression = append(fi.Compression, c)
		}
		sort.Strings(fi.Compression)
	}()
	info, damage := summaryOf(f, size)
	fi.SummaryDamage = damage
	if info != nil {
		fi.Indexed = true
		return r.readIndexed(ctx, f, size, info)
	}
	return r.readLinear(ctx, f, size)
}

// summary returns the file's summary when it has a chunk index and can be
// trusted to read the file by (summaryOf).
func summary(f source, size int64) *mcap.Info {
	info, _ := summaryOf(f, size)
	return info
}

// summaryOf returns the file's summary when it has a chunk index to read
// the file by and can be trusted: its CRC matches (when the writer stored
// one, as rosbag2's does), its records parse and lie inside it, and every
// chunk index agrees with the chunk record it points at. A file without a
// summary or without chunks gives neither summary nor damage; one whose
// summary fails a check gives the damage, and is read from its data
// section (linearly): the data is trusted, not the summary.
func summaryOf(f source, size int64) (info *mcap.Info, damage string) {
	defer func() {
		if recover() != nil {
			info, damage = nil, "the summary section does not parse"
		}
	}()
	start := footerSummaryStart(f, size)
	switch {
	case start == -2:
		return nil, "the footer's summary_start points past the footer"
	case start <= 0:
		return nil, "" // no footer (a file cut short: reading says so), or no summary
	}
	if d := summaryCRC(f, size, start); d != "" {
		return nil, d
	}
	if !plausibleSummary(f, size) {
		return nil, "a record of the summary section is not one it holds, or runs past its end"
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, ""
	}
	mr, err := mcap.NewReader(f)
	if err != nil {
		return nil, ""
	}
	i, err := mr.Info()
	if err != nil || i.Header == nil {
		return nil, fmt.Sprintf("the summary section does not parse: %v", err)
	}
	if len(i.ChunkIndexes) == 0 {
		return nil, ""
	}
	for _, ci := range i.ChunkIndexes {
		if d := checkChunkAgainstIndex(f, size, ci); d != "" {
			return nil, d
		}
	}
	if d := chunksIndexed(f, start, i); d != "" {
		return nil, d
	}
	if d := checkStatistics(i); d != "" {
		return nil, d
	}
	return i, ""
}

// checkStatistics checks the summary's statistics (which give a bag's
// time span without reading it) against its chunk indexes. (Not the
// channel count: rosbag2's libmcap counts one channel fewer than it
// writes.)
func checkStatistics(i *mcap.Info) string {
	st := i.Statistics
	if st == nil {
		return ""
	}
	lo, hi := uint64(math.MaxUint64), uint64(0)
	for _, ci := range i.ChunkIndexes {
		lo, hi = min(lo, ci.MessageStartTime), max(hi, ci.MessageEndTime)
	}
	switch {
	case int(st.ChunkCount) != len(i.ChunkIndexes):
		return fmt.Sprintf("the statistics count %d chunks, the chunk indexes %d", st.ChunkCount, len(i.ChunkIndexes))
	case st.MessageCount > 0 && (!statsStartAgrees(st.MessageStartTime, lo, hi) || st.MessageEndTime != hi):
		return "the statistics' message times disagree with the chunk indexes'"
	}
	return ""
}

// statsStartAgrees says whether the statistics' message start time agrees
// with the chunk indexes' earliest time lo. The mcap Go writer takes a
// start time of 0 for "not set yet", so when messages are logged at time
// 0 its statistics start at the first message after 0 (rosbag2's own
// mcap-rewriter_a test bag is written so): any start up to the indexes'
// end agrees when lo is 0.
func statsStartAgrees(start, lo, hi uint64) bool {
	return start == lo || (lo == 0 && start <= hi)
}

// chunksIndexed walks the records of the data section, jumping over the
// indexed chunks and their message indexes, and says whether a chunk was
// left out of the index (a damaged chunk index record is skipped as an
// unknown record by a reader, and its messages with it) or an indexed
// chunk lies elsewhere than in the walk.
func chunksIndexed(f io.ReaderAt, end int64, info *mcap.Info) string {
	skip := map[uint64]uint64{}
	for _, ci := range info.ChunkIndexes {
		skip[ci.ChunkStartOffset] = ci.ChunkLength + ci.MessageIndexLength
	}
	seen := 0
	var hdr [9]byte
	for off := uint64(len(mcap.Magic)); off+9 <= uint64(end); {
		if n, ok := skip[off]; ok {
			off += n
			seen++
			continue
		}
		if _, err := f.ReadAt(hdr[:], int64(off)); err != nil {
			break
		}
		op, n := mcap.OpCode(hdr[0]), binary.LittleEndian.Uint64(hdr[1:])
		if op == mcap.OpChunk {
			return fmt.Sprintf("the chunk at byte %d has no chunk index", off)
		}
		if op == mcap.OpDataEnd || n > uint64(end)-off-9 {
			break
		}
		off += 9 + n
	}
	if seen != len(skip) {
		return fmt.Sprintf("%d of the %d chunk indexes point between the data section's records", len(skip)-seen, len(skip))
	}
	return ""
}

// footerSummaryStart returns the summary_start of the file's footer: 0
// when there is no summary, -1 when the file does not end with a footer,
// -2 when the footer's summary_start points past it.
func footerSummaryStart(f io.ReaderAt, size int64) int64 {
	const tail = 9 + 20 + 8
	var b [tail]byte
	if size < 8+tail {
		return -1
	}
	if _, err := f.ReadAt(b[:], size-tail); err != nil || !bytes.Equal(b[tail-8:], mcap.Magic) ||
		mcap.OpCode(b[0]) != mcap.OpFooter || binary.LittleEndian.Uint64(b[1:9]) != 20 {
		return -1
	}
	start := binary.LittleEndian.Uint64(b[9:17])
	if start > uint64(size-tail) {
		return -2
	}
	return int64(start)
}

// summaryCRC checks the footer's summary_crc, a CRC-32 of every byte from
// the start of the summary section to the footer's summary_crc field; 0
// means the writer stored none.
func summaryCRC(f io.ReaderAt, size, start int64) string {
	var b [4]byte
	if _, err := f.ReadAt(b[:], size-8-4); err != nil {
		return ""
	}
	want := binary.LittleEndian.Uint32(b[:])
	if want == 0 {
		return ""
	}
	h := crc32.NewIEEE()
	if _, err := io.Copy(h, io.NewSectionReader(f, start, size-8-4-start)); err != nil {
		return ""
	}
	if got := h.Sum32(); got != want {
		return fmt.Sprintf("summary CRC mismatch: the footer says %08x, the summary section's is %08x", want, got)
	}
	return ""
}

// checkChunkAgainstIndex checks a chunk index against the chunk record it
// points at: its opcode and length, and the message times, uncompressed
// size, compression and compressed size the chunk's own header gives.
func checkChunkAgainstIndex(f io.ReaderAt, size int64, ci *mcap.ChunkIndex) string {
	bad := func(what string) string {
		return fmt.Sprintf("the chunk index of the chunk at byte %d disagrees with the chunk: %s", ci.ChunkStartOffset, what)
	}
	if ci.ChunkLength < 9+40 || ci.ChunkStartOffset > uint64(size) || ci.ChunkLength > uint64(size)-ci.ChunkStartOffset {
		return bad("it lies outside the file")
	}
	var b [9 + 32 + 64]byte
	n, _ := f.ReadAt(b[:min(uint64(len(b)), ci.ChunkLength)], int64(ci.ChunkStartOffset))
	if n < 9+32 || mcap.OpCode(b[0]) != mcap.OpChunk || binary.LittleEndian.Uint64(b[1:9]) != ci.ChunkLength-9 {
		return bad("no chunk record of that length there")
	}
	c := b[9:n]
	clen := int(binary.LittleEndian.Uint32(c[28:]))
	switch {
	case binary.LittleEndian.Uint64(c[0:]) != ci.MessageStartTime || binary.LittleEndian.Uint64(c[8:]) != ci.MessageEndTime:
		return bad("message times")
	case binary.LittleEndian.Uint64(c[16:]) != ci.UncompressedSize:
		return bad("uncompressed size")
	case 32+clen+8 > len(c):
		return "" // a long compression name: the chunk's decoding checks it
	case string(c[32:32+clen]) != string(ci.Compression):
		return bad("compression")
	case binary.LittleEndian.Uint64(c[32+clen:]) != ci.CompressedSize:
		return bad("compressed size")
	}
	return ""
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
		switch op := mcap.OpCode(h[0]); op {
		case mcap.OpSchema, mcap.OpChannel, mcap.OpChunkIndex, mcap.OpAttachmentIndex, mcap.OpMetadataIndex,
			mcap.OpStatistics, mcap.OpSummaryOffset:
		default:
			if op < 0x80 { // no record the summary section holds: a damaged opcode
				return false
			}
		}
		off += 9 + n
	}
	return true
}

// streamLimit is the largest chunk (record or uncompressed content) read
// whole into memory; larger chunks, up to MCAP's own limit of 2^64 bytes,
// are decompressed as a stream, record by record, so memory stays at a
// few of these whatever the chunk size.
// Tests lower it to stream small chunks.
var streamLimit uint64 = 64 << 20

// maxDecoderMemory bounds what a zstd decoder may allocate for one chunk.
const maxDecoderMemory = 64 << 20

func isBig(recordLen, usize uint64) bool { return recordLen > streamLimit || usize > streamLimit }

func (r *mcapReader) readIndexed(ctx context.Context, f io.ReaderAt, size int64, info *mcap.Info) error {
	fi := r.info
	fi.Profile, fi.Library = info.Header.Profile, info.Header.Library
	r.summaryAt = -1
	if info.Footer != nil && info.Footer.SummaryStart <= uint64(size) {
		r.summaryAt = int64(info.Footer.SummaryStart)
	}
	// The data's schema and channel records are used as they come; the
	// summary's stand in for those the data has not given, and are
	// checked against those it gives (trust the data).
	r.sum = info
	if err := r.topLevelRecords(ctx, f, size, info); err != nil {
		return err
	}
	defer r.summaryChannels()
	idx := append([]*mcap.ChunkIndex(nil), info.ChunkIndexes...)
	sort.SliceStable(idx, func(i, j int) bool {
		if idx[i].MessageStartTime != idx[j].MessageStartTime {
			return idx[i].MessageStartTime < idx[j].MessageStartTime
		}
		return idx[i].ChunkStartOffset < idx[j].ChunkStartOffset
	})
	// Decompression and CRCs run ahead on other goroutines when there are
	// cores for them; plain reading of unchecked chunks is not worth it.
	ahead := !r.s.noCRC
	for _, ci := range idx {
		ahead = ahead || ci.Compression != ""
	}
	if workers := runtime.GOMAXPROCS(0); ahead && workers > 1 && len(idx) > 1 {
		return r.readParallel(ctx, f, size, idx, workers)
	}
	var done int64
	for _, ci := range idx {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := checkChunkIndex(fi.Path, size, r.summaryAt, ci); err != nil {
			return err
		}
		off := int64(ci.ChunkStartOffset)
		if isBig(ci.ChunkLength, ci.UncompressedSize) {
			if err := r.bigChunk(ctx, f, off, ci.ChunkLength-9, func() int64 { return countIndexed(f, size, ci) }); err != nil {
				return err
			}
		} else {
			buf, err := loadChunk(f, fi, size, r.summaryAt, ci, &r.recBuf)
			if err != nil {
				return err
			}
			data, comp, checked, err := r.dec.decode(buf, !r.s.noCRC)
			if err := r.chunkDecoded(data, comp, checked, off, err, func() int64 { return countIndexed(f, size, ci) }); err != nil {
				return err
			}
		}
		done += int64(ci.ChunkLength)
		if r.s.progress != nil {
			r.s.progress(done)
		}
	}
	r.s.progressDone(fi.Bytes)
	return nil
}

// topLevelRecords reads the schema and channel records of the data
// section outside chunks (the chunk indexes say where chunks and their
// message indexes lie, so only the other records are visited).
func (r *mcapReader) topLevelRecords(ctx context.Context, f io.ReaderAt, size int64, info *mcap.Info) error {
	skip := map[uint64]uint64{}
	for _, ci := range info.ChunkIndexes {
		skip[ci.ChunkStartOffset] = ci.ChunkLength + ci.MessageIndexLength
	}
	end := uint64(r.summaryAt)
	if r.summaryAt < 0 {
		end = uint64(size)
	}
	var hdr [9]byte
	for off := uint64(len(mcap.Magic)); off+9 <= end; {
		if n, ok := skip[off]; ok {
			off += n
			continue
		}
		if _, err := f.ReadAt(hdr[:], int64(off)); err != nil {
			return nil
		}
		op, n := mcap.OpCode(hdr[0]), binary.LittleEndian.Uint64(hdr[1:])
		if n > end-off-9 || op == mcap.OpDataEnd {
			return nil // the reading of chunks says what is wrong, if anything
		}
		if op == mcap.OpSchema || op == mcap.OpChannel {
			if err := ctx.Err(); err != nil {
				return err
			}
			buf := grow(&r.recBuf, int(n))
			if _, err := f.ReadAt(buf, int64(off+9)); err != nil {
				return nil
			}
			if err := r.record(op, buf, int64(off), true); err != nil {
				return err
			}
		}
		off += 9 + n
	}
	return nil
}

// summaryChannels adds, after indexed reading, the summary's channels the
// data never gave (topics recorded with no message), so that they are
// reported.
func (r *mcapReader) summaryChannels() {
	ids := make([]int, 0, len(r.sum.Channels))
	for id := range r.sum.Channels {
		ids = append(ids, int(id))
	}
	sort.Ints(ids)
	for _, id := range ids {
		if _, ok := r.channels[uint16(id)]; !ok {
			r.addChannel(r.sum.Channels[uint16(id)])
		}
	}
}

// summaryDisagrees records that the summary says other than the data.
func (r *mcapReader) summaryDisagrees(what string) {
	if r.info.SummaryDamage == "" {
		r.info.SummaryDamage = "the summary section disagrees with the data: " + what + "; the data's records were used"
	}
}

// checkChunkIndex checks that a chunk index, in the summary section at
// byte at (-1: unknown), points inside the file.
func checkChunkIndex(path string, size, at int64, ci *mcap.ChunkIndex) error {
	if ci.ChunkLength < 9 || ci.ChunkStartOffset > uint64(size) || ci.ChunkLength > uint64(size)-ci.ChunkStartOffset {
		return &ReadError{Path: path, Offset: at, Record: "chunk index record (summary section)",
			Err: fmt.Errorf("%w: chunk of %d bytes at byte %d lies outside the %d-byte file", ErrCorrupt, ci.ChunkLength, ci.ChunkStartOffset, size)}
	}
	return nil
}

// loadChunk reads the chunk record ci points at into *buf and returns its
// content.
func loadChunk(f io.ReaderAt, fi *FileInfo, size, summaryAt int64, ci *mcap.ChunkIndex, buf *[]byte) ([]byte, error) {
	if err := checkChunkIndex(fi.Path, size, summaryAt, ci); err != nil {
		return nil, err
	}
	off := int64(ci.ChunkStartOffset)
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

// countIndexed counts the messages of a chunk from its message index
// records, for a chunk that cannot be decoded; -1 when they are absent.
func countIndexed(f io.ReaderAt, size int64, ci *mcap.ChunkIndex) int64 {
	start := ci.ChunkStartOffset + ci.ChunkLength
	n := ci.MessageIndexLength
	if n == 0 || n > 64<<20 || start > uint64(size) || n > uint64(size)-start {
		return -1
	}
	b := make([]byte, n)
	if _, err := f.ReadAt(b, int64(start)); err != nil {
		return -1
	}
	var count int64
	for q := uint64(0); q+9 <= n; {
		l := binary.LittleEndian.Uint64(b[q+1:])
		if l > n-q-9 {
			return -1
		}
		if c, ok := indexCount(mcap.OpCode(b[q]), b[q+9:q+9+l]); ok {
			count += c
		}
		q += 9 + l
	}
	return count
}

// indexCount returns the number of messages a message index record lists.
func indexCount(op mcap.OpCode, rec []byte) (int64, bool) {
	if op != mcap.OpMessageIndex || len(rec) < 6 {
		return 0, false
	}
	return int64(binary.LittleEndian.Uint32(rec[2:]) / 16), true
}

// chunkDecoded hands the decoded records of the chunk at byte off to the
// sink, or records the chunk as damaged when decoding failed (err) or its
// records are not well framed. count counts its messages from elsewhere
// when the content cannot be read.
//
// A chunk whose CRC was checked needs no framing pre-pass (records still
// checks bounds); with --no-crc none is made either, for speed.
func (r *mcapReader) chunkDecoded(data []byte, comp string, checked bool, off int64, err error, count func() int64) error {
	r.info.Chunks++
	r.comps[compName(comp)] = true
	n := int64(-1)
	if err == nil && !checked && !r.s.noCRC {
		n, err = scanRecords(data)
	} else if err != nil && data != nil {
		n, _ = scanRecords(data)
	}
	if err != nil {
		if n < 0 && count != nil {
			n = count()
		}
		r.damage(off, n, err)
		return nil
	}
	return r.records(data, off)
}

// damage records a skipped chunk.
func (r *mcapReader) damage(off, messages int64, err error) {
	r.info.Damaged = append(r.info.Damaged, DamagedChunk{Offset: off, Messages: messages, Problem: err.Error()})
	if r.s.onSkip != nil {
		r.s.onSkip()
	}
	if messages > 0 {
		r.info.Skipped += messages
	}
	r.pendingCount = -1
	if messages < 0 {
		r.pendingCount = len(r.info.Damaged) - 1
	}
}

// scanRecords checks the framing of a chunk's records without handling
// them, and counts its messages: a chunk is analysed only when all of it
// is readable.
func scanRecords(data []byte) (int64, error) {
	var n int64
	for q := 0; q < len(data); {
		if len(data)-q < 9 {
			return n, fmt.Errorf("%w: %d stray bytes at the end of the chunk", ErrCorrupt, len(data)-q)
		}
		op := mcap.OpCode(data[q])
		l := binary.LittleEndian.Uint64(data[q+1:])
		if l > uint64(len(data)-q-9) {
			return n, fmt.Errorf("%w: %s at chunk byte %d declares %d bytes, %d are left", ErrCorrupt, recordName(op), q, l, len(data)-q-9)
		}
		if op == mcap.OpMessage {
			if l < 22 {
				return n, fmt.Errorf("%w: message record at chunk byte %d of %d bytes, under the 22 of its fields", ErrCorrupt, q, l)
			}
			n++
		}
		q += 9 + int(l)
	}
	return n, nil
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
	big  bool // too big for memory: read as a stream on the analysis goroutine
	// checked: the chunk's CRC matched
	checked bool
	err     error // a *ReadError: stop
	bad     error // damage: skip the chunk
}

// readParallel reads and decompresses up to workers+1 chunks ahead on
// other goroutines, and hands their records to the analysis in index
// order on this one. Memory stays bounded by the slots.
func (r *mcapReader) readParallel(ctx context.Context, f io.ReaderAt, size int64, idx []*mcap.ChunkIndex, workers int) error {
	fi := r.info
	depth := workers + 1
	slots := make([]*chunkSlot, depth)
	for i := range slots {
		// Buffers from the pool: a chunk's worth each, which a bag's
		// next file or the next bag reuses instead of allocating and
		// zeroing them again.
		slots[i] = &chunkSlot{raw: getBuf(), dec: decompressor{out: getBuf()}, result: make(chan chunkResult, 1)}
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
		for _, s := range slots {
			s.dec.close()
			putBuf(&s.raw)
			putBuf(&s.dec.out)
		}
	}()
	verify := !r.s.noCRC
	start := func(i int) {
		s, ci := slots[i%depth], idx[i]
		wg.Go(func() {
			if ctx.Err() != nil {
				s.result <- chunkResult{err: ctx.Err()}
				return
			}
			if err := checkChunkIndex(fi.Path, size, r.summaryAt, ci); err != nil {
				s.result <- chunkResult{err: err}
				return
			}
			if isBig(ci.ChunkLength, ci.UncompressedSize) {
				s.result <- chunkResult{big: true}
				return
			}
			buf, err := loadChunk(f, fi, size, r.summaryAt, ci, &s.raw)
			if err != nil {
				s.result <- chunkResult{err: err}
				return
			}
			data, comp, checked, err := s.dec.decode(buf, verify)
			s.result <- chunkResult{data: data, comp: comp, checked: checked, bad: err}
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
		off := int64(ci.ChunkStartOffset)
		count := func() int64 { return countIndexed(f, size, ci) }
		var err error
		if res.big {
			err = r.bigChunk(ctx, f, off, ci.ChunkLength-9, count)
		} else {
			err = r.chunkDecoded(res.data, res.comp, res.checked, off, res.bad, count)
		}
		if err != nil {
			return err
		}
		if i+depth < len(idx) {
			start(i + depth)
		}
		done += int64(ci.ChunkLength)
		if r.s.progress != nil {
			r.s.progress(done)
		}
	}
	r.s.progressDone(fi.Bytes)
	return nil
}

func (r *mcapReader) readLinear(ctx context.Context, f io.ReaderAt, size int64) error {
	fi := r.info
	sr := io.NewSectionReader(f, 0, size)
	br := bufio.NewReaderSize(sr, int(min(size, 1<<20))+16)
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
		if r.s.progress != nil && off-lastProgress >= 1<<20 {
			r.s.progress(off)
			lastProgress = off
		}
		left := size - off
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
		if r.dataEnd && op != mcap.OpFooter {
			op = 0 // the summary section: not data, and not trusted
		}
		if n > uint64(left-9) {
			err := fmt.Errorf("%w: the record declares %d bytes, %d are left", ErrTruncated, n, left-9)
			if op == mcap.OpChunk && uint64(left-9) <= streamLimit {
				// Salvage the complete messages of a chunk cut short.
				buf := grow(&r.recBuf, int(left-9))
				if _, rerr := io.ReadFull(br, buf); rerr == nil {
					before := r.info.Messages
					if cerr := r.partialChunk(buf, off); cerr != nil {
						return cerr
					}
					if got := r.info.Messages - before; got > 0 {
						err = fmt.Errorf("%w (%d messages of it recovered)", err, got)
					}
				}
			}
			return &ReadError{Path: fi.Path, Offset: off, Record: name, Err: err}
		}
		if op == mcap.OpChunk {
			// Too big for memory, compressed or not: stream it.
			if usize, ok := peekChunkSize(br); n > streamLimit || ok && n >= 24 && usize > streamLimit {
				if err := r.bigChunk(ctx, f, off, n, nil); err != nil {
					return err
				}
				if _, err := sr.Seek(off+9+int64(n), io.SeekStart); err != nil {
					return &ReadError{Path: fi.Path, Offset: off, Record: name, Err: fmt.Errorf("%w: %w", ErrTruncated, err)}
				}
				br.Reset(sr)
				off += 9 + int64(n)
				continue
			}
		}
		switch op {
		case mcap.OpChunk, mcap.OpMessage, mcap.OpSchema, mcap.OpChannel, mcap.OpHeader, mcap.OpFooter, mcap.OpMessageIndex, mcap.OpDataEnd:
			buf := grow(&r.recBuf, int(n))
			if _, err := io.ReadFull(br, buf); err != nil {
				return &ReadError{Path: fi.Path, Offset: off, Record: name, Err: fmt.Errorf("%w: %w", ErrTruncated, err)}
			}
			switch op {
			case mcap.OpFooter:
				return r.closingMagic(br, off+9+int64(n), size)
			case mcap.OpMessageIndex:
				if c, ok := indexCount(op, buf); ok && r.pendingCount >= 0 {
					d := &r.info.Damaged[r.pendingCount]
					d.Messages = max(d.Messages, 0) + c
					r.info.Skipped += c
				}
			case mcap.OpChunk:
				r.pendingCount = -1
				data, comp, checked, err := r.dec.decode(buf, !r.s.noCRC)
				if err := r.chunkDecoded(data, comp, checked, off, err, nil); err != nil {
					return err
				}
			default:
				if err := r.record(op, buf, off, true); err != nil {
					return err
				}
			}
		default:
			if _, err := br.Discard(int(n)); err != nil {
				return &ReadError{Path: fi.Path, Offset: off, Record: name, Err: fmt.Errorf("%w: %w", ErrTruncated, err)}
			}
		}
		off += 9 + int64(n)
	}
}

// closingMagic checks the end of a file after its footer, at byte end.
func (r *mcapReader) closingMagic(br *bufio.Reader, end, size int64) error {
	fi := r.info
	var tail [8]byte
	k, _ := io.ReadFull(br, tail[:])
	if !bytes.Equal(tail[:k], mcap.Magic) || end+8 != size {
		if end+int64(k) == size && bytes.Equal(tail[:k], mcap.Magic[:k]) {
			return &ReadError{Path: fi.Path, Offset: end, Record: "closing magic", Err: fmt.Errorf("%w: %d of its 8 bytes", ErrTruncated, k)}
		}
		return &ReadError{Path: fi.Path, Offset: end, Record: "closing magic", Err: fmt.Errorf("%w: want the MCAP magic and the end of the file", ErrCorrupt)}
	}
	r.s.progressDone(fi.Bytes)
	return nil
}

// peekChunkSize returns the uncompressed size a chunk record declares,
// without consuming it.
func peekChunkSize(br *bufio.Reader) (uint64, bool) {
	b, err := br.Peek(24)
	if err != nil {
		return 0, false
	}
	return binary.LittleEndian.Uint64(b[16:]), true
}

func recordName(op mcap.OpCode) string {
	if op == mcap.OpMessage {
		return "message record"
	}
	return op.String() + " record"
}

func (r *mcapReader) addChannel(c *mcap.Channel) {
	ch := &channel{Topic: c.Topic, MessageEncoding: c.MessageEncoding, OfferedQoS: c.Metadata["offered_qos_profiles"]}
	sch := r.schemas[c.SchemaID]
	if sch == nil && r.sum != nil {
		sch = r.sum.Schemas[c.SchemaID]
	}
	if sch != nil {
		ch.Type, ch.SchemaEncoding, ch.Definition = sch.Name, sch.Encoding, sch.Data
	}
	r.channels[c.ID] = ch
	if c.ID < 1<<12 {
		for len(r.byID) <= int(c.ID) {
			r.byID = append(r.byID, nil)
		}
		r.byID[c.ID] = ch
	}
	if r.s.onChannel != nil {
		r.s.onChannel(ch)
	}
}

// record handles one top-level or in-chunk record whose content is buf,
// found at byte off of the file.
func (r *mcapReader) record(op mcap.OpCode, buf []byte, off int64, topLevel bool) error {
	if op == mcap.OpMessage { // nearly every record: no closure, no switch
		if len(buf) < 22 {
			return r.corrupt(op, off, fmt.Errorf("message record of %d bytes, under the 22 of its fields", len(buf)))
		}
		id := binary.LittleEndian.Uint16(buf)
		var ch *channel
		if int(id) < len(r.byID) {
			ch = r.byID[id]
		} else {
			ch = r.channels[id]
		}
		if ch == nil && r.sum != nil && r.sum.Channels[id] != nil {
			r.addChannel(r.sum.Channels[id]) // the data did not give it first
			ch = r.channels[id]
		}
		if ch == nil {
			return r.corrupt(op, off, fmt.Errorf("message on unknown channel %d", id))
		}
		r.out.LogTime = int64(binary.LittleEndian.Uint64(buf[6:]))
		r.out.PublishTime = int64(binary.LittleEndian.Uint64(buf[14:]))
		r.out.Data = buf[22:]
		r.info.Messages++
		return r.s.onMessage(ch, &r.out)
	}
	fail := func(err error) error { return r.corrupt(op, off, err) }
	switch op {
	case mcap.OpHeader:
		h, err := mcap.ParseHeader(buf)
		if err != nil {
			return fail(err)
		}
		r.info.Profile, r.info.Library = h.Profile, h.Library
	case mcap.OpSchema:
		if r.dataEnd {
			return nil // the summary's copy, after the data section
		}
		s, err := mcap.ParseSchema(buf)
		if err != nil {
			return fail(err)
		}
		if _, ok := r.schemas[s.ID]; !ok {
			s.Data = bytes.Clone(s.Data)
			r.schemas[s.ID] = s
			if r.sum != nil {
				if ss := r.sum.Schemas[s.ID]; ss == nil || ss.Name != s.Name || ss.Encoding != s.Encoding || !bytes.Equal(ss.Data, s.Data) {
					r.summaryDisagrees(fmt.Sprintf("schema %d (%s)", s.ID, s.Name))
				}
			}
		}
	case mcap.OpChannel:
		if r.dataEnd {
			return nil
		}
		c, err := mcap.ParseChannel(buf)
		if err != nil {
			return fail(err)
		}
		if _, ok := r.channels[c.ID]; !ok {
			r.addChannel(c)
			if r.sum != nil {
				if sc := r.sum.Channels[c.ID]; sc == nil || sc.Topic != c.Topic || sc.SchemaID != c.SchemaID ||
					sc.MessageEncoding != c.MessageEncoding || !maps.Equal(sc.Metadata, c.Metadata) {
					r.summaryDisagrees(fmt.Sprintf("channel %d (%s)", c.ID, c.Topic))
				}
			}
		}
	case mcap.OpDataEnd:
		r.dataEnd = true
	case mcap.OpChunk:
		if !topLevel {
			return fail(errors.New("chunk inside a chunk"))
		}
	}
	return nil
}

// corrupt is the error of a record of kind op at byte off that cannot be
// what it says.
func (r *mcapReader) corrupt(op mcap.OpCode, off int64, err error) error {
	return &ReadError{Path: r.info.Path, Offset: off, Record: recordName(op), Err: fmt.Errorf("%w: %w", ErrCorrupt, err)}
}

// partialChunk handles the start of a chunk cut short by the end of the
// file (buf, at byte off): the complete records of an uncompressed chunk,
// or of a compressed one as far as its stream decodes, are handled and
// the rest is ignored. No checksum can be checked on a cut chunk.
func (r *mcapReader) partialChunk(buf []byte, off int64) error {
	data, comp, ok := r.dec.decodePartial(buf)
	if !ok {
		return nil
	}
	r.info.Chunks++
	r.comps[compName(comp)] = true
	for q := 0; q+9 <= len(data); {
		op := mcap.OpCode(data[q])
		n := binary.LittleEndian.Uint64(data[q+1:])
		if n > uint64(len(data)-q-9) {
			return nil
		}
		if err := r.record(op, data[q+9:q+9+int(n)], off, false); err != nil {
			return err
		}
		q += 9 + int(n)
	}
	return nil
}

func compName(c string) string {
	if c == "" {
		return "none"
	}
	return c
}

// records handles the records of a decompressed chunk found at byte off,
// whose framing was checked (or whose CRC matched): a framing error here
// is a writer's bug, and stops reading.
func (r *mcapReader) records(data []byte, off int64) error {
	for q := 0; q < len(data); {
		if len(data)-q < 9 {
			return &ReadError{Path: r.info.Path, Offset: off, Record: "chunk record",
				Err: fmt.Errorf("%w: %d stray bytes at the end of the chunk", ErrCorrupt, len(data)-q)}
		}
		op := mcap.OpCode(data[q])
		n := binary.LittleEndian.Uint64(data[q+1:])
		if n > uint64(len(data)-q-9) {
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

// A chunkHeader is the fixed part of a chunk record's content.
type chunkHeader struct {
	usize   uint64 // uncompressed size of the records
	crc     uint32 // CRC-32 of the uncompressed records; 0: not stored
	comp    string
	records int    // offset of the records in the content
	rlen    uint64 // their (compressed) length
}

// parseChunkHeader reads the header of a chunk record whose content is n
// bytes long, of which b holds the first ones.
func parseChunkHeader(b []byte, n uint64) (chunkHeader, error) {
	var h chunkHeader
	if len(b) < 8+8+8+4+4 || n < 8+8+8+4+4+8 {
		return h, fmt.Errorf("%w: chunk header of %d bytes", ErrCorrupt, n)
	}
	h.usize = binary.LittleEndian.Uint64(b[16:])
	h.crc = binary.LittleEndian.Uint32(b[24:])
	clen := uint64(binary.LittleEndian.Uint32(b[28:]))
	if clen > uint64(len(b)-32-8) || clen > n-40 {
		return h, fmt.Errorf("%w: compression name of %d bytes", ErrCorrupt, clen)
	}
	h.comp = string(b[32 : 32+clen])
	h.records = 32 + int(clen) + 8
	h.rlen = binary.LittleEndian.Uint64(b[32+clen:])
	if h.rlen > n-uint64(h.records) {
		return h, fmt.Errorf("%w: records of %d bytes in a chunk of %d", ErrCorrupt, h.rlen, n)
	}
	return h, nil
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
// buf and its compression. With verify, the chunk's CRC (when stored) and
// the lz4 frame checksum are checked. Errors wrap ErrCorrupt or
// ErrChecksum; data is then what could be decoded, or nil.
func (d *decompressor) decode(buf []byte, verify bool) (data []byte, comp string, checked bool, err error) {
	h, err := parseChunkHeader(buf, uint64(len(buf)))
	if err != nil {
		return nil, "", false, err
	}
	comp = h.comp
	corrupt := func(format string, args ...any) ([]byte, string, bool, error) {
		return nil, comp, false, fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
	}
	records := buf[h.records : h.records+int(h.rlen)]
	if h.usize > streamLimit {
		return corrupt("uncompressed size %d disagrees with the chunk index", h.usize)
	}
	switch comp {
	case "":
		data = records
	case "zstd":
		if d.zstd == nil {
			z, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxDecoderMemory))
			if err != nil {
				return corrupt("zstd: %v", err)
			}
			d.zstd = z
		}
		// Preallocate no more than a plausible ratio; DecodeAll grows it.
		out, err := d.zstd.DecodeAll(records, grow(&d.out, int(min(h.usize, 64*uint64(len(records))+1<<20)))[:0])
		if err != nil {
			return corrupt("zstd: %v", err)
		}
		if cap(out) > cap(d.out) {
			d.out = out
		}
		data = out
	case "lz4":
		if h.usize > 256*uint64(len(records))+1<<16 { // beyond LZ4's best ratio
			return corrupt("lz4 chunk of %d bytes cannot hold %d", len(records), h.usize)
		}
		if d.lz4 == nil {
			d.lz4 = lz4.NewReader(bytes.NewReader(records))
		} else {
			d.lz4.Reset(bytes.NewReader(records))
		}
		out := grow(&d.out, int(h.usize))
		if _, err := io.ReadFull(d.lz4, out); err != nil {
			return corrupt("lz4: %v", err)
		}
		if verify {
			// The frame checksum is checked when the stream ends.
			var one [1]byte
			if n, err := d.lz4.Read(one[:]); n > 0 || err != io.EOF {
				if n > 0 {
					return corrupt("lz4 chunk holds more than the %d bytes its header says", h.usize)
				}
				return nil, comp, false, fmt.Errorf("%w: lz4 frame: %v", ErrChecksum, err)
			}
		}
		data = out
	default:
		return corrupt("unsupported compression \"%s\"", comp)
	}
	if uint64(len(data)) != h.usize {
		return corrupt("chunk decompresses to %d bytes, its header says %d", len(data), h.usize)
	}
	if verify && h.crc != 0 {
		if c := crc32.ChecksumIEEE(data); c != h.crc {
			return data, comp, false, fmt.Errorf("%w: chunk CRC is %08x, its content's is %08x", ErrChecksum, h.crc, c)
		}
		return data, comp, true, nil
	}
	return data, comp, false, nil
}

// decodePartial decodes the start of a chunk cut short: ok is false when
// nothing can be recovered.
func (d *decompressor) decodePartial(buf []byte) (data []byte, comp string, ok bool) {
	if len(buf) < 40 || uint64(binary.LittleEndian.Uint32(buf[28:])) > uint64(len(buf)-40) {
		return nil, "", false // not even the chunk header is complete
	}
	usize := binary.LittleEndian.Uint64(buf[16:])
	clen := int(binary.LittleEndian.Uint32(buf[28:]))
	comp = string(buf[32 : 32+clen])
	p := 32 + clen
	rlen := binary.LittleEndian.Uint64(buf[p:])
	p += 8
	records := buf[p : p+int(min(rlen, uint64(len(buf)-p)))]
	var src io.Reader
	switch comp {
	case "":
		return records, comp, true
	case "zstd":
		z, err := zstd.NewReader(bytes.NewReader(records), zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxDecoderMemory))
		if err != nil {
			return nil, comp, false
		}
		defer z.Close()
		src = z
	case "lz4":
		src = lz4.NewReader(bytes.NewReader(records))
	default:
		return nil, comp, false
	}
	// Decode the stream as far as it goes.
	out := bytes.NewBuffer(d.out[:0])
	_, _ = io.Copy(out, io.LimitReader(src, int64(min(usize, streamLimit))))
	d.out = out.Bytes()
	return d.out, comp, true
}
