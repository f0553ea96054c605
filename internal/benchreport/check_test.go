package benchreport

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"
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
	if prev.Repetitions != 5 || cur.Repetitions != 5 {
		t.Errorf("repetitions %d and %d, want 5 and 5", prev.Repetitions, cur.Repetitions)
	}
	if want := "19 of 31 medians inside the previous run's min–max (run of " + prev.Date + "); a report that has not moved expects 25.8 of 31 (0.833 per row, 5 and 5 repetitions; all 31 with probability 0.351 %)."; c.Summary() != want {
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

// InsideChance against cases counted by hand, against every arrangement
// of old and new ranks for small counts, and against a seeded
// simulation.
func TestInsideChance(t *testing.T) {
	near := func(got, want, tol float64) bool { return math.Abs(got-want) <= tol }
	// By hand. n=2, m=1: of three values the new one is the middle one
	// with probability 1/3. n=3, m=3: of the 20 arrangements of OOO and
	// NNN, the new median (2nd new) is below the old minimum in the 4
	// that start NN and above the maximum in the 4 that end NN: 12/20.
	// n=1: the min–max is one point, which a continuous median misses.
	for _, c := range []struct {
		n, m int
		want float64
	}{{2, 1, 1.0 / 3}, {3, 3, 12.0 / 20}, {1, 5, 0}, {5, 5, 1 - 2*10.0/120}} {
		lo, hi := InsideChance(c.n, c.m)
		if !near(lo, c.want, 1e-12) || lo != hi {
			t.Errorf("InsideChance(%d, %d) = %v, %v, want %v", c.n, c.m, lo, hi, c.want)
		}
	}
	if lo, _ := InsideChance(0, 5); !math.IsNaN(lo) {
		t.Errorf("InsideChance(0, 5) = %v, want NaN", lo)
	}
	// Every arrangement of n old and m new ranks, equally likely.
	for n := 1; n <= 6; n++ {
		for m := 1; m <= 6; m++ {
			var total, sure, possible float64
			for mask := range 1 << (n + m) {
				if bits.OnesCount(uint(mask)) != m {
					continue // bit i set: the i-th smallest value is new
				}
				total++
				var newRanks []int
				minOld, maxOld := -1, -1
				for i := range n + m {
					if mask&(1<<i) != 0 {
						newRanks = append(newRanks, i)
					} else {
						if minOld < 0 {
							minOld = i
						}
						maxOld = i
					}
				}
				a, z := newRanks[(m-1)/2], newRanks[m/2] // the middle one, or two
				if a > minOld && z < maxOld {
					sure++
				}
				if !(z < minOld || a > maxOld) {
					possible++
				}
			}
			lo, hi := InsideChance(n, m)
			if m%2 == 1 && (sure != possible || !near(lo, sure/total, 1e-12) || lo != hi) {
				t.Errorf("InsideChance(%d, %d) = %v, %v; counted %v of %v", n, m, lo, hi, sure, total)
			}
			if m%2 == 0 && (!near(lo, sure/total, 1e-12) || !near(hi, possible/total, 1e-12)) {
				t.Errorf("InsideChance(%d, %d) = %v, %v; counted %v and %v of %v", n, m, lo, hi, sure, possible, total)
			}
		}
	}
	// A seeded simulation: normal values, the median of m new against the
	// min–max of n old; within 4 standard errors.
	rng := rand.New(rand.NewPCG(26, 37))
	const trials = 200_000
	for _, c := range [][2]int{{5, 5}, {5, 15}, {15, 15}, {9, 9}, {15, 5}} {
		n, m := c[0], c[1]
		inside := 0
		old, cur := make([]float64, n), make([]float64, m)
		for range trials {
			for i := range old {
				old[i] = rng.NormFloat64()
			}
			for i := range cur {
				cur[i] = rng.NormFloat64()
			}
			slices.Sort(cur)
			if med := cur[m/2]; slices.Min(old) <= med && med <= slices.Max(old) {
				inside++
			}
		}
		p, _ := InsideChance(n, m)
		got := float64(inside) / trials
		if se := math.Sqrt(p * (1 - p) / trials); !near(got, p, 4*se+1e-9) {
			t.Errorf("n=%d m=%d: simulated %.5f, InsideChance %.5f (se %.5f)", n, m, got, p, se)
		}
		t.Logf("n=%d m=%d: InsideChance %.5f, simulated %.5f", n, m, p, got)
	}
}
