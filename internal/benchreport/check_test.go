package benchreport

import (
	"os"
	"strings"
	"testing"
)

// Two reports scripts/bench wrote (git show e4beef9:docs/bench.md and
// f1620b5:docs/bench.md): f1620b5's commit message counted 19 of 31
// medians inside e4beef9's min–max by hand.
func TestCheckRealReports(t *testing.T) {
	read := func(name string) Table {
		t.Helper()
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := ParseTable(string(b))
		if err != nil {
			t.Fatal(err)
		}
		return tab
	}
	prev, cur := read("bench-e4beef9.md"), read("bench-f1620b5.md")
	if len(prev.Rows) != 31 || len(cur.Rows) != 31 {
		t.Fatalf("rows %d and %d, want 31", len(prev.Rows), len(cur.Rows))
	}
	if prev.Date != "2026-12-04 17:15 UTC" {
		t.Errorf("date %q", prev.Date)
	}
	an := cur.Rows[13]
	if !strings.HasPrefix(an.Figure, "/clock analysis") || an.Min != 2.42 || an.Median != 2.42 || an.Max != 2.44 {
		t.Errorf("row 14 = %+v", an)
	}
	c := Compare(prev, cur)
	if c.Inside != 19 || len(c.Rows) != 31 {
		t.Errorf("%d of %d inside, want 19 of 31", c.Inside, len(c.Rows))
	}
	if want := "19 of 31 medians inside the previous run's min–max (run of " + prev.Date + ")."; c.Summary() != want {
		t.Errorf("Summary = %q, want %q", c.Summary(), want)
	}
	// The /clock analysis row went from its slow mode (3.42) back to its
	// fast one (2.42): outside; doctor CPU per sample is inside only
	// because the previous run's span was wide.
	for _, r := range c.Rows {
		if strings.HasPrefix(r.Figure, "/clock analysis") && r.Inside {
			t.Errorf("analysis row %+v counted inside", r)
		}
	}
}

// The check reads what Markdown writes: a rendered report parses back to
// its rows as printed, a not-measured row is left out, and the check's
// line does not end the table for Figures.
func TestParseTableReadsMarkdown(t *testing.T) {
	st := []Stats{
		{Row: Row{Figure: "a"}, Ratios: []float64{1, 2.345, 3}, Value: 1, BaseValue: 1, Unit: "x", BaseUnit: "y"},
		{Row: Row{Figure: "b", Target: "≤ 1"}, Ratios: []float64{1234.5}, Value: 1, BaseValue: 1},
		{Row: Row{Figure: "c"}},
	}
	md := Markdown(st, Env{Repetitions: 3, Date: "2026-12-04 21:00 UTC", Check: "2 of 2 medians inside the previous run's min–max (run of x)."})
	tab, err := ParseTable(md)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Date != "2026-12-04 21:00 UTC" || len(tab.Rows) != 2 {
		t.Fatalf("table %+v", tab)
	}
	if a := tab.Rows[0]; a.Min != 1 || a.Median != 2.35 || a.Max != 3 {
		t.Errorf("a = %+v (printed 3 digits)", a)
	}
	if b := tab.Rows[1]; b.Median != 1234 && b.Median != 1235 {
		t.Errorf("b = %+v", b)
	}
	if got := Figures(md); len(got) != 3 {
		t.Errorf("Figures = %q", got)
	}
	if !strings.Contains(md, "\n2 of 2 medians inside") {
		t.Errorf("no check line:\n%s", md)
	}
	c := Compare(tab, Table{Rows: []Span{{Figure: "a", Median: 3.01}, {Figure: "b", Median: 1234}, {Figure: "new", Median: 1}}})
	if c.Inside != 1 || len(c.Rows) != 2 || c.Rows[0].Inside {
		t.Errorf("check %+v", c)
	}
	if _, err := ParseTable("no table"); err == nil {
		t.Error("a file without the table parsed")
	}
}
