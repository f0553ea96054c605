package timemsg_test

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/simclock/simclock"
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

// FuzzDecodeClock checks the one /clock decoder against the node's rules
// built from the parts: UnmarshalClock's bytes and ToTime's conversion
// (rclpy's Time.from_msg). It never panics; a payload that does not decode
// is UnmarshalClock's *cdr.DecodeError; a negative sec is ErrNegativeTime
// and a nanosec of 1e9 or more ErrNotNormalized, both *InvalidClockError
// carrying the message; everything else is exactly ToTime's value.
func FuzzDecodeClock(f *testing.F) {
	clock := func(sec int32, nsec uint32) []byte {
		return timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: sec, Nanosec: nsec}})
	}
	for _, seed := range [][]byte{
		nil,
		{0x00, 0x01, 0x00},
		clock(0, 0),
		clock(1234, 567890),
		clock(-1, 0),           // the payload monitor and the node once disagreed on
		clock(-1, 999_999_999), // -1 ns if added up, refused all the same
		clock(-2147483648, 0),
		clock(2147483647, 999_999_999),
		clock(1, 1e9),
		clock(-1, 1e9),
		clock(0, 0xffffffff),
		clock(5, 6)[:11],
		append(clock(5, 6), 0xff, 0xff),
		{0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00}, // big endian, sec -1
		{0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0xd2, 0x3b, 0x9a, 0xca, 0x00}, // big endian, nanosec 1e9
		{0x00, 0x03, 0x00, 0x00, 0xd2, 0x04, 0x00, 0x00, 0x52, 0xaa, 0x08, 0x00}, // PL_CDR_LE
		{0x00, 0x07, 0x00, 0x00, 0xd2, 0x04, 0x00, 0x00, 0x52, 0xaa, 0x08, 0x00}, // CDR2_LE
		{0x01, 0x01, 0x00, 0x00, 0xd2, 0x04, 0x00, 0x00, 0x52, 0xaa, 0x08, 0x00},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ns, err := timemsg.DecodeClock(data)
		c, uerr := timemsg.UnmarshalClock(data)
		if uerr != nil && !errors.Is(uerr, timemsg.ErrNotNormalized) {
			if ns != 0 || err == nil || err.Error() != uerr.Error() {
				t.Fatalf("DecodeClock(% x) = %d, %v; UnmarshalClock says %v", data, ns, err, uerr)
			}
			return
		}
		if ns != c.Clock.Nanoseconds() {
			t.Fatalf("DecodeClock(% x) = %d, want %d (%v)", data, ns, c.Clock.Nanoseconds(), c)
		}
		node, nerr := timemsg.ToTime[simclock.ROS](c.Clock)
		var bad *timemsg.InvalidClockError
		switch {
		case c.Clock.Sec < 0:
			if !errors.Is(err, simclock.ErrNegativeTime) || !errors.Is(nerr, simclock.ErrNegativeTime) {
				t.Fatalf("DecodeClock(% x): negative sec: %v (ToTime: %v)", data, err, nerr)
			}
		case c.Clock.Nanosec >= 1e9:
			if !errors.Is(err, timemsg.ErrNotNormalized) || nerr != nil || node.Nanoseconds() != ns {
				t.Fatalf("DecodeClock(% x): nanosec %d: %v (ToTime: %v, %v)", data, c.Clock.Nanosec, err, node, nerr)
			}
		default:
			if err != nil || nerr != nil || node.Nanoseconds() != ns {
				t.Fatalf("DecodeClock(% x) = %d, %v; ToTime: %v, %v", data, ns, err, node, nerr)
			}
			return
		}
		if !errors.As(err, &bad) || bad.Clock != c.Clock {
			t.Fatalf("DecodeClock(% x): %v does not carry %v", data, err, c.Clock)
		}
	})
}
