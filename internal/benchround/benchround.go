// Package benchround runs a benchmark's figure and its baselines
// alternately, in short segments of equal length, and reports the median
// of the per-round ratios: a load spike on a shared machine lands on one
// segment of one round, not on one side of the comparison, and the
// median over many rounds leaves it out. Every figure of scripts/bench
// that runs in one process is measured this way (the DDS benchmarks do
// the same with 2 s segments between processes).
//
// A benchmark calls Run once; each b.Loop iteration is one round, so
// -benchtime 200x means 200 rounds:
//
//	benchround.Run(b, benchround.Config{},
//		benchround.Side{Name: "fig", Run: func(n int) { for range n { figure() } }},
//		benchround.Side{Name: "bare", Run: func(n int) { for range n { baseline() } }})
//
// It reports, for the figure, fig_ns/op (the median over the rounds of
// its time per operation: wall time, or with Config.CPU the process's
// CPU time, or with Config.ThreadCPU the CPU time of the thread that ran
// the segment) and, for each baseline NAME, NAME_ns/op,
// ratio_NAME (the median over the rounds of the figure's time per
// operation divided by the baseline's in the same round) and
// ratio_NAME_min and ratio_NAME_max. ns/op is reported as 0: an
// iteration is a round, not an operation.
package benchround

