package experiment

import (
	"math"
	"testing"
)

func TestFormatSeconds(t *testing.T) {
	for _, tc := range []struct {
		ns   int64
		want string
	}{
		{0, "0 s"}, {1, "0.000000001 s"}, {1_500_000_000, "1.5 s"}, {-500_000_000, "-0.5 s"},
		{1_700_000_000_005_000_000, "1700000000.005 s"}, {math.MaxInt64, "9223372036.854775807 s"},
		{math.MinInt64, "-9223372036.854775808 s"}, {100e9, "100 s"},
	} {
		if got := FormatSeconds(tc.ns); got != tc.want {
			t.Errorf("FormatSeconds(%d) = %q, want %q", tc.ns, got, tc.want)
		}
	}
}
