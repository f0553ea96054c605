package node_test

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/simclock/simclock/node"
	"github.com/simclock/simclock/transport"
)

// The six cases of upstream's test_wait_for_message: rclcpp's
// test/rclcpp/test_wait_for_message.cpp (wait_for_message,
// wait_for_message_indefinitely, wait_for_message_twice_one_sub) and
// rclpy's test/test_wait_for_message.py (test_wait_for_message,
// test_wait_for_message_qos, test_wait_for_message_timeout), on the
// in-process bus and a virtual-time executor. As rclpy's publisher
// thread does, the publisher waits until the subscription has matched
// (count_subscribers > 0) rather than sleeping and hoping.

const waitTopic, waitType = "/wait_for_message_topic", "test_msgs/msg/BasicTypes"

// basicTypes is a CDR test_msgs/BasicTypes stand-in carrying
// int32_value = 100 (rclpy's MSG_DATA).
var basicTypes = []byte{0, 1, 0, 0, 100, 0, 0, 0}

// publishWhenMatched publishes one message per call of next() once the
// publisher has a match; it runs on its own goroutine and reports on the
// returned channel.
func publishWhenMatched(ctx context.Context, pub transport.Publisher, times int) <-chan error {
	done := make(chan error, 1)
	go func() {
		for pub.MatchedSubscriptions() == 0 {
			if ctx.Err() != nil {
				done <- ctx.Err()
				return
			}
			time.Sleep(100 * time.Microsecond) // waits for an event; decides nothing
		}
		for range times {
			if err := pub.Publish(ctx, basicTypes); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	return done
}

type waitResult struct {
	s   transport.Sample
	err error
}

func TestWaitForMessage(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a safety net
	defer cancel()

	// rclcpp wait_for_message (5 s), rclpy test_wait_for_message
	// (qos_profile=1) and test_wait_for_message_qos (QoSProfile(depth=1)).
	for _, tc := range []struct {
		name    string
		qos     transport.QoS
		timeout time.Duration
	}{
		{"rclcpp/wait_for_message", transport.QoS{}, 5 * time.Second},
		{"rclpy/test_wait_for_message", transport.QoS{Depth: 1}, -1},
		{"rclpy/test_wait_for_message_qos", transport.QoS{Depth: 1, Reliability: transport.Reliable, Durability: transport.Volatile}, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			n := w.node("wait_for_message_node", node.Options{})
			pub, err := n.Publisher(waitTopic, waitType, transport.QoS{Depth: 10})
			if err != nil {
				t.Fatal(err)
			}
			published := publishWhenMatched(ctx, pub, 1)
			s, err := node.WaitForMessage(ctx, n, waitTopic, waitType, tc.qos, tc.timeout)
			if err != nil || !bytes.Equal(s.Data, basicTypes) {
				t.Errorf("WaitForMessage = %x, %v; want %x", s.Data, err, basicTypes)
			}
			if err := <-published; err != nil {
				t.Fatal(err)
			}
			if m := pub.MatchedSubscriptions(); m != 0 {
				t.Errorf("%d subscriptions left matched: WaitForMessage did not close its own", m)
			}
		})
	}

	// rclcpp wait_for_message_indefinitely: a wait without a timeout ends
	// with the context (rclcpp::shutdown()), having received nothing.
	t.Run("rclcpp/wait_for_message_indefinitely", func(t *testing.T) {
		w := newWorld(t)
		n := w.node("wait_for_message_node2", node.Options{})
		waitCtx, stop := context.WithCancel(ctx)
		got := make(chan waitResult, 1)
		go func() {
			s, err := node.WaitForMessage(waitCtx, n, waitTopic, waitType, transport.QoS{}, -1)
			got <- waitResult{s, err}
		}()
		stop()
		r := <-got
		if !errors.Is(r.err, context.Canceled) || r.s.Data != nil {
			t.Errorf("WaitForMessage after shutdown = %x, %v; want context.Canceled and nothing", r.s.Data, r.err)
		}
	})

	// rclcpp wait_for_message_twice_one_sub: two waits on one
	// subscription get two messages.
	t.Run("rclcpp/wait_for_message_twice_one_sub", func(t *testing.T) {
		w := newWorld(t)
		n := w.node("wait_for_message_node3", node.Options{})
		pub, err := n.Publisher(waitTopic, waitType, transport.QoS{Depth: 10})
		if err != nil {
			t.Fatal(err)
		}
		tr := w.bus.Connect("sub")
		defer tr.Close()
		sub, err := tr.Subscribe(waitTopic, waitType, transport.QoS{Depth: 1})
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
		for i := range 2 {
			published := publishWhenMatched(ctx, pub, 1)
			s, err := node.WaitForSample(ctx, n, sub, 5*time.Second)
			if err != nil || !bytes.Equal(s.Data, basicTypes) {
				t.Errorf("wait %d: %x, %v; want %x", i+1, s.Data, err, basicTypes)
			}
			if err := <-published; err != nil {
				t.Fatal(err)
			}
		}
	})

	// rclpy test_wait_for_message_timeout: time_to_wait=1 with no
	// publisher returns False. In virtual time the second passes when the
	// fake clock is advanced, and not before; a timeout of 0 does not wait.
	t.Run("rclpy/test_wait_for_message_timeout", func(t *testing.T) {
		w := newWorld(t)
		n := w.node("publisher_node", node.Options{})
		if _, err := node.WaitForMessage(ctx, n, waitTopic, waitType, transport.QoS{Depth: 1}, 0); !errors.Is(err, node.ErrNoMessage) {
			t.Errorf("timeout 0: %v, want ErrNoMessage", err)
		}
		got := make(chan waitResult, 1)
		go func() {
			s, err := node.WaitForMessage(ctx, n, waitTopic, waitType, transport.QoS{Depth: 1}, time.Second)
			got <- waitResult{s, err}
		}()
		if err := w.fc.WaitForSleepers(ctx, 1); err != nil {
			t.Fatal(err)
		}
		w.fc.Advance(999 * time.Millisecond)
		select {
		case r := <-got:
			t.Fatalf("returned %v before its second of virtual time", r.err)
		default:
		}
		w.fc.Advance(time.Millisecond)
		if r := <-got; !errors.Is(r.err, node.ErrNoMessage) {
			t.Errorf("WaitForMessage(1 s) with no publisher = %v, want ErrNoMessage", r.err)
		}
	})
}
