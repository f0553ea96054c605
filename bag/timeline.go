package bag

import (
	"context"
	"math"
	"slices"
)

// A Timeline is what a player of the bag's clock needs: when its messages
// were recorded. It comes from the messages themselves, not from
// metadata.yaml, whose duration may run past the last message.
type Timeline struct {
	// First and Last are the log times of the first and last message, in
	// nanoseconds.
	First, Last int64
	// Messages counts every message read.
	Messages int
	// Kept are the log times of the messages of the topics kept (see
	// ReadTimeline), sorted.
	Kept []int64
	// Topics are the topics of the bag that have messages, sorted.
	Topics []string
	// LastUntil is the log time of the last message at or before
	// TimelineOptions.Until, when HaveUntil; no message is that early
	// otherwise.
	LastUntil int64
	HaveUntil bool
}

// TimelineOptions say what ReadTimeline keeps.
type TimelineOptions struct {
	// Keep, when set, selects the topics whose log times are kept.
	Keep func(topic string) bool
	// Until, when set, asks for the last message at or before it.
	Until    int64
	HasUntil bool
}

// ReadTimeline reads the log times of a bag's messages (paths as for
// Inspect): the first and last of all, and what opts asks for. A read
// error ends the reading and is returned with what was read before it.
func ReadTimeline(ctx context.Context, paths []string, opts TimelineOptions) (*Timeline, error) {
	keep := opts.Keep
	set, err := resolve(paths)
	if err != nil {
		return nil, err
	}
	tl := &Timeline{First: math.MaxInt64, Last: math.MinInt64}
	topics := map[string]bool{}
	kept := map[*channel]bool{}
	s := &sink{
		onChannel: func(c *channel) { kept[c] = keep != nil && keep(c.Topic) },
		onMessage: func(c *channel, m *message) error {
			tl.Messages++
			tl.First, tl.Last = min(tl.First, m.LogTime), max(tl.Last, m.LogTime)
			topics[c.Topic] = true
			if opts.HasUntil && m.LogTime <= opts.Until && (!tl.HaveUntil || m.LogTime > tl.LastUntil) {
				tl.LastUntil, tl.HaveUntil = m.LogTime, true
			}
			k, seen := kept[c]
			if !seen {
				k = keep != nil && keep(c.Topic)
				kept[c] = k
			}
			if k {
				tl.Kept = append(tl.Kept, m.LogTime)
			}
			return nil
		}}
	storages := map[string]storage{"mcap": newMCAPReader(), "sqlite3": sqliteReader{}}
	defer func() {
		for _, st := range storages {
			st.close()
		}
	}()
	var readErr error
	for _, f := range set.files {
		fi := FileInfo{Path: f.path}
		if readErr = readBagFile(ctx, storages[f.storage], f, &fi, s); readErr != nil {
			break
		}
	}
	// Files of a split bag, and chunks, may interleave: log-time order.
	slices.Sort(tl.Kept)
	for t := range topics {
		tl.Topics = append(tl.Topics, t)
	}
	slices.Sort(tl.Topics)
	if tl.Messages == 0 && readErr == nil {
		return nil, ErrEmpty
	}
	return tl, readErr
}
