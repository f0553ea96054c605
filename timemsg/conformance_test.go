package timemsg_test

// The conformance cases of the messages: R8 (builtin_interfaces Time and
// Duration conversions, floor division, no silent int32 wrap) and R9 (the
// rosgraph_msgs/Clock CDR bytes), moved here from the root package's
// suite so that they live with the code they test. References name the
// upstream test or source line as repository:path:line, at the commits
// docs/rules.md lists under "Upstream sources".

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/cdr"
	"github.com/simclock/simclock/internal/timetest"
	"github.com/simclock/simclock/timemsg"
)

const sec = int64(time.Second)

// R8: builtin_interfaces Time/Duration conversions with floor division and
// no silent int32 wrap.
func TestConformanceR8Messages(t *testing.T) {
	durs := []struct {
		rule, name, ref string
		d               time.Duration
		want            timemsg.Duration
		err             error
	}{
		{"R8", "-0.5s_floor", "derived from rclpy:rclpy/rclpy/duration.py:88-96", -500 * time.Millisecond, timemsg.Duration{Sec: -1, Nanosec: 500_000_000}, nil},
		{"R8", "-1ns_floor", "derived from rclpy:rclpy/rclpy/duration.py:88-96", -1, timemsg.Duration{Sec: -1, Nanosec: 999_999_999}, nil},
		{"R8", "-1ns_floor_rclcpp", "derived from rclcpp:rclcpp/src/rclcpp/duration.cpp:63-90", -1, timemsg.Duration{Sec: -1, Nanosec: 999_999_999}, nil},
		{"R8", "-1.5s_floor", "derived from rclpy:rclpy/rclpy/duration.py:88-96", -1500 * time.Millisecond, timemsg.Duration{Sec: -2, Nanosec: 500_000_000}, nil},
		{"R8", "-1s", "rclcpp:rclcpp/test/rclcpp/test_duration.cpp:276-313", -time.Second, timemsg.Duration{Sec: -1}, nil},
		{"R8", "chrono_-1s", "rclcpp:rclcpp/test/rclcpp/test_duration.cpp:223-228", -time.Second, timemsg.Duration{Sec: -1}, nil},
		{"R8", "chrono_1.5s", "rclcpp:rclcpp/test/rclcpp/test_duration.cpp:223-228", 1500 * time.Millisecond, timemsg.Duration{Sec: 1, Nanosec: 500_000_000}, nil},
		{"R8", "0.5s", "rclcpp:rclcpp/test/rclcpp/test_duration.cpp:230-274", 500 * time.Millisecond, timemsg.Duration{Nanosec: 500_000_000}, nil},
		{"R8", "1s", "rclcpp:rclcpp/test/rclcpp/test_duration.cpp:230-274", time.Second, timemsg.Duration{Sec: 1}, nil},
		{"R8", "1ns", "rclpy:rclpy/test/test_time.py:214-220", 1, timemsg.Duration{Nanosec: 1}, nil},
		{"R8", "zero", "summary R8", 0, timemsg.Duration{}, nil},
		{"R8", "max_int64_out_of_range_not_saturated", "rclcpp:rclcpp/test/rclcpp/test_duration.cpp:315-328 (rclcpp saturates)", math.MaxInt64, timemsg.Duration{}, simclock.ErrOutOfRange},
		{"R8", "-max_int64_out_of_range_not_saturated", "rclcpp:rclcpp/test/rclcpp/test_duration.cpp:330-341 (rclcpp saturates)", -math.MaxInt64, timemsg.Duration{}, simclock.ErrOutOfRange},
		{"R8", "int32_max_seconds_fits", "rclcpp:rclcpp/src/rclcpp/duration.cpp:63-90", time.Duration(math.MaxInt32*sec + 999_999_999), timemsg.Duration{Sec: math.MaxInt32, Nanosec: 999_999_999}, nil},
		{"R8", "int32_max+1_seconds_out_of_range", "summary R8", time.Duration((math.MaxInt32 + 1) * sec), timemsg.Duration{}, simclock.ErrOutOfRange},
		{"R8", "int32_min_seconds_fits", "rclcpp:rclcpp/src/rclcpp/duration.cpp:63-90", time.Duration(math.MinInt32 * sec), timemsg.Duration{Sec: math.MinInt32}, nil},
		{"R8", "int32_min_seconds-1ns_out_of_range", "summary R8", time.Duration(math.MinInt32*sec - 1), timemsg.Duration{}, simclock.ErrOutOfRange},
	}
	for _, tc := range durs {
		t.Run(tc.rule+"/FromDuration_"+tc.name, func(t *testing.T) {
			got, err := timemsg.FromDuration(tc.d)
			if timetest.CheckErr(t, tc.ref, err, tc.err) && tc.err == nil {
				if got != tc.want {
					t.Errorf("%s: FromDuration(%d) = %v, want %v", tc.ref, int64(tc.d), got, tc.want)
				}
				if back := timemsg.ToDuration(got); back != tc.d {
					t.Errorf("%s: round trip %d → %v → %d", tc.ref, int64(tc.d), got, int64(back))
				}
			}
		})
	}
	toDurs := []struct {
		rule, name, ref string
		m               timemsg.Duration
		want            time.Duration
	}{
		{"R8", "(-1,5e8)_is_-0.5s", "derived from rclpy:rclpy/rclpy/duration.py:98-107", timemsg.Duration{Sec: -1, Nanosec: 500_000_000}, -500 * time.Millisecond},
		{"R8", "(1,1000)", "rclcpp:rclcpp/test/rclcpp/test_duration.cpp:344-355", timemsg.Duration{Sec: 1, Nanosec: 1000}, 1_000_001_000},
		{"R8", "(-1,999999999)_is_-1ns", "rclpy:rclpy/rclpy/duration.py:98-107", timemsg.Duration{Sec: -1, Nanosec: 999_999_999}, -1},
		{"R8", "unnormalized_nanosec_added", "summary R8", timemsg.Duration{Sec: 1, Nanosec: 1_500_000_000}, 2500 * time.Millisecond},
		{"R8", "extremes", "rclcpp:rclcpp/src/rclcpp/duration.cpp:63-90", timemsg.Duration{Sec: math.MinInt32, Nanosec: math.MaxUint32}, time.Duration(math.MinInt32*sec + math.MaxUint32)},
	}
	for _, tc := range toDurs {
		t.Run(tc.rule+"/ToDuration_"+tc.name, func(t *testing.T) {
			if got := timemsg.ToDuration(tc.m); got != tc.want {
				t.Errorf("%s: ToDuration(%v) = %d, want %d", tc.ref, tc.m, int64(got), int64(tc.want))
			}
		})
	}
	times := []struct {
		rule, name, ref string
		ns              int64
		want            timemsg.Time
		err             error
	}{
		{"R8", "1553575413.247045598s", "rclpy:rclpy/test/test_time.py:204-212", 1553575413247045598, timemsg.Time{Sec: 1553575413, Nanosec: 247045598}, nil},
		{"R8", "12345s+67890ns", "rclcpp:rclcpp/test/rclcpp/test_time.cpp:113-126", 12345*sec + 67890, timemsg.Time{Sec: 12345, Nanosec: 67890}, nil},
		{"R8", "0.5s", "rclcpp:rclcpp/test/rclcpp/test_time.cpp:148-154", 500_000_000, timemsg.Time{Nanosec: 500_000_000}, nil},
		{"R8", "1s", "rclcpp:rclcpp/test/rclcpp/test_time.cpp:156-162", sec, timemsg.Time{Sec: 1}, nil},
		{"R8", "1.5s", "rclcpp:rclcpp/test/rclcpp/test_time.cpp:164-170", 1_500_000_000, timemsg.Time{Sec: 1, Nanosec: 500_000_000}, nil},
		{"R8", "1ns", "rclpy:rclpy/test/test_time.py:191-199", 1, timemsg.Time{Nanosec: 1}, nil},
		{"R8", "zero", "summary R8", 0, timemsg.Time{}, nil},
		{"R8", "rclcpp_time_max_fits", "rclcpp:rclcpp/test/rclcpp/test_time.cpp:365-374", 2147483647999999999, timemsg.Time{Sec: math.MaxInt32, Nanosec: 999_999_999}, nil},
		{"R8", "2^31s_out_of_range_not_wrapped", "derived from rclcpp:rclcpp/src/rclcpp/time.cpp:91-94 (rclcpp wraps)", 2147483648 * sec, timemsg.Time{}, simclock.ErrOutOfRange},
		{"R8", "max_int64_out_of_range", "derived from rclpy:rclpy/rclpy/time.py:156-163 (rclpy wraps)", math.MaxInt64, timemsg.Time{}, simclock.ErrOutOfRange},
	}
	for _, tc := range times {
		t.Run(tc.rule+"/FromTime_"+tc.name, func(t *testing.T) {
			got, err := timemsg.FromTime(timetest.ROS(tc.ns))
			if timetest.CheckErr(t, tc.ref, err, tc.err) && tc.err == nil {
				if got != tc.want {
					t.Errorf("%s: FromTime(%d) = %v, want %v", tc.ref, tc.ns, got, tc.want)
				}
				back, err := timemsg.ToTime[simclock.ROS](got)
				if err != nil || back.Nanoseconds() != tc.ns {
					t.Errorf("%s: round trip %d → %v → %v, %v", tc.ref, tc.ns, got, back, err)
				}
			}
			gotAny, err := timemsg.FromAnyTime(timetest.Any(tc.ns, simclock.SystemTime))
			if timetest.CheckErr(t, tc.ref+" (FromAnyTime)", err, tc.err) && gotAny != tc.want {
				t.Errorf("%s: FromAnyTime(%d) = %v, want %v", tc.ref, tc.ns, gotAny, tc.want)
			}
		})
	}
	toTimes := []struct {
		rule, name, ref string
		m               timemsg.Time
		want            int64
		err             error
	}{
		{"R8", "negative_sec_rejected", "derived from rclpy:rclpy/rclpy/time.py:165-179", timemsg.Time{Sec: -1}, 0, simclock.ErrNegativeTime},
		{"R8", "negative_sec_with_nanosec_rejected", "rclcpp:rclcpp/test/rclcpp/test_time.cpp:129-137", timemsg.Time{Sec: -1, Nanosec: 1}, 0, simclock.ErrNegativeTime},
		{"R8", "jazzy_negative_time_msgs_rejected", "rclcpp:rclcpp/test/rclcpp/test_time.cpp:172-184", timemsg.Time{Sec: -1, Nanosec: 500_000_000}, 0, simclock.ErrNegativeTime},
		{"R8", "int32_min_rejected", "rclcpp:rclcpp/test/rclcpp/test_time.cpp:200-212", timemsg.Time{Sec: math.MinInt32}, 0, simclock.ErrNegativeTime},
		{"R8", "unnormalized_nanosec_added", "derived from rclpy:rclpy/rclpy/time.py:165-179", timemsg.Time{Sec: 1, Nanosec: 1_500_000_000}, 2_500_000_000, nil},
		{"R8", "largest_message", "summary R8", timemsg.Time{Sec: math.MaxInt32, Nanosec: math.MaxUint32}, math.MaxInt32*sec + math.MaxUint32, nil},
		{"R8", "1.5s", "summary R30", timemsg.Time{Sec: 1, Nanosec: 500_000_000}, 1_500_000_000, nil},
	}
	for _, tc := range toTimes {
		t.Run(tc.rule+"/ToTime_"+tc.name, func(t *testing.T) {
			got, err := timemsg.ToTime[simclock.ROS](tc.m)
			if timetest.CheckErr(t, tc.ref, err, tc.err) && tc.err == nil && got.Nanoseconds() != tc.want {
				t.Errorf("%s: ToTime(%v) = %d, want %d", tc.ref, tc.m, got.Nanoseconds(), tc.want)
			}
			a, err := timemsg.ToAnyTime(tc.m, simclock.ROSTime)
			if timetest.CheckErr(t, tc.ref+" (ToAnyTime)", err, tc.err) && tc.err == nil &&
				(a.Nanoseconds() != tc.want || a.ClockType() != simclock.ROSTime) {
				t.Errorf("%s: ToAnyTime(%v) = %v, want %d ns ROS_TIME", tc.ref, tc.m, a, tc.want)
			}
		})
	}
	t.Run("R8/ToAnyTime_invalid_clock_type", func(t *testing.T) {
		_, err := timemsg.ToAnyTime(timemsg.Time{Sec: 1}, simclock.Uninitialized)
		timetest.CheckErr(t, "rclpy:rclpy/test/test_time.py:44-45", err, simclock.ErrOutOfRange)
	})
	t.Run("R8/R30_system_time_round_trip_comes_back_ROS", func(t *testing.T) { // summary R30, rclpy:rclpy/test/test_time.py:191-199
		orig := timetest.Must(simclock.NewTime[simclock.System](1.5, 0))
		m := timetest.Must(timemsg.FromTime(orig))
		if m != (timemsg.Time{Sec: 1, Nanosec: 500_000_000}) {
			t.Fatalf("to_msg = %v, want {1, 500000000}", m)
		}
		back := timetest.Must(timemsg.ToAnyTime(m, simclock.ROSTime))
		if back.Nanoseconds() != orig.Nanoseconds() {
			t.Fatalf("nanoseconds changed: %d → %d", orig.Nanoseconds(), back.Nanoseconds())
		}
		if _, err := orig.Any().Equal(back); !errors.Is(err, simclock.ErrClockTypeMismatch) {
			t.Errorf("comparing SYSTEM original with ROS round trip: got %v, want ErrClockTypeMismatch", err)
		}
	})
	t.Run("R8/normalized", func(t *testing.T) {
		if !(timemsg.Time{Nanosec: 999_999_999}).Normalized() || (timemsg.Time{Nanosec: 1e9}).Normalized() ||
			!(timemsg.Duration{Sec: -1, Nanosec: 0}).Normalized() || (timemsg.Duration{Nanosec: math.MaxUint32}).Normalized() {
			t.Error("summary R8: Normalized must be nanosec < 1e9")
		}
	})
}

