package bag

import (
	"errors"
	"fmt"
	"sync"
)

// Sentinel errors of bag reading; a *ReadError wraps one of them.
var (
	// ErrNotMCAP reports a file that does not start with the MCAP magic.
	ErrNotMCAP = errors.New("not an MCAP file")
	// ErrNotSQLite reports a .db3 file that is not an SQLite database.
	ErrNotSQLite = errors.New("not an SQLite database")
	// ErrTruncated reports a file that ends inside a record or before its
	// footer: a recording that was cut off.
	ErrTruncated = errors.New("file is truncated")
	// ErrCorrupt reports a record that cannot be valid: a length past the
	// end of its container, a chunk that does not decompress, a bad index.
	ErrCorrupt = errors.New("file is corrupt")
	// ErrChecksum reports a chunk whose CRC (or lz4 frame checksum) does
	// not match its content: the bytes were damaged after writing.
	ErrChecksum = errors.New("checksum mismatch")
	// ErrDamaged is returned by Inspect when it skipped damaged chunks and
	// read the rest, or did not trust a damaged summary section; the report
	// lists them (FileInfo.Damaged, FileInfo.SummaryDamage).
	ErrDamaged = errors.New("bag has damaged chunks")
)

// A ReadError says which file failed, at which byte offset, in which
// record. Everything before Offset has been read and analysed.
type ReadError struct {
	Path   string
	Offset int64  // byte offset in the file of the record that failed; -1: unknown (sqlite3)
	Record string // what was being read, such as "chunk record" or "footer"
	Err    error  // wraps ErrTruncated, ErrCorrupt, ErrChecksum or ErrNotMCAP
}

// Error says which file, where and what.
func (e *ReadError) Error() string {
	if e.Offset < 0 { // unknown: SQLite does not say where, nor a bad index where it lies
		return fmt.Sprintf("bag: %s: %s: %v", e.Path, e.Record, e.Err)
	}
	return fmt.Sprintf("bag: %s: at byte %d (%s): %v", e.Path, e.Offset, e.Record, e.Err)
}

// Unwrap returns the sentinel-wrapping cause.
func (e *ReadError) Unwrap() error { return e.Err }

// FileInfo describes one file of a bag as read.
type FileInfo struct {
	Path    string `json:"path"`
	Bytes   int64  `json:"bytes"`
	Storage string `json:"storage"` // "mcap" or "sqlite3"
	// FileCompression is "zstd" for a file compressed whole
	// (compression_mode: file), "" otherwise.
	FileCompression string `json:"file_compression,omitempty"`
	Indexed         bool   `json:"indexed"` // read through the summary's chunk index
	Profile         string `json:"profile"`
	Library         string `json:"library"`
	Chunks          int    `json:"chunks"`
	Messages        int64  `json:"messages"`
	// Compression lists the chunk compressions met ("", "zstd", "lz4"),
	// "none" standing for uncompressed chunks.
	Compression []string `json:"compression"`
	// Damaged lists the chunks skipped because their content is damaged
	// (checksum mismatch, undecodable); none of their messages is analysed.
	Damaged []DamagedChunk `json:"damaged,omitempty"`
	// Skipped counts the messages of the damaged chunks, as far as they
	// can be counted.
	Skipped int64 `json:"skipped_messages"`
	// SummaryDamage says why the MCAP summary section was not trusted (its
	// CRC, its framing, a chunk index or a schema or channel disagreeing
	// with the data); the file was then read from its data section.
	SummaryDamage string `json:"summary_damage,omitempty"`
	Error         string `json:"error,omitempty"`
}

// A DamagedChunk is a chunk whose messages were skipped.
type DamagedChunk struct {
	Offset   int64  `json:"offset"`   // byte offset of the chunk record in the file
	Messages int64  `json:"messages"` // messages skipped; -1 when they cannot be counted
	Problem  string `json:"problem"`
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

func putBuf(b *[]byte) {
	if cap(*b) > 0 && cap(*b) <= 64<<20 {
		buf := (*b)[:0]
		buffers.Put(&buf)
	}
	*b = nil
}

// grow returns (*b)[:n], reallocating when needed.
func grow(b *[]byte, n int) []byte {
	if cap(*b) < n {
		*b = make([]byte, n, n+n/4)
	}
	return (*b)[:n]
}
