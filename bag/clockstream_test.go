package bag_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/simclock/simclock/bag"
	"github.com/simclock/simclock/clockstream"
)

// The hazards bag's /clock through clockstream and through bag inspect:
// the same stream, described by the same analyser in the same words. (The
// code review of this bag found bag's old "stall" to be monitor's
// "pause", and bag's old "gap" monitor's "stall".)
func TestClockMessagesAgreeWithInspect(t *testing.T) {
	paths := []string{"../internal/cli/testdata/bag/hazards.mcap"}
	ctx := context.Background()
	tot, err := clockstream.Analyze(ctx, clockstream.FromMessages(bag.ClockMessages(ctx, paths)), clockstream.Config{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := bag.Inspect(ctx, paths, bag.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Clock
	if int64(tot.Messages) != c.Messages || tot.First != c.FirstNS || tot.Last != c.LastNS {
		t.Errorf("clockstream: %d messages %d..%d; bag: %d, %d..%d", tot.Messages, tot.First, tot.Last, c.Messages, c.FirstNS, c.LastNS)
	}
	t.Logf("clockstream: backward %d, forward %d, gaps %d, pauses %d, rtf %v; bag: backward %d, forward %d, gaps %d, pauses %d, rtf %s",
		tot.BackwardJumps, tot.ForwardJumps, tot.Gaps, tot.Pauses, *tot.RTF, c.BackwardJumps, c.ForwardJumps, c.Gaps, c.Pauses, c.RTFText())
	if int64(tot.BackwardJumps) != c.BackwardJumps || int64(tot.ForwardJumps) != c.ForwardJumps ||
		int64(tot.Gaps) != c.Gaps || int64(tot.Pauses) != c.Pauses || c.Stalls != c.Pauses || c.RTF == nil || *tot.RTF != *c.RTF {
		t.Errorf("the two disagree")
	}
}

// Every real recording in ../shared/bags: ClockMessages reads the same
// /clock stream that Inspect reports (most have none).
func TestClockMessagesRealBags(t *testing.T) {
	var paths [][]string
	for _, g := range []string{"../../shared/bags/rosbag2/*.mcap", "../../shared/bags/rosbag2-dirs/*"} {
		m, _ := filepath.Glob(g)
		for _, p := range m {
			if !strings.HasSuffix(p, ".md") {
				paths = append(paths, []string{p})
			}
		}
	}
	if len(paths) == 0 {
		t.Skip("../shared/bags not available")
	}
	ctx := context.Background()
	for _, p := range paths {
		rep, inspErr := bag.Inspect(ctx, p, bag.Options{})
		tot, err := clockstream.Analyze(ctx, clockstream.FromMessages(bag.ClockMessages(ctx, p)), clockstream.Config{})
		if (err != nil) != (inspErr != nil) {
			t.Errorf("%s: ClockMessages error %v, Inspect error %v", p[0], err, inspErr)
			continue
		}
		if rep != nil && int64(tot.Messages) != rep.Clock.Messages {
			t.Errorf("%s: clockstream %d /clock messages, Inspect %d", p[0], tot.Messages, rep.Clock.Messages)
		}
		t.Logf("%s: %d /clock messages (err %v)", p[0], tot.Messages, err)
	}
}
