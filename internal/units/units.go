// Package units is simclock's one reading and one printing of times.
//
// Every flag that takes a time reads it with ParseSeconds: a plain number
// is seconds ("1.5"), and a number may carry a unit ("1.5s", "1500ms",
// "250us", "90m", "1h30m"): all three first forms mean the same 1.5 s
// everywhere. Decimals are read exactly, to the nanosecond (1.001 is
// 1001000000 ns, not a float's 1000999999). NaN, Inf, a time finer than
// a nanosecond or past ±292 years is an error.
//
// Every time printed for people is in seconds with fixed decimals
// (Seconds); JSON carries integer nanoseconds in fields ending in _ns.
package units

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Errors of ParseSeconds and the flags, matched with errors.Is.
var (
	ErrSyntax   = errors.New("want seconds (1.5) or a number with a unit (1.5s, 1500ms)")
	ErrRange    = errors.New("out of range")
	ErrNegative = errors.New("must not be negative")
	ErrZero     = errors.New("must be positive")
)

var unitNs = map[string]int64{
	"": int64(time.Second), "ns": 1, "us": 1e3, "µs": 1e3, "μs": 1e3, "ms": 1e6,
	"s": 1e9, "m": 60e9, "h": 3600e9,
}

// ParseSeconds reads a time: seconds, or a number with a unit, or a Go
// duration ("1h30m").
func ParseSeconds(s string) (time.Duration, error) {
	in := strings.TrimSpace(s)
	// The unit is the trailing run of letters ("ms", "µs"); the rest is
	// a decimal number, exponent included ("1e-3").
	cut := len(strings.TrimRightFunc(in, unicode.IsLetter))
	num, suffix := in[:cut], in[cut:]
	if unit, ok := unitNs[suffix]; ok && decimal.MatchString(num) {
		r, ok := new(big.Rat).SetString(num)
		if !ok {
			return 0, fmt.Errorf("%q: %w", s, ErrSyntax)
		}
		r.Mul(r, new(big.Rat).SetInt64(unit))
		if !r.IsInt() {
			return 0, fmt.Errorf("%q: finer than a nanosecond: %w", s, ErrSyntax)
		}
		if n := r.Num(); n.IsInt64() {
			return time.Duration(n.Int64()), nil
		}
		return 0, fmt.Errorf("%q: %w", s, ErrRange)
	}
	if d, err := time.ParseDuration(in); err == nil { // "1h30m"
		return d, nil
	}
	if l := strings.ToLower(in); strings.Contains(l, "inf") || strings.Contains(l, "nan") {
		return 0, fmt.Errorf("%q: %w", s, ErrRange)
	}
	return 0, fmt.Errorf("%q: %w", s, ErrSyntax)
}