func unhex(s string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		panic(err)
	}
	return b
}

// R9: rosgraph_msgs/Clock on the wire.
func TestConformanceR9ClockCDR(t *testing.T) {
	enc := []struct {
		rule, name, ref string
		c               timemsg.Clock
		want            string
	}{
		{"R9", "1234s_567890ns", "summary R9", timemsg.Clock{Clock: timemsg.Time{Sec: 1234, Nanosec: 567890}}, "00 01 00 00 d2 04 00 00 52 aa 08 00"},
		{"R9", "zero", "summary R9", timemsg.Clock{}, "00 01 00 00 00 00 00 00 00 00 00 00"},
		{"R9", "negative_sec_and_max_nanosec", "summary R9", timemsg.Clock{Clock: timemsg.Time{Sec: -1, Nanosec: 999_999_999}}, "00 01 00 00 ff ff ff ff ff c9 9a 3b"},
		{"R9", "int32_max_sec", "summary R9", timemsg.Clock{Clock: timemsg.Time{Sec: math.MaxInt32}}, "00 01 00 00 ff ff ff 7f 00 00 00 00"},
		{"R9", "1.5s", "summary R30", timemsg.Clock{Clock: timemsg.Time{Sec: 1, Nanosec: 500_000_000}}, "00 01 00 00 01 00 00 00 00 65 cd 1d"},
	}
	for _, tc := range enc {
		t.Run(tc.rule+"/encode_"+tc.name, func(t *testing.T) {
			want := unhex(tc.want)
			if got := timemsg.MarshalClock(tc.c); !bytes.Equal(got, want) {
				t.Errorf("%s: MarshalClock(%v) = % x, want % x", tc.ref, tc.c, got, want)
			}
			if got := timemsg.MarshalTime(tc.c.Clock); !bytes.Equal(got, want) {
				t.Errorf("%s: MarshalTime = % x, want % x", tc.ref, got, want)
			}
			if got := timemsg.MarshalDuration(timemsg.Duration(tc.c.Clock)); !bytes.Equal(got, want) {
				t.Errorf("%s: MarshalDuration = % x, want % x", tc.ref, got, want)
			}
			prefix := []byte{0xaa}
			if got := timemsg.AppendClock(prefix, tc.c); !bytes.Equal(got, append([]byte{0xaa}, want...)) {
				t.Errorf("%s: AppendClock = % x", tc.ref, got)
			}
			back, err := timemsg.UnmarshalClock(want)
			if err != nil || back != tc.c {
				t.Errorf("%s: UnmarshalClock(% x) = %v, %v; want %v", tc.ref, want, back, err, tc.c)
			}
		})
	}
	dec := []struct {
		rule, name, ref string
		in              string
		want            timemsg.Clock
		err             error
	}{
		{"R9", "trailing_padding_ignored", "summary R9", "00 01 00 00 d2 04 00 00 52 aa 08 00 00 00 00 00", timemsg.Clock{Clock: timemsg.Time{Sec: 1234, Nanosec: 567890}}, nil},
		{"R9", "options_bytes_ignored", "summary R9", "00 01 00 03 d2 04 00 00 52 aa 08 00", timemsg.Clock{Clock: timemsg.Time{Sec: 1234, Nanosec: 567890}}, nil},
		{"R9", "big_endian_cdr", "summary R9", "00 00 00 00 00 00 04 d2 00 08 aa 52", timemsg.Clock{Clock: timemsg.Time{Sec: 1234, Nanosec: 567890}}, nil},
		{"R9", "empty", "summary R9", "", timemsg.Clock{}, io.ErrUnexpectedEOF},
		{"R9", "header_only_3_bytes", "summary R9", "00 01 00", timemsg.Clock{}, io.ErrUnexpectedEOF},
		{"R9", "header_only", "summary R9", "00 01 00 00", timemsg.Clock{}, io.ErrUnexpectedEOF},
		{"R9", "short_by_one", "summary R9", "00 01 00 00 d2 04 00 00 52 aa 08", timemsg.Clock{}, io.ErrUnexpectedEOF},
		{"R9", "missing_nanosec", "summary R9", "00 01 00 00 d2 04 00 00", timemsg.Clock{}, io.ErrUnexpectedEOF},
		{"R9", "PL_CDR_header_rejected", "summary R9", "00 03 00 00 d2 04 00 00 52 aa 08 00", timemsg.Clock{}, cdr.ErrBadHeader},
		{"R9", "garbage_header_rejected", "summary R9", "ff ff 00 00 d2 04 00 00 52 aa 08 00", timemsg.Clock{}, cdr.ErrBadHeader},
		{"R9", "XCDR2_header_rejected", "summary R9", "00 07 00 00 d2 04 00 00 52 aa 08 00", timemsg.Clock{}, cdr.ErrBadHeader},
		{"R9", "nanosec_1e9_flagged", "summary R8", "00 01 00 00 01 00 00 00 00 ca 9a 3b", timemsg.Clock{Clock: timemsg.Time{Sec: 1, Nanosec: 1e9}}, timemsg.ErrNotNormalized},
		{"R9", "nanosec_max_flagged", "summary R8", "00 01 00 00 01 00 00 00 ff ff ff ff", timemsg.Clock{Clock: timemsg.Time{Sec: 1, Nanosec: math.MaxUint32}}, timemsg.ErrNotNormalized},
	}
	for _, tc := range dec {
		t.Run(tc.rule+"/decode_"+tc.name, func(t *testing.T) {
			got, err := timemsg.UnmarshalClock(unhex(tc.in))
			if !timetest.CheckErr(t, tc.ref, err, tc.err) {
				return
			}
			if err != nil {
				var de *cdr.DecodeError
				if !errors.As(err, &de) {
					t.Errorf("%s: error %v is not a *cdr.DecodeError", tc.ref, err)
				}
			}
			if got != tc.want {
				t.Errorf("%s: UnmarshalClock = %v, want %v", tc.ref, got, tc.want)
			}
		})
	}
	t.Run("R9/size_and_names", func(t *testing.T) {
		if timemsg.ClockSize != 12 || timemsg.ClockTopic != "/clock" || timemsg.ClockTypeName != "rosgraph_msgs/msg/Clock" {
			t.Errorf("summary R9: ClockSize %d, ClockTopic %q, ClockTypeName %q", timemsg.ClockSize, timemsg.ClockTopic, timemsg.ClockTypeName)
		}
	})
	t.Run("R9/ClockFrom", func(t *testing.T) {
		c, err := timemsg.ClockFrom(timetest.ROS(1234*sec + 567890))
		if err != nil || !bytes.Equal(timemsg.MarshalClock(c), unhex("00 01 00 00 d2 04 00 00 52 aa 08 00")) {
			t.Errorf("summary R9: ClockFrom = %v, %v", c, err)
		}
		_, err = timemsg.ClockFrom(timetest.ROS(math.MaxInt64))
		timetest.CheckErr(t, "summary R8", err, simclock.ErrOutOfRange)
	})
	t.Run("R9/AppendClock_no_alloc", func(t *testing.T) {
		buf := make([]byte, 0, timemsg.ClockSize)
		c := timemsg.Clock{Clock: timemsg.Time{Sec: 1, Nanosec: 2}}
		if n := testing.AllocsPerRun(100, func() { buf = timemsg.AppendClock(buf[:0], c) }); n != 0 {
			t.Errorf("AppendClock allocates %v times", n)
		}
	})
}

