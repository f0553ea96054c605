// Package cdr reads and writes XCDR1 (classic CDR), the wire encoding of
// every ROS 2 message on DDS and in rosbag2 files.
//
// A serialized message starts with a 4-byte encapsulation header
// (00 01 00 00 for little endian, 00 00 00 00 for big endian); alignment
// of the body is counted from the byte after that header, with 8 bytes
// as the largest alignment (R9).
//
// Readers never panic: every read past the end, or of a malformed value,
// returns a *DecodeError naming the offset and the field.
package cdr

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// HeaderSize is the length of the encapsulation header that precedes every
// CDR payload.
const HeaderSize = 4

// Encapsulation identifiers (the first two header bytes, big-endian).
const (
	EncodingCDRBE uint16 = 0x0000 // plain CDR, big endian
	EncodingCDRLE uint16 = 0x0001 // plain CDR, little endian: what ROS 2 sends
)

var (
	// ErrBadHeader reports an encapsulation header that is not plain CDR.
	ErrBadHeader = errors.New("unsupported CDR encapsulation header")
	// ErrMalformed reports a value that decodes but cannot be valid, such as
	// a string without its terminating NUL or an absurd sequence length.
	ErrMalformed = errors.New("malformed CDR value")
)

// A DecodeError says where decoding stopped and why. A truncated input
// unwraps to io.ErrUnexpectedEOF.
type DecodeError struct {
	Offset int    // byte offset from the start of the payload, header included
	Field  string // what was being read, when known
	Err    error
}

// Error says where decoding stopped and why.
func (e *DecodeError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("cdr: at byte %d: %v", e.Offset, e.Err)
	}
	return fmt.Sprintf("cdr: at byte %d reading %s: %v", e.Offset, e.Field, e.Err)
}

// Unwrap returns the underlying error, io.ErrUnexpectedEOF for truncation.
func (e *DecodeError) Unwrap() error { return e.Err }

// A Reader decodes one CDR payload. The first error is sticky: later reads
// return zero values and Err reports the first failure, so a decoder can
// read a whole struct and check once.
type Reader struct {
	buf   []byte
	off   int // absolute offset into buf
	order binary.ByteOrder
	err   error
}

// NewReader checks the encapsulation header of payload and returns a reader
// positioned at the first body byte.
func NewReader(payload []byte) (*Reader, error) {
	if len(payload) < HeaderSize {
		return nil, &DecodeError{Offset: len(payload), Field: "encapsulation header", Err: io.ErrUnexpectedEOF}
	}
	var order binary.ByteOrder
	switch binary.BigEndian.Uint16(payload[0:2]) {
	case EncodingCDRLE:
		order = binary.LittleEndian
	case EncodingCDRBE:
		order = binary.BigEndian
	default:
		return nil, &DecodeError{Offset: 0, Field: "encapsulation header",
			Err: fmt.Errorf("%w: % x", ErrBadHeader, payload[0:4])}
	}
	return &Reader{buf: payload, off: HeaderSize, order: order}, nil
}

// Err returns the first error met, or nil.
func (r *Reader) Err() error { return r.err }

// Offset returns the absolute offset of the next byte to read.
func (r *Reader) Offset() int { return r.off }

// Remaining returns how many bytes are left after the current position.
func (r *Reader) Remaining() int { return len(r.buf) - r.off }

// Fail records err at the current offset unless an error is already
// recorded. Decoders built on Reader use it to report semantic problems.
func (r *Reader) Fail(field string, err error) {
	if r.err == nil {
		r.err = &DecodeError{Offset: r.off, Field: field, Err: err}
	}
}

// Align skips padding so that the next read starts at a multiple of n
// counted from the end of the header.
func (r *Reader) Align(n int) {
	if r.err != nil || n <= 1 {
		return
	}
	body := r.off - HeaderSize
	pad := (n - body%n) % n
	if pad > r.Remaining() {
		r.Fail("padding", io.ErrUnexpectedEOF)
		return
	}
	r.off += pad
}

func (r *Reader) take(n int, field string) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > r.Remaining() {
		r.Fail(field, io.ErrUnexpectedEOF)
		return nil
	}
	b := r.buf[r.off : r.off+n]
	r.off += n
	return b
}

// Uint8 reads one byte.
func (r *Reader) Uint8(field string) uint8 {
	b := r.take(1, field)
	if b == nil {
		return 0
	}
	return b[0]
}

// Bool reads a one-byte boolean.
func (r *Reader) Bool(field string) bool { return r.Uint8(field) != 0 }

// Uint16 reads an aligned 16-bit unsigned integer.
func (r *Reader) Uint16(field string) uint16 {
	r.Align(2)
	b := r.take(2, field)
	if b == nil {
		return 0
	}
	return r.order.Uint16(b)
}

// Uint32 reads an aligned 32-bit unsigned integer.
func (r *Reader) Uint32(field string) uint32 {
	r.Align(4)
	b := r.take(4, field)
	if b == nil {
		return 0
	}
	return r.order.Uint32(b)
}

