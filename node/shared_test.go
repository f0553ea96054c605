package node_test

import (
	"testing"
	"time"

	"github.com/simclock/simclock/node"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/timesource"
)

// Nodes of one process can share one time source: one /clock
// subscription, every node's clock and sim timers follow it, and closing
// a node detaches only its clock.
func TestSharedTimeSource(t *testing.T) {
	w := newWorld(t)
	tr := w.bus.Connect("clock-follower")
	t.Cleanup(func() { tr.Close() })
	ts := timesource.New(tr, w.e.Subscribe, timesource.Options{})
	t.Cleanup(func() { ts.Close() })
	if err := ts.SetUseSimTime(true); err != nil {
		t.Fatal(err)
	}
	publish := w.clockPublisher(w.node("sim", node.Options{}))
	var nodes []*node.Node
	calls := make([]int, 3)
	for i := range calls {
		n := w.node("n", node.Options{TimeSource: ts})
		if !n.UseSimTime() || n.Now().Nanoseconds() != 0 {
			t.Fatalf("node %d: use_sim_time %v, now %v; want the shared source's: on, 0", i, n.UseSimTime(), n.Now())
		}
		if _, err := n.CreateTimer(time.Duration(i+1)*100*time.Millisecond, func(timer.Info) { calls[i]++ }); err != nil {
			t.Fatal(err)
		}
		nodes = append(nodes, n)
	}
	for ms := int64(50); ms <= 600; ms += 50 {
		publish(ms * int64(time.Millisecond))
		w.drain()
	}
	for i, n := range nodes {
		if n.Now().Nanoseconds() != 600*int64(time.Millisecond) {
			t.Errorf("node %d reads %v, want 0.6 s", i, n.Now())
		}
	}
	if calls[0] != 6 || calls[1] != 3 || calls[2] != 2 {
		t.Errorf("timer calls %v, want [6 3 2]", calls)
	}
	if err := nodes[0].Close(); err != nil {
		t.Fatal(err)
	}
	publish(700 * int64(time.Millisecond))
	w.drain()
	if !ts.UseSimTime() || nodes[1].Now().Nanoseconds() != 700*int64(time.Millisecond) {
		t.Errorf("closing one node changed the shared source: use_sim_time %v, node 1 at %v", ts.UseSimTime(), nodes[1].Now())
	}
}
