package benchround_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/simclock/simclock/internal/benchround"
)

// Every side runs in every round, in alternating order, and every metric
// the README rows read is reported. No timing is asserted.
func TestRun(t *testing.T) {
	for _, goroutines := range []int{1, 3} {
		var fig, bare, other atomic.Int64
		var trace []string
		side := func(name string, count *atomic.Int64) benchround.Side {
			return benchround.Side{Name: name, Run: func(n int) {
				count.Add(int64(n))
				if goroutines == 1 && (len(trace) == 0 || trace[len(trace)-1] != name) {
					trace = append(trace, name) // a new segment
				}
			}}
		}
		res := testing.Benchmark(func(b *testing.B) {
			trace = trace[:0]
			benchround.Run(b, benchround.Config{Goroutines: goroutines},
				side("", &fig), side("bare", &bare), side("other", &other))
		})
		if fig.Load() == 0 || bare.Load() == 0 || other.Load() == 0 {
			t.Fatalf("goroutines=%d: a side never ran: %d %d %d", goroutines, fig.Load(), bare.Load(), other.Load())
		}
		for _, m := range []string{"fig_ns/op", "bare_ns/op", "other_ns/op", "ratio_bare", "ratio_bare_min", "ratio_bare_max", "ratio_other", "rounds"} {
			if _, ok := res.Extra[m]; !ok {
				t.Errorf("goroutines=%d: metric %s missing: %v", goroutines, m, res.Extra)
			}
		}
		if got := res.Extra["rounds"]; got != float64(res.N) {
			t.Errorf("goroutines=%d: %v rounds in %d iterations", goroutines, got, res.N)
		}
		// Calibration runs each side in order, then round 0 in order,
		// round 1 reversed (its "other" merges with round 0's last
		// segment in the trace), round 2 in order (its figure merges).
		if goroutines == 1 && res.N >= 3 {
			want := []string{"", "bare", "other", "", "bare", "other", "bare", "", "bare"}
			if got := trace[:min(len(trace), 9)]; !equal(got, want) {
				t.Errorf("first two rounds ran %v, want %v", got, want)
			}
		}
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// With Once, each side runs exactly one operation a round, and (without
// WarmRound) nothing before the first round.
func TestRunOnce(t *testing.T) {
	var fig, base int
	var n int
	testing.Benchmark(func(b *testing.B) {
		fig, base = 0, 0
		benchround.Run(b, benchround.Config{Once: true},
			benchround.Side{Run: func(int) { fig++ }},
			benchround.Side{Name: "base", Run: func(int) { base++ }})
		n = b.N
	})
	if fig != n || base != n {
		t.Errorf("%d rounds ran the figure %d times and the baseline %d times", n, fig, base)
	}
}

// A side with its own Cost is measured by it, not timed: the figure
// costs 3 and the baseline 1 whatever the time they take, so every
// per-round ratio is 3. The sides alternate as with Run.
func TestRunCost(t *testing.T) {
	var order []string
	var res benchround.Result
	testing.Benchmark(func(b *testing.B) {
		order = order[:0]
		res = benchround.Run(b, benchround.Config{Once: true},
			benchround.Side{Cost: func() float64 { order = append(order, "fig"); return 3 }},
			benchround.Side{Name: "base", Cost: func() float64 { order = append(order, "base"); return 1 }})
	})
	if len(order) < 2 || order[0] != "fig" || order[1] != "base" {
		t.Fatalf("order %v", order)
	}
	if len(order) >= 4 && (order[2] != "base" || order[3] != "fig") {
		t.Errorf("the second round ran %v, want the baseline first", order[2:4])
	}
	if res.PerOp["fig"] != 3 || res.PerOp["base"] != 1 || res.Ratio["base"] != 3 {
		t.Errorf("fig %v, base %v, ratio %v; want 3, 1, 3", res.PerOp["fig"], res.PerOp["base"], res.Ratio["base"])
	}
}

// FirstRoundEnv numbers the process's first round: scripts/bench sets it
// to the repetition's index, and an odd one runs the baseline first, so
// that a row of one round a repetition alternates between repetitions.
func TestRunFirstRound(t *testing.T) {
	for _, c := range []struct{ env, first string }{{"", "fig"}, {"0", "fig"}, {"1", "base"}, {"14", "fig"}, {"x", "fig"}} {
		t.Setenv(benchround.FirstRoundEnv, c.env)
		var order []string
		testing.Benchmark(func(b *testing.B) {
			order = order[:0]
			benchround.Run(b, benchround.Config{Once: true},
				benchround.Side{Cost: func() float64 { order = append(order, "fig"); return 3 }},
				benchround.Side{Name: "base", Cost: func() float64 { order = append(order, "base"); return 1 }})
		})
		if len(order) < 2 || order[0] != c.first {
			t.Errorf("%s=%q: order %v, want %s first", benchround.FirstRoundEnv, c.env, order, c.first)
		}
		if len(order) >= 4 && order[2] == order[0] {
			t.Errorf("%s=%q: rounds 1 and 2 ran %v in the same order", benchround.FirstRoundEnv, c.env, order[:4])
		}
	}
}

// WarmRound runs one unmeasured round first, in the first round's order,
// so that the first measured operation of each side follows the other
// side's: the figure's first operation costs 100 (a cold start) and is
// the warm round's, so no measured ratio sees it.
func TestRunWarmRound(t *testing.T) {
	for _, c := range []struct{ env, first string }{{"0", "fig"}, {"1", "base"}} {
		t.Setenv(benchround.FirstRoundEnv, c.env)
		var order []string
		var res benchround.Result
		testing.Benchmark(func(b *testing.B) {
			order = order[:0]
			res = benchround.Run(b, benchround.Config{Once: true, WarmRound: true},
				benchround.Side{Cost: func() float64 {
					order = append(order, "fig")
					if len(order) <= 2 {
						return 100
					}
					return 3
				}},
				benchround.Side{Name: "base", Cost: func() float64 { order = append(order, "base"); return 1 }})
		})
		if len(order) < 4 || order[0] != c.first || order[2] != c.first || order[1] == order[0] {
			t.Errorf("%s=%q: order %v, want the warm round and the first round both %s first", benchround.FirstRoundEnv, c.env, order, c.first)
		}
		if res.Ratio["base"] != 3 {
			t.Errorf("%s=%q: ratio %v, want 3 (the warm round's 100 left out)", benchround.FirstRoundEnv, c.env, res.Ratio["base"])
		}
	}
}

// With ThreadCPU a side is measured in the CPU time of its thread, which
// excludes time off a core: a side that sleeps 1 ms an operation takes at
// least 1 ms of wall time an operation (time.Sleep's promise) but costs
// its thread only the microseconds of going to sleep and waking, far
// below the generous bound of half the sleep. A baseline that spins
// costs some CPU. Refused where one thread cannot see the work.
func TestRunThreadCPU(t *testing.T) {
	const nap = time.Millisecond
	sleep := benchround.Side{Run: func(n int) {
		for range n {
			time.Sleep(nap)
		}
	}}
	spin := benchround.Side{Name: "spin", Run: func(n int) {
		for range n {
			for start := time.Now(); time.Since(start) < 100*time.Microsecond; {
			}
		}
	}}
	measure := func(cfg benchround.Config) (res benchround.Result) {
		testing.Benchmark(func(b *testing.B) {
			res = benchround.Run(b, cfg, sleep, spin)
		})
		return res
	}
	wall := measure(benchround.Config{Segment: 4 * time.Millisecond})
	if got := wall.PerOp["fig"]; got < float64(nap) {
		t.Errorf("wall time: a 1 ms sleep measured %v ns", got)
	}
	cpu := measure(benchround.Config{Segment: 4 * time.Millisecond, ThreadCPU: true})
	if got := cpu.PerOp["fig"]; got <= 0 || got >= float64(nap/2) {
		t.Errorf("thread CPU: a 1 ms sleep measured %v ns, want (0, %d)", got, nap/2)
	}
	t.Logf("a 1 ms sleep: %.0f ns/op of wall time, %.0f ns/op of thread CPU", wall.PerOp["fig"], cpu.PerOp["fig"])
	if got := cpu.PerOp["spin"]; got <= 0 {
		t.Errorf("thread CPU: a spinning side measured %v ns", got)
	}
	for _, cfg := range []benchround.Config{{ThreadCPU: true, Goroutines: 2}, {ThreadCPU: true, CPU: true}} {
		ran := false
		res := testing.Benchmark(func(b *testing.B) {
			benchround.Run(b, cfg, benchround.Side{Run: func(int) { ran = true }},
				benchround.Side{Name: "base", Run: func(int) {}})
		})
		if ran || res.N != 0 {
			t.Errorf("%+v: ran %v, %d rounds; want it refused", cfg, ran, res.N)
		}
	}
}
