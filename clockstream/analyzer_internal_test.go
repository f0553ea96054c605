package clockstream

import (
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
