package benchreport

import (
	"fmt"
	"io"
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
	Rows []Span // rows that were measured; "not measured" rows are left out
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
		if _, rest, ok := strings.Cut(line, " repetitions, "); ok {
			if d, _, ok := strings.Cut(rest, ";"); ok {
				t.Date = d
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
	Rows     []RowCheck
	Inside   int
}

// Compare checks cur's medians against prev's min–max, row by row.
func Compare(prev, cur Table) Check {
	c := Check{PrevDate: prev.Date}
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
	return fmt.Sprintf("%d of %d medians inside the previous run's min–max (run of %s).", c.Inside, len(c.Rows), date)
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
