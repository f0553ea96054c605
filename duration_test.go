package simclock_test

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/simclock/simclock"
)

// The wrap the checked helpers exist for: time.Duration's + is modular.
func TestDurationPlusWraps(t *testing.T) {
	maxD := simclock.MaxDuration
	if maxD+1 != simclock.MinDuration { // the reason for AddDurations
		t.Fatalf("MaxDuration + 1 = %v", maxD+1)
	}
	if _, err := simclock.AddDurations(simclock.MaxDuration, 1); !errors.Is(err, simclock.ErrOverflow) {
		t.Fatalf("AddDurations(max, 1ns) = %v, want ErrOverflow", err)
	}
}

// Constants: rclpy's Duration.Infinite (rclpy:rclpy/rclpy/duration.py:113-114) and
// rclcpp's Duration::max() (rclcpp:rclcpp/test/rclcpp/test_duration.cpp:174-179).
func TestDurationConstants(t *testing.T) {
	if simclock.InfiniteDuration != 9223372036854775807 || simclock.MaxDuration != simclock.InfiniteDuration {
		t.Errorf("InfiniteDuration = %d", simclock.InfiniteDuration)
	}
	if simclock.MinDuration != -9223372036854775808 {
		t.Errorf("MinDuration = %d", simclock.MinDuration)
	}
	if simclock.MaxMessageDuration != 2147483647999999999 {
		t.Errorf("MaxMessageDuration = %d, want rclcpp's Duration::max() (INT32_MAX, 999999999)", simclock.MaxMessageDuration)
	}
}

// Cases from rclcpp's test_duration.cpp (overflow and underflow of +, -
// and * double) and rclpy Rolling's test_time.py (Duration * int/float).
func TestDurationArithmetic(t *testing.T) {
	const maxD, minD = simclock.MaxDuration, simclock.MinDuration
	tests := []struct {
		name string
		got  func() (time.Duration, error)
		want time.Duration
		err  error
	}{
		{"1s+2s", func() (time.Duration, error) { return simclock.AddDurations(time.Second, 2*time.Second) }, 3 * time.Second, nil},
		{"max+1ns", func() (time.Duration, error) { return simclock.AddDurations(maxD, 1) }, 0, simclock.ErrOverflow},
		{"min+-1ns", func() (time.Duration, error) { return simclock.AddDurations(minD, -1) }, 0, simclock.ErrOverflow},
		{"max+min", func() (time.Duration, error) { return simclock.AddDurations(maxD, minD) }, -1, nil},
		{"min-1ns", func() (time.Duration, error) { return simclock.SubDurations(minD, 1) }, 0, simclock.ErrOverflow},
		{"0-min", func() (time.Duration, error) { return simclock.SubDurations(0, minD) }, 0, simclock.ErrOverflow},
		{"-1-min", func() (time.Duration, error) { return simclock.SubDurations(-1, minD) }, maxD, nil},
		// Exact where rclcpp's bounds checks are one nanosecond early.
		{"-1-max exact (rclcpp throws)", func() (time.Duration, error) { return simclock.SubDurations(-1, maxD) }, minD, nil},
		{"-1+-max exact (rclcpp throws)", func() (time.Duration, error) { return simclock.AddDurations(-1, -maxD) }, minD, nil},
		{"-2-max", func() (time.Duration, error) { return simclock.SubDurations(-2, maxD) }, 0, simclock.ErrOverflow},
		{"max-max", func() (time.Duration, error) { return simclock.SubDurations(maxD, maxD) }, 0, nil},
		{"2s*3", func() (time.Duration, error) { return simclock.ScaleDuration(2*time.Second, 3) }, 6 * time.Second, nil},
		{"max*2", func() (time.Duration, error) { return simclock.ScaleDuration(maxD, 2) }, 0, simclock.ErrOverflow},
		{"min*-1", func() (time.Duration, error) { return simclock.ScaleDuration(minD, -1) }, 0, simclock.ErrOverflow},
		{"-1*min", func() (time.Duration, error) { return simclock.ScaleDuration(-1, math.MinInt64) }, 0, simclock.ErrOverflow},
		{"max*-1", func() (time.Duration, error) { return simclock.ScaleDuration(maxD, -1) }, -maxD, nil},
		{"2s*0.5", func() (time.Duration, error) { return simclock.ScaleDurationFloat(2*time.Second, 0.5) }, time.Second, nil},
		{"1ns*0.9 truncates", func() (time.Duration, error) { return simclock.ScaleDurationFloat(1, 0.9) }, 0, nil},
		{"-3ns*0.5 truncates toward 0", func() (time.Duration, error) { return simclock.ScaleDurationFloat(-3, 0.5) }, -1, nil},
		{"max*1.0 exact", func() (time.Duration, error) { return simclock.ScaleDurationFloat(maxD, 1) }, maxD, nil},
		{"max*1.0000001", func() (time.Duration, error) { return simclock.ScaleDurationFloat(maxD, 1.0000001) }, 0, simclock.ErrOverflow},
		{"2s*inf", func() (time.Duration, error) { return simclock.ScaleDurationFloat(2*time.Second, math.Inf(1)) }, 0, simclock.ErrOutOfRange},
		{"2s*nan", func() (time.Duration, error) { return simclock.ScaleDurationFloat(2*time.Second, math.NaN()) }, 0, simclock.ErrOutOfRange},
		{"saturating max+1", func() (time.Duration, error) { return simclock.SaturatingAdd(maxD, 1), nil }, maxD, nil},
		{"saturating min-1", func() (time.Duration, error) { return simclock.SaturatingAdd(minD, -1), nil }, minD, nil},
		{"saturating 1+2", func() (time.Duration, error) { return simclock.SaturatingAdd(1, 2), nil }, 3, nil},
	}
	for _, tt := range tests {
		got, err := tt.got()
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("%s: got %v, %v; want %v", tt.name, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: got %d, %v; want %d", tt.name, got, err, tt.want)
		}
	}
}

