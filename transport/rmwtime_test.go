package transport_test

import (
	"errors"
	"math"
	"math/bits"
	"testing"
	"time"

	"github.com/simclock/simclock/transport"
)

type rmwTime = transport.RMWTime

const maxTime = time.Duration(math.MaxInt64)

// rmw's test/test_time.cpp (Jazzy): time_equal, time_total_nsec,
// time_from_nsec and time_normalize, case by case. One case differs on
// purpose: rmw_time_from_nsec(-1) returns RMW_DURATION_INFINITE, where
// RMWTimeFromDuration returns ErrNegativeRMWTime (as rclcpp's
// to_rmw_time throws).
func TestRMWTimeUpstream(t *testing.T) {
	t.Run("time_equal", func(t *testing.T) {
		for _, tc := range []struct {
			a, b rmwTime
			want bool
		}{
			{rmwTime{100, 100}, rmwTime{100, 100}, true},
			{rmwTime{0, 0}, rmwTime{0, 0}, true},
			{rmwTime{0, 100}, rmwTime{100, 0}, false},
			{rmwTime{0, 1000000000}, rmwTime{1, 0}, true},
			{rmwTime{2, 100}, rmwTime{1, 1000000100}, true},
			{rmwTime{1, 100}, rmwTime{1, 101}, false},
		} {
			if got := tc.a.Equal(tc.b); got != tc.want {
				t.Errorf("%v.Equal(%v) = %v, want %v", tc.a, tc.b, got, tc.want)
			}
		}
	})
	t.Run("time_total_nsec", func(t *testing.T) {
		for _, tc := range []struct {
			in   rmwTime
			want time.Duration
		}{
			{rmwTime{1, 1}, 1000000001},
			{rmwTime{0, 0}, 0},
			{rmwTime{0, 123456789}, 123456789},
			{rmwTime{0, math.MaxInt64}, maxTime},       // should not overflow
			{rmwTime{1, math.MaxInt64}, maxTime},       // will overflow: clamp
			{rmwTime{1 << 35, 0}, maxTime},             // overflow on seconds alone
			{rmwTime{math.MaxInt64 - 20, 12}, maxTime}, // very big
		} {
			if got := tc.in.Duration(); got != tc.want {
				t.Errorf("%v.Duration() = %d, want %d", tc.in, got, tc.want)
			}
		}
	})
	t.Run("time_from_nsec", func(t *testing.T) {
		for _, tc := range []struct {
			in   time.Duration
			want rmwTime
		}{
			{0, rmwTime{0, 0}},
			{100000, rmwTime{0, 100000}},
			{maxTime, transport.RMWDurationInfinite},
		} {
			if got, err := transport.RMWTimeFromDuration(tc.in); err != nil || !got.Equal(tc.want) {
				t.Errorf("RMWTimeFromDuration(%d) = %v, %v; want %v", tc.in, got, err, tc.want)
			}
		}
		if got, err := transport.RMWTimeFromDuration(-1); !errors.Is(err, transport.ErrNegativeRMWTime) {
			t.Errorf("RMWTimeFromDuration(-1) = %v, %v; want ErrNegativeRMWTime (rmw: infinite)", got, err)
		}
	})
	t.Run("time_normalize", func(t *testing.T) {
		for _, tc := range []struct{ in, want rmwTime }{
			{rmwTime{0, 1234567890}, rmwTime{1, 234567890}},
			{rmwTime{10, 10}, rmwTime{10, 10}},
		} {
			if got := tc.in.Normalize(); got != tc.want {
				t.Errorf("%v.Normalize() = %v, want %v", tc.in, got, tc.want)
			}
		}
	})
}

// rclcpp's test_duration.cpp (Jazzy): from_rmw_time saturates at
// INT64_MAX; conversions to_rmw_time of 0.5 s, 1 s, 1.5 s, INT64_MAX and
// the negative durations (which throw).
func TestRMWTimeRclcppDuration(t *testing.T) {
	const limitSec = math.MaxInt64 / uint64(time.Second)
	for _, tc := range []struct {
		in   rmwTime
		want time.Duration
	}{
		{rmwTime{Sec: limitSec + 1}, maxTime},
		{rmwTime{Nsec: math.MaxInt64 + 1}, maxTime},
		{rmwTime{Sec: limitSec, Nsec: math.MaxInt64}, maxTime},
		{rmwTime{Sec: 1, Nsec: 1000}, time.Second + 1000},
	} {
		if got := tc.in.Duration(); got != tc.want {
			t.Errorf("from_rmw_time(%v) = %d, want %d", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct {
		in   time.Duration
		want rmwTime
	}{
		{500 * time.Millisecond, rmwTime{0, 500000000}},
		{time.Second, rmwTime{1, 0}},
		{1500 * time.Millisecond, rmwTime{1, 500000000}},
		{maxTime, rmwTime{9223372036, 854775807}},
	} {
		got, err := transport.RMWTimeFromDuration(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("to_rmw_time(%v) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
		if back := got.Duration(); back != tc.in {
			t.Errorf("round trip of %v: %v", tc.in, back)
		}
	}
	for _, d := range []time.Duration{-500 * time.Millisecond, -time.Second, -1500 * time.Millisecond, -maxTime} {
		if _, err := transport.RMWTimeFromDuration(d); !errors.Is(err, transport.ErrNegativeRMWTime) {
			t.Errorf("to_rmw_time(%v) = %v, want ErrNegativeRMWTime", d, err)
		}
	}
}

// FuzzRMWTime: Duration is the saturated exact sum, never a wrap, and
// Normalize keeps the duration with Nsec below 1e9.
func FuzzRMWTime(f *testing.F) {
	f.Add(uint64(0), uint64(0))
	f.Add(uint64(9223372036), uint64(854775807))
	f.Add(uint64(9223372036), uint64(854775808))
	f.Add(uint64(math.MaxUint64), uint64(math.MaxUint64))
	f.Add(uint64(1), uint64(math.MaxInt64))
	f.Fuzz(func(t *testing.T, sec, nsec uint64) {
		in := rmwTime{sec, nsec}
		got := in.Duration()
		if got < 0 {
			t.Fatalf("%v.Duration() = %d < 0", in, got)
		}
		// The exact sum in 128 bits: sec*1e9 + nsec.
		hi, lo := bits.Mul64(sec, uint64(time.Second))
		lo2 := lo + nsec
		if lo2 < lo {
			hi++
		}
		if hi == 0 && lo2 <= math.MaxInt64 {
			if got != time.Duration(lo2) {
				t.Fatalf("%v.Duration() = %d, want %d", in, got, lo2)
			}
		} else if got != maxTime {
			t.Fatalf("%v.Duration() = %d, want the saturated maximum", in, got)
		}
		n := in.Normalize()
		if n.Nsec >= uint64(time.Second) || n.Duration() != got {
			t.Fatalf("%v.Normalize() = %v", in, n)
		}
	})
}
