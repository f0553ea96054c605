package experiment

import "github.com/simclock/simclock/internal/units"

// FormatSeconds writes ns nanoseconds as exact decimal seconds, "1.5 s" or
// "1700000000.005 s": no exponent and no float rounding, so Unix-epoch sim
// times and settings print as users wrote them (units.Exact, with the
// unit, as docs/cli.md echoes settings: "S = 0.5 s").
func FormatSeconds(ns int64) string { return units.Exact(ns) + " s" }
