package experiment

import (
	"math"
	"strconv"
	"testing"
)

func TestFormatSeconds(t *testing.T) {
	for _, tc := range []struct {
		ns   int64
		want string
	}{
		{0, "0s"}, {1, "0.000000001s"}, {1_500_000_000, "1.5s"}, {-500_000_000, "-0.5s"},
		{1_700_000_000_005_000_000, "1700000000.005s"}, {math.MaxInt64, "9223372036.854775807s"},
		{math.MinInt64, "-9223372036.854775808s"}, {100e9, "100s"},
	} {
		if got := FormatSeconds(tc.ns); got != tc.want {
			t.Errorf("FormatSeconds(%d) = %q, want %q", tc.ns, got, tc.want)
		}
	}
	// The float for JSON is the one a reader parsing the exact decimal gets.
	for _, ns := range []int64{1_700_000_000_005_000_000, 1_700_000_000_100_000_000, 2147483647_999999999, 125e9} {
		want, _ := strconv.ParseFloat(FormatSeconds(ns)[:len(FormatSeconds(ns))-1], 64)
		if got := secondsOf(ns); got != want {
			t.Errorf("secondsOf(%d) = %v, want %v", ns, got, want)
		}
	}
}
