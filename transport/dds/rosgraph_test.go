package dds_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/internal/testdomain"
	"github.com/simclock/simclock/transport"
)

// A node view announces its node with its endpoints' GIDs on
// ros_discovery_info, and another participant's WatchGraph sees the node,
// its endpoints with their QoS and type hash, and which writers its reader
// matches.
func TestNodesAnnouncedOnROSDiscoveryInfo(t *testing.T) {
	requireDDS(t)
	domain := testdomain.ID(100)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	a, b := open(t, domain), open(t, domain)

	sim, err := a.ForNode("fake_sim", "/")
	if err != nil {
		t.Fatal(err)
	}
	pub, err := sim.Publisher("/clock", "rosgraph_msgs/msg/Clock", transport.ClockPublisherQoS)
	if err != nil {
		t.Fatal(err)
	}
	ctl, err := a.ForNode("controller", "/robot")
	if err != nil {
		t.Fatal(err)
	}
	// A /clock reader that wants transient local: a volatile writer
	// cannot serve it.
	if _, err := ctl.Subscribe("/clock", "rosgraph_msgs/msg/Clock",
		transport.QoS{Depth: 1, Reliability: transport.Reliable, Durability: transport.TransientLocal}); err != nil {
		t.Fatal(err)
	}

	g := graph.New()
	watchCtx, stopWatch := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- b.WatchGraph(watchCtx, g, 20*time.Millisecond) }()
	defer func() {
		stopWatch()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("WatchGraph: %v", err)
		}
	}()

	var snap graph.Snapshot
	for {
		snap = g.Snapshot()
		if nodes := nodesOf(snap, a.GID()); len(nodes) == 2 && len(nodes[0].Writers) == 1 && len(nodes[1].Readers) == 1 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("nodes of %v never showed up: %+v", a.GID(), snap.Nodes)
		case <-time.After(20 * time.Millisecond):
		}
	}
	nodes := nodesOf(snap, a.GID())
	if nodes[0].FullName() != "/fake_sim" || nodes[1].FullName() != "/robot/controller" {
		t.Fatalf("nodes = %s, %s", nodes[0].FullName(), nodes[1].FullName())
	}
	w := nodes[0].Writers[0]
	if w.Topic != "/clock" || w.Type != "rosgraph_msgs/msg/Clock" || w.QoS.Reliability != transport.Reliable ||
		w.QoS.Durability != transport.Volatile || w.QoS.Depth != 1 || w.Node != "/fake_sim" ||
		w.TypeHash != "RIHS01_692f7a66e93a3c83e71765d033b60349ba68023a8c689a79e48078bcb5c58564" {
		t.Errorf("writer = %+v", w)
	}
	if transport.PublisherID(w.GUID.String()) != pub.ID() {
		t.Errorf("writer GUID %v, publisher ID %v", w.GUID, pub.ID())
	}
	r := nodes[1].Readers[0]
	if r.QoS.Durability != transport.TransientLocal {
		t.Errorf("reader = %+v", r)
	}
	if m := snap.Matches(r); len(m) != 0 {
		t.Errorf("transient local reader matches %d volatile writers", len(m))
	}
	p, ok := snap.Participant(a.GID())
	if !ok || p.Enclave != "/" || !p.HasDiscoveryInfo || p.Vendor != "Eclipse Cyclone DDS" {
		t.Errorf("participant = %+v (found %v)", p, ok)
	}

	// Closing a node withdraws it.
	if err := ctl.Close(); err != nil {
		t.Fatal(err)
	}
	for {
		if nodes := nodesOf(g.Snapshot(), a.GID()); len(nodes) == 1 && nodes[0].Name == "fake_sim" {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("closed node still listed: %+v", nodesOf(g.Snapshot(), a.GID()))
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func nodesOf(s graph.Snapshot, pp graph.GUID) []graph.Node {
	var out []graph.Node
	for _, n := range s.Nodes {
		if n.Participant == pp {
			out = append(out, n)
		}
	}
	return out
}