import (
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

// A Side is the figure or one baseline: Run performs n operations.
type Side struct {
	// Name names the side's metrics; the first side's is always "fig".
	Name string
	Run  func(n int)
	// Ops, when set, counts the operations done so far: for a side whose
	// Run(n) can do more than n (an executor round calls every timer that
	// is due). Only with one goroutine a side.
	Ops func() int64
	// Cost, set instead of Run, performs one operation and returns what
	// it cost in ns by the side's own measure: for work whose cost is not
	// this process's time (another process's CPU time per sample it
	// received). Only with Config.Once.
	Cost func() float64
}

// Config shapes the rounds.
type Config struct {
	// Segment is how long each side runs in one round (default 2 ms).
	Segment time.Duration
	// CPU measures each segment's cost in CPU time of the whole process
	// (CLOCK_PROCESS_CPUTIME_ID) instead of wall time: what the work
	// costs, not how long the shared machine made it wait for a core.
	// Segments still last Segment of wall time. For operations of
	// seconds on every core (lint): the kernel brings other threads' CPU
	// time up to date only at its ticks, which a 2 ms segment would see.
	CPU bool
	// ThreadCPU measures each segment's cost in CPU time of the OS thread
	// that runs it (CLOCK_THREAD_CPUTIME_ID; the side's goroutine is
	// locked to that thread for the segment): the work alone, not the
	// time the shared machine kept the thread off a core, which wall time
	// counts and which, with more runnable threads than cores, is much of
	// some 2 ms segments and none of others, so that per-round ratios move
	// with the load. Segments still last Segment of wall time. Only for
	// sides that do all their work on the goroutine that calls Run: what
	// a side hands to other goroutines or processes is not counted, so Run
	// refuses it with more than one goroutine and with CPU.
	ThreadCPU bool
	// Once runs one operation of each side per round, whatever its
	// length: for operations longer than a segment (a lint of 3 000
	// files, an inspect of 100 MB). The caller warms them up.
	Once bool
	// WarmRound runs one unmeasured round before the first, in the first
	// round's order, so that every measured operation follows the other
	// side's, as in every later round: with one round a repetition
	// (scripts/bench), the first measured pass otherwise follows the
	// caller's warm-up, and a whole-file inspect split by which side ran
	// first (1.5-5.15 against 0.72-1.36 in December 2026).
	WarmRound bool
	// Goroutines is how many goroutines run a side at once (default 1);
	// its time per operation is then the segment's length over the
	// operations of all of them.
	Goroutines int
}

// DefaultSegment is a segment's length unless Config says otherwise:
// shorter than a scheduler time slice of a loaded machine, long enough
// for thousands of nanosecond operations.
const DefaultSegment = 2 * time.Millisecond

// FirstRoundEnv names the environment variable that numbers a process's
// first round (default 0). scripts/bench sets it to the repetition's
// index, so that a row measured in one round a repetition (a DDS row, a
// lint pass) still runs its figure first in one repetition and last in
// the next.
const FirstRoundEnv = "SIMCLOCK_BENCH_FIRST_ROUND"

// FirstRound is the number of the process's first round: FirstRoundEnv,
// or 0.
func FirstRound() int {
	n, err := strconv.Atoi(os.Getenv(FirstRoundEnv))
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// Run measures figure against each baseline in b.N rounds. In each
// round every side runs for one segment, the figure first in even rounds
// and last in odd ones (rounds numbered from FirstRound). Operations run in batches sized before the first
// round so that a batch lasts about a tenth of a segment; a side whose
// one operation outlasts the segment runs one operation per round.
//
// It returns the medians it reports, for a benchmark that reports them in
// other units too.
func Run(b *testing.B, cfg Config, figure Side, baselines ...Side) Result {
	b.Helper()
	if cfg.Segment <= 0 {
		cfg.Segment = DefaultSegment
	}
	cfg.Goroutines = max(cfg.Goroutines, 1)
	figure.Name = "fig"
	sides := append([]Side{figure}, baselines...)
	if cfg.ThreadCPU && (cfg.CPU || cfg.Goroutines > 1) {
		b.Fatalf("benchround: ThreadCPU measures one goroutine's thread, not %d goroutines or the process (CPU %v)", cfg.Goroutines, cfg.CPU)
	}
	for _, s := range sides[1:] {
		if s.Name == "" || s.Name == "fig" {
			b.Fatalf("benchround: baseline named %q", s.Name)
		}
	}
	for _, s := range sides {
		if (s.Run == nil) == (s.Cost == nil) {
			b.Fatalf("benchround: %s needs one of Run and Cost", s.Name)
		}
		if s.Cost != nil && !cfg.Once {
			b.Fatalf("benchround: %s has its own Cost, which needs Config.Once", s.Name)
		}
		if s.Ops != nil && cfg.Goroutines > 1 {
			b.Fatalf("benchround: %s counts its operations on %d goroutines", s.Name, cfg.Goroutines)
		}
	}
	batch := make([]int, len(sides))
	for i, s := range sides {
		batch[i] = 1
		if !cfg.Once {
			batch[i] = calibrate(s, cfg.Segment/10)
		}
	}
	perOp := make([][]float64, len(sides)) // ns/op, one per round
	order := make([]int, len(sides))
	round, first := 0, FirstRound()
	orderOf := func(round int) []int {
		for i := range order {
			order[i] = i
		}
		if (first+round)%2 == 1 {
			slices.Reverse(order)
		}
		return order
	}
	if cfg.WarmRound {
		for _, i := range orderOf(0) {
			if cfg.Once {
				once(sides[i], cfg)
			} else {
				segment(sides[i], batch[i], cfg)
			}
		}
	}
	for b.Loop() {
		orderOf(round)
		for _, i := range order {
			if cfg.Once {
				perOp[i] = append(perOp[i], once(sides[i], cfg))
				continue
			}
			perOp[i] = append(perOp[i], segment(sides[i], batch[i], cfg))
		}
		round++
	}
	res := Result{PerOp: map[string]float64{}, Ratio: map[string]float64{}}
	if round == 0 {
		return res
	}
	res.PerOp["fig"] = median(perOp[0])
	b.ReportMetric(res.PerOp["fig"], "fig_ns/op")
	for i, s := range sides[1:] {
		base := perOp[i+1]
		ratios := make([]float64, len(base))
		for r := range base {
			ratios[r] = perOp[0][r] / base[r]
		}
		res.PerOp[s.Name], res.Ratio[s.Name] = median(base), median(ratios)
		b.ReportMetric(res.PerOp[s.Name], s.Name+"_ns/op")
		b.ReportMetric(res.Ratio[s.Name], "ratio_"+s.Name)
		b.ReportMetric(slices.Min(ratios), "ratio_"+s.Name+"_min")
		b.ReportMetric(slices.Max(ratios), "ratio_"+s.Name+"_max")
	}
	b.ReportMetric(float64(round), "rounds")
	b.ReportMetric(0, "ns/op")
	return res
}

// Result holds the medians Run reported, by side name ("fig" for the
// figure): time per operation in ns, and the ratio of the figure's to
// each baseline's.
type Result struct {
	PerOp, Ratio map[string]float64
}

// once runs one operation of s and returns its time in ns, by cfg's
// measure, or its own Cost.
func once(s Side, cfg Config) float64 {
	if s.Cost != nil {
		return s.Cost()
	}
	if cfg.ThreadCPU {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	took := startMeter(cfg)
	s.Run(1)
	return took()
}

// startMeter starts measuring and returns the ns taken since: wall time,
// or the CPU time of the whole process (Config.CPU), or of the calling
// thread (Config.ThreadCPU; the caller has locked its goroutine to it).
func startMeter(cfg Config) (took func() float64) {
	var clock func() time.Duration
	switch {
	case cfg.CPU:
		clock = cpuTime
	case cfg.ThreadCPU:
		clock = threadCPUTime
	default:
		start := time.Now() // monotonic
		return func() float64 { return float64(time.Since(start).Nanoseconds()) }
	}
	t0 := clock()
	return func() float64 { return float64((clock() - t0).Nanoseconds()) }
}

// calibrate returns the number of operations of s that lasts about d,
// the largest of three tries: a try that met the side's first, cold
// operation or lost the core to another process gives a batch as small
// as 1, and a side that checks the clock after every operation then
// measures mostly the check, for the whole run (/clock analysis cost
// 100 ns a message in such processes, 20-35 in the others).
func calibrate(s Side, d time.Duration) int {
	best := 0
	for range 3 {
		best = max(best, calibrateOnce(s, d))
	}
	return best
}

func calibrateOnce(s Side, d time.Duration) int {
	n := 1
	for {
		start := time.Now()
		ops := s.count()
		s.Run(n)
		took := time.Since(start)
		if s.Ops != nil {
			took = took * time.Duration(n) / time.Duration(max(s.Ops()-ops, 1))
		}
		if took >= d/4 || n >= 1<<30 {
			if took <= 0 {
				return n
			}
			return max(1, int(int64(n)*int64(d)/int64(took)))
		}
		n *= 4
	}
}

// segment runs s in batches until the segment's time is up and returns
// its time per operation in ns.
func segment(s Side, batch int, cfg Config) float64 {
	if cfg.ThreadCPU {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	took := startMeter(cfg)
	end := time.Now().Add(cfg.Segment)
	if cfg.Goroutines == 1 {
		ops, first := 0, s.count()
		for {
			s.Run(batch)
			ops += batch
			if !time.Now().Before(end) {
				if s.Ops != nil {
					return took() / float64(max(s.Ops()-first, 1))
				}
				return took() / float64(ops)
			}
		}
	}
	var wg sync.WaitGroup
	counts := make([]int, cfg.Goroutines)
	for g := range counts {
		wg.Go(func() {
			for {
				s.Run(batch)
				counts[g] += batch
				if !time.Now().Before(end) {
					return
				}
			}
		})
	}
	wg.Wait()
	ops := 0
	for _, c := range counts {
		ops += c
	}
	return took() / float64(ops)
}

func (s Side) count() int64 {
	if s.Ops == nil {
		return 0
	}
	return s.Ops()
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return (s[(len(s)-1)/2] + s[len(s)/2]) / 2
}
