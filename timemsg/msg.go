// Package timemsg holds the ROS 2 message types of the time system,
// builtin_interfaces/Time, builtin_interfaces/Duration and
// rosgraph_msgs/Clock, with their CDR encoding (R8, R9) and conversions to
// and from simclock's values.
package timemsg

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/cdr"
)

// ROS type names, as transports and bags name them (not to be confused
// with simclock.ClockType, the kind of a clock).
const (
	ClockTypeName    = "rosgraph_msgs/msg/Clock"
	TimeTypeName     = "builtin_interfaces/msg/Time"
	DurationTypeName = "builtin_interfaces/msg/Duration"
)

// ClockTopic is the topic sim time arrives on.
const ClockTopic = "/clock"

// ClockSize is the length of a serialized Clock message: the 4-byte
// encapsulation header, int32 sec, uint32 nanosec (R9).
const ClockSize = cdr.HeaderSize + 8

// ErrNotNormalized reports a nanosec field of 1e9 or more. ROS accepts such
// values and simply adds them (R8); simclock's decoders flag them so a time
// source can count and drop them instead of applying them.
var ErrNotNormalized = errors.New("nanosec field is not below 1e9")

// Time is builtin_interfaces/msg/Time.
type Time struct {
	Sec     int32
	Nanosec uint32
}

// Duration is builtin_interfaces/msg/Duration.
type Duration struct {
	Sec     int32
	Nanosec uint32
}

// Clock is rosgraph_msgs/msg/Clock.
type Clock struct {
	Clock Time
}

// Nanoseconds returns sec*1e9 + nanosec, as rclpy's from_msg computes it.
// It never overflows: the largest value is about 2.15e18.
func (t Time) Nanoseconds() int64 { return int64(t.Sec)*1e9 + int64(t.Nanosec) }

// Normalized reports whether nanosec is below 1e9.
func (t Time) Normalized() bool { return t.Nanosec < 1e9 }

// String formats t as ROS prints a message: {sec: 1, nanosec: 500000000}.
func (t Time) String() string { return fmt.Sprintf("{sec: %d, nanosec: %d}", t.Sec, t.Nanosec) }

// Nanoseconds returns sec*1e9 + nanosec.
func (d Duration) Nanoseconds() int64 { return int64(d.Sec)*1e9 + int64(d.Nanosec) }

// Normalized reports whether nanosec is below 1e9.
func (d Duration) Normalized() bool { return d.Nanosec < 1e9 }

// String formats d as ROS prints a message: {sec: -1, nanosec: 500000000}.
func (d Duration) String() string { return fmt.Sprintf("{sec: %d, nanosec: %d}", d.Sec, d.Nanosec) }

// AppendClock appends the CDR encoding of c to dst (header included) and
// returns the extended slice. It does not allocate when dst has room.
func AppendClock(dst []byte, c Clock) []byte {
	return appendSecNsec(dst, c.Clock.Sec, c.Clock.Nanosec)
}

// MarshalTime returns the CDR encoding of t.
func MarshalTime(t Time) []byte { return appendSecNsec(nil, t.Sec, t.Nanosec) }

// MarshalDuration returns the CDR encoding of d.
func MarshalDuration(d Duration) []byte { return appendSecNsec(nil, d.Sec, d.Nanosec) }

// MarshalClock returns the CDR encoding of c.
func MarshalClock(c Clock) []byte { return AppendClock(make([]byte, 0, ClockSize), c) }

func appendSecNsec(dst []byte, sec int32, nsec uint32) []byte {
	return append(dst, 0x00, 0x01, 0x00, 0x00,
		byte(sec), byte(sec>>8), byte(sec>>16), byte(sec>>24),
		byte(nsec), byte(nsec>>8), byte(nsec>>16), byte(nsec>>24))
}

