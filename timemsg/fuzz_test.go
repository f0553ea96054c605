package timemsg_test

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/simclock/simclock/cdr"
	"github.com/simclock/simclock/timemsg"
)

// FuzzUnmarshalClock decodes arbitrary bytes as rosgraph_msgs/Clock (R9):
// never a panic; a short payload or an unknown encapsulation is a
// *cdr.DecodeError; a valid payload decodes to exactly its sec and nanosec
// and encodes back to the same body.
func FuzzUnmarshalClock(f *testing.F) {
	for _, seed := range [][]byte{
		nil,
		{0x00},
		{0x00, 0x01, 0x00},
		{0x00, 0x01, 0x00, 0x00},
		{0x00, 0x01, 0x00, 0x00, 0xd2, 0x04, 0x00, 0x00, 0x52, 0xaa, 0x08},
		{0x00, 0x01, 0x00, 0x00, 0xd2, 0x04, 0x00, 0x00, 0x52, 0xaa, 0x08, 0x00},
		{0x00, 0x01, 0x00, 0x00, 0xd2, 0x04, 0x00, 0x00, 0x52, 0xaa, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00},
		{0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0xd2, 0x00, 0x08, 0xaa, 0x52},
		{0x00, 0x01, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xc9, 0x9a, 0x3b},
		{0x00, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0xca, 0x9a, 0x3b},
		{0x00, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff},
		{0x00, 0x03, 0x00, 0x00, 0xd2, 0x04, 0x00, 0x00, 0x52, 0xaa, 0x08, 0x00},
		{0xff, 0xff, 0x00, 0x00, 0xd2, 0x04, 0x00, 0x00, 0x52, 0xaa, 0x08, 0x00},
		{0x00, 0x07, 0x00, 0x00, 0xd2, 0x04, 0x00, 0x00, 0x52, 0xaa, 0x08, 0x00},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := timemsg.UnmarshalClock(data)
		tm, terr := timemsg.UnmarshalTime(data)
		d, derr := timemsg.UnmarshalDuration(data)
		if tm != c.Clock || timemsg.Time(d) != c.Clock || (err == nil) != (terr == nil) || (err == nil) != (derr == nil) {
			t.Fatalf("Clock, Time and Duration decoders disagree on % x: %v %v / %v %v / %v %v", data, c, err, tm, terr, d, derr)
		}
		validHeader := len(data) >= 4 && data[0] == 0 && (data[1] == 0 || data[1] == 1)
		if len(data) < timemsg.ClockSize || !validHeader {
			var de *cdr.DecodeError
			if err == nil || !errors.As(err, &de) {
				t.Fatalf("UnmarshalClock(% x) = %v, %v; want a *cdr.DecodeError", data, c, err)
			}
			if c != (timemsg.Clock{}) {
				t.Fatalf("UnmarshalClock(% x) returned %v with its error", data, c)
			}
			return
		}
		var order binary.ByteOrder = binary.LittleEndian
		if data[1] == 0 {
			order = binary.BigEndian
		}
		want := timemsg.Time{Sec: int32(order.Uint32(data[4:])), Nanosec: order.Uint32(data[8:])}
		if c.Clock != want {
			t.Fatalf("UnmarshalClock(% x) = %v, want %v", data, c, want)
		}
		if want.Nanosec >= 1e9 {
			if !errors.Is(err, timemsg.ErrNotNormalized) {
				t.Fatalf("UnmarshalClock(% x): nanosec %d not flagged: %v", data, want.Nanosec, err)
			}
		} else if err != nil {
			t.Fatalf("UnmarshalClock(% x): %v", data, err)
		}
		// Encoding is always little endian; decoding it gives the value back.
		enc := timemsg.MarshalClock(c)
		if len(enc) != timemsg.ClockSize || enc[0] != 0 || enc[1] != 1 ||
			int32(binary.LittleEndian.Uint32(enc[4:])) != want.Sec || binary.LittleEndian.Uint32(enc[8:]) != want.Nanosec {
			t.Fatalf("MarshalClock(%v) = % x", c, enc)
		}
		if back, err2 := timemsg.UnmarshalClock(enc); back != c || (err2 == nil) != (err == nil) {
			t.Fatalf("round trip of %v: %v, %v", c, back, err2)
		}
	})
}
