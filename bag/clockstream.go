package bag

import (
	"cmp"
	"context"
	"iter"
	"slices"
	"time"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/timemsg"
)

// ClockMessages yields the /clock messages of a bag (paths as for
// Inspect), in log-time order, each at its log time: the adapter that
// makes a recording a clockstream.Source,
//
//	clockstream.Analyze(ctx, clockstream.FromMessages(bag.ClockMessages(ctx, paths)), clockstream.Config{})
//
// so that a bag's /clock is described in the same words as a live one
// (gap, pause, backward and forward jump, RTF). The publisher of a
// recorded message is unknown (empty). A read error ends the sequence with
// that error, after the messages read before it.
func ClockMessages(ctx context.Context, paths []string) iter.Seq2[clockstream.Message, error] {
	return func(yield func(clockstream.Message, error) bool) {
		set, err := resolve(paths)
		if err != nil {
			yield(clockstream.Message{}, err)
			return
		}
		var msgs []clockstream.Message
		s := &sink{onMessage: func(c *channel, m *message) error {
			if c.Topic == timemsg.ClockTopic {
				msgs = append(msgs, clockstream.Message{At: time.Duration(m.LogTime), Data: slices.Clone(m.Data)})
			}
			return nil
		}}
		readErr := readAll(ctx, set, s)
		// Files of a split bag, and chunks, may interleave: log-time order.
		slices.SortStableFunc(msgs, func(a, b clockstream.Message) int { return cmp.Compare(a.At, b.At) })
		for _, m := range msgs {
			if !yield(m, nil) {
				return
			}
		}
		if readErr != nil {
			yield(clockstream.Message{}, readErr)
		}
	}
}
