package cli

import (
	"context"
	"sync"
	"time"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/internal/term"
	"github.com/simclock/simclock/transport"
)

// graphWatcher is a transport that can follow the DDS graph (transport/dds).
type graphWatcher interface {
	WatchGraph(ctx context.Context, g *graph.Graph, poll time.Duration) error
}

// graphView follows the graph beside a live command (pub, monitor, bag
// clock): it names the node behind a publisher's GID through
// ros_discovery_info, as ros2 topic info -v does, and shows the other
// readers and writers of the command's topic.
type graphView struct {
	g    *graph.Graph
	stop context.CancelFunc
	done chan struct{}
}

// watchGraph starts a graphView on tr, or returns nil when tr does not see
// a graph (--transport inproc). Close stops it.
func watchGraph(ctx context.Context, tr transport.Transport) *graphView {
	w, ok := tr.(graphWatcher)
	if !ok {
		return nil
	}
	ctx, stop := context.WithCancel(ctx)
	v := &graphView{g: graph.New(), stop: stop, done: make(chan struct{})}
	go func() {
		defer close(v.done)
		w.WatchGraph(ctx, v.g, 0) //nolint:errcheck // a graph that cannot be watched only leaves GIDs unnamed
	}()
	return v
}

// Close stops watching and waits for the watcher to end.
func (v *graphView) Close() {
	if v == nil {
		return
	}
	v.stop()
	<-v.done
}

// nodeOf returns the node that owns the endpoint with transport ID id, or
// "" when no node lists it (yet), or v is nil.
func (v *graphView) nodeOf(id string) string {
	if v == nil {
		return ""
	}
	gid, ok := graph.ParseGUID(id)
	if !ok {
		return ""
	}
	return v.g.NodeOf(gid)
}

// name fills in the node of every publisher v knows.
func (v *graphView) name(ps []clockstream.PublisherStats) {
	for i := range ps {
		if ps[i].Node == "" {
			ps[i].Node = v.nodeOf(ps[i].ID)
		}
	}
}

// endpoints returns the endpoints of kind on the ROS topic, from the
// latest snapshot; nil when v is nil.
func (v *graphView) endpoints(topic string, kind graph.EndpointKind) []graph.Endpoint {
	if v == nil {
		return nil
	}
	return v.g.Snapshot().OnTopic("rt"+topic, kind)
}

// onceSet remembers which keys were already reported.
type onceSet struct {
	mu   sync.Mutex
	seen map[string]bool
}

// first reports whether key is new, and remembers it.
func (o *onceSet) first(key string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.seen == nil {
		o.seen = map[string]bool{}
	}
	if o.seen[key] {
		return false
	}
	o.seen[key] = true
	return true
}

// publisherName is how text output names a publisher: its node, else its
// GID.
func publisherName(p clockstream.PublisherStats) string {
	if p.Node != "" {
		return term.Escape(p.Node)
	}
	return term.Escape(p.ID)
}
