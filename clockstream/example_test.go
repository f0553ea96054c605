package clockstream_test

import (
	"context"
	"fmt"
	"iter"
	"time"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/inproc"
	"github.com/simclock/simclock/virtualclock"
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

// A simulator and a monitor on one virtual-time executor: the Player
// publishes a schedule at twice real time with a one-second pause, the
// Watcher reports what a node would see. No sleeping: the run takes
// microseconds and gives the same numbers every time.
func ExampleWatcher() {
	exec := executor.New(executor.Config{Virtual: virtualclock.New()})
	defer exec.Close()
	bus := inproc.NewBus()
	sim, mon := bus.Connect("simulator"), bus.Connect("monitor")
	defer sim.Close()
	defer mon.Close()
	qos := transport.ClockSubscriptionQoS
	qos.Depth = 100
	sub, _ := mon.Subscribe(timemsg.ClockTopic, timemsg.ClockTypeName, qos)
	pub, _ := sim.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)

	w, _ := clockstream.NewWatcher(exec, sub, clockstream.WatchOptions{Interval: time.Second, Duration: 3 * time.Second,
		OnReport: func(r clockstream.Report) {
			fmt.Printf("%s s: value %s s, rtf %.1f, %d pause(s)\n", units.Span(r.Elapsed), units.Value(r.Value), *r.RTF, r.Pauses)
		}})
	defer w.Close()
	sch, _ := clockstream.NewSchedule(clockstream.ScheduleConfig{Start: 100 * time.Second, Period: 10 * time.Millisecond,
		Step: 20 * time.Millisecond, Pause: true, PauseAt: 102 * time.Second, ResumeAfter: time.Second})
	p, _ := clockstream.NewPlayer(context.Background(), exec, pub, sch, clockstream.PlayerOptions{Duration: 3 * time.Second})
	defer p.Close()
	if err := clockstream.Run(context.Background(), exec, p, w); err != nil {
		fmt.Println(err)
	}
	t := w.Totals()
	fmt.Printf("%d messages from %d publisher, rtf %.3f\n", t.Messages, len(t.Publishers), *t.RTF)
	// Output:
	// 1.000 s: value 101.980000000 s, rtf 2.0, 0 pause(s)
	// 2.000 s: value 102.000000000 s, rtf 0.0, 1 pause(s)
	// 3.000 s: value 104.000000000 s, rtf 2.0, 0 pause(s)
	// 300 messages from 1 publisher, rtf 1.338
}
