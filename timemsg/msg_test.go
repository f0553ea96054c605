package timemsg_test

import (
	"errors"
	"io"
	"testing"

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