// FuzzDurationArithmetic checks the helpers against unbounded integers:
// every result is either exact or an ErrOverflow for a true result
// outside int64, never a wrap or a panic.
func FuzzDurationArithmetic(f *testing.F) {
	for _, s := range []struct {
		a, b int64
		f    float64
	}{
		{0, 0, 0}, {1, 2, 0.5}, {math.MaxInt64, 1, 1}, {math.MinInt64, -1, -1}, {math.MinInt64, 1, 2},
		{math.MaxInt64, math.MinInt64, math.Inf(1)}, {-1, math.MinInt64, math.NaN()}, {1e9, 9223372036, 1.0000001},
		{math.MaxInt64 / 2, 2, -0.5}, {math.MaxInt64/2 + 1, 2, 1e-300}, {3037000500, 3037000500, 1e300},
		{-3037000500, 3037000499, -1e-9}, {2147483647999999999, 4, 4.3},
	} {
		f.Add(s.a, s.b, s.f)
	}
	f.Fuzz(func(t *testing.T, a, b int64, fl float64) {
		A, B := big.NewInt(a), big.NewInt(b)
		check := func(op string, got time.Duration, err error, exact *big.Int) {
			t.Helper()
			if exact.IsInt64() {
				if err != nil || int64(got) != exact.Int64() {
					t.Fatalf("%d %s %d: got %d, %v; want %v", a, op, b, got, err, exact)
				}
			} else if !errors.Is(err, simclock.ErrOverflow) {
				t.Fatalf("%d %s %d: got %d, %v; want ErrOverflow (exact %v)", a, op, b, got, err, exact)
			}
		}
		got, err := simclock.AddDurations(time.Duration(a), time.Duration(b))
		check("+", got, err, new(big.Int).Add(A, B))
		got, err = simclock.SubDurations(time.Duration(a), time.Duration(b))
		check("-", got, err, new(big.Int).Sub(A, B))
		got, err = simclock.ScaleDuration(time.Duration(a), b)
		check("*", got, err, new(big.Int).Mul(A, B))

		sum := new(big.Int).Add(A, B)
		sat := simclock.SaturatingAdd(time.Duration(a), time.Duration(b))
		switch {
		case sum.IsInt64():
			if int64(sat) != sum.Int64() {
				t.Fatalf("SaturatingAdd(%d, %d) = %d", a, b, sat)
			}
		case sum.Sign() > 0 && sat != simclock.MaxDuration, sum.Sign() < 0 && sat != simclock.MinDuration:
			t.Fatalf("SaturatingAdd(%d, %d) = %d, want the clamp", a, b, sat)
		}

		got, err = simclock.ScaleDurationFloat(time.Duration(a), fl)
		if math.IsNaN(fl) || math.IsInf(fl, 0) {
			if !errors.Is(err, simclock.ErrOutOfRange) {
				t.Fatalf("%d * %v: got %d, %v; want ErrOutOfRange", a, fl, got, err)
			}
			return
		}
		exact, _ := new(big.Float).SetPrec(2000).Mul(new(big.Float).SetInt(A), big.NewFloat(fl)).Int(nil)
		check(fmt.Sprintf("* %v =", fl), got, err, exact)
	})
}

