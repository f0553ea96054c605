package node

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/transport"
)

// ErrNoMessage is returned by WaitForMessage and WaitForSample when no
// message came before the timeout, where rclcpp's and rclpy's
// wait_for_message return false.
var ErrNoMessage = errors.New("no message before the timeout")

// WaitForMessage waits for the next message on topic and returns it, as
// rclcpp's wait_for_message(out, node, topic, time_to_wait)
// (rclcpp/include/rclcpp/wait_for_message.hpp) and rclpy's
// wait_for_message(msg_type, node, topic, qos_profile, time_to_wait)
// (rclpy/rclpy/wait_for_message.py) do. It subscribes to topic on the
// node's transport with typeName and qos (the zero QoS is rclcpp's and
// rclpy's default: depth 1, reliable, volatile), waits, and closes the
// subscription before it returns, so only a message published after the
// call (or, with TRANSIENT_LOCAL, one a publisher keeps) is returned. It
// needs no spinning executor.
//
// A timeout of 0 does not wait; a negative one waits until a message
// comes or ctx is done. The timeout runs on the node's steady clock, so in
// virtual time it expires when the fake clock is advanced past it. A
// timeout is ErrNoMessage; a done ctx returns its error, wrapped (where
// rclcpp returns false on shutdown).
func WaitForMessage(ctx context.Context, n *Node, topic, typeName string, qos transport.QoS, timeout time.Duration) (transport.Sample, error) {
	sub, err := n.tr.Subscribe(topic, typeName, qos)
	if err != nil {
		return transport.Sample{}, fmt.Errorf("node %s: wait for message on %s: %w", n.name, topic, err)
	}
	defer sub.Close()
	s, err := waitForSample(ctx, sub, n.exec.Steady(), timeout)
	if err != nil {
		return transport.Sample{}, fmt.Errorf("node %s: wait for message on %s: %w", n.name, topic, err)
	}
	return s, nil
}

// WaitForSample waits for the next sample of sub, a subscription the
// caller keeps, as rclcpp's wait_for_message(out, subscription, context,
// time_to_wait) does: a sample already queued is returned at once, so two
// calls on one subscription return two samples. The timeout is
// WaitForMessage's, on n's steady clock. sub should not be one that a
// spinning executor takes from (Node.Subscribe's), or the executor may take
// the sample first.
func WaitForSample(ctx context.Context, n *Node, sub transport.Subscription, timeout time.Duration) (transport.Sample, error) {
	s, err := waitForSample(ctx, sub, n.exec.Steady(), timeout)
	if err != nil {
		return transport.Sample{}, fmt.Errorf("node %s: wait for sample: %w", n.name, err)
	}
	return s, nil
}

// waitForSample is the wait of rclcpp's wait_for_message: ctx plays the
// shutdown guard condition, which wins over a ready sample.
func waitForSample(ctx context.Context, sub transport.Subscription, steady simclock.Clock[simclock.Steady], timeout time.Duration) (transport.Sample, error) {
	if err := ctx.Err(); err != nil {
		return transport.Sample{}, err
	}
	if s, ok := sub.Take(); ok {
		return s, nil
	}
	if timeout == 0 {
		return transport.Sample{}, ErrNoMessage
	}
	var expired chan struct{}
	if timeout > 0 {
		at := simclock.SaturatingAdd(time.Duration(steady.Now().Nanoseconds()), timeout)
		deadline, _ := simclock.TimeFromNanoseconds[simclock.Steady](int64(at))
		sleepCtx, stop := context.WithCancel(ctx)
		expired = make(chan struct{})
		slept := make(chan struct{})
		go func() {
			defer close(slept)
			if steady.SleepUntil(sleepCtx, deadline) == nil {
				close(expired)
			}
		}()
		defer func() { stop(); <-slept }()
	}
	for {
		select {
		case <-ctx.Done():
			return transport.Sample{}, ctx.Err()
		case <-expired:
			return transport.Sample{}, fmt.Errorf("%w (%v)", ErrNoMessage, timeout)
		case <-sub.Notify():
			if s, ok := sub.Take(); ok {
				return s, nil
			}
		}
	}
}
