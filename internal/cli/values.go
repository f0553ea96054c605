package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// parseSeconds reads "0.5" as seconds or "500ms" as a Go duration. A
// plain decimal is read exactly, to the nanosecond, as parseSimTime reads
// sim times (1.001 is 1001000000 ns, not the float product's 1000999999).
func parseSeconds(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s != "" && strings.Trim(s, "0123456789.") == "" {
		return parseSimTime(s)
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		// Other float forms (1e-3) are converted as rclpy does: trunc(s * 1e9).
		if f != f || f > 9.2e9 || f < -9.2e9 {
			return 0, fmt.Errorf("%q: out of range", s)
		}
		return time.Duration(f * 1e9), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q: want seconds (0.5) or a duration (500ms)", s)
	}
	return d, nil
}

// secondsValue is a pflag value holding one duration given in seconds or
// as a Go duration.
type secondsValue struct{ d *time.Duration }

func (v secondsValue) String() string {
	if v.d == nil {
		return "0s"
	}
	return v.d.String()
}
func (v secondsValue) Set(s string) error {
	d, err := parseSeconds(s)
	if err != nil {
		return err
	}
	*v.d = d
	return nil
}
func (v secondsValue) Type() string { return "seconds" }

// secondsList is a comma-separated list of secondsValue.
type secondsList struct{ ds *[]time.Duration }

func (v secondsList) String() string {
	if v.ds == nil {
		return ""
	}
	parts := make([]string, len(*v.ds))
	for i, d := range *v.ds {
		parts[i] = strconv.FormatFloat(d.Seconds(), 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}
func (v secondsList) Set(s string) error {
	var out []time.Duration
	for _, part := range strings.Split(s, ",") {
		d, err := parseSeconds(part)
		if err != nil {
			return err
		}
		out = append(out, d)
	}
	*v.ds = out
	return nil
}
func (v secondsList) Type() string { return "seconds,..." }
