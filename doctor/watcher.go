package doctor

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/simclock/simclock"
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
	// subscriber as data arrives (used for the clock topics).
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
	// DiscoveryGrace is how long a graph may stay empty before it is a
	// finding (nothing_discovered): until then a report says discovery is
	// in progress. Defaults to 3 s.
	DiscoveryGrace time.Duration
	// Network describes how the Source joined the domain, for the
	// finding of an empty domain.
	Network Network
	// Expect are what the graph must show; each that does not hold is a
	// finding (expect_sim_time, expect_sim_stamps, expect_clock_rate).
	Expect []Expectation
	// Steady and System are the clocks the Watcher reads and sleeps on:
	// the process's own by default. A test passes a virtualclock's, and
	// the Watcher runs in virtual time.
	Steady simclock.Clock[simclock.Steady]
	System simclock.Clock[simclock.System]
}

// Network is how the observer joined the DDS domain, as ROS 2's
// environment says it; a report of an empty domain names it.
type Network struct {
	Domain uint32
	// DiscoveryRange is ROS_AUTOMATIC_DISCOVERY_RANGE as applied
	// ("SUBNET", "LOCALHOST", "OFF", "SYSTEM_DEFAULT").
	DiscoveryRange string
	StaticPeers    []string
	// CycloneURI is CYCLONEDDS_URI, empty when unset.
	CycloneURI string
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
	if o.DiscoveryGrace <= 0 {
		o.DiscoveryGrace = 3 * time.Second
	}
	if o.Steady == nil {
		o.Steady = simclock.SteadyClock{}
	}
	if o.System == nil {
		o.System = simclock.SystemClock{}
	}
}

// A Watcher watches a graph from Start until Close. Its methods are safe
// for concurrent use.
type Watcher struct {
	src         Source
	opts        Options
	g           *graph.Graph
	start       time.Time                      // wall clock at Start
	startSteady simclock.Time[simclock.Steady] // steady clock at Start
	ctx         context.Context

	cancel context.CancelFunc
	wg     sync.WaitGroup
	errMu  sync.Mutex
	err    error

	followMu sync.Mutex // followMu serialises refresh; it guards seen
	seen     uint64     // the graph version refresh last followed

	mu      sync.Mutex // mu guards the fields below
	clock   *clockWatch
	clocks  map[string]transport.Subscription // clock readers, by DDS topic
	timeOf  map[string]string                 // a writer's clock topic (DDS), by writer GUID
	owners  map[string]string                 // who a /clock writer is, kept when it leaves
	stamps  map[string]map[string]*WriterStamps
	schemas map[string]string
	readers map[string]*topicReader // by DDS topic
	held    map[string][]heldSample // samples of writers whose clock is not known yet, by writer GUID
	tf      map[TransformKey]*tfStats
	times   []ros2msg.TimeField // scratch for decoding
}

// A heldSample waits until its writer's node, so its clock, is known.
type heldSample struct {
	topic string
	r     *topicReader
	s     transport.Sample
	now   time.Time
}

// maxHeld bounds the samples held per writer (the latest are kept).
const maxHeld = 64

type topicReader struct {
	sub    transport.Sampler
	schema *ros2msg.Schema
	tf     bool // tf2_msgs/msg/TFMessage: read transform by transform
}

// Start begins watching the graph through src. Call Close to stop.
func Start(ctx context.Context, src Source, opts Options) (*Watcher, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opts.defaults()
	ctx, cancel := context.WithCancel(ctx)
	w := &Watcher{src: src, opts: opts, g: graph.New(), start: wallTime(opts.System.Now()),
		startSteady: opts.Steady.Now(), ctx: ctx, cancel: cancel,
		clocks: map[string]transport.Subscription{}, timeOf: map[string]string{}, owners: map[string]string{},
		stamps: map[string]map[string]*WriterStamps{}, schemas: map[string]string{},
		readers: map[string]*topicReader{}, held: map[string][]heldSample{}, tf: map[TransformKey]*tfStats{}}
	w.clock = newClockWatch(w.start)
	// /clock is read from the start, before discovery shows its writers:
	// its first messages date the first stamps. Remapped clock topics are
	// read as discovery finds them.
	w.mu.Lock()
	err := w.readClockLocked(ClockDDSTopic)
	w.mu.Unlock()
	if err != nil {
		cancel()
		w.wg.Wait()
		return nil, err
	}
	w.wg.Go(func() {
		err := w.src.WatchGraph(ctx, w.g, w.opts.Poll)
		w.fail(err)
	})
	w.wg.Go(func() { w.sample(ctx) })
	return w, nil
}

