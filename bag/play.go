package bag

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"time"

	"github.com/foxglove/mcap/go/mcap"

	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
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

// PlayOptions configure PlayClock. The zero value plays once at rate 1,
// publishing at 40 Hz.
type PlayOptions struct {
	// Rate is the playback rate: 2 plays twice as fast. Defaults to 1.
	Rate float64
	// Hz is how often /clock is published, in wall time. Defaults to 40,
	// the rate of "ros2 bag play --clock" without a value.
	Hz float64
	// Loop restarts at the start when the end is reached, jumping /clock
	// back as "ros2 bag play --loop --clock" does.
	Loop bool
	// OnPublish, when set, is called after each /clock sent.
	OnPublish func(ns int64)
}

// PlayClock publishes rosgraph_msgs/Clock on pub following a bag's
// log-time axis from start to end (ns), as "ros2 bag play --clock" does:
// on a wall-time ticker at Hz, /clock = start + Rate × (wall time since
// playback began). The last value published is end; with Loop, playback
// then starts again at start (a backward jump, R14, R22). PlayClock runs
// on the calling goroutine and returns nil when playback ends, or ctx's
// error when ctx is done first.
func PlayClock(ctx context.Context, pub transport.Publisher, start, end int64, opts PlayOptions) error {
	if opts.Rate == 0 {
		opts.Rate = 1
	}
	if opts.Hz == 0 {
		opts.Hz = 40
	}
	if opts.Rate < 0 || math.IsNaN(opts.Rate) || math.IsInf(opts.Rate, 0) {
		return fmt.Errorf("bag: play rate %v: must be positive", opts.Rate)
	}
	if opts.Hz < 0 || math.IsNaN(opts.Hz) || opts.Hz > 1e6 {
		return fmt.Errorf("bag: play frequency %v Hz: must be in (0, 1e6]", opts.Hz)
	}
	if start < 0 || end < start {
		return fmt.Errorf("bag: play span [%d, %d] ns: want 0 <= start <= end", start, end)
	}
	if end >= (math.MaxInt32+1)*int64(time.Second) {
		// A Clock message carries int32 seconds: refuse rather than wrap.
		return fmt.Errorf("bag: play span ends at %d ns, past what a Clock message carries (2^31 s)", end)
	}
	period := time.Duration(float64(time.Second) / opts.Hz)
	tick := time.NewTicker(period)
	defer tick.Stop()
	buf := make([]byte, 0, timemsg.ClockSize)
	publish := func(ns int64) error {
		buf = timemsg.AppendClock(buf[:0], timemsg.Clock{Clock: timemsg.Time{Sec: int32(ns / 1e9), Nanosec: uint32(ns % 1e9)}})
		if err := pub.Publish(ctx, buf); err != nil {
			return fmt.Errorf("bag: publish /clock: %w", err)
		}
		if opts.OnPublish != nil {
			opts.OnPublish(ns)
		}
		return nil
	}
	for {
		began := time.Now()
		now := start
		for {
			if err := publish(now); err != nil {
				return err
			}
			if now == end {
				break
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-tick.C:
			}
			elapsed := float64(time.Since(began)) * opts.Rate
			if elapsed >= float64(end-start) {
				now = end
			} else {
				now = start + int64(elapsed)
			}
		}
		if !opts.Loop {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}
