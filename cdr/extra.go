package cdr

import (
	"encoding/binary"
	"fmt"
	"io"
)

// Reset makes r read payload from its first body byte, as NewReader does,
// so a decoder can keep one Reader (on its stack) for many payloads
// without allocating. A bad header is returned and also recorded as r's
// error.
func (r *Reader) Reset(payload []byte) error {
	*r = Reader{buf: payload, off: HeaderSize}
	if len(payload) < HeaderSize {
		r.off = len(payload)
		r.err = &DecodeError{Offset: len(payload), Field: "encapsulation header", Err: io.ErrUnexpectedEOF}
		return r.err
	}
	switch binary.BigEndian.Uint16(payload[0:2]) {
	case EncodingCDRLE:
		r.order = binary.LittleEndian
	case EncodingCDRBE:
		r.order = binary.BigEndian
	default:
		r.err = &DecodeError{Offset: 0, Field: "encapsulation header",
			Err: fmt.Errorf("%w: % x", ErrBadHeader, payload[0:4])}
		return r.err
	}
	return nil
}
