package timemsg_test

import (
	"errors"
	"io"
	"math"
	"testing"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/cdr"
	"github.com/simclock/simclock/timemsg"
)

func TestStrings(t *testing.T) {
	cases := []struct{ got, want string }{
		{timemsg.Time{Sec: 1, Nanosec: 500_000_000}.String(), "{sec: 1, nanosec: 500000000}"},
		{timemsg.Duration{Sec: -1, Nanosec: 999_999_999}.String(), "{sec: -1, nanosec: 999999999}"},
	}
	for _, tc := range cases {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// R9: the time source decodes every /clock message; decoding a valid one
// must not allocate.
func TestUnmarshalClockDoesNotAllocate(t *testing.T) {
	data := timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: 1234, Nanosec: 567890}})
	var c timemsg.Clock
	if n := testing.AllocsPerRun(100, func() { c, _ = timemsg.UnmarshalClock(data) }); n != 0 {
		t.Errorf("UnmarshalClock allocates %v times per call", n)
	}
	if c.Clock.Sec != 1234 {
		t.Errorf("decoded %v", c)
	}
}

// R8, R9: a decode error says where and what.
func TestDecodeErrors(t *testing.T) {
	_, err := timemsg.UnmarshalClock([]byte{0, 1, 0, 0, 1, 0, 0, 0, 0, 0xca, 0x9a, 0x3b})
	var de *cdr.DecodeError
	if !errors.As(err, &de) || de.Offset != 8 || de.Field != "clock.nanosec" || !errors.Is(err, timemsg.ErrNotNormalized) {
		t.Errorf("nanosec 1e9: got %v (%+v)", err, de)
	}
	_, err = timemsg.UnmarshalTime([]byte{0, 1, 0, 0, 1, 0, 0, 0})
	if !errors.As(err, &de) || de.Field != "time.nanosec" || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("short time: got %v (%+v)", err, de)
	}
	_, err = timemsg.UnmarshalDuration([]byte{0, 1})
	if !errors.As(err, &de) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("short duration: got %v", err)
	}
}

// DecodeClock reads /clock as a node does: rclpy's Time.from_msg and
// rclcpp's Time(msg) refuse a negative sec (R2, R8), and simclock also
// refuses a nanosec of 1e9 or more, which upstream adds (R8).
func TestDecodeClock(t *testing.T) {
	clock := func(sec int32, nsec uint32) []byte {
		return timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: sec, Nanosec: nsec}})
	}
	cases := []struct {
		name string
		data []byte
		ns   int64
		err  error // nil, simclock.ErrNegativeTime, ErrNotNormalized or io.ErrUnexpectedEOF / cdr.ErrBadHeader
	}{
		{"zero", clock(0, 0), 0, nil},
		{"1.5s", clock(1, 500_000_000), 1_500_000_000, nil},
		{"largest", clock(math.MaxInt32, 999_999_999), math.MaxInt32*1e9 + 999_999_999, nil},
		{"big endian", []byte{0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 7}, 2e9 + 7, nil},
		{"padded", append(clock(3, 4), 0, 0, 0, 0), 3e9 + 4, nil},
		{"sec -1", clock(-1, 0), -1e9, simclock.ErrNegativeTime},
		{"sec -1 nanosec 1e9", clock(-1, 1e9), 0, simclock.ErrNegativeTime},
		{"most negative", clock(math.MinInt32, 0), math.MinInt32 * 1e9, simclock.ErrNegativeTime},
		{"nanosec 1e9", clock(1, 1e9), 2e9, timemsg.ErrNotNormalized},
		{"nanosec max", clock(0, math.MaxUint32), math.MaxUint32, timemsg.ErrNotNormalized},
		{"short", clock(1, 0)[:11], 0, io.ErrUnexpectedEOF},
		{"empty", nil, 0, io.ErrUnexpectedEOF},
		{"PL_CDR", []byte{0, 3, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}, 0, cdr.ErrBadHeader},
	}
	for _, tc := range cases {
		ns, err := timemsg.DecodeClock(tc.data)
		if ns != tc.ns || !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
			t.Errorf("%s: DecodeClock(% x) = %d, %v; want %d, %v", tc.name, tc.data, ns, err, tc.ns, tc.err)
			continue
		}
		var bad *timemsg.InvalidClockError
		var de *cdr.DecodeError
		switch {
		case tc.err == simclock.ErrNegativeTime || tc.err == timemsg.ErrNotNormalized:
			// The refused message comes with the error, for reports.
			if !errors.As(err, &bad) || bad.Clock.Nanoseconds() != ns {
				t.Errorf("%s: %v is not an *InvalidClockError carrying the message", tc.name, err)
			}
		case tc.err != nil:
			if !errors.As(err, &de) {
				t.Errorf("%s: %v is not a *cdr.DecodeError", tc.name, err)
			}
		}
	}
	_, err := timemsg.DecodeClock(clock(-1, 0))
	if got, want := err.Error(), "timemsg: /clock {sec: -1, nanosec: 0}: seconds value must not be negative: negative time"; got != want {
		t.Errorf("negative: %q, want %q", got, want)
	}
	_, err = timemsg.DecodeClock(clock(1, 1e9))
	if got, want := err.Error(), "timemsg: /clock {sec: 1, nanosec: 1000000000}: nanosec field is not below 1e9"; got != want {
		t.Errorf("not normalized: %q, want %q", got, want)
	}
}

// The time source decodes every /clock message with DecodeClock: a valid
// one must not allocate.
func TestDecodeClockDoesNotAllocate(t *testing.T) {
	data := timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: 1234, Nanosec: 567890}})
	var ns int64
	if n := testing.AllocsPerRun(100, func() { ns, _ = timemsg.DecodeClock(data) }); n != 0 {
		t.Errorf("DecodeClock allocates %v times per call", n)
	}
	if ns != 1234_000_567_890 {
		t.Errorf("decoded %d", ns)
	}
}
