package experiment

import (
	"context"
	"fmt"
	"time"

	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/node"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport"
)

// A simulator is the fake simulator node of the startup experiment: once
// the subject's subscription is matched it waits PreClock, then publishes
// S, S+step, ... every ClockPeriod (one message in ClockEvery), ending with
// the message carrying S+Duration.
type simulator struct {
	exec       *executor.Executor
	node       *node.Node
	pub        transport.Publisher
	cfg        StartupConfig
	start      time.Duration
	k          int64
	poll       *timer.Timer
	startTimer *timer.Timer
	periodic   *timer.Timer
	err        error
	done       bool
}

func newSimulator(exec *executor.Executor, n *node.Node, cfg StartupConfig, start time.Duration) (*simulator, error) {
	pub, err := n.Publisher(timemsg.ClockTopic, timemsg.ClockType, transport.ClockPublisherQoS)
	if err != nil {
		return nil, err
	}
	return &simulator{exec: exec, node: n, pub: pub, cfg: cfg, start: start}, nil
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
		s.publishNext()
		if s.done {
			return
		}
		var err error
		if s.periodic, err = s.node.CreateWallTimer(s.cfg.ClockPeriod, func(timer.Info) { s.publishNext() }); err != nil {
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

func (s *simulator) publishNext() {
	if s.done {
		return
	}
	value := int64(s.start) + s.k*int64(s.cfg.ClockStep)
	endValue := int64(s.start + s.cfg.Duration)
	final := value >= endValue
	if final {
		value = endValue
	}
	if s.k%int64(s.cfg.ClockEvery) == 0 || final {
		m, err := timemsg.ClockFrom(mustTime(value))
		if err == nil {
			err = s.pub.Publish(context.Background(), timemsg.MarshalClock(m))
		}
		if err != nil {
			s.fail(err)
			return
		}
	}
	s.k++
	if final {
		s.done = true
		if s.periodic != nil {
			s.periodic.Cancel()
		}
	}
}

func (s *simulator) fail(err error) {
	if s.err == nil {
		s.err = err
	}
	s.done = true
	s.exec.Stop()
}

func (s *simulator) close() { s.pub.Close() }

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