func wallTime(t simclock.Time[simclock.System]) time.Time { return time.Unix(0, t.Nanoseconds()) }

// now returns the wall clock.
func (w *Watcher) now() time.Time { return wallTime(w.opts.System.Now()) }

// elapsed returns the steady time since Start.
func (w *Watcher) elapsed() time.Duration {
	return time.Duration(w.opts.Steady.Now().Nanoseconds() - w.startSteady.Nanoseconds())
}

// readClockLocked subscribes to the clock topic ddsTopic, once. A
// goroutine takes its messages as they arrive, so their receipt times
// give the rate and the (wall, sim) points date every stamp. The caller
// holds w.mu.
func (w *Watcher) readClockLocked(ddsTopic string) error {
	if _, ok := w.clocks[ddsTopic]; ok {
		return nil
	}
	sub, err := w.src.SubscribeRaw(ddsTopic, ClockDDSType, transport.QoS{Depth: 1000, Reliability: transport.BestEffort})
	if err != nil {
		return err
	}
	w.clocks[ddsTopic] = sub
	w.wg.Go(func() {
		defer sub.Close() //nolint:errcheck // nothing to report
		waiter, _ := sub.(transport.Waiter)
		for {
			w.mu.Lock()
			w.drainClockLocked(ddsTopic, sub)
			w.mu.Unlock()
			if waiter != nil {
				if err := waiter.Wait(w.ctx); err != nil {
					return
				}
				continue
			}
			select {
			case <-w.ctx.Done():
				return
			case <-sub.Notify():
			}
		}
	})
	return nil
}

// drainClockLocked observes every queued message of one clock topic. Every
// Take happens under w.mu, so a writer's messages are observed in order
// whether this goroutine or Report takes them. The caller holds w.mu.
func (w *Watcher) drainClockLocked(ddsTopic string, sub transport.Subscription) {
	var now time.Time
	for {
		s, ok := sub.Take()
		if !ok {
			return
		}
		if now.IsZero() {
			now = w.now()
		}
		w.clock.observe(ddsTopic, sampleWall(s, now), s.Data, s.Publisher)
	}
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

// sample follows the graph (new clock topics and stamped topics) and
// classifies the stamped topics' samples, every Poll, until ctx is done.
func (w *Watcher) sample(ctx context.Context) {
	defer func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		for _, r := range w.readers {
			if r.sub != nil {
				r.sub.Close() //nolint:errcheck // nothing to report
			}
		}
	}()
	next := w.opts.Steady.Now()
	for {
		w.refresh()
		w.takeSamples()
		n, err := next.Add(w.opts.Poll)
		if err != nil {
			return // past the end of time
		}
		next = n
		if now := w.opts.Steady.Now(); next.Before(now) {
			next = now // never burst after a stall
		}
		if err := w.opts.Steady.SleepUntil(ctx, next); err != nil {
			return
		}
	}
}

// refresh follows the graph when it changed: new clock topics are read,
// new stamped topics sampled.
func (w *Watcher) refresh() {
	w.followMu.Lock()
	defer w.followMu.Unlock()
	if v := w.g.Version(); v != w.seen {
		w.seen = v
		s := w.g.Snapshot()
		w.follow(s)
		w.subscribeNew(s)
	}
}