// rclcpp's test_duration.cpp, overflows (Jazzy), case by case. One case
// differs on purpose: rclcpp expects negative_one - max to throw
// std::underflow_error, but -1 ns - (2^63-1 ns) is -2^63 ns, which fits;
// SubDurations returns it (see its doc). And 0 - min, which rclcpp's check
// lets wrap, is ErrOverflow.
func TestDurationOverflowsRclcpp(t *testing.T) {
	const maxD, minD = simclock.MaxDuration, simclock.MinDuration
	const one, negativeOne = time.Duration(1), time.Duration(-1)
	check := func(name string, got time.Duration, err error, want time.Duration, wantErr error) {
		t.Helper()
		if wantErr != nil {
			if !errors.Is(err, wantErr) {
				t.Errorf("%s = %d, %v; want %v", name, got, err, wantErr)
			}
			return
		}
		if err != nil || got != want {
			t.Errorf("%s = %d, %v; want %d", name, got, err, want)
		}
	}
	got, err := simclock.AddDurations(maxD, one)
	check("max + one", got, err, 0, simclock.ErrOverflow)
	got, err = simclock.SubDurations(minD, one)
	check("min - one", got, err, 0, simclock.ErrOverflow)
	got, err = simclock.AddDurations(negativeOne, minD)
	check("negative_one + min", got, err, 0, simclock.ErrOverflow)
	got, err = simclock.SubDurations(negativeOne, maxD)
	check("negative_one - max (rclcpp: underflow_error)", got, err, minD, nil)
	got, err = simclock.SubDurations(0, minD)
	check("0 - min (rclcpp: wraps)", got, err, 0, simclock.ErrOverflow)

	baseD, err := simclock.ScaleDurationFloat(maxD, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	got, err = simclock.ScaleDurationFloat(baseD, 4)
	check("base_d * 4", got, err, 0, simclock.ErrOverflow)
	got, err = simclock.ScaleDurationFloat(baseD, -4)
	check("base_d * (-4)", got, err, 0, simclock.ErrOverflow)
	baseDNeg, err := simclock.ScaleDurationFloat(maxD, -0.3)
	if err != nil {
		t.Fatal(err)
	}
	got, err = simclock.ScaleDurationFloat(baseDNeg, -4)
	check("base_d_neg * (-4)", got, err, 0, simclock.ErrOverflow)
	got, err = simclock.ScaleDurationFloat(baseDNeg, 4)
	check("base_d_neg * 4", got, err, 0, simclock.ErrOverflow)
}