// FuzzMsgRoundTrip checks Time → message → Time identity where the time is
// representable, and message → Time → message identity for normalised
// messages (R8), through CDR bytes too (R9).
func FuzzMsgRoundTrip(f *testing.F) {
	for _, s := range []struct {
		ns      int64
		sec     int32
		nanosec uint32
	}{
		{0, 0, 0}, {1, 0, 1}, {1553575413247045598, 1553575413, 247045598}, {12345*sec + 67890, 12345, 67890},
		{2147483647999999999, math.MaxInt32, 999_999_999}, {2147483648 * sec, -1, 0}, {math.MaxInt64, 1, 1_500_000_000},
		{1_500_000_000, 1, 500_000_000}, {sec, math.MinInt32, math.MaxUint32}, {-1, -1, 500_000_000},
	} {
		f.Add(s.ns, s.sec, s.nanosec)
	}
	f.Fuzz(func(t *testing.T, ns int64, sec int32, nanosec uint32) {
		// Time → message → Time.
		tm := timetest.ROS(nonNegative(ns))
		m, err := timemsg.FromTime(tm)
		if tm.Nanoseconds()/1e9 > math.MaxInt32 {
			if !errors.Is(err, simclock.ErrOutOfRange) {
				t.Fatalf("FromTime(%v) = %v, %v; want ErrOutOfRange", tm, m, err)
			}
		} else {
			back, err := timemsg.ToTime[simclock.ROS](m)
			if err != nil || back != tm || !m.Normalized() {
				t.Fatalf("%v → %v → %v, %v", tm, m, back, err)
			}
			wire, err := timemsg.UnmarshalTime(timemsg.MarshalTime(m))
			if err != nil || wire != m {
				t.Fatalf("%v → CDR → %v, %v", m, wire, err)
			}
		}

		// Message → Time → message.
		in := timemsg.Time{Sec: sec, Nanosec: nanosec}
		got, err := timemsg.ToTime[simclock.System](in)
		if sec < 0 {
			if !errors.Is(err, simclock.ErrNegativeTime) {
				t.Fatalf("ToTime(%v) = %v, %v; want ErrNegativeTime", in, got, err)
			}
		} else {
			if err != nil || got.Nanoseconds() != int64(sec)*1e9+int64(nanosec) {
				t.Fatalf("ToTime(%v) = %v, %v", in, got, err)
			}
			out, err := timemsg.FromTime(got)
			wantSec := int64(sec) + int64(nanosec/1e9)
			switch {
			case wantSec > math.MaxInt32:
				if !errors.Is(err, simclock.ErrOutOfRange) {
					t.Fatalf("FromTime(ToTime(%v)) = %v, %v; want ErrOutOfRange", in, out, err)
				}
			case err != nil || int64(out.Sec) != wantSec || out.Nanosec != nanosec%1e9:
				t.Fatalf("FromTime(ToTime(%v)) = %v, %v", in, out, err)
			case in.Normalized() && out != in:
				t.Fatalf("normalised %v came back as %v", in, out)
			}
		}
		wire, err := timemsg.UnmarshalTime(timemsg.MarshalTime(in))
		if wire != in || (err == nil) != in.Normalized() || (err != nil && !errors.Is(err, timemsg.ErrNotNormalized)) {
			t.Fatalf("%v → CDR → %v, %v", in, wire, err)
		}

		// Duration message → Duration → message.
		dm := timemsg.Duration{Sec: sec, Nanosec: nanosec}
		d := timemsg.ToDuration(dm)
		if d != time.Duration(int64(sec)*1e9+int64(nanosec)) {
			t.Fatalf("ToDuration(%v) = %d", dm, int64(d))
		}
		if back, err := timemsg.FromDuration(d); dm.Normalized() && (err != nil || back != dm) {
			t.Fatalf("%v → %d → %v, %v", dm, int64(d), back, err)
		}
	})
}

// nonNegative maps any int64 onto [0, MaxInt64] without losing the
// boundaries: negative values flip their bits (MinInt64 → MaxInt64).
func nonNegative(v int64) int64 {
	if v < 0 {
		return ^v
	}
	return v
}
