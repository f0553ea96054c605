// Package benchreport runs the benchmarks behind the README's
// performance figures, each with its baseline in the same run, and
// renders the ratios as the markdown table that docs/bench.md holds and
// the README includes verbatim. scripts/bench is its command.
package benchreport

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// A Row is one figure: a benchmark metric divided by a baseline's.
type Row struct {
	// Figure names the row in the table; it must be unique.
	Figure string
	// Pkg is the package directory relative to the module root, "./bag".
	Pkg string
	// Bench is the full benchmark name without the -GOMAXPROCS suffix.
	Bench string
	// Metric is the unit of Bench's figure ("ns/op", "ratio_waitset").
	Metric string
	// Base and BaseMetric name the baseline; Base empty means Metric is
	// already a ratio against a baseline the benchmark ran itself.
	Base, BaseMetric string
	// Show and ShowBase, when set, are the absolute metrics printed "on
	// this machine" instead of Metric and BaseMetric: of Bench and Base,
	// or both of Bench when Base is empty (a ratio the benchmark computes).
	Show, ShowBase string
	// Target is the goal for the ratio, as text ("≤ 1.3"); may be empty.
	Target string
	// Benchtime is go test's -benchtime for the row's package run.
	Benchtime string
}

// A Result holds every metric of one benchmark line: unit → value.
type Result map[string]float64

// Run is the parsed output of one repetition: benchmark name → metrics.
type Run map[string]Result

// Parse reads `go test -bench` output. Names lose their -GOMAXPROCS
// suffix; a benchmark printed twice keeps its last line.
func Parse(r io.Reader) (Run, error) {
	run := Run{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		if _, err := strconv.Atoi(f[1]); err != nil {
			continue // a log line, not a result
		}
		res := Result{}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("benchreport: %q: value %q: %w", sc.Text(), f[i], err)
			}
			res[f[i+1]] = v
		}
		run[trimProcs(f[0])] = res
	}
	return run, sc.Err()
}

// trimProcs drops the "-8" go test appends for GOMAXPROCS > 1.
func trimProcs(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i < 0 {
		return name
	}
	if _, err := strconv.Atoi(name[i+1:]); err != nil {
		return name
	}
	return name[:i]
}

// ErrMissing reports a row whose benchmark or metric is not in a run.
var ErrMissing = errors.New("benchmark metric missing")

func metric(run Run, bench, unit string) (float64, error) {
	v, ok := run[bench][unit]
	if !ok {
		return 0, fmt.Errorf("benchreport: %s %s: %w", bench, unit, ErrMissing)
	}
	return v, nil
}

// Ratio is row's ratio in one run.
func (row Row) Ratio(run Run) (float64, error) {
	v, err := metric(run, row.Bench, row.Metric)
	if err != nil || row.Base == "" {
		return v, err
	}
	base, err := metric(run, row.Base, row.BaseMetric)
	if err != nil {
		return 0, err
	}
	if base == 0 {
		return 0, fmt.Errorf("benchreport: %s %s is 0", row.Base, row.BaseMetric)
	}
	return v / base, nil
}

// absolute returns the row's figure and baseline figure in one run, with
// their units; missing values are NaN.
func (row Row) absolute(run Run) (v, base float64, unit, baseUnit string) {
	unit, baseUnit = row.Metric, row.BaseMetric
	baseBench := row.Base
	if row.Show != "" {
		unit, baseUnit = row.Show, row.ShowBase
		if baseBench == "" {
			baseBench = row.Bench // a ratio the benchmark computed: its baseline's figure is its own metric
		}
	}
	get := func(b, u string) float64 {
		if x, err := metric(run, b, u); err == nil && b != "" && u != "" {
			return x
		}
		return math.NaN()
	}
	return get(row.Bench, unit), get(baseBench, baseUnit), unit, baseUnit
}

// Stats summarises a row over the repetitions.
type Stats struct {
	Row              Row
	Ratios           []float64 // one per repetition that measured the row
	Value, BaseValue float64   // medians of the absolute figures
	Unit, BaseUnit   string
	Err              error // the last repetition's error, when no ratio was measured
}

