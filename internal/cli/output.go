package cli

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"

	"github.com/simclock/simclock/internal/report"
	"github.com/simclock/simclock/internal/units"
)

// The output conventions every command follows (docs/cli.md):
//   - times for people are seconds with fixed decimals: /clock values and
//     stamps with 9 (units.Value), lengths of time with 3 (units.Span);
//   - JSON lines carry "kind" first, integer nanoseconds in fields ending
//     in _ns, and start with one env line (envHeader);
//   - human tables fit 100 columns; --wide prints every column.

// tableWidth is the width human tables fit by default.
const tableWidth = report.Width

// jsonSchema is the version of a command's JSON-lines schema, in its env
// line. Within a version fields are only ever added; a field renamed or
// retyped bumps the command's version (schemaChanges).
const jsonSchema = 1

// schemaChanges holds the commands whose schema moved past jsonSchema,
// with their version: experiment startup and dtspike carried float
// seconds (_s) in schema 1 and carry integer nanoseconds (_ns) from 2;
// lint, doctor and bag inspect write every finding as rules.Finding from 2
// (a "rules" array, "R10,R29" in bag's "rule" and "R16" in lint's before;
// lint adds "code", bag "fix").
var schemaChanges = map[string]int{
	"experiment startup": 2,
	"experiment dtspike": 2,
	"lint":               2,
	"doctor":             2,
	"bag inspect":        2,
}

// schemaOf returns command's JSON schema version.
func schemaOf(command string) int {
	if v, ok := schemaChanges[command]; ok {
		return v
	}
	return jsonSchema
}

// envHeader starts every command's env line ("kind":"env"); each command
// embeds it first in its own typed env struct.
type envHeader struct {
	Schema  int    `json:"schema"`
	Command string `json:"command"` // "pub", "bag inspect", ...
	Version string `json:"version"`
	Go      string `json:"go"`
}

func newEnvHeader(command string) envHeader {
	return envHeader{Schema: schemaOf(command), Command: command, Version: Version, Go: runtime.Version()}
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
// continuation lines indented by indent (report.Wrap).
func wrap(text string, width int, indent string) []string { return report.Wrap(text, width, indent) }

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
const durationHelp = "wall-clock time to run (0: until interrupted)"

// A table is a human table that fits tableWidth columns: when it would
// not, optional columns are dropped from the right (a note says how many,
// and --wide shows them all); long cells are never cut.
type table struct {
	heads    []string
	optional []bool
	rows     [][]string
}

// newTable starts a table; a head ending in "?" marks an optional column
// (the "?" is not printed).
func newTable(heads ...string) *table {
	t := &table{}
	for _, h := range heads {
		opt := strings.HasSuffix(h, "?")
		t.heads = append(t.heads, strings.TrimSuffix(h, "?"))
		t.optional = append(t.optional, opt)
	}
	return t
}

// row adds a row of cells, one per head.
func (t *table) row(cells ...string) { t.rows = append(t.rows, cells) }

// write prints the table, two spaces between columns.
func (t *table) write(w io.Writer, wide bool) {
	widths := make([]int, len(t.heads))
	for i, h := range t.heads {
		widths[i] = len([]rune(h))
	}
	for _, r := range t.rows {
		for i, c := range r {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	keep := make([]bool, len(t.heads))
	total := -2
	for i := range keep {
		keep[i] = true
		total += widths[i] + 2
	}
	dropped := 0
	for i := len(keep) - 1; i >= 0 && total > tableWidth && !wide; i-- {
		if t.optional[i] {
			keep[i] = false
			total -= widths[i] + 2
			dropped++
		}
	}
	line := func(cells []string) {
		var b strings.Builder
		for i, c := range cells {
			if !keep[i] {
				continue
			}
			if b.Len() > 0 {
				b.WriteString("  ")
			}
			b.WriteString(c + strings.Repeat(" ", widths[i]-len([]rune(c))))
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	if total > tableWidth && !wide && len(t.heads) > 2 {
		t.writeRecords(w)
		return
	}
	line(t.heads)
	for _, r := range t.rows {
		line(r)
	}
	if dropped > 0 {
		fmt.Fprintf(w, "(%d more column(s) with --wide)\n", dropped)
	}
}

// writeRecords prints a table too wide even without its optional
// columns one row per block, under the first two heads: the first two
// cells on a line, then the other cells as "HEAD: value" on indented
// lines, empty cells left out. Short cells are packed onto lines,
// separated by "; ", never split; when a cell is long (a sentence), each
// cell of every row gets its own line, so that the blocks read alike.
func (t *table) writeRecords(w io.Writer) {
	const indent, sep = "    ", "; "
	w0 := len([]rune(t.heads[0]))
	for _, r := range t.rows {
		w0 = max(w0, len([]rune(r[0])))
	}
	rests := make([][]string, len(t.rows))
	pack := true
	for i, r := range t.rows {
		for j := 2; j < len(r); j++ {
			if c := strings.TrimSpace(r[j]); c != "" {
				rests[i] = append(rests[i], t.heads[j]+": "+c)
				pack = pack && len([]rune(c)) <= tableWidth/2
			}
		}
	}
	fmt.Fprintln(w, t.heads[0]+strings.Repeat(" ", w0-len([]rune(t.heads[0])))+"  "+t.heads[1])
	for i, r := range t.rows {
		first := r[0] + strings.Repeat(" ", w0-len([]rune(r[0]))) + "  " + r[1]
		for _, l := range wrap(first, tableWidth, strings.Repeat(" ", w0+4)) {
			fmt.Fprintln(w, l)
		}
		line := ""
		for _, c := range rests[i] {
			if pack && line != "" && len([]rune(line+sep+c)) <= tableWidth {
				line += sep + c
				continue
			}
			if line != "" {
				fmt.Fprintln(w, line)
			}
			line = indent + c
			if !pack || len([]rune(line)) > tableWidth {
				for _, l := range wrap(line, tableWidth, indent+"  ") {
					fmt.Fprintln(w, l)
				}
				line = ""
			}
		}
		if line != "" {
			fmt.Fprintln(w, line)
		}
	}
}

// paragraph prints text wrapped to tableWidth columns.
func paragraph(w io.Writer, text string) {
	for _, l := range wrap(text, tableWidth, "") {
		fmt.Fprintln(w, l)
	}
}

// A lineWrapper wraps every line written through it that is wider than
// tableWidth at spaces, continuing it indented 4 more than the line.
// Flush writes a last line without a newline.
type lineWrapper struct {
	w   io.Writer
	buf []byte
}

func newLineWrapper(w io.Writer) *lineWrapper { return &lineWrapper{w: w} }

func (l *lineWrapper) Write(p []byte) (int, error) {
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		if err := l.emit(string(l.buf[:i])); err != nil {
			return 0, err
		}
		l.buf = l.buf[i+1:]
	}
}

func (l *lineWrapper) emit(line string) error {
	indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
	for _, part := range wrap(line, tableWidth, indent+"    ") {
		if _, err := io.WriteString(l.w, part+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// Flush writes what is left of a line without a newline.
func (l *lineWrapper) Flush() error {
	if len(l.buf) == 0 {
		return nil
	}
	_, err := l.w.Write(l.buf)
	l.buf = nil
	return err
}

// plural returns "s" unless n is 1, for "1 scenario", "4 scenarios".
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
