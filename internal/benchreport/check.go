package benchreport

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// A Span is one row of a written report: the min, median and max of its
// ratio as the table prints them (three significant digits).
type Span struct {
	Figure           string
	Min, Median, Max float64
}

// A Table is a report's rows as read back from its markdown, in order,
// and the date of its run.
type Table struct {
	Date string // "2026-12-04 19:41 UTC"; empty when the report has none
	// Repetitions is the count the report's environment line gives ("15
	// repetitions, ..."); 0 when it has none.
	Repetitions int
	Rows        []Span // rows that were measured; "not measured" rows are left out
}

// ParseTable reads the table that Markdown writes. It is the writer's
// one reader: the check against the previous run compares the numbers
// as they are printed, so that it counts what a reader of the two files
// would count.
func ParseTable(report string) (Table, error) {
	var t Table
	for _, r := range tableRows(report) {
		if len(r.cells) < 4 {
			return Table{}, fmt.Errorf("benchreport: row %q: %d cells", r.line, len(r.cells))
		}
		if r.cells[2] == "–" {
			continue // not measured
		}
		s := Span{Figure: strings.TrimSpace(r.cells[0])}
		for i, p := range []*float64{&s.Min, &s.Median, &s.Max} {
			v, err := strconv.ParseFloat(r.cells[1+i], 64)
			if err != nil {
				return Table{}, fmt.Errorf("benchreport: row %q: %w", s.Figure, err)
			}
			*p = v
		}
		t.Rows = append(t.Rows, s)
	}
	// The environment line, after the table: "5 repetitions, 2026-12-04
	// 19:41 UTC; linux/amd64, ...".
	for line := range strings.Lines(report) {
		if strings.HasPrefix(strings.TrimSpace(line), "|") {
			continue
		}
		if count, rest, ok := strings.Cut(line, " repetitions, "); ok {
			if d, _, ok := strings.Cut(rest, ";"); ok {
				t.Date = d
				t.Repetitions, _ = strconv.Atoi(strings.TrimSpace(count))
				break
			}
		}
	}
	if len(t.Rows) == 0 {
		return Table{}, fmt.Errorf("benchreport: no table rows after %q", Header)
	}
	return t, nil
}

// A RowCheck is one row of the new report against the previous run.
type RowCheck struct {
	Span
	Prev   Span
	Inside bool // Prev.Min ≤ Median ≤ Prev.Max
}

// A Check compares each row's median in a new report with the previous
// report's min–max for the same figure. Rows in only one report are not
// counted.
type Check struct {
	PrevDate string
	// PrevReps and Reps are the two reports' repetition counts (0:
	// unknown), from which Summary gives the count a row that has not
	// moved expects (InsideChance).
	PrevReps, Reps int
	Rows           []RowCheck
	Inside         int
}

// Compare checks cur's medians against prev's min–max, row by row.
func Compare(prev, cur Table) Check {
	c := Check{PrevDate: prev.Date, PrevReps: prev.Repetitions, Reps: cur.Repetitions}
	old := map[string]Span{}
	for _, s := range prev.Rows {
		old[s.Figure] = s
	}
	for _, s := range cur.Rows {
		p, ok := old[s.Figure]
		if !ok {
			continue
		}
		rc := RowCheck{Span: s, Prev: p, Inside: p.Min <= s.Median && s.Median <= p.Max}
		if rc.Inside {
			c.Inside++
		}
		c.Rows = append(c.Rows, rc)
	}
	return c
}

// Summary is the report's line about the check.
func (c Check) Summary() string {
	date := c.PrevDate
	if date == "" {
		date = "unknown date"
	}
	line := fmt.Sprintf("%d of %d medians inside the previous run's min–max (run of %s)", c.Inside, len(c.Rows), date)
	lo, hi := InsideChance(c.PrevReps, c.Reps)
	if math.IsNaN(lo) {
		return line + "."
	}
	rows := float64(len(c.Rows))
	expect, per, all := fmt.Sprintf("%.1f", lo*rows), num(lo), pct(math.Pow(lo, rows))
	if hi != lo { // an even count: the median of the two middle values
		expect += "–" + fmt.Sprintf("%.1f", hi*rows)
		per += "–" + num(hi)
		all += "–" + pct(math.Pow(hi, rows))
	}
	return fmt.Sprintf("%s; a report that has not moved expects %s of %d (%s per row, %d and %d repetitions; all %d with probability %s).",
		line, expect, len(c.Rows), per, c.PrevReps, c.Reps, len(c.Rows), all)
}

func pct(p float64) string {
	if p < 1e-4 {
		return "< 0.01 %"
	}
	return num(100*p) + " %"
}

// InsideChance is the probability that a row that has not moved, every
// repetition of both runs drawn independently from one continuous
// distribution, has the median of m new repetitions inside the min–max of
// n old ones. It depends only on the ranks: the n+m values' order is a
// uniformly random arrangement of n old and m new. For odd m the median
// is the new values' k-th smallest, k = (m+1)/2; it lies below the old
// minimum exactly when the k smallest of all n+m are new, which has
// probability C(m,k)/C(n+m,k), and above the old maximum exactly when the
// k largest are new, the same by symmetry, so
//
//	p = 1 − 2·C(m,k)/C(n+m,k)
//
// (0.833 for n = m = 5, 0.998 for n = m = 15). lo and hi are then equal.
// For even m the median is the mean of the k-th and (k+1)-th smallest new
// values, k = m/2, and whether a mean that straddles an end of the range
// falls inside depends on the distribution, not on ranks alone: lo is the
// probability that both middle values lie inside, hi that they are neither
// both below the minimum nor both above the maximum (1 −
// 2·C(m,k+1)/C(n+m,k+1)), and the chance is between them. Both are NaN for n or m below 1. Printed
// numbers can tie, which only raises the chance.
func InsideChance(n, m int) (lo, hi float64) {
	if n < 1 || m < 1 {
		return math.NaN(), math.NaN()
	}
	// allNew is C(m,j)/C(n+m,j): the j smallest (or largest) of all n+m
	// values are all new.
	allNew := func(j int) float64 {
		p := 1.0
		for i := range j {
			p *= float64(m-i) / float64(n+m-i)
		}
		return p
	}
	if m%2 == 1 {
		p := 1 - 2*allNew((m+1)/2)
		return p, p
	}
	k := m / 2
	// Both middle values inside: neither the k smallest nor the k largest
	// of all are all new; both at once is the one arrangement with every
	// old value between the new ones' halves, 1/C(n+m,n).
	lo = 1 - 2*allNew(k) + 1/binomial(n+m, n)
	hi = 1 - 2*allNew(k+1)
	return lo, hi
}

// binomial is C(n,k) as a float64.
func binomial(n, k int) float64 {
	c := 1.0
	for i := range k {
		c = c * float64(n-i) / float64(i+1)
	}
	return c
}

// Print writes one line per row: inside or outside, the new median and
// the previous min–max.
func (c Check) Print(w io.Writer) {
	for _, r := range c.Rows {
		verdict := "inside "
		if !r.Inside {
			verdict = "OUTSIDE"
		}
		fmt.Fprintf(w, "%s %s in [%s, %s]: %s\n", verdict, num(r.Median), num(r.Prev.Min), num(r.Prev.Max), r.Figure)
	}
	fmt.Fprintln(w, c.Summary())
}
