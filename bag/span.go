package bag

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"

	"github.com/foxglove/mcap/go/mcap"
)

// ErrEmpty reports a bag with no messages, which has no timeline to play.
var ErrEmpty = errors.New("bag has no messages")

// Span returns the log times of the first and last message of a bag, in
// nanoseconds: paths are as for Inspect (a bag directory, or its files).
// The span comes from metadata.yaml or the MCAP summaries when they give
// it, from reading the files otherwise.
func Span(ctx context.Context, paths []string) (start, end int64, err error) {
	set, err := resolve(paths)
	if err != nil {
		return 0, 0, err
	}
	if m := set.meta; m != nil && m.MessageCount > 0 && m.DurationNS >= 0 {
		return m.StartingTimeNS, m.StartingTimeNS + m.DurationNS, nil
	}
	start, end = math.MaxInt64, math.MinInt64
	fromSummary := true
	for _, f := range set.files {
		if f.storage != "mcap" || f.zstd {
			fromSummary = false
			break
		}
		fd, err := os.Open(f.path)
		if err != nil {
			return 0, 0, fmt.Errorf("bag: %w", err)
		}
		st, err := fd.Stat()
		var info *mcap.Info
		if err == nil {
			info = summary(fd, st.Size())
		}
		fd.Close()
		if info == nil || info.Statistics == nil {
			fromSummary = false
			break
		}
		if info.Statistics.MessageCount > 0 {
			start = min(start, int64(info.Statistics.MessageStartTime))
			end = max(end, int64(info.Statistics.MessageEndTime))
		}
	}
	if !fromSummary {
		start, end = math.MaxInt64, math.MinInt64
		s := &sink{onMessage: func(_ *channel, m *message) error {
			start, end = min(start, m.LogTime), max(end, m.LogTime)
			return nil
		}}
		storages := map[string]storage{"mcap": newMCAPReader(), "sqlite3": sqliteReader{}}
		defer func() {
			for _, st := range storages {
				st.close()
			}
		}()
		for _, f := range set.files {
			fi := FileInfo{Path: f.path}
			if err := readBagFile(ctx, storages[f.storage], f, &fi, s); err != nil {
				return 0, 0, err
			}
		}
	}
	if start > end {
		return 0, 0, ErrEmpty
	}
	return start, end, nil
}