// DecodeClock decodes a serialized rosgraph_msgs/Clock (CDR header
// included) as a ROS node takes it, and returns its value in nanoseconds.
// It is the one /clock decoder: a node's time source, monitor, doctor and
// bag all read /clock through it, so they agree on every payload.
//
//   - A payload that does not decode (short, or an encapsulation other
//     than plain CDR) is a *cdr.DecodeError, and ns is 0.
//   - A negative sec is an *InvalidClockError wrapping
//     simclock.ErrNegativeTime: rclpy's Time.from_msg raises and rclcpp's
//     Time(msg) throws "cannot store a negative time point" (R2, R8).
//   - A nanosec of 1e9 or more is an *InvalidClockError wrapping
//     ErrNotNormalized: rclpy and rclcpp add it, simclock counts and drops
//     it (R8).
//
// With an *InvalidClockError, ns is sec*1e9 + nanosec, the value upstream
// would compute. Trailing bytes are ignored, as DDS pads payloads. A valid
// payload decodes without allocating.
func DecodeClock(data []byte) (ns int64, err error) {
	var t Time
	switch {
	case len(data) >= ClockSize && data[0] == 0 && data[1] == 1: // what every ROS 2 writer sends
		t = Time{Sec: int32(binary.LittleEndian.Uint32(data[4:])), Nanosec: binary.LittleEndian.Uint32(data[8:])}
	case len(data) >= ClockSize && data[0] == 0 && data[1] == 0:
		t = Time{Sec: int32(binary.BigEndian.Uint32(data[4:])), Nanosec: binary.BigEndian.Uint32(data[8:])}
	default:
		_, err := unmarshalSecNsec(data, "clock")
		return 0, err
	}
	switch {
	case t.Sec < 0:
		return t.Nanoseconds(), &InvalidClockError{Clock: t, Err: simclock.ErrNegativeTime}
	case t.Nanosec >= 1e9:
		return t.Nanoseconds(), &InvalidClockError{Clock: t, Err: ErrNotNormalized}
	}
	return t.Nanoseconds(), nil
}

// An InvalidClockError is a /clock message that decodes but that no node
// applies (see DecodeClock). Err is simclock.ErrNegativeTime or
// ErrNotNormalized.
type InvalidClockError struct {
	Clock Time // the message's clock field, as decoded
	Err   error
}

func (e *InvalidClockError) Error() string {
	if errors.Is(e.Err, simclock.ErrNegativeTime) {
		return fmt.Sprintf("timemsg: /clock %v: seconds value must not be negative: %v", e.Clock, e.Err)
	}
	return fmt.Sprintf("timemsg: /clock %v: %v", e.Clock, e.Err)
}

// Unwrap returns Err.
func (e *InvalidClockError) Unwrap() error { return e.Err }

// UnmarshalClock decodes a serialized Clock. Malformed input (short
// payload, unknown encapsulation) is a *cdr.DecodeError. A nanosec of 1e9
// or more decodes, and the error wraps ErrNotNormalized alongside the
// value, so callers choose whether to apply it (the time source does not).
// Trailing bytes beyond the 12 are ignored, as DDS pads payloads. It
// decodes the bytes; DecodeClock reads /clock as a node does.
func UnmarshalClock(data []byte) (Clock, error) {
	t, err := unmarshalSecNsec(data, "clock")
	return Clock{Clock: Time(t)}, err
}

// UnmarshalTime decodes a serialized builtin_interfaces/Time.
func UnmarshalTime(data []byte) (Time, error) {
	t, err := unmarshalSecNsec(data, "time")
	return Time(t), err
}

// UnmarshalDuration decodes a serialized builtin_interfaces/Duration.
func UnmarshalDuration(data []byte) (Duration, error) {
	d, err := unmarshalSecNsec(data, "duration")
	return Duration(d), err
}

type secNsec struct {
	Sec     int32
	Nanosec uint32
}

func unmarshalSecNsec(data []byte, field string) (secNsec, error) {
	// A direct read of the fixed 12-byte layout: the time source decodes
	// every /clock message with it, and it must not allocate.
	if len(data) >= ClockSize && data[0] == 0 && (data[1] == 0 || data[1] == 1) {
		var v secNsec
		if data[1] == 1 {
			v = secNsec{Sec: int32(binary.LittleEndian.Uint32(data[4:])), Nanosec: binary.LittleEndian.Uint32(data[8:])}
		} else {
			v = secNsec{Sec: int32(binary.BigEndian.Uint32(data[4:])), Nanosec: binary.BigEndian.Uint32(data[8:])}
		}
		if v.Nanosec >= 1e9 {
			return v, &cdr.DecodeError{Offset: 8, Field: field + ".nanosec",
				Err: fmt.Errorf("%w: %d", ErrNotNormalized, v.Nanosec)}
		}
		return v, nil
	}
	// Anything else is malformed; the CDR reader says where and why.
	r, err := cdr.NewReader(data)
	if err != nil {
		return secNsec{}, err
	}
	r.Int32(field + ".sec")
	r.Uint32(field + ".nanosec")
	return secNsec{}, r.Err()
}
