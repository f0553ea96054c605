package experiment

import "github.com/simclock/simclock/internal/units"

// FormatSeconds writes ns nanoseconds as exact decimal seconds, "1.5s" or
// "1700000000.005s": no exponent and no float rounding, so Unix-epoch sim
// times print as users wrote them (units.Exact, with the unit).
func FormatSeconds(ns int64) string { return units.Exact(ns) + "s" }

// secondsOf returns ns in seconds as a float64 for JSON. The whole and
// fractional seconds are converted apart, so at Unix-epoch times the
// result is the float a reader gets parsing FormatSeconds (tested), where
// float64(ns)/1e9 is an ulp off (1700000000.005 s came out as
// 1.7000000000049999e+09).
func secondsOf(ns int64) float64 {
	return float64(ns/1e9) + float64(ns%1e9)/1e9
}
