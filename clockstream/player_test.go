package clockstream_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/inproc"
	"github.com/simclock/simclock/virtualclock"
)

// run plays cfg on one transport of an in-process bus and watches it
// from another, on one virtual-time executor: simclock pub → simclock
// monitor without a wall clock.
func run(t *testing.T, cfg clockstream.ScheduleConfig, watchFor time.Duration) (clockstream.Progress, clockstream.Totals, []clockstream.Report, transport.PublisherID) {
	t.Helper()
	exec := executor.New(executor.Config{Virtual: virtualclock.New()})
	defer exec.Close()
	bus := inproc.NewBus()
	simTr, monTr := bus.Connect("simulator"), bus.Connect("monitor")
	defer simTr.Close()
	defer monTr.Close()
	qos := transport.ClockSubscriptionQoS
	qos.Depth = 1000
	sub, err := monTr.Subscribe(timemsg.ClockTopic, timemsg.ClockTypeName, qos)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := simTr.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
	if err != nil {
		t.Fatal(err)
	}
	var reports []clockstream.Report
	w, err := clockstream.NewWatcher(exec, sub, clockstream.WatchOptions{Interval: time.Second, Duration: watchFor,
		OnReport: func(r clockstream.Report) { reports = append(reports, r) }})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	sch, err := clockstream.NewSchedule(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p, err := clockstream.NewPlayer(context.Background(), exec, pub, sch, clockstream.PlayerOptions{Duration: watchFor})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := clockstream.Run(context.Background(), exec, p, w); err != nil {
		t.Fatal(err)
	}
	if p.Err() != nil {
		t.Fatal(p.Err())
	}
	return p.Totals(), w.Totals(), reports, pub.ID()
}

// What pub publishes, monitor sees: the schedule's RTF, its pause, its
// backward jump, its drops, to the message, in virtual time.
func TestPlayerToWatcherVirtualTime(t *testing.T) {
	cfg := clockstream.ScheduleConfig{
		Start: 100 * time.Second, Period: 10 * time.Millisecond, Step: 20 * time.Millisecond,
		Pause: true, PauseAt: 102 * time.Second, ResumeAfter: 500 * time.Millisecond,
		Jump: true, JumpAt: 104 * time.Second, JumpTo: 50 * time.Second,
		HasUntil: true, Until: 200 * time.Second, Drop: 0.05, Seed: 7,
	}
	sent, tot, reports, id := run(t, cfg, 4*time.Second)
	if tot.Messages != sent.Sent || sent.Sent < 350 || sent.Dropped == 0 {
		t.Errorf("sent %d (dropped %d), monitor saw %d", sent.Sent, sent.Dropped, tot.Messages)
	}
	if tot.BackwardJumps != 1 || tot.Pauses != 1 || tot.Gaps != 0 || tot.ForwardJumps != 0 || tot.Malformed != 0 {
		t.Errorf("counts %+v; want one backward jump, one pause", tot.Counts)
	}
	if len(tot.Publishers) != 1 || tot.Publishers[0].ID != string(id) || tot.Publishers[0].Messages != sent.Sent {
		t.Errorf("publishers %+v, want %s alone", tot.Publishers, id)
	}
	if len(reports) != 4 || reports[0].RTF == nil || *reports[0].RTF != 2 || reports[0].Period != 10*time.Millisecond {
		t.Fatalf("reports %+v", reports)
	}
	if reports[1].Pauses != 1 || reports[2].BackwardJumps != 1 {
		t.Errorf("second and third seconds: %+v\n%+v, want the pause, then the jump", reports[1], reports[2])
	}
	if tot.Last != sent.Value {
		t.Errorf("last value seen %d, sent %d", tot.Last, sent.Value)
	}
	// Virtual time: the same run gives the same reports, to the nanosecond.
	_, tot2, reports2, _ := run(t, cfg, 4*time.Second)
	if !reflect.DeepEqual(reports, reports2) || !reflect.DeepEqual(tot, tot2) {
		t.Errorf("two runs differ:\n%+v\n%+v", reports, reports2)
	}
}

// A player ends with its schedule; what the monitor saw is exactly what
// FromSchedule yields, and Analyze over that Source agrees with the live
// watch.
func TestPlayerMatchesFromSchedule(t *testing.T) {
	cfg := clockstream.ScheduleConfig{Start: time.Second, Period: 25 * time.Millisecond, Step: 25 * time.Millisecond,
		HasUntil: true, Until: 3 * time.Second, EndAtUntil: true, PreClock: 200 * time.Millisecond}
	sent, live, _, _ := run(t, cfg, 2250*time.Millisecond) // the last message goes out at 2.2 s
	sch, _ := clockstream.NewSchedule(cfg)
	offline, err := clockstream.Analyze(context.Background(), clockstream.FromSchedule(sch, "sim"), clockstream.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if sent.Sent != 81 || live.Messages != 81 || offline.Messages != 81 || live.Last != int64(3*time.Second) {
		t.Fatalf("sent %d, live %d, offline %d, last %d", sent.Sent, live.Messages, offline.Messages, live.Last)
	}
	if *live.RTF != 1 || *offline.RTF != 1 || live.Period != offline.Period || live.Step != offline.Step || live.Counts != offline.Counts {
		t.Errorf("live %+v\noffline %+v", live, offline)
	}
}

// No value a Clock cannot carry is ever sent: the run ends with an error
// wrapping simclock.ErrOutOfRange.
func TestPlayerRefusesUnsendableValue(t *testing.T) {
	exec := executor.New(executor.Config{Virtual: virtualclock.New()})
	defer exec.Close()
	tr := inproc.NewBus().Connect("sim")
	defer tr.Close()
	pub, _ := tr.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
	sch, _ := clockstream.NewSchedule(clockstream.ScheduleConfig{Start: (1<<31 - 1) * time.Second, Period: time.Second, Step: time.Second})
	var sent []time.Duration
	p, _ := clockstream.NewPlayer(context.Background(), exec, pub, sch, clockstream.PlayerOptions{
		OnTick: func(tk clockstream.Tick, _ error) { sent = append(sent, tk.Sim) }})
	defer p.Close()
	if err := clockstream.Run(context.Background(), exec, p); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(p.Err(), simclock.ErrOutOfRange) || len(sent) != 1 {
		t.Errorf("err %v after %v", p.Err(), sent)
	}
}

// Progress reports come every ReportEvery of steady time; Totals covers
// the interval in progress too.
func TestPlayerReports(t *testing.T) {
	exec := executor.New(executor.Config{Virtual: virtualclock.New()})
	defer exec.Close()
	tr := inproc.NewBus().Connect("sim")
	defer tr.Close()
	pub, _ := tr.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
	sch, _ := clockstream.NewSchedule(clockstream.ScheduleConfig{Period: 100 * time.Millisecond, Step: 100 * time.Millisecond})
	var got []clockstream.Progress
	p, _ := clockstream.NewPlayer(context.Background(), exec, pub, sch, clockstream.PlayerOptions{
		Duration: 2500 * time.Millisecond, ReportEvery: time.Second, OnReport: func(pr clockstream.Progress) { got = append(got, pr) }})
	defer p.Close()
	if err := clockstream.Run(context.Background(), exec, p); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Sent != 10 || got[1].Sent != 10 || got[1].Elapsed != 2*time.Second {
		t.Fatalf("reports %+v", got)
	}
	if tot := p.Totals(); tot.Sent != 25 || tot.Value != int64(2400*time.Millisecond) || tot.Events[0] != "start" {
		t.Errorf("totals %+v", tot)
	}
}
