package cli

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// parseSimTime parses a sim time given in seconds ("1700000000.25", "0"),
// exactly to the nanosecond, into a duration since sim epoch. Negative
// times and more than 9 decimals are rejected.
func parseSimTime(s string) (time.Duration, error) {
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" && frac == "" || strings.HasPrefix(whole, "-") || strings.HasPrefix(whole, "+") || len(frac) > 9 {
		return 0, fmt.Errorf("%q is not a sim time in seconds (like 12 or 1700000000.25)", s)
	}
	var sec, nsec int64
	var err error
	if whole != "" {
		if sec, err = strconv.ParseInt(whole, 10, 64); err != nil {
			return 0, fmt.Errorf("%q is not a sim time in seconds", s)
		}
	}
	if frac != "" {
		if nsec, err = strconv.ParseInt(frac+strings.Repeat("0", 9-len(frac)), 10, 64); err != nil || strings.ContainsAny(frac, "+-") {
			return 0, fmt.Errorf("%q is not a sim time in seconds", s)
		}
	}
	if sec > math.MaxInt32 {
		return 0, fmt.Errorf("%q is past the largest sim time a Clock message carries (%d s)", s, math.MaxInt32)
	}
	return time.Duration(sec)*time.Second + time.Duration(nsec), nil
}
