package simclock_test

import (
	"errors"
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/internal/timetest"
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
		start := timetest.ROS(tns)
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
		u := timetest.ROS(nonNegative(dns))
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
