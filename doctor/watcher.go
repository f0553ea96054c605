package doctor

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/ros2msg"
	"github.com/simclock/simclock/rules"
	"github.com/simclock/simclock/transport"
)

// A Source is a participant doctor watches the graph through;
// transport/dds's Transport is one.
type Source interface {
	// WatchGraph feeds g with discovery until ctx is done.
	WatchGraph(ctx context.Context, g *graph.Graph, poll time.Duration) error
	// SubscribeRaw reads a DDS topic of any type as raw CDR, waking the
	// subscriber as data arrives (used for /clock).
	SubscribeRaw(ddsTopic, ddsType string, qos transport.QoS) (transport.Subscription, error)
	// Sampler reads a DDS topic of any type as raw CDR when polled (used
	// for stamped topics, so that busy topics cost only what is taken).
	Sampler(ddsTopic, ddsType string, qos transport.QoS) (transport.Sampler, error)
	// GID is the source's own participant, left out of reports.
	GID() graph.GUID
}

// Options tunes a Watcher. The zero value gives the defaults.
type Options struct {
	// Tolerance is how far a stamp may be from the current /clock and
	// still be "sim"; defaults to 1 s.
	Tolerance time.Duration
	// WallTolerance is how near the wall clock a stamp must be to be
	// "wall"; defaults to 10 s.
	WallTolerance time.Duration
	// Poll is how often discovery and samples are taken; defaults to
	// 100 ms.
	Poll time.Duration
	// IgnoreStamps are ROS topics whose stamps are not sampled; defaults
	// to /rosout (rcl stamps log messages with the system clock by
	// design) and /parameter_events.
	IgnoreStamps []string
	// SampleDepth is the queue depth of each stamped topic's reader: at
	// most this many samples per topic are classified per Poll; defaults
	// to 8.
	SampleDepth int
	// FailOn says which findings make a report's Summary.OK false; the
	// zero value fails on warnings and errors.
	FailOn rules.FailOn
}

func (o *Options) defaults() {
	if o.Tolerance <= 0 {
		o.Tolerance = time.Second
	}
	if o.WallTolerance <= 0 {
		o.WallTolerance = 10 * time.Second
	}
	if o.Poll <= 0 {
		o.Poll = 100 * time.Millisecond
	}
	if o.IgnoreStamps == nil {
		o.IgnoreStamps = []string{"/rosout", "/parameter_events"}
	}
	if o.SampleDepth <= 0 {
		o.SampleDepth = 8
	}
}

// A Watcher watches a graph from Start until Close. Its methods are safe
// for concurrent use.
type Watcher struct {
	src   Source
	opts  Options
	g     *graph.Graph
	start time.Time

	cancel context.CancelFunc
	wg     sync.WaitGroup
	errMu  sync.Mutex
	err    error

	mu      sync.Mutex // mu guards the fields below
	clock   *clockWatch
	stamps  map[string]map[string]*WriterStamps
	schemas map[string]string
	readers map[string]*topicReader // by DDS topic
	times   []ros2msg.TimeField     // scratch for decoding
}

type topicReader struct {
	sub    transport.Sampler
	schema *ros2msg.Schema
}

// Start begins watching the graph through src. Call Close to stop.
func Start(ctx context.Context, src Source, opts Options) (*Watcher, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opts.defaults()
	ctx, cancel := context.WithCancel(ctx)
	w := &Watcher{src: src, opts: opts, g: graph.New(), start: time.Now(), cancel: cancel,
		stamps: map[string]map[string]*WriterStamps{}, schemas: map[string]string{},
		readers: map[string]*topicReader{}}
	w.clock = newClockWatch(w.start)
	// /clock is read as soon as it flows, not per Poll: its receipt times
	// give the rate, and the (wall, sim) points date every stamp.
	clockSub, err := src.SubscribeRaw(ClockDDSTopic, ClockDDSType,
		transport.QoS{Depth: 1000, Reliability: transport.BestEffort})
	if err != nil {
		cancel()
		return nil, err
	}
	w.wg.Go(func() {
		err := w.src.WatchGraph(ctx, w.g, w.opts.Poll)
		w.fail(err)
	})
	w.wg.Go(func() {
		defer clockSub.Close()                                      //nolint:errcheck // nothing to report
		transport.Receive(ctx, clockSub, func(s transport.Sample) { //nolint:errcheck // ends with ctx
			now := time.Now()
			w.mu.Lock()
			w.clock.observe(sampleWall(s, now), s.Data, s.Publisher)
			w.mu.Unlock()
		})
	})
	w.wg.Go(func() { w.sample(ctx) })
	return w, nil
}

// sampleWall is when s was written: its source timestamp, or now.
func sampleWall(s transport.Sample, now time.Time) time.Time {
	if s.SourceTimestamp > 0 {
		return time.Unix(0, s.SourceTimestamp)
	}
	return now
}

func (w *Watcher) fail(err error) {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return
	}
	w.errMu.Lock()
	defer w.errMu.Unlock()
	if w.err == nil {
		w.err = err
	}
}

// Err returns the first error that stopped part of the watching, or nil.
func (w *Watcher) Err() error {
	w.errMu.Lock()
	defer w.errMu.Unlock()
	return w.err
}

// Graph returns the graph being watched.
func (w *Watcher) Graph() *graph.Graph { return w.g }

