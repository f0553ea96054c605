package units_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/simclock/simclock/internal/units"
)

func TestParseSeconds(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
	}{
		{"1.5", 1500 * time.Millisecond}, {"1.5s", 1500 * time.Millisecond}, {"1500ms", 1500 * time.Millisecond},
		{" 0.25 ", 250 * time.Millisecond}, {"1.001", 1001 * time.Millisecond}, {"0", 0}, {"0s", 0},
		{"-2", -2 * time.Second}, {"1e-3", time.Millisecond}, {"250us", 250 * time.Microsecond},
		{"250µs", 250 * time.Microsecond}, {"7ns", 7}, {"2m", 2 * time.Minute}, {"1h30m", 90 * time.Minute},
		{"1700000000.123456789", 1700000000*time.Second + 123456789}, {".5", 500 * time.Millisecond},
		{"9223372036.854775807", math.MaxInt64},
	} {
		got, err := units.ParseSeconds(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseSeconds(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		in   string
		want error
	}{
		{"", units.ErrSyntax}, {"s", units.ErrSyntax}, {"abc", units.ErrSyntax}, {"1.5x", units.ErrSyntax},
		{"0.0000000001", units.ErrSyntax}, {"NaN", units.ErrRange}, {"Inf", units.ErrRange}, {"-inf", units.ErrRange},
		{"+Infs", units.ErrRange}, {"9223372037", units.ErrRange}, {"1e300", units.ErrRange}, {"0x10", units.ErrSyntax}, {"1e999", units.ErrRange}, {"1e9999", units.ErrSyntax},
	} {
		if got, err := units.ParseSeconds(tc.in); !errors.Is(err, tc.want) {
			t.Errorf("ParseSeconds(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestSeconds(t *testing.T) {
	for _, tc := range []struct {
		ns   int64
		dec  int
		want string
	}{
		{0, 9, "0.000000000"}, {1500000000, 3, "1.500"}, {-1, 9, "-0.000000001"}, {1999, 0, "0"},
		{math.MinInt64, 9, "-9223372036.854775808"}, {math.MaxInt64, 3, "9223372036.854"}, {12_500_000_000, 12, "12.500000000"},
	} {
		if got := units.Seconds(tc.ns, tc.dec); got != tc.want {
			t.Errorf("Seconds(%d, %d) = %q, want %q", tc.ns, tc.dec, got, tc.want)
		}
	}
}

func TestFlags(t *testing.T) {
	d := 10 * time.Millisecond
	f := units.Duration(&d, units.Positive)
	if f.String() != "0.01" {
		t.Errorf("default prints %q", f.String())
	}
	for _, bad := range []string{"0", "-1", "NaN"} {
		if err := f.Set(bad); err == nil {
			t.Errorf("positive flag accepted %q", bad)
		}
	}
	if err := f.Set("1500ms"); err != nil || d != 1500*time.Millisecond || !f.IsSet() {
		t.Errorf("Set: %v %v", err, d)
	}
	var tf units.TimeFlag
	for _, bad := range []string{"-1", "2147483648", "inf"} {
		if err := tf.Set(bad); err == nil {
			t.Errorf("time flag accepted %q", bad)
		}
	}
	if err := tf.Set("1s"); err != nil || tf.V != time.Second || tf.String() != "1" {
		t.Errorf("time flag 1s: %v %v %q", err, tf.V, tf.String())
	}
	var ds []time.Duration
	lf := units.List(&ds, units.Positive)
	if err := lf.Set("0.25,1s,1500ms"); err != nil || len(ds) != 3 || ds[0] != 250*time.Millisecond || lf.String() != "0.25,1,1.5" {
		t.Errorf("list: %v %v %q", err, ds, lf.String())
	}
	if err := lf.Set("1,0"); err == nil {
		t.Error("list accepted 0 among positives")
	}
}

func FuzzParseSeconds(f *testing.F) {
	for _, s := range []string{"1.5", "1500ms", "1e-3", "NaN", "1h30m", "-0.000000001", "9223372036.854775807"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := units.ParseSeconds(s)
		if err != nil {
			return
		}
		// Whatever parses prints back to the same duration.
		back, err := units.ParseSeconds(units.Seconds(int64(d), 9))
		if err != nil || back != d {
			t.Fatalf("%q -> %d -> %q -> %d, %v", s, d, units.Seconds(int64(d), 9), back, err)
		}
	})
}

func TestExact(t *testing.T) {
	for ns, want := range map[int64]string{0: "0", 1: "0.000000001", 1500000000: "1.5", 1700000000005000000: "1700000000.005",
		-500000000: "-0.5", math.MinInt64: "-9223372036.854775808"} {
		if got := units.Exact(ns); got != want {
			t.Errorf("Exact(%d) = %q, want %q", ns, got, want)
		}
	}
}
