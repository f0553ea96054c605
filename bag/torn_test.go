package bag

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/simclock/simclock/rules"
)

// madeUp returns the findings of got that are not damage and that clean
// does not have (or has fewer of): hazards that damage made up.
func madeUp(clean, got *Report) []string {
	have := map[string]int64{}
	for _, f := range clean.Findings {
		have[string(f.Code)+" "+f.Topic+" "+f.Field] = f.Count
	}
	var out []string
	for _, f := range got.Findings {
		k := string(f.Code) + " " + f.Topic + " " + f.Field
		if f.Code == CodeNoClock || isDamageCode(f.Code) {
			continue
		}
		if f.Count > have[k] {
			out = append(out, k)
		}
	}
	return out
}

func isDamageCode(code rules.Code) bool { return slices.Contains(damageCodes, code) }

// TestSQLiteCutAnywhere cuts a sqlite3 bag (clean: no hazard) every 197
// bytes after its first page, inside pages and on their bounds: every
// cut is reported as a truncated file (ErrTruncated, read_error, not
// complete) and none makes up a hazard. SQLite reads the missing end of
// a page cut short as zeros, which gave clock_backward and
// clock_jump_forward: the torn page is left out.
func TestSQLiteCutAnywhere(t *testing.T) {
	var msgs []genMsg
	for _, m := range simBag(100*sec, 20) {
		if m.topic == clockTopic.topic { // /clock alone: its values fill the pages
			msgs = append(msgs, m)
		}
	}
	p, data := db3File(t, msgs)
	clean, err := Inspect(context.Background(), []string{p}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	q := filepath.Join(t.TempDir(), "cut_0.db3")
	var cuts, bad, undetected int
	step := 197 // bytes between cuts: every offset within a page is met across pages
	if testing.Short() {
		step = 997
	}
	for i := 0; 4096+1+i*step < len(data); i++ {
		cut := 4096 + 1 + i*step
		cutData := slices.Clone(data[:cut])
		if i%2 == 1 {
			// A header whose page count SQLite does not trust (its
			// version-valid-for differs from the change counter, as after
			// a writer older than SQLite 3.7.0): only the file size
			// tells a torn page.
			cutData[92]++
		}
		if err := os.WriteFile(q, cutData, 0o644); err != nil {
			t.Fatal(err)
		}
		cuts++
		rep, err := Inspect(context.Background(), []string{q}, Options{})
		// Truncated, or (cut on a page bound with an untrusted header page
		// count, which nothing tells from damage) corrupt: damage either way.
		if !(errors.Is(err, ErrTruncated) || i%2 == 1 && cut%4096 == 0 && errors.Is(err, ErrCorrupt)) || rep == nil || rep.Complete {
			undetected++
			if undetected <= 3 {
				t.Errorf("cut at %d of %d: %v, want ErrTruncated and an incomplete report", cut, len(data), err)
			}
		}
		if rep != nil {
			if m := madeUp(clean, rep); len(m) > 0 {
				bad++
				if bad <= 3 {
					t.Errorf("cut at %d of %d (%d into its page): made up %v", cut, len(data), cut%4096, m)
				}
			}
		}
	}
	t.Logf("%d cuts: %d not reported as truncated, %d made up hazards", cuts, undetected, bad)
}