// Summarise computes each row's ratios over runs.
func Summarise(rows []Row, runs []Run) []Stats {
	out := make([]Stats, 0, len(rows))
	for _, row := range rows {
		st := Stats{Row: row}
		var vs, bs []float64
		for _, run := range runs {
			r, err := row.Ratio(run)
			if err != nil {
				st.Err = err
				continue
			}
			st.Ratios = append(st.Ratios, r)
			v, b, u, bu := row.absolute(run)
			vs, bs, st.Unit, st.BaseUnit = append(vs, v), append(bs, b), u, bu
		}
		if len(st.Ratios) > 0 {
			st.Err = nil
		}
		st.Value, st.BaseValue = median(vs), median(bs)
		out = append(out, st)
	}
	return out
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Env describes where the report was measured.
type Env struct {
	Date, Machine, CPU, Load, Go string
	Repetitions                  int
	// Check is the line comparing this run with the previous report
	// (Check.Summary); empty when there was none.
	Check string
}

// Header is the first line of the table; the README check matches rows
// after it.
const Header = "| figure (ratio to its baseline in the same run) | min | median | max | target | on this machine (median): figure / baseline |"

// Markdown renders the report: the table, then the environment.
func Markdown(stats []Stats, env Env) string {
	var b strings.Builder
	b.WriteString(Header + "\n|---|---|---|---|---|---|\n")
	for _, st := range stats {
		if len(st.Ratios) == 0 {
			fmt.Fprintf(&b, "| %s | – | – | – | %s | not measured: %v |\n", st.Row.Figure, st.Row.Target, st.Err)
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", st.Row.Figure,
			num(slices.Min(st.Ratios)), num(median(st.Ratios)), num(slices.Max(st.Ratios)),
			st.Row.Target, absText(st))
	}
	if env.Check != "" {
		b.WriteString("\n" + env.Check + "\n")
	}
	fmt.Fprintf(&b, "\n%d repetitions, %s; %s, %s; load average %s; %s.\n",
		env.Repetitions, env.Date, env.Machine, env.CPU, env.Load, env.Go)
	b.WriteString("Min, median and max are over the repetitions. Within a repetition a figure and its baselines " +
		"run alternately, in alternating order (from round to round and from one repetition to the next), " +
		"in segments of equal length (2 ms in one process, 100 rounds; one whole pass each for inspect, lint and " +
		"doctor, 1 round for lint and doctor's watch, 3 for doctor's report, 9 for inspect, whose passes last 30 to 100 ms, " +
		"after one unmeasured round of both sides in the same order, so that each measured pass follows the other side's; " +
		"2 s between processes for DDS, 1 round), " +
		"and the figure is the median of the per-round ratios, so that a load spike lands on one segment of one " +
		"round rather than on one side. The rows whose sides each run on one goroutine (Now() with 1 reader, " +
		"/clock ingest, timer dispatch, /clock analysis) compare the CPU time of the thread that ran each segment " +
		"(wall time would also count the time a loaded machine kept it off a core, a share of a 2 ms segment that " +
		"changes from one segment to the next), the lint rows the CPU time of the process " +
		"(both sides run on every core: wall time would say how busy the shared machine was), the doctor watch row " +
		"each tool's CPU time per sample it received (a short and a long watch a round: the long watch's CPU after the short one's length, " +
		"read from /proc at that moment, over the samples it received beyond the short one's, so that start-up is left out), " +
		"the others wall time (Now() with 8 readers; inspect, which decodes chunks on several goroutines; " +
		"the sqlite3 tool, DDS and doctor's report, which involve other processes). Baselines do the same kind of work as the figure: Now() is divided by " +
		"rcl's read (an atomic flag, then an atomic time) written in Go, and timer dispatch by a bare " +
		"container/heap calling the same callbacks on a virtual clock (until December 2026 an atomic load and a " +
		"heap without callbacks, which moved with the CPU more than the figures did). " +
		"The line under the table counts the rows whose median lies inside the previous report's min–max, beside " +
		"the count a report that has not moved expects: if every repetition of both runs comes from one distribution, " +
		"the median of m repetitions lies inside the min–max of n with probability 1 − 2·C(m,k)/C(n+m,k), " +
		"k = (m+1)/2 (benchreport.InsideChance): 0.833 for 5 and 5, so that 31 rows that did not move all stay " +
		"inside 0.35 % of the time, and 0.998 for 15 and 15 (all 31: 93 %). Hence 15 repetitions of a third of the rounds (a fifth for inspect and lint) " +
		"(until December 2026, 5 of 300 rounds in one process, 2 to 9 passes, 3 DDS rounds): about as many " +
		"rounds in all, so the medians are about as precise, but a repetition's figure is the median of fewer " +
		"rounds (one for DDS, inspect, lint and doctor's watch), so that min–max spans wider, and each repetition " +
		"starts its processes anew (the bags and binaries they would each make are kept for the run). " +
		"scripts/bench reads the docs/bench.md it replaces with the reader of this table (benchreport.ParseTable), " +
		"compares the numbers as printed, and prints each row's verdict; `scripts/bench -check OLD.md NEW.md` repeats the check on any two reports.\n")
	return b.String()
}

func absText(st Stats) string {
	s := num(st.Value) + " " + st.Unit
	if !math.IsNaN(st.BaseValue) {
		s += " / " + num(st.BaseValue) + " " + st.BaseUnit
	}
	return s
}

// num prints three significant digits without exponent for the usual
// range.
func num(x float64) string {
	switch {
	case math.IsNaN(x):
		return "–"
	case math.Abs(x) >= 1000:
		return strconv.FormatFloat(x, 'f', 0, 64)
	default:
		return strconv.FormatFloat(x, 'g', 3, 64)
	}
}

// Markers delimit the report inside the README.
const (
	BeginMarker = "<!-- bench:begin (generated by scripts/bench from docs/bench.md; do not edit) -->"
	EndMarker   = "<!-- bench:end -->"
)

// ErrNoMarkers reports a README without the report's markers.
var ErrNoMarkers = errors.New("README has no bench markers")

// Splice returns readme with the text between the markers replaced by
// report.
func Splice(readme, report string) (string, error) {
	i := strings.Index(readme, BeginMarker)
	j := strings.Index(readme, EndMarker)
	if i < 0 || j < i {
		return "", ErrNoMarkers
	}
	return readme[:i+len(BeginMarker)] + "\n" + report + readme[j:], nil
}

// Embedded returns the text between the README's markers.
func Embedded(readme string) (string, error) {
	i := strings.Index(readme, BeginMarker)
	j := strings.Index(readme, EndMarker)
	if i < 0 || j < i {
		return "", ErrNoMarkers
	}
	return strings.TrimPrefix(readme[i+len(BeginMarker):j], "\n"), nil
}

// Figures returns the first column of the report's table rows: its
// shape.
func Figures(report string) []string {
	var out []string
	for _, r := range tableRows(report) {
		out = append(out, strings.TrimSpace(r.cells[0]))
	}
	return out
}

// A tableRow is one row of the report's table: the line as written and
// its cells.
type tableRow struct {
	line  string
	cells []string
}

// tableRows returns the rows of the table Markdown writes, after Header
// and its separator, up to the first line that is not a row. Figures and
// ParseTable read the table through it.
func tableRows(report string) []tableRow {
	var rows []tableRow
	in := false
	for line := range strings.Lines(report) {
		line = strings.TrimSpace(line)
		switch {
		case line == Header:
			in = true
		case in && strings.HasPrefix(line, "|---"):
		case in && strings.HasPrefix(line, "| "):
			rows = append(rows, tableRow{line, strings.Split(strings.TrimSuffix(line[2:], " |"), " | ")})
		case in:
			return rows
		}
	}
	return rows
}