// decimal is a plain decimal number with an optional exponent of at most
// three digits (larger ones are out of range anyway, and costly to expand).
var decimal = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]{1,3})?$`)

// Seconds formats ns as seconds with exactly decimals decimals (0 to 9),
// truncated toward zero, exact for every int64: Seconds(12_500_000_000, 3)
// is "12.500".
func Seconds(ns int64, decimals int) string {
	sign := ""
	u := uint64(ns)
	if ns < 0 {
		sign, u = "-", uint64(-(ns+1))+1
	}
	s := sign + strconv.FormatUint(u/1e9, 10)
	decimals = min(max(decimals, 0), 9)
	if decimals == 0 {
		return s
	}
	return s + "." + fmt.Sprintf("%09d", u%1e9)[:decimals]
}

// Decimal places used by simclock's human output.
const (
	// ValueDecimals prints /clock values and stamps: exact.
	ValueDecimals = 9
	// SpanDecimals prints elapsed times, periods and gaps.
	SpanDecimals = 3
)

// Value formats a /clock value or stamp: Seconds(ns, ValueDecimals).
func Value(ns int64) string { return Seconds(ns, ValueDecimals) }

// Span formats a length of time: Seconds(ns, SpanDecimals).
func Span[D ~int64](d D) string { return Seconds(int64(d), SpanDecimals) }

// A Range says which durations a flag accepts.
type Range uint8

// Ranges.
const (
	NonNegative Range = iota // 0 and up
	Positive                 // above 0
	AnySign                  // any value
)

// A DurationFlag is a pflag.Value that reads a duration with ParseSeconds.
type DurationFlag struct {
	d     *time.Duration
	allow Range
	set   bool
}

// Duration returns a flag value storing into d, whose current value is
// the default, accepting allow.
func Duration(d *time.Duration, allow Range) *DurationFlag { return &DurationFlag{d: d, allow: allow} }

// String prints the value in seconds.
func (f *DurationFlag) String() string {
	if f == nil || f.d == nil {
		return "0"
	}
	return Exact(int64(*f.d))
}

// Set parses s.
func (f *DurationFlag) Set(s string) error {
	d, err := ParseSeconds(s)
	if err != nil {
		return err
	}
	if err := check(d, f.allow); err != nil {
		return fmt.Errorf("%q: %w", s, err)
	}
	*f.d, f.set = d, true
	return nil
}

// Type names the value in help.
func (f *DurationFlag) Type() string { return "seconds" }

// IsSet reports whether Set was called.
func (f *DurationFlag) IsSet() bool { return f.set }

func check(d time.Duration, allow Range) error {
	switch {
	case allow != AnySign && d < 0:
		return ErrNegative
	case allow == Positive && d == 0:
		return ErrZero
	}
	return nil
}

// Exact prints ns in seconds with every significant decimal and no
// trailing zeros, exact for every int64: "0.01", "5", "1700000000.005".
// It echoes settings as the user wrote them.
func Exact(ns int64) string {
	s := Seconds(ns, 9)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// MaxClockSeconds is the largest second a rosgraph_msgs/Clock carries.
const MaxClockSeconds = math.MaxInt32

// A TimeFlag is a pflag.Value holding a /clock value (a time since the
// clock's epoch): not negative, within what a Clock message carries.
type TimeFlag struct {
	V   time.Duration
	set bool
}

// String prints the value in seconds.
func (f *TimeFlag) String() string {
	if !f.set && f.V == 0 {
		return ""
	}
	return Exact(int64(f.V))
}

// Set parses s.
func (f *TimeFlag) Set(s string) error {
	d, err := ParseSeconds(s)
	if err != nil {
		return err
	}
	if d < 0 {
		return fmt.Errorf("%q: a time %w", s, ErrNegative)
	}
	if d >= (MaxClockSeconds+1)*time.Second {
		return fmt.Errorf("%q is past the largest time a Clock message carries (%d s): %w", s, MaxClockSeconds, ErrRange)
	}
	f.V, f.set = d, true
	return nil
}

// Type names the value in help.
func (f *TimeFlag) Type() string { return "seconds" }

// IsSet reports whether Set was called.
func (f *TimeFlag) IsSet() bool { return f.set }

// A ListFlag is a pflag.Value reading a comma-separated list of durations.
type ListFlag struct {
	ds    *[]time.Duration
	allow Range
}

// List returns a list flag storing into ds (its current value is the
// default).
func List(ds *[]time.Duration, allow Range) *ListFlag { return &ListFlag{ds: ds, allow: allow} }

// String prints the values in seconds.
func (f *ListFlag) String() string {
	if f == nil || f.ds == nil {
		return ""
	}
	parts := make([]string, len(*f.ds))
	for i, d := range *f.ds {
		parts[i] = Exact(int64(d))
	}
	return strings.Join(parts, ",")
}

// Set parses s.
func (f *ListFlag) Set(s string) error {
	var out []time.Duration
	for part := range strings.SplitSeq(s, ",") {
		d, err := ParseSeconds(part)
		if err != nil {
			return err
		}
		if err := check(d, f.allow); err != nil {
			return fmt.Errorf("%q: %w", part, err)
		}
		out = append(out, d)
	}
	*f.ds = out
	return nil
}

// Type names the value in help.
func (f *ListFlag) Type() string { return "seconds,..." }

// A RatesFlag is a pflag.Value reading a comma-separated list of rates in
// Hz (10,20): positive, finite numbers. Help prints its default as typed
// ("10,20"), not as a float slice.
type RatesFlag struct{ hz *[]float64 }

// Rates returns a rates flag storing into hz (its current value is the
// default).
func Rates(hz *[]float64) *RatesFlag { return &RatesFlag{hz: hz} }

// String prints the rates as a user types them.
func (f *RatesFlag) String() string {
	if f == nil || f.hz == nil {
		return ""
	}
	parts := make([]string, len(*f.hz))
	for i, v := range *f.hz {
		parts[i] = strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strings.Join(parts, ",")
}

// Set parses s.
func (f *RatesFlag) Set(s string) error {
	var out []float64
	for part := range strings.SplitSeq(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("%q: want a rate in Hz, a positive number (10 or 12.5)", part)
		}
		out = append(out, v)
	}
	*f.hz = out
	return nil
}

// Type names the value in help.
func (f *RatesFlag) Type() string { return "Hz,..." }
