package simclock_test

import (
	"errors"
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/timemsg"
)

var (
	bigMaxInt64 = big.NewInt(math.MaxInt64)
	bigMinInt64 = big.NewInt(math.MinInt64)
	bigE9       = big.NewInt(1e9)
)

// exactNanos is rclpy's int(seconds*1e9) + int(nanoseconds) in unbounded
// integers: the product is the IEEE-754 double, truncated toward zero.
// It returns nil when the product is not finite.
func exactNanos(sec float64, nsec int64) *big.Int {
	p := sec * 1e9
	if math.IsInf(p, 0) || math.IsNaN(p) {
		return nil
	}
	bi, _ := new(big.Float).SetFloat64(p).Int(nil) // Int truncates toward zero
	return bi.Add(bi, big.NewInt(nsec))
}

// FuzzNewTime checks NewTime and DurationOf against the exact formula of
// R2 and R7: never a panic, and either an error or the exact value.
func FuzzNewTime(f *testing.F) {
	// Seeds from the R2 and R7 conformance cases.
	for _, s := range []struct {
		sec  float64
		nsec int64
	}{
		{0, 0}, {1, 5e8}, {2, 500_000_000}, {0, 15e8}, {1.001, 0}, {1.003, 0}, {1e-10, 0}, {1e-9, 0},
		{-1e-12, 0}, {math.Copysign(0, -1), 7}, {9223372036.854775807, 0}, {9223372036.854774, 0},
		{9223372036, 854_775_807}, {9223372036, 854_775_808}, {1e10, 0}, {math.MaxFloat64, 0},
		{math.SmallestNonzeroFloat64, 0}, {math.NaN(), 0}, {math.Inf(1), 0}, {math.Inf(-1), 0},
		{0, math.MaxInt64}, {1e-9, math.MaxInt64}, {0, math.MinInt64}, {-1, 0}, {0, -1},
		{-9223372036.854775808, 0}, {-9223372036.854775808 - 1, 0}, {-1e-9, math.MinInt64},
		{9223372037, -1e9}, {-1.5, 0}, {1.0 / 3.0, 0},
	} {
		f.Add(s.sec, s.nsec)
	}
	f.Fuzz(func(t *testing.T, sec float64, nsec int64) {
		exact := exactNanos(sec, nsec)

		// R2: Time.
		tm, err := simclock.NewTime[simclock.ROS](sec, nsec)
		switch {
		case sec < 0 || nsec < 0: // checked first, as rclpy does, so NaN with -1 ns is negative
			if !errors.Is(err, simclock.ErrNegativeTime) {
				t.Fatalf("NewTime(%v, %d): got %v, %v; want ErrNegativeTime", sec, nsec, tm, err)
			}
		case math.IsNaN(sec):
			if !errors.Is(err, simclock.ErrOutOfRange) {
				t.Fatalf("NewTime(NaN, %d): got %v, %v; want ErrOutOfRange", nsec, tm, err)
			}
		case exact == nil || exact.Cmp(bigMaxInt64) > 0:
			if !errors.Is(err, simclock.ErrOverflow) {
				t.Fatalf("NewTime(%v, %d): got %v, %v; want ErrOverflow", sec, nsec, tm, err)
			}
		default:
			if err != nil || tm.Nanoseconds() != exact.Int64() || tm.Nanoseconds() < 0 {
				t.Fatalf("NewTime(%v, %d) = %v, %v; want %v ns", sec, nsec, tm, err, exact)
			}
		}

		// R7: Duration.
		d, err := simclock.DurationOf(sec, nsec)
		switch {
		case math.IsNaN(sec):
			if !errors.Is(err, simclock.ErrOutOfRange) {
				t.Fatalf("DurationOf(NaN, %d): got %v, %v; want ErrOutOfRange", nsec, d, err)
			}
		case exact == nil || exact.Cmp(bigMaxInt64) > 0 || exact.Cmp(bigMinInt64) < 0:
			if !errors.Is(err, simclock.ErrOverflow) {
				t.Fatalf("DurationOf(%v, %d): got %v, %v; want ErrOverflow", sec, nsec, d, err)
			}
		default:
			if err != nil || int64(d) != exact.Int64() {
				t.Fatalf("DurationOf(%v, %d) = %d, %v; want %v", sec, nsec, int64(d), err, exact)
			}
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

// FuzzAddMinus checks Time ± Duration and Time - Time against unbounded
// integers at the int64 boundaries (R4, R5), and the int32-seconds limit
// of messages (R8): errors instead of wrap-around, never a panic.
func FuzzAddMinus(f *testing.F) {
	const (
		max     = math.MaxInt64
		msgMax  = math.MaxInt32*int64(time.Second) + 999_999_999 // last time a message holds
		msgPast = (math.MaxInt32 + 1) * int64(time.Second)
	)
	for _, s := range [][2]int64{
		{1, 1}, {1, -1}, {sec, sec}, {max, 1}, {max, -1}, {max, max}, {0, math.MinInt64}, {max, math.MinInt64},
		{1, 2}, {5, -10}, {0, 0}, {msgMax, 1}, {msgMax, -1}, {msgPast, -1}, {msgPast, 0}, {msgMax, 0},
		{1514423498*sec + 147483647, 1514423496 * sec}, {0, max}, {max, 0}, {0, -1},
		{math.MinInt32 * sec, 1}, {math.MinInt32*sec - 1, 0},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, tns, dns int64) {
		tns = nonNegative(tns)
		start := rosNS(tns)
		d := time.Duration(dns)
		check := func(op string, got simclock.Time[simclock.ROS], err error, want *big.Int) {
			t.Helper()
			switch {
			case want.Sign() < 0:
				if !errors.Is(err, simclock.ErrNegativeTime) {
					t.Fatalf("%d %s %d: got %v, %v; want ErrNegativeTime", tns, op, dns, got, err)
				}
			case want.Cmp(bigMaxInt64) > 0:
				if !errors.Is(err, simclock.ErrOverflow) {
					t.Fatalf("%d %s %d: got %v, %v; want ErrOverflow", tns, op, dns, got, err)
				}
			default:
				if err != nil || got.Nanoseconds() != want.Int64() {
					t.Fatalf("%d %s %d = %v, %v; want %v", tns, op, dns, got, err, want)
				}
				// R8: a time fits a message iff its seconds fit int32.
				m, err := timemsg.FromTime(got)
				if fits := got.Nanoseconds() <= msgMax; fits != (err == nil) {
					t.Fatalf("FromTime(%v) = %v, %v; fits int32 seconds: %v", got, m, err, fits)
				} else if fits && m.Nanoseconds() != got.Nanoseconds() {
					t.Fatalf("FromTime(%v) = %v", got, m)
				}
			}
		}
		sum, err := start.Add(d)
		check("+", sum, err, new(big.Int).Add(big.NewInt(tns), big.NewInt(dns)))
		diff, err := start.Minus(d)
		check("-", diff, err, new(big.Int).Sub(big.NewInt(tns), big.NewInt(dns)))

		// R5: the difference of two times always fits and is exact.
		u := rosNS(nonNegative(dns))
		if got, want := int64(start.Sub(u)), tns-u.Nanoseconds(); got != want {
			t.Fatalf("%d - %d = %d, want %d", tns, u.Nanoseconds(), got, want)
		}
		if (start.Compare(u) < 0) != (tns < u.Nanoseconds()) || start.Equal(u) != (tns == u.Nanoseconds()) {
			t.Fatalf("comparisons of %d and %d disagree with int64", tns, u.Nanoseconds())
		}

		// R8: a duration fits a message iff floor(d / 1e9) fits int32.
		floorSec := new(big.Int).Div(big.NewInt(dns), bigE9) // Euclidean: floor for a positive divisor
		fits := floorSec.IsInt64() && floorSec.Int64() >= math.MinInt32 && floorSec.Int64() <= math.MaxInt32
		m, err := timemsg.FromDuration(d)
		if fits != (err == nil) {
			t.Fatalf("FromDuration(%d) = %v, %v; fits: %v", dns, m, err, fits)
		}
		if fits && (timemsg.ToDuration(m) != d || !m.Normalized() || int64(m.Sec) != floorSec.Int64()) {
			t.Fatalf("FromDuration(%d) = %v, round trip %d", dns, m, int64(timemsg.ToDuration(m)))
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
		tm := rosNS(nonNegative(ns))
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
