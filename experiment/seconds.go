package experiment

import (
	"strconv"
	"strings"
)

// FormatSeconds writes ns nanoseconds as exact decimal seconds, "1.5s" or
// "1700000000.005s": no exponent and no float rounding, so Unix-epoch sim
// times print as users wrote them.
func FormatSeconds(ns int64) string {
	var b strings.Builder
	u := uint64(ns)
	if ns < 0 {
		b.WriteByte('-')
		u = uint64(-(ns + 1)) + 1 // |MinInt64| fits in uint64
	}
	b.WriteString(strconv.FormatUint(u/1e9, 10))
	if frac := u % 1e9; frac != 0 {
		f := strconv.FormatUint(frac+1e9, 10)[1:] // nine digits, leading zeros kept
		b.WriteByte('.')
		b.WriteString(strings.TrimRight(f, "0"))
	}
	b.WriteByte('s')
	return b.String()
}

// secondsOf returns ns in seconds as a float64 for JSON. The whole and
// fractional seconds are converted apart, so at Unix-epoch times the
// result is the float a reader gets parsing FormatSeconds (tested), where
// float64(ns)/1e9 is an ulp off (1700000000.005 s came out as
// 1.7000000000049999e+09).
func secondsOf(ns int64) float64 {
	return float64(ns/1e9) + float64(ns%1e9)/1e9
}
