package clockstream_test

import (
	"context"
	"fmt"
	"iter"
	"time"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/timemsg"
)

// A publisher restarts its clock from an earlier time (a rosbag2 --loop):
// the analyzer reports the backward jump and keeps measuring the
// real-time factor across it.
func ExampleAnalyzer() {
	a := clockstream.NewAnalyzer(clockstream.Config{}, 0)
	clock := func(sec int32, nsec uint32) []byte {
		return timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: sec, Nanosec: nsec}})
	}
	at := time.Duration(0)
	for i := range 50 { // 100 Hz, twice real time, from 100 s
		a.Observe(clockstream.Decode(at, "sim", clock(100, uint32(i)*20_000_000)))
		at += 10 * time.Millisecond
	}
	a.Observe(clockstream.Decode(at, "sim", clock(10, 0))) // loop restart
	r := a.Report(at+time.Millisecond, nil)
	fmt.Printf("value %s s, rtf %.1f, %d backward jump\n", units.Value(r.Value), *r.RTF, r.BackwardJumps)
	fmt.Println(r.Warnings[0])
	// Output:
	// value 10.000000000 s, rtf 2.0, 1 backward jump
	// 1 backward jump(s) (R14, R22)
}

// A bag reader hands its /clock messages to FromMessages; Analyze gives
// the same words monitor uses.
func ExampleFromMessages() {
	recorded := func(yield func(clockstream.Message, error) bool) {
		for i := range 100 { // 10 Hz of log time; the value stands still from 5 s
			v := min(i, 50) * 100_000_000
			m := timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: int32(v / 1e9), Nanosec: uint32(v % 1e9)}})
			if !yield(clockstream.Message{At: time.Duration(i) * 100 * time.Millisecond, Publisher: "bag", Data: m}, nil) {
				return
			}
		}
	}
	var seq iter.Seq2[clockstream.Message, error] = recorded
	t, err := clockstream.Analyze(context.Background(), clockstream.FromMessages(seq), clockstream.Config{})
	fmt.Println(err, t.Messages, "messages,", t.Pauses, "pause,", t.Gaps, "gaps, period", units.Span(t.Period), "s")
	// Output:
	// <nil> 100 messages, 1 pause, 0 gaps, period 0.100 s
}
