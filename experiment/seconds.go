package experiment

import "github.com/simclock/simclock/internal/units"

// FormatSeconds writes ns nanoseconds as exact decimal seconds, "1.5s" or
// "1700000000.005s": no exponent and no float rounding, so Unix-epoch sim
// times print as users wrote them (units.Exact, with the unit).
func FormatSeconds(ns int64) string { return units.Exact(ns) + "s" }
