package cli

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"

	"github.com/simclock/simclock/internal/units"
)

// The output conventions every command follows (docs/cli.md):
//   - times for people are seconds with fixed decimals: /clock values and
//     stamps with 9 (units.Value), lengths of time with 3 (units.Span);
//   - JSON lines carry "kind" first, integer nanoseconds in fields ending
//     in _ns, and start with one env line (envHeader);
//   - human tables fit 100 columns; --wide prints every column.

// tableWidth is the width human tables fit by default.
const tableWidth = 100

// jsonSchema is the version of the JSON-lines schema; fields are only
// ever added.
const jsonSchema = 1

// envHeader starts every command's env line; each command embeds it
// first in its own typed env struct, so "kind" comes first.
type envHeader struct {
	Kind    string `json:"kind"` // always "env"
	Schema  int    `json:"schema"`
	Command string `json:"command"` // "pub", "bag inspect", ...
	Version string `json:"version"`
	Go      string `json:"go"`
}

func newEnvHeader(command string) envHeader {
	return envHeader{Kind: "env", Schema: jsonSchema, Command: command, Version: Version, Go: runtime.Version()}
}

// liveEnv is the env line of the commands on a transport (pub, monitor).
type liveEnv struct {
	envHeader
	Transport string `json:"transport"`
	Domain    int    `json:"domain"` // -1 when not DDS
	Topic     string `json:"topic"`
	Virtual   bool   `json:"virtual_time,omitempty"`
}

// span prints a length of time: "0.250".
func span[D ~int64](d D) string { return units.Span(d) }

// value prints a /clock value or stamp: "1700000000.250000000".
func value(ns int64) string { return units.Value(ns) }

// ratio prints a real-time factor or another ratio with 3 decimals, "-"
// for none.
func ratio(r *float64) string {
	if r == nil || math.IsNaN(*r) {
		return "-"
	}
	return fmt.Sprintf("%.3f", *r)
}

// checkFloat rejects NaN, Inf and, unless negative is true, values below 0.
func checkFloat(flag string, v float64, negative bool) error {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return flagErrorf("--%s %v: want a finite number", flag, v)
	case !negative && v < 0:
		return flagErrorf("--%s %v: must not be negative", flag, v)
	}
	return nil
}

// fit cuts s to width columns (runes), marking the cut with "…".
func fit(s string, width int) string {
	r := []rune(s)
	if len(r) <= width {
		return s
	}
	return string(r[:width-1]) + "…"
}

// wrap breaks text into lines of at most width columns at spaces, the
// continuation lines indented by indent.
func wrap(text string, width int, indent string) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		switch {
		case line == "":
			line = w
		case len([]rune(line))+1+len([]rune(w)) > width:
			lines = append(lines, line)
			line = indent + w
		default:
			line += " " + w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// printWarnings writes each warning as "  ! text", wrapped to the table
// width.
func printWarnings(w io.Writer, warnings []string) {
	for _, warn := range warnings {
		for _, l := range wrap("! "+warn, tableWidth-2, "  ") {
			fmt.Fprintln(w, "  "+l)
		}
	}
}

// durationHelp is the help of --duration on commands that run live.
const durationHelp = "stop after this much wall-clock time, in seconds (1.5, 1.5s, 1500ms); 0 runs until interrupted"

// secondsHelp completes the help of every time flag.
const secondsHelp = " (seconds: 1.5, 1.5s or 1500ms)"