// follow reads every clock topic discovered, remembers who owns each
// clock writer (for when it leaves), and which clock topic each writer's
// stamps are to be compared with: its node's.
func (w *Watcher) follow(s graph.Snapshot) {
	self := w.src.GID()
	byNode := map[string]string{} // node → the clock topic its time source reads
	var published []string        // clock topics with a writer
	for _, e := range s.Endpoints {
		if e.DDSType != ClockDDSType || e.Participant == self {
			continue
		}
		if e.Kind == graph.Reader && e.Node != "" {
			if _, ok := byNode[e.Node]; !ok || e.DDSTopic == ClockDDSTopic {
				byNode[e.Node] = e.DDSTopic
			}
		}
		if e.Kind == graph.Writer {
			published = append(published, e.DDSTopic)
		}
	}
	ros := map[graph.GUID]bool{}
	for _, p := range s.Participants {
		ros[p.GUID] = p.IsROS()
	}
	fallback := ClockDDSTopic
	if len(published) > 0 && !contains(published, ClockDDSTopic) {
		fallback = published[0]
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, e := range s.Endpoints {
		if e.Participant == self {
			continue
		}
		if e.DDSType == ClockDDSType {
			if err := w.readClockLocked(e.DDSTopic); err != nil {
				w.fail(err)
			}
			if e.Kind == graph.Writer {
				w.owners[e.GUID.String()] = describeEndpoint(s, e)
			}
		}
		if e.Kind != graph.Writer {
			continue
		}
		// A ROS node's stamps are compared with its own clock; until its
		// node is known (ros_discovery_info may trail the endpoint), they
		// are not compared at all. A writer of no ROS participant is
		// compared with /clock, or the one clock published.
		topic, ok := byNode[e.Node]
		switch {
		case ok:
		case e.Node == "" && ros[e.Participant]:
			delete(w.timeOf, e.GUID.String())
			continue
		default:
			topic = fallback
		}
		w.timeOf[e.GUID.String()] = topic
		for _, h := range w.held[e.GUID.String()] {
			w.classify(h.topic, h.r, h.s, h.now)
		}
		delete(w.held, e.GUID.String())
	}
	// Writers gone take what was held or counted of them along (a
	// restarted node is new writers): memory follows the graph, however
	// long doctor watches. Clock writers are kept (clockWatch bounds them).
	present := make(map[string]bool, len(s.Endpoints))
	for _, e := range s.Endpoints {
		present[e.GUID.String()] = true
	}
	for id := range w.held {
		if !present[id] {
			delete(w.held, id)
		}
	}
	for id := range w.timeOf {
		if !present[id] {
			delete(w.timeOf, id)
		}
	}
	for topic, byWriter := range w.stamps {
		for id := range byWriter {
			if !present[id] {
				delete(byWriter, id)
			}
		}
		if len(byWriter) == 0 {
			delete(w.stamps, topic)
		}
	}
	for k := range w.tf {
		if !present[k.Writer] {
			delete(w.tf, k)
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// subscribeNew opens a reader on every ROS topic with a writer that has
// none yet, and decides whether its type carries stamps.
func (w *Watcher) subscribeNew(s graph.Snapshot) {
	self := w.src.GID()
	ignored := map[string]bool{}
	for _, t := range w.opts.IgnoreStamps {
		ignored[t] = true
	}
	// A topic no writer publishes any more loses its reader: a graph
	// whose nodes restart under new names does not grow doctor.
	published := map[string]bool{}
	for _, t := range s.Topics() {
		for _, e := range t.Writers {
			if e.Participant != self {
				published[t.DDSTopic] = true
			}
		}
	}
	w.mu.Lock()
	for topic, r := range w.readers {
		if published[topic] {
			continue
		}
		if r.sub != nil {
			r.sub.Close() //nolint:errcheck // nothing to report
		}
		delete(w.readers, topic)
		delete(w.schemas, topic)
	}
	w.mu.Unlock()
	for _, t := range s.Topics() {
		w.mu.Lock()
		_, done := w.readers[t.DDSTopic]
		w.mu.Unlock()
		if done || t.Topic == "" || isClockTopic(t) || len(t.Types) != 1 {
			continue
		}
		var writer *graph.Endpoint
		latched := true // every writer is reliable and transient local
		for i := range t.Writers {
			e := &t.Writers[i]
			if e.Participant == self {
				continue
			}
			if writer == nil {
				writer = e
			}
			latched = latched && e.QoS.Durability >= transport.TransientLocal && e.QoS.Reliability == transport.Reliable
		}
		if writer == nil {
			continue
		}
		r := &topicReader{tf: isTFType(writer.DDSType)}
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
			// Latched data (/tf_static, a map) is sent once, to readers
			// that ask for it: read it as ros2 topic echo does, with the
			// writers' reliability and durability.
			qos := transport.QoS{Depth: w.opts.SampleDepth, Reliability: transport.BestEffort}
			if r.tf {
				qos.Depth = max(qos.Depth, tfDepth)
			}
			if latched {
				qos.Reliability, qos.Durability = transport.Reliable, transport.TransientLocal
			}
			sub, err := w.src.Sampler(t.DDSTopic, writer.DDSType, qos)
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

// isClockTopic reports whether t carries rosgraph_msgs/msg/Clock (or is
// /clock): its messages are clock values, not stamps.
func isClockTopic(t graph.Topic) bool {
	if t.DDSTopic == ClockDDSTopic {
		return true
	}
	for _, e := range append(t.Writers, t.Readers...) {
		if e.DDSType == ClockDDSType {
			return true
		}
	}
	return false
}

// takeSamples classifies every queued sample of every stamped topic.
func (w *Watcher) takeSamples() {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.now()
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

// classify counts the stamps of one sample, compared with the clock topic
// its writer's node reads (/clock unless remapped). The caller holds w.mu.
func (w *Watcher) classify(topic string, r *topicReader, s transport.Sample, now time.Time) {
	clockTopic, ok := w.timeOf[string(s.Publisher)]
	if !ok { // its node, so its clock, is not known yet: classified when it is
		h := append(w.held[string(s.Publisher)], heldSample{topic, r, s, now})
		if len(h) > maxHeld {
			h = slices.Delete(h, 0, len(h)-maxHeld)
		}
		w.held[string(s.Publisher)] = h
		return
	}
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
	if r.tf {
		w.classifyTF(topic, s, now, clockTopic, ws)
		return
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
	sim, haveSim := w.clock.simAt(clockTopic, wall)
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
	return pending(w.g.Snapshot(), w.src.GID())
}

func pending(s graph.Snapshot, self graph.GUID) int {
	n := 0
	for _, p := range s.Participants {
		if p.GUID != self && p.Enclave != "" && !p.HasDiscoveryInfo {
			n++
		}
	}
	return n
}

// Report returns the report of everything seen so far. What has arrived
// counts, however busy this process is: Report follows the graph and
// takes every queued message itself before it reports.
func (w *Watcher) Report() Report {
	w.refresh()
	w.mu.Lock()
	for topic, sub := range w.clocks {
		w.drainClockLocked(topic, sub) // first: they date the stamps
	}
	w.mu.Unlock()
	w.takeSamples()
	snap := w.g.Snapshot()
	w.mu.Lock()
	now := w.now()
	obs := Observation{Graph: snap, Self: w.src.GID(), Elapsed: w.elapsed(), Now: now,
		DiscoveryGrace: w.opts.DiscoveryGrace, Network: w.opts.Network, FailOn: w.opts.FailOn,
		Clock: map[string]ClockWriter{}, Stamps: map[string]map[string]*WriterStamps{}, Schemas: map[string]string{}}
	for pub, cw := range w.clock.writers {
		st := w.clock.stats(now, pub)
		st.Topic = rosTopicOr(cw.topic)
		st.Node = w.owners[string(pub)]
		obs.Clock[string(pub)] = st
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
	obs.Transforms = make(map[TransformKey]*TransformStamps, len(w.tf))
	for k, st := range w.tf {
		obs.Transforms[k] = st.snapshot()
	}
	obs.Tolerance = w.opts.Tolerance
	obs.Expect = w.opts.Expect
	w.mu.Unlock()
	return Analyze(obs)
}

// Close stops watching and releases the readers. It returns Err.
func (w *Watcher) Close() error {
	w.cancel()
	w.wg.Wait()
	return w.Err()
}

// classifyTF counts the stamps of one TFMessage sample, transform by
// transform: for its writer on the topic (as any stamped topic) and for
// each parent→child pair, with its lag behind the clock its node reads
// and whether it was stamped on the timeline from before a /clock
// backward jump. The caller holds w.mu.
func (w *Watcher) classifyTF(topic string, s transport.Sample, now time.Time, clockTopic string, ws *WriterStamps) {
	wall := sampleWall(s, now).UnixNano()
	sim, haveSim := w.clock.simAt(clockTopic, wall)
	jump, jumped := w.clock.jumps[clockTopic]
	tol := int64(w.opts.Tolerance)
	err := decodeTF(s.Data, func(stamp int64, parent, child string) {
		c, ok := Classify(stamp, sim, haveSim, wall, w.opts.Tolerance, w.opts.WallTolerance)
		if !ok {
			return
		}
		ref := sim
		if c == Wall {
			ref = wall
		}
		ws.add(c, stamp, ref)
		k := TransformKey{Writer: string(s.Publisher), Parent: parent, Child: child}
		st := w.tf[k]
		if st == nil {
			if len(w.tf) >= maxTransforms {
				return
			}
			st = &tfStats{topic: topic}
			w.tf[k] = st
		}
		st.ws.add(c, stamp, ref)
		if c == Sim || c == Stale || c == Future {
			st.addLag(sim - stamp)
		}
		// Ahead of /clock after it went back, once the writer had time to
		// hear the jump: it keeps the old timeline.
		if jumped && c == Future && wall > jump.wall+tol && stamp > jump.to+tol {
			if st.old == 0 {
				st.oldEx = OldTimelineStamp{Stamp: stamp, Sim: sim, JumpFrom: jump.from, JumpTo: jump.to, JumpAt: jump.at}
			}
			st.old++
		}
	})
	if err != nil {
		ws.Malformed++
	}
}
