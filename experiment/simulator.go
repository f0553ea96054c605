package experiment

import (
	"context"
	"fmt"
	"time"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/node"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport"
)

// A simulator is the fake simulator node of the startup experiment: once
// the subject's subscription is matched it waits PreClock, then publishes
// S, S+step, ... every ClockPeriod (one message in ClockEvery), ending with
// the message carrying S+Duration: a clockstream.Schedule, played by a
// clockstream.Player on the experiment's executor.
type simulator struct {
	exec       *executor.Executor
	node       *node.Node
	pub        transport.Publisher
	cfg        StartupConfig
	start      time.Duration
	poll       *timer.Timer
	startTimer *timer.Timer
	player     *clockstream.Player
	err        error
	done       bool
}

func newSimulator(exec *executor.Executor, n *node.Node, cfg StartupConfig, start time.Duration) (*simulator, error) {
	pub, err := n.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
	if err != nil {
		return nil, err
	}
	return &simulator{exec: exec, node: n, pub: pub, cfg: cfg, start: start}, nil
}

// schedule is the simulator's /clock for one scenario.
func (s *simulator) schedule() (*clockstream.Schedule, error) {
	return clockstream.NewSchedule(clockstream.ScheduleConfig{Start: s.start, Period: s.cfg.ClockPeriod,
		Step: s.cfg.ClockStep, HasUntil: true, Until: s.start + s.cfg.Duration, EndAtUntil: true, Every: s.cfg.ClockEvery})
}

// begin starts the schedule. In this process the subscription matches at
// once, so the match is modelled as MatchDelay after begin; over a real
// transport beginWhenMatched polls until the subscription matched.
func (s *simulator) begin() {
	var err error
	s.startTimer, err = s.node.CreateWallTimer(s.cfg.MatchDelay+s.cfg.PreClock, func(timer.Info) {
		s.startTimer.Cancel()
		if s.pub.MatchedSubscriptions() == 0 {
			s.fail(fmt.Errorf("the subject's /clock subscription never matched"))
			return
		}
		sch, err := s.schedule()
		if err != nil {
			s.fail(err)
			return
		}
		// The first message goes out now, within this callback.
		s.player, err = clockstream.NewPlayer(context.Background(), s.exec, s.pub, sch, clockstream.PlayerOptions{
			OnTick: func(_ clockstream.Tick, err error) {
				if err != nil {
					s.fail(err)
				}
			},
			OnDone: func(err error) {
				if err != nil {
					s.fail(err)
				}
				s.done = true
			}})
		if err != nil {
			s.fail(err)
		}
	})
	if err != nil {
		s.fail(err)
	}
}

// beginWhenMatched polls every millisecond until the subscription matched,
// then waits PreClock and publishes: the real-transport schedule.
func (s *simulator) beginWhenMatched() {
	var err error
	s.poll, err = s.node.CreateWallTimer(time.Millisecond, func(timer.Info) {
		if s.pub.MatchedSubscriptions() == 0 {
			return
		}
		s.poll.Cancel()
		s.cfg.MatchDelay = 0
		s.begin()
	})
	if err != nil {
		s.fail(err)
	}
}

func (s *simulator) fail(err error) {
	if s.err == nil {
		s.err = err
	}
	s.done = true
	s.exec.Stop()
}

func (s *simulator) close() {
	if s.player != nil {
		s.player.Close()
	}
	s.pub.Close()
}

// RunSimulator runs the fake simulator of the startup experiment alone,
// in real time on tr, for a subject in another process: it waits until
// the subject's /clock subscription matched, waits cfg.PreClock, publishes
// the schedule for start, and returns after the final message. Use it
// with a transport whose publications leave the process (DDS).
func RunSimulator(ctx context.Context, cfg StartupConfig, tr transport.Transport, start time.Duration) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	exec := executor.New(executor.Config{})
	defer exec.Close()
	n, err := node.New("fake_simulator", exec, tr, node.Options{})
	if err != nil {
		return err
	}
	defer n.Close()
	s, err := newSimulator(exec, n, cfg, start)
	if err != nil {
		return err
	}
	defer s.close()
	s.beginWhenMatched()
	err = exec.SpinUntil(ctx, func() bool { return s.done })
	if s.err != nil {
		return s.err
	}
	if err == nil {
		// Give the last message time to leave before the writer is deleted.
		select {
		case <-ctx.Done():
		case <-time.After(50 * time.Millisecond):
		}
	}
	return err
}