// Int32 reads an aligned 32-bit signed integer.
func (r *Reader) Int32(field string) int32 { return int32(r.Uint32(field)) }

// Uint64 reads an aligned 64-bit unsigned integer.
func (r *Reader) Uint64(field string) uint64 {
	r.Align(8)
	b := r.take(8, field)
	if b == nil {
		return 0
	}
	return r.order.Uint64(b)
}

// Int64 reads an aligned 64-bit signed integer.
func (r *Reader) Int64(field string) int64 { return int64(r.Uint64(field)) }

// Float32 reads an aligned IEEE-754 single.
func (r *Reader) Float32(field string) float32 { return math.Float32frombits(r.Uint32(field)) }

// Float64 reads an aligned IEEE-754 double.
func (r *Reader) Float64(field string) float64 { return math.Float64frombits(r.Uint64(field)) }

// Bytes reads n raw bytes with no alignment. The result aliases the payload.
func (r *Reader) Bytes(n int, field string) []byte { return r.take(n, field) }

// SequenceLength reads a sequence or string length and checks that at
// least length*minElemSize bytes remain, so a corrupt length cannot make a
// decoder allocate gigabytes.
func (r *Reader) SequenceLength(minElemSize int, field string) int {
	n := r.Uint32(field) // no concatenation: this runs per element, and errors name the field anyway
	if r.err != nil {
		return 0
	}
	if minElemSize > 0 && uint64(n)*uint64(minElemSize) > uint64(r.Remaining()) {
		r.Fail(field, fmt.Errorf("%w: length %d exceeds the %d bytes left", io.ErrUnexpectedEOF, n, r.Remaining()))
		return 0
	}
	return int(n)
}

// String reads a CDR string: a uint32 length that counts the trailing NUL,
// the bytes, then the NUL.
func (r *Reader) String(field string) string {
	n := r.SequenceLength(1, field)
	if r.err != nil {
		return ""
	}
	if n == 0 {
		// Some writers encode the empty string as length 0 with no NUL.
		return ""
	}
	b := r.take(n, field)
	if b == nil {
		return ""
	}
	if b[n-1] != 0 {
		r.off -= n
		r.Fail(field, fmt.Errorf("%w: string of length %d is not NUL-terminated", ErrMalformed, n))
		return ""
	}
	return string(b[:n-1])
}

// A Writer builds one little-endian CDR payload, header included.
type Writer struct {
	buf []byte
}

// NewWriter returns a writer whose buffer already holds the little-endian
// encapsulation header. sizeHint preallocates the body.
func NewWriter(sizeHint int) *Writer {
	w := &Writer{buf: make([]byte, HeaderSize, HeaderSize+sizeHint)}
	w.buf[1] = 0x01
	return w
}

// Bytes returns the payload written so far.
func (w *Writer) Bytes() []byte { return w.buf }

// Align writes zero padding up to a multiple of n from the end of the header.
func (w *Writer) Align(n int) {
	for (len(w.buf)-HeaderSize)%n != 0 {
		w.buf = append(w.buf, 0)
	}
}

// Uint8 appends one byte.
func (w *Writer) Uint8(v uint8) { w.buf = append(w.buf, v) }

// Bool appends a one-byte boolean.
func (w *Writer) Bool(v bool) {
	if v {
		w.Uint8(1)
	} else {
		w.Uint8(0)
	}
}

// Uint16 appends an aligned 16-bit unsigned integer.
func (w *Writer) Uint16(v uint16) { w.Align(2); w.buf = binary.LittleEndian.AppendUint16(w.buf, v) }

// Uint32 appends an aligned 32-bit unsigned integer.
func (w *Writer) Uint32(v uint32) { w.Align(4); w.buf = binary.LittleEndian.AppendUint32(w.buf, v) }

// Int32 appends an aligned 32-bit signed integer.
func (w *Writer) Int32(v int32) { w.Uint32(uint32(v)) }

// Uint64 appends an aligned 64-bit unsigned integer.
func (w *Writer) Uint64(v uint64) { w.Align(8); w.buf = binary.LittleEndian.AppendUint64(w.buf, v) }

// Int64 appends an aligned 64-bit signed integer.
func (w *Writer) Int64(v int64) { w.Uint64(uint64(v)) }

// Float32 appends an aligned IEEE-754 single.
func (w *Writer) Float32(v float32) { w.Uint32(math.Float32bits(v)) }

// Float64 appends an aligned IEEE-754 double.
func (w *Writer) Float64(v float64) { w.Uint64(math.Float64bits(v)) }

// String appends a CDR string (length including NUL, bytes, NUL).
func (w *Writer) String(s string) {
	w.Uint32(uint32(len(s) + 1))
	w.buf = append(w.buf, s...)
	w.buf = append(w.buf, 0)
}

// RawBytes appends b with no length and no alignment.
func (w *Writer) RawBytes(b []byte) { w.buf = append(w.buf, b...) }
