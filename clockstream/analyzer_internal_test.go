package clockstream

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// recentValues stays the sorted copy of the last `recent` values pushed,
// whatever their order and repeats.
func TestRecentValuesIsSortedWindow(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, spread := range []int64{1, 3, 1000} { // many repeats, some, few
		var r recentValues
		var all []time.Duration
		for n := range 1000 {
			d := time.Duration(rng.Int64N(spread))
			r.push(d)
			all = append(all, d)
			want := slices.Clone(all[max(0, len(all)-recent):])
			slices.Sort(want)
			if !slices.Equal(r.sorted, want) {
				t.Fatalf("spread %d, after %d pushes: sorted %v, want %v", spread, n+1, r.sorted, want)
			}
		}
	}
}

// periodsIn and mulSat skip their divisions on the common inputs; they
// give what the arithmetic by division gives on every input.
func TestPeriodsInAndMulSatByDivision(t *testing.T) {
	periodsByDivision := func(elapsed, period int64) int64 {
		n := elapsed / period
		if elapsed%period >= period-period/2 {
			n++
		}
		return max(1, n)
	}
	mulByDivision := func(a, b int64) int64 {
		if a != 0 && b > math.MaxInt64/a {
			return math.MaxInt64
		}
		return a * b
	}
	rng := rand.New(rand.NewPCG(3, 4))
	edges := []int64{0, 1, 2, 3, 999_999, 1_000_000, 1_000_001, 1_499_999, 1_500_000, 1_500_001, 1_999_999, 2_000_000,
		2_500_000, 3_000_000, math.MaxInt32, math.MaxInt64 / 2, math.MaxInt64/2 + 1, math.MaxInt64 - 1, math.MaxInt64}
	values := func() int64 {
		if rng.IntN(2) == 0 {
			return edges[rng.IntN(len(edges))]
		}
		return rng.Int64N(1 << uint(rng.IntN(62)+1))
	}
	for range 200_000 {
		a, b := values(), values()
		if got, want := mulSat(a, b), mulByDivision(a, b); got != want {
			t.Fatalf("mulSat(%d, %d) = %d, by division %d", a, b, got, want)
		}
		if b == 0 {
			continue
		}
		if got, want := periodsIn(a, b), periodsByDivision(a, b); got != want {
			t.Fatalf("periodsIn(%d, %d) = %d, by division %d", a, b, got, want)
		}
	}
}
