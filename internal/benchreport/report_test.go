package benchreport

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

const sample = `goos: linux
BenchmarkIngest/baseline=atomic_store-2         	1000000	         2.000 ns/op	 500000000 updates/s	       0 B/op	       0 allocs/op
BenchmarkIngest/clocks=1/timers=1000-2          	 100000	        50.00 ns/op	  20000000 updates/s	       0 B/op	       0 allocs/op
    bench_test.go:12: a log line
BenchmarkClockRoundTrip/500Hz                   	   3000	   2000000 ns/op	        40.00 oneway_median_us	 30.00 ddsperf_waitset_oneway_median_us	 1.333 ratio_waitset
PASS
`

func TestParse(t *testing.T) {
	run, err := Parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if got := run["BenchmarkIngest/clocks=1/timers=1000"]["ns/op"]; got != 50 {
		t.Errorf("ns/op = %v, want 50", got)
	}
	if got := run["BenchmarkClockRoundTrip/500Hz"]["ratio_waitset"]; got != 1.333 {
		t.Errorf("ratio_waitset = %v", got)
	}
	if len(run) != 3 {
		t.Errorf("parsed %d benchmarks, want 3: %v", len(run), run)
	}
}

func TestRatio(t *testing.T) {
	run, _ := Parse(strings.NewReader(sample))
	rows := []Row{
		{Figure: "a", Bench: "BenchmarkIngest/clocks=1/timers=1000", Metric: "ns/op", Base: "BenchmarkIngest/baseline=atomic_store", BaseMetric: "ns/op"},
		{Figure: "b", Bench: "BenchmarkClockRoundTrip/500Hz", Metric: "ratio_waitset", Show: "oneway_median_us", ShowBase: "ddsperf_waitset_oneway_median_us"},
		{Figure: "c", Bench: "BenchmarkGone", Metric: "ns/op"},
	}
	st := Summarise(rows, []Run{run, run})
	if st[0].Ratios[0] != 25 || st[1].Ratios[1] != 1.333 {
		t.Errorf("ratios %v %v", st[0].Ratios, st[1].Ratios)
	}
	if !errors.Is(st[2].Err, ErrMissing) {
		t.Errorf("missing benchmark: err %v", st[2].Err)
	}
	md := Markdown(st, Env{Repetitions: 2})
	for _, want := range []string{"| a | 25 | 25 | 25 |", "40 oneway_median_us / 30 ddsperf_waitset_oneway_median_us", "| c | – | – | – |  | not measured"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	if got := Figures(md); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("Figures = %q", got)
	}
}

func TestSplice(t *testing.T) {
	readme := "# x\n" + BeginMarker + "\nold\n" + EndMarker + "\ntail\n"
	got, err := Splice(readme, "new\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "# x\n" + BeginMarker + "\nnew\n" + EndMarker + "\ntail\n"; got != want {
		t.Errorf("Splice = %q, want %q", got, want)
	}
	if e, _ := Embedded(got); e != "new\n" {
		t.Errorf("Embedded = %q", e)
	}
	if _, err := Splice("no markers", "x"); !errors.Is(err, ErrNoMarkers) {
		t.Errorf("err = %v", err)
	}
}

func TestRowsAreUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rows {
		if seen[r.Figure] || r.Figure == "" || r.Pkg == "" || r.Bench == "" || r.Metric == "" || r.Benchtime == "" {
			t.Errorf("row %+v: empty field or duplicate figure", r)
		}
		if (r.Base == "") != (r.BaseMetric == "") {
			t.Errorf("row %q: Base and BaseMetric go together", r.Figure)
		}
		seen[r.Figure] = true
	}
}

// The README includes the last report verbatim, and both have one row per
// entry of Rows (shape, not numbers: the numbers change with each run).
func TestReadmeMatchesReport(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	report, err := os.ReadFile("../../docs/bench.md")
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := Embedded(string(readme))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, r := range Rows {
		want = append(want, r.Figure)
	}
	if got := Figures(string(report)); !slices.Equal(got, want) {
		t.Errorf("docs/bench.md rows:\n%q\nwant Rows:\n%q\n(run scripts/bench)", got, want)
	}
	if got := Figures(embedded); !slices.Equal(got, want) {
		t.Errorf("README rows:\n%q\nwant:\n%q\n(run scripts/bench)", got, want)
	}
}
