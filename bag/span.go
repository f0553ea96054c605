package bag

import (
	"context"
	"errors"
	"math"
	"os"
)

// ErrEmpty reports a bag with no messages, which has no timeline to play.
var ErrEmpty = errors.New("bag has no messages")

// Span returns the log times of the first and last message of a bag, in
// nanoseconds: paths are as for Inspect (a bag directory, or its files).
// The span comes from metadata.yaml or the files' summaries when they give
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
		format, _ := formatNamed(f.storage)
		if f.zstd || format.summary == nil {
			fromSummary = false
			break
		}
		sum, ok := format.summary(f.path)
		if !ok {
			fromSummary = false
			break
		}
		if sum.messages > 0 {
			start, end = min(start, sum.start), max(end, sum.end)
		}
	}
	if !fromSummary {
		start, end = math.MaxInt64, math.MinInt64
		s := &sink{onMessage: func(_ *channel, m *message) error {
			start, end = min(start, m.LogTime), max(end, m.LogTime)
			return nil
		}}
		if err := readAll(ctx, set, s); err != nil {
			return 0, 0, err
		}
	}
	if start > end {
		return 0, 0, ErrEmpty
	}
	return start, end, nil
}

// mcapSummary reads the message statistics in an MCAP file's summary.
func mcapSummary(path string) (fileSummary, bool) {
	fd, err := os.Open(path)
	if err != nil {
		return fileSummary{}, false
	}
	defer fd.Close()
	st, err := fd.Stat()
	if err != nil || st.IsDir() {
		return fileSummary{}, false
	}
	info := summary(fd, st.Size())
	if info == nil || info.Statistics == nil {
		return fileSummary{}, false
	}
	s := info.Statistics
	return fileSummary{messages: s.MessageCount, start: int64(s.MessageStartTime), end: int64(s.MessageEndTime)}, true
}
