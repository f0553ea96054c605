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

// Span returns the log times of the first and last message of a bag
// (all of its files), in nanoseconds: from the summary statistics when
// every file has them, by reading the files otherwise.
func Span(ctx context.Context, paths []string) (start, end int64, err error) {
	start, end = math.MaxInt64, math.MinInt64
	fromSummary := true
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return 0, 0, fmt.Errorf("bag: %w", err)
		}
		st, err := f.Stat()
		var info *mcap.Info
		if err == nil {
			info = summary(f, st.Size())
		}
		f.Close()
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
		rd := &reader{onMessage: func(_ *mcap.Schema, _ *mcap.Channel, m *mcap.Message) error {
			start, end = min(start, int64(m.LogTime)), max(end, int64(m.LogTime))
			return nil
		}}
		defer rd.close()
		for _, p := range paths {
			var fi FileInfo
			if err := rd.readFile(ctx, p, &fi); err != nil {
				return 0, 0, err
			}
		}
	}
	if start > end {
		return 0, 0, ErrEmpty
	}
	return start, end, nil
}
