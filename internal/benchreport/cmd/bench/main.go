// Command bench runs the benchmarks behind the README's performance
// figures (benchreport.Rows) with their baselines, several repetitions,
// writes the ratios to docs/bench.md and copies that table into the
// README between its markers. Run it as scripts/bench from the module
// root. It runs the benchmarks with -test.short, in which they skip
// measurements that no row reads:
//
//	scripts/bench            # 15 repetitions
//	scripts/bench -n 3 -run dds   # print only the rows of packages matching "dds"
//	scripts/bench -check old.md new.md ...   # each report's medians against the one before's min-max, no run
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/simclock/simclock/internal/benchreport"
)

func main() {
	n := flag.Int("n", 15, "repetitions")
	only := flag.String("run", "", "only rows whose package matches this regexp, printed and not written (the report keeps every row)")
	out := flag.String("o", "docs/bench.md", "report file")
	readme := flag.String("readme", "README.md", "README to update between its bench markers (empty: none)")
	benchtime := flag.String("benchtime", "", "override every row's -benchtime (1x: a quick check that the rows still run)")
	check := flag.Bool("check", false, "run nothing: check each report file named as an argument against the one before it")
	flag.Parse()
	if *check {
		if err := checkFiles(flag.Args()); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*n, *only, *out, *readme, *benchtime); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// firstRoundEnv is benchround.FirstRoundEnv, which numbers a benchmark
// process's first round (this command does not link package testing,
// which benchround needs).
const firstRoundEnv = "SIMCLOCK_BENCH_FIRST_ROUND"

// group is one test binary run: a package at one benchtime.
type group struct {
	pkg, benchtime string
	tops           []string // top-level benchmarks
	bin            string
}

func run(n int, only, out, readme, benchtime string) error {
	var sel *regexp.Regexp
	if only != "" {
		var err error
		if sel, err = regexp.Compile(only); err != nil {
			return err
		}
	}
	tmp, err := os.MkdirTemp("", "simclock-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cache := filepath.Join(tmp, "cache")
	if err := os.Mkdir(cache, 0o755); err != nil {
		return err
	}
	var groups []*group
	index := map[string]*group{}
	for _, row := range benchreport.Rows {
		if sel != nil && !sel.MatchString(row.Pkg) {
			continue
		}
		bt := row.Benchtime
		if benchtime != "" {
			bt = benchtime
		}
		key := row.Pkg + " " + bt
		g := index[key]
		if g == nil {
			g = &group{pkg: row.Pkg, benchtime: bt, bin: filepath.Join(tmp, fmt.Sprintf("b%d.test", len(groups)))}
			index[key] = g
			groups = append(groups, g)
		}
		for _, b := range []string{row.Bench, row.Base} {
			if top, _, _ := strings.Cut(b, "/"); top != "" && !slices.Contains(g.tops, top) {
				g.tops = append(g.tops, top)
			}
		}
	}
	built := map[string]string{}
	for _, g := range groups {
		if bin, ok := built[g.pkg]; ok {
			g.bin = bin
			continue
		}
		fmt.Fprintf(os.Stderr, "bench: building %s\n", g.pkg)
		if err := sh("", "go", "test", "-c", "-o", g.bin, g.pkg); err != nil {
			return err
		}
		built[g.pkg] = g.bin
	}
	runs := make([]benchreport.Run, 0, n)
	loads := []float64{loadAverage()}
	for i := range n {
		run := benchreport.Run{}
		for _, g := range groups {
			loads = append(loads, loadAverage())
			fmt.Fprintf(os.Stderr, "bench: %s repetition %d/%d: %s %s\n", time.Now().UTC().Format("15:04:05"), i+1, n, g.pkg, strings.Join(g.tops, " "))
			var buf bytes.Buffer
			cmd := exec.Command(g.bin, "-test.run=^$", "-test.bench=^("+strings.Join(g.tops, "|")+")$",
				"-test.benchtime="+g.benchtime, "-test.benchmem", "-test.short")
			cmd.Dir = g.pkg
			// The sides' order alternates between repetitions too: a row
			// measured in one round a repetition runs its figure first in
			// one and last in the next.
			// SIMCLOCK_BENCH_CACHE keeps what every repetition would build
			// or generate alike (the simclock and C peer binaries, the
			// seeded bags) for the next: process start-up, not measurement.
			cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", firstRoundEnv, i), "SIMCLOCK_BENCH_CACHE="+cache)
			cmd.Stdout, cmd.Stderr = &buf, os.Stderr
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("%s: %w\n%s", g.pkg, err, buf.String())
			}
			r, err := benchreport.Parse(&buf)
			if err != nil {
				return err
			}
			for k, v := range r {
				run[k] = v
			}
		}
		runs = append(runs, run)
	}
	loads = append(loads, loadAverage())
	rows := benchreport.Rows
	if sel != nil {
		rows = slices.DeleteFunc(slices.Clone(rows), func(r benchreport.Row) bool { return !sel.MatchString(r.Pkg) })
	}
	stats, env := benchreport.Summarise(rows, runs), environment(n, loads)
	// Each row's ratio in every repetition, in order, so that a row that
	// leaves the previous run's min–max can be read as moved or chance.
	fmt.Fprintln(os.Stderr, "bench: each row's ratio by repetition:")
	for _, st := range stats {
		vals := make([]string, len(st.Ratios))
		for i, r := range st.Ratios {
			vals[i] = strconv.FormatFloat(r, 'g', 3, 64)
		}
		fmt.Fprintf(os.Stderr, "  %s: %s\n", strings.Join(vals, " "), st.Row.Figure)
	}
	report := benchreport.Markdown(stats, env)
	// The check against the previous run reads the file this run is about
	// to replace, and the new table as written, with the same reader.
	if prevText, err := os.ReadFile(out); err != nil {
		fmt.Fprintf(os.Stderr, "bench: no previous report to check against: %v\n", err)
	} else if prev, err := benchreport.ParseTable(string(prevText)); err != nil {
		fmt.Fprintf(os.Stderr, "bench: previous report %s: %v\n", out, err)
	} else if cur, err := benchreport.ParseTable(report); err != nil {
		return err
	} else {
		check := benchreport.Compare(prev, cur)
		fmt.Fprintf(os.Stderr, "bench: medians against the min-max of %s (run of %s):\n", out, prev.Date)
		check.Print(os.Stderr)
		env.Check = check.Summary()
		report = benchreport.Markdown(stats, env)
	}
	fmt.Print(report)
	if sel != nil {
		return nil // a partial report replaces neither the report nor the README
	}
	if err := os.WriteFile(out, []byte(report), 0o644); err != nil {
		return err
	}
	if readme == "" {
		return nil
	}
	old, err := os.ReadFile(readme)
	if err != nil {
		return err
	}
	updated, err := benchreport.Splice(string(old), report)
	if err != nil {
		return fmt.Errorf("%s: %w", readme, err)
	}
	return os.WriteFile(readme, []byte(updated), 0o644)
}

// checkFiles prints, for each report after the first, each row's median
// against the previous report's min-max.
func checkFiles(files []string) error {
	if len(files) < 2 {
		return fmt.Errorf("-check needs two reports or more")
	}
	var prev benchreport.Table
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		t, err := benchreport.ParseTable(string(b))
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		if i > 0 {
			fmt.Printf("%s (run of %s) against %s:\n", f, t.Date, files[i-1])
			benchreport.Compare(prev, t).Print(os.Stdout)
		}
		prev = t
	}
	return nil
}

func sh(dir, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, os.Stderr, os.Stderr
	return cmd.Run()
}

// loadAverage is the 1-minute load average, NaN where unknown.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return math.NaN()
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return math.NaN()
	}
	x, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return math.NaN()
	}
	return x
}

// environment describes the machine; loads are the 1-minute load
// averages read before every benchmark run and at the end.
func environment(n int, loads []float64) benchreport.Env {
	env := benchreport.Env{Date: time.Now().UTC().Format("2006-01-02 15:04 UTC"), Go: runtime.Version(),
		Machine: fmt.Sprintf("%s/%s, %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU()), CPU: "CPU unknown", Load: "unknown", Repetitions: n}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.Lines(string(b)) {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				env.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	loads = slices.DeleteFunc(slices.Clone(loads), math.IsNaN)
	if len(loads) > 0 {
		env.Load = fmt.Sprintf("%.2f to %.2f (1 minute, read %d times during the run)", slices.Min(loads), slices.Max(loads), len(loads))
	}
	return env
}
