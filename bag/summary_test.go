package bag

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/simclock/simclock/rules"
)

// damageCodes are the findings that say the input is damaged.
var damageCodes = []rules.Code{CodeDamagedSummary, CodeDamagedChunk, CodeReadError, CodeMetadata}

// realFindings returns the findings that are about the recording, not
// its damage, as comparable text.
func realFindings(r *Report) []string {
	var out []string
	for _, f := range r.Findings {
		if !slices.Contains(damageCodes, f.Code) {
			out = append(out, fmt.Sprintf("%s %s %s ×%d", f.Code, f.Topic, f.Field, f.Count))
		}
	}
	slices.Sort(out)
	return out
}

// A flipOutcome classifies one flipped bit.
type flipOutcome int

const (
	flipSame     flipOutcome = iota // the report is the clean one: the bit is not used
	flipDetected                    // damage reported, every real finding kept
	flipBad                         // neither: a changed report that says complete, or real findings lost or made up
)

func classifyFlip(clean, got *Report) flipOutcome {
	if got == nil {
		return flipBad
	}
	if got.Complete {
		if cmp.Diff(comparable(clean), comparable(got), cmpopts.EquateEmpty()) == "" {
			return flipSame
		}
		return flipBad
	}
	damaged := false
	for _, f := range got.Findings {
		damaged = damaged || slices.Contains(damageCodes, f.Code)
	}
	if damaged && slices.Equal(realFindings(clean), realFindings(got)) {
		return flipDetected
	}
	return flipBad
}

// TestSummaryBitFlips flips one bit in every byte of the summary section
// and footer of real MCAP bags (rosbag2's, with a summary CRC, and the
// hazards bag, written without one): the summary is checked (its CRC, its
// framing, every chunk index against its chunk, every schema and channel
// against the data), so each flip leaves the report as it was or reports
// the damage with every real finding kept: never a /clock bag turned into
// clock_type and no_clock, never a report that says complete.
func TestSummaryBitFlips(t *testing.T) {
	bags := []string{
		"../internal/cli/testdata/bag/hazards.mcap",
		"testdata/rosbag2/jazzy_v9/jazzy_v9_0.mcap",
		"testdata/rosbag2/rolling_v9/rolling_v9_0.mcap",
		"testdata/rosbag2/iron_v7/cdr_test_0.mcap",
	}
	// A bit of every 11th byte (SIMCLOCK_FLIPS=all: of every byte);
	// bytes of every kind of summary record are among them.
	stride := 11
	if testing.Short() {
		stride = 17
	}
	if os.Getenv("SIMCLOCK_FLIPS") == "all" {
		stride = 1
	}
	for _, bag := range bags {
		t.Run(filepath.Base(bag), func(t *testing.T) {
			data, err := os.ReadFile(bag)
			if err != nil {
				t.Fatal(err)
			}
			clean, err := Inspect(context.Background(), []string{bag}, Options{})
			if err != nil || !clean.Complete {
				t.Fatalf("clean bag: %v", err)
			}
			start := int(binary.LittleEndian.Uint64(data[len(data)-8-20:]))
			p := filepath.Join(t.TempDir(), "flip.mcap")
			var counts [3]int
			for off := start; off < len(data)-8; off += stride {
				bad := slices.Clone(data)
				bad[off] ^= 1 << (off % 8)
				if err := os.WriteFile(p, bad, 0o644); err != nil {
					t.Fatal(err)
				}
				got, _ := Inspect(context.Background(), []string{p}, Options{})
				o := classifyFlip(clean, got)
				counts[o]++
				if o == flipBad && counts[flipBad] <= 5 {
					var codes []string
					for _, f := range got.Findings {
						codes = append(codes, string(f.Code))
					}
					t.Errorf("bit %d of byte %d (summary byte %d): complete %v, findings %s; clean %s", off%8, off, off-start,
						got.Complete, strings.Join(codes, ","), strings.Join(realFindings(clean), ","))
				}
			}
			t.Logf("%d flips: %d left the report as it was, %d reported as damage, %d bad", counts[0]+counts[1]+counts[2],
				counts[flipSame], counts[flipDetected], counts[flipBad])
		})
	}
}

// The mcap Go writer's statistics start at the first message after log
// time 0 (its "unset" value); rosbag2's mcap-rewriter_a bag is written so
// (realdirs_test.go reads it). Any other disagreement is damage.
func TestStatisticsStartFromGoWriter(t *testing.T) {
	for _, tc := range []struct {
		start, lo, hi uint64
		ok            bool
	}{
		{1_000_000, 1_000_000, 100_000_000, true},
		{1_000_000, 0, 100_000_000, true}, // messages at 0, the Go writer's quirk
		{0, 0, 100_000_000, true},
		{200_000_000, 0, 100_000_000, false}, // past the indexes' end
		{2_000_000, 1_000_000, 100_000_000, false},
		{0, 1_000_000, 100_000_000, false},
	} {
		if got := statsStartAgrees(tc.start, tc.lo, tc.hi); got != tc.ok {
			t.Errorf("statsStartAgrees(%d, %d, %d) = %v, want %v", tc.start, tc.lo, tc.hi, got, tc.ok)
		}
	}
}