// sample subscribes to new stamped topics and classifies their samples,
// every Poll, until ctx is done.
func (w *Watcher) sample(ctx context.Context) {
	tick := time.NewTicker(w.opts.Poll)
	defer tick.Stop()
	defer func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		for _, r := range w.readers {
			if r.sub != nil {
				r.sub.Close() //nolint:errcheck // nothing to report
			}
		}
	}()
	var seen uint64
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if v := w.g.Version(); v != seen {
			seen = v
			w.subscribeNew(w.g.Snapshot())
		}
		w.takeSamples()
	}
}

// subscribeNew opens a reader on every ROS topic with a writer that has
// none yet, and decides whether its type carries stamps.
func (w *Watcher) subscribeNew(s graph.Snapshot) {
	self := w.src.GID()
	ignored := map[string]bool{}
	for _, t := range w.opts.IgnoreStamps {
		ignored[t] = true
	}
	for _, t := range s.Topics() {
		w.mu.Lock()
		_, done := w.readers[t.DDSTopic]
		w.mu.Unlock()
		if done || t.Topic == "" || t.DDSTopic == ClockDDSTopic || len(t.Types) != 1 {
			continue
		}
		var writer *graph.Endpoint
		for i := range t.Writers {
			if t.Writers[i].Participant != self {
				writer = &t.Writers[i]
				break
			}
		}
		if writer == nil {
			continue
		}
		r := &topicReader{}
		base := ""
		switch {
		case ignored[t.Topic]:
			base = "ignored"
		case writer.Type == "":
			base = BaseUnknown
		default:
			schema, err := ros2msg.ParseShipped(writer.Type)
			switch {
			case err != nil:
				base = BaseUnknown
			case !schema.Root.HasTime():
				base = BaseNone
			default:
				r.schema = schema
			}
		}
		if r.schema != nil {
			sub, err := w.src.Sampler(t.DDSTopic, writer.DDSType,
				transport.QoS{Depth: w.opts.SampleDepth, Reliability: transport.BestEffort})
			if err != nil {
				base = BaseUnknown
				r.schema = nil
			} else {
				r.sub = sub
			}
		}
		w.mu.Lock()
		w.readers[t.DDSTopic] = r
		w.schemas[t.DDSTopic] = base
		w.mu.Unlock()
	}
}

// takeSamples classifies every queued sample of every stamped topic.
func (w *Watcher) takeSamples() {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := time.Now()
	for topic, r := range w.readers {
		if r.sub == nil {
			continue
		}
		for {
			s, ok := r.sub.Take()
			if !ok {
				break
			}
			w.classify(topic, r, s, now)
		}
	}
}

// classify counts the stamps of one sample. The caller holds w.mu.
func (w *Watcher) classify(topic string, r *topicReader, s transport.Sample, now time.Time) {
	byWriter := w.stamps[topic]
	if byWriter == nil {
		byWriter = map[string]*WriterStamps{}
		w.stamps[topic] = byWriter
	}
	ws := byWriter[string(s.Publisher)]
	if ws == nil {
		ws = &WriterStamps{}
		byWriter[string(s.Publisher)] = ws
	}
	var err error
	w.times, err = r.schema.AppendTimes(w.times[:0], s.Data)
	if err != nil {
		ws.Malformed++
		return
	}
	header := false
	for _, f := range w.times {
		header = header || f.Header
	}
	wall := sampleWall(s, now).UnixNano()
	sim, haveSim := w.clock.simAt(wall)
	for _, f := range w.times {
		if header && !f.Header {
			continue
		}
		stamp := f.Time.Nanoseconds()
		c, ok := Classify(stamp, sim, haveSim, wall, w.opts.Tolerance, w.opts.WallTolerance)
		if !ok {
			continue
		}
		ref := sim
		if c == Wall {
			ref = wall
		}
		ws.add(c, stamp, ref)
	}
}

// Pending returns how many ROS participants (those announcing an enclave)
// have not had their ros_discovery_info received yet: their nodes are
// unknown. A late joiner gets it from each participant's transient-local
// writer, which may take a heartbeat period (3 s for Fast DDS).
func (w *Watcher) Pending() int {
	n := 0
	for _, p := range w.g.Snapshot().Participants {
		if p.GUID != w.src.GID() && p.Enclave != "" && !p.HasDiscoveryInfo {
			n++
		}
	}
	return n
}

// Report returns the report of everything seen so far.
func (w *Watcher) Report() Report {
	snap := w.g.Snapshot()
	now := time.Now()
	w.mu.Lock()
	obs := Observation{Graph: snap, Self: w.src.GID(), Elapsed: now.Sub(w.start), Now: now,
		Clock: map[string]ClockWriter{}, Stamps: map[string]map[string]*WriterStamps{}, Schemas: map[string]string{}, FailOn: w.opts.FailOn}
	for pub := range w.clock.writers {
		obs.Clock[string(pub)] = w.clock.stats(now, pub)
	}
	for topic, byWriter := range w.stamps {
		m := map[string]*WriterStamps{}
		for k, v := range byWriter {
			c := *v
			m[k] = &c
		}
		obs.Stamps[topic] = m
	}
	for k, v := range w.schemas {
		obs.Schemas[k] = v
	}
	w.mu.Unlock()
	return Analyze(obs)
}

// Close stops watching and releases the readers. It returns Err.
func (w *Watcher) Close() error {
	w.cancel()
	w.wg.Wait()
	return w.Err()
}
