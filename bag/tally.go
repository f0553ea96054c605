package bag

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/ros2msg"
	"github.com/simclock/simclock/rules"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
)

// A tally is what the streaming pass counted in a bag: per topic, per Time
// field and for /clock, how many of each kind of occurrence, with the
// first examples of each. It judges nothing: the checks (check_*.go) turn
// it into findings once the bag has been read.
type tally struct {
	opts   Options
	topics map[string]*topicTally
	clock  clockTally

	messages int64
	bytes    int64
	start    int64 // first log time
	end      int64 // last log time
	skipped  bool  // some messages were skipped (damaged chunks)
	// holes, lastLog and inHole track the skipped stretches, for plots.
	holes   []Hole
	lastLog int64 // log time of the last message read (math.MinInt64: none)
	inHole  bool

	// What reading the files gave: the bag given, each file as read, and
	// the error that stopped reading (nil when every file was read).
	set     *bagSet
	files   []FileInfo
	readErr error

	// The pass's own state.
	file    string // base name of the file being read, for examples
	schemas map[string]*ros2msg.Schema
	schErr  map[string]error
	tbuf    []ros2msg.TimeField // reused for every message
	lastS   int                 // the publisher stream of the channel topic last returned
	// msgZstd: every message is zstd-compressed (compression_mode: message).
	msgZstd bool
	zdec    *zstd.Decoder
	zbuf    []byte
}

// A chanTally is a channel's topic and its publisher stream in it.
type chanTally struct {
	tt     *topicTally
	stream int
}

// A counter counts one kind of occurrence and keeps its first examples.
type counter struct {
	n  int64
	ex []rules.Example
}

// topicTally is what was counted on one topic.
type topicTally struct {
	rep    TopicReport // the counts as read (messages, bytes, log times, publishers, type)
	schema *ros2msg.Schema
	// fixed is the schema's fixed layout (nil when it has none) and
	// fixedFields the tallies of its Times, in its order, found at the
	// first message read by it: a plan per topic, computed once, instead
	// of a walk and a field lookup per message.
	fixed       *ros2msg.FixedLayout
	fixedFields []*fieldTally
	parseErr    error // why the topic could not be decoded
	isClock     bool  // the topic is /clock
	staticTF    bool  // its transforms are static (isStaticTF): stamps not judged
	clockType   bool  // its type is rosgraph_msgs/msg/Clock
	fields      map[string]*fieldTally
	byPos       []*fieldTally // fields by position in the last message, a cache of fields
	order       []string      // field paths in the order first seen

	decodeErrors counter // messages that do not decode
	firstErr     string  // the first decode error
	beforeClock  counter // messages recorded before the first /clock

	// A storage that records each publisher of a topic as a channel of
	// its own (MCAP allows several channels on one topic; rosbag2 writes
	// one) tells the publishers' streams apart: the k-th channel of the
	// topic in a file is stream k. rosbag2's bags are one stream a topic.
	fileChans    int // channels of the topic in the file being read
	fileProfiles int // their offered QoS profiles
	streams      int // the most channels the topic had in one file
}

// fieldTally is what was counted on one Time field of one topic.
type fieldTally struct {
	topic    string
	path     string // "header.stamp"
	header   bool   // a std_msgs/Header stamp
	count    int64
	min, max int64

	// other is set when the field carries another clock than the graph's
	// by design (otherClocks): only not_normalized is judged.
	other *otherClock

	zero           counter // stamps of 0
	notNormalized  counter // nanosec of 1e9 or more
	backwards      counter // a stamp below the previous one of its stream (not for arrays)
	windowNegative counter // stamp − W < 0
	windowZero     counter // stamp − W == 0

	// Every stamp is compared with two references: the recorder's log
	// time, and the latest /clock (once there is one). The report uses
	// /clock when the bag has it (ref).
	log, clock baseTally

	prev   []prevStamp // the previous non-zero stamp of each publisher stream, for backwards
	series decimator
}

// A prevStamp is the previous stamp of one publisher stream of a field.
type prevStamp struct {
	v  int64
	ok bool
}

// A baseTally compares stamps with one reference.
type baseTally struct {
	offBase counter // farther from the reference than Options.BaseTolerance
	future  counter // within it, but ahead by more than Options.FutureTolerance
	maxLead int64   // the largest lead within BaseTolerance; MinInt64 when none
}

// clockTally is what the /clock messages gave, described by the one
// clockstream analyser.
type clockTally struct {
	stream *clockstream.Analyzer // nil before the first /clock message
	at     time.Duration         // log time of the last message fed
	idx    int64                 // index of the message being fed
	winAt  time.Duration         // start of the current RTF interval
	report ClockReport           // filled as read, completed by finish
	seen   bool                  // a valid /clock value was recorded
	last   int64                 // the latest valid value: the stamps' reference
	// stale: messages were skipped (a damaged chunk) since last, which is
	// then no reference for what follows: the hole may have held /clock
	// messages far from it, the first /clock among them.
	stale bool

	rtfSeen          bool // an RTF interval has completed
	rtfMinv, rtfMaxv float64

	// split follows the timelines of the /clock values, which tell
	// several publishers interleaved apart though the bag does not record
	// who sent each message; lines holds each timeline's plot series (the
	// first maxLineSeries timelines).
	split *clockstream.Splitter
	lines map[transport.PublisherID]*decimator
	// line is the last message's timeline and its series (nil when not
	// drawn): nearly every message continues it, with no map lookup.
	line struct {
		id transport.PublisherID
		d  *decimator
	}

	// Examples of the analyser's events (their counts are its totals).
	backward, forward, gaps, pauses []rules.Example

	windowNegative counter // values below W
	windowZero     counter // values equal to W
	series         decimator

	// stand is the current run of one /clock value, so that a pause's
	// example can say where it began and, once it ends, how long it held.
	stand struct {
		log, lastLog, idx, value, msgs int64
		example                        int // index in pauses, or -1
	}
}

func newTally(opts Options, set *bagSet) *tally {
	t := &tally{
		opts: opts, set: set, topics: map[string]*topicTally{},
		schemas: map[string]*ros2msg.Schema{}, schErr: map[string]error{},
		start: math.MaxInt64, end: math.MinInt64, lastLog: math.MinInt64,
	}
	t.clock.stand.example = -1
	t.clock.split = clockstream.NewSplitter(t.clockConfig())
	t.clock.lines = map[transport.PublisherID]*decimator{}
	if set.meta != nil && set.meta.CompressionMode == "message" {
		t.msgZstd = true
	}
	return t
}

// example keeps e in c's examples while there is room, naming the file.
func (t *tally) example(c *counter, e rules.Example) {
	c.n++
	t.keep(&c.ex, e)
}

// keep appends e to list while it has room, naming the file.
func (t *tally) keep(list *[]rules.Example, e rules.Example) {
	if len(*list) < t.opts.Examples {
		e.File = t.file
		*list = append(*list, e)
	}
}

// topic returns the tally of a channel's topic, and sets lastS to the
// channel's publisher stream in it. It is small enough to inline into the
// per-message path; a channel's first message goes to newChannel.
func (t *tally) topic(ch *channel) *topicTally {
	if c := ch.tally; c != nil { // a channel carries its tally: no lookup per message
		t.lastS = c.stream
		return c.tt
	}
	return t.newChannel(ch)
}

// newChannel is topic for a channel not seen before: it finds or makes
// its topic's tally and gives the channel the next publisher stream of it.
func (t *tally) newChannel(ch *channel) *topicTally {
	tt := t.topics[ch.Topic]
	if tt == nil {
		tt = &topicTally{fields: map[string]*fieldTally{}}
		tt.rep.Topic = ch.Topic
		tt.rep.FirstLogNS = -1
		tt.rep.Type, tt.rep.Encoding = ch.Type, ch.SchemaEncoding
		tt.isClock = ch.Topic == timemsg.ClockTopic
		tt.clockType = ch.Type != "" && ros2msg.Canonical(ch.Type) == ros2msg.Canonical(timemsg.ClockTypeName)
		tt.staticTF = isStaticTF(ch)
		var src string
		tt.schema, src, tt.parseErr = t.schemaOf(ch)
		if tt.schema != nil {
			tt.rep.Definition = src
			tt.fixed = tt.schema.Fixed()
		}
		if tt.isClock && tt.clockType && tt.parseErr != nil {
			tt.parseErr = nil // /clock is decoded by type, whatever its schema text
		}
		tt.rep.Decoded = tt.schema != nil || tt.isClock && tt.clockType
		t.topics[ch.Topic] = tt
	}
	// A channel not seen before: the next publisher stream of its topic
	// in this file.
	c := &chanTally{tt: tt, stream: tt.fileChans}
	tt.fileChans++
	tt.fileProfiles += countProfiles(ch.OfferedQoS)
	tt.streams = max(tt.streams, tt.fileChans)
	tt.rep.Publishers = max(tt.rep.Publishers, tt.fileProfiles)
	ch.tally = c
	t.lastS = c.stream
	return tt
}

// newFile is told that the next file of the bag is read: its channels
// are numbered from the first again, so that the one channel of a topic
// in each file of a split bag is the same stream.
func (t *tally) newFile(name string) {
	t.file = name
	for _, tt := range t.topics {
		tt.fileChans, tt.fileProfiles = 0, 0
	}
}

// schemaOf parses the definition of a channel's type, or says why it
// cannot be decoded. A type the bag does not define (sqlite3 bags before
// Iron store no definitions) is taken from the definitions shipped for
// common interface packages; any other is unknown, never guessed.
func (t *tally) schemaOf(ch *channel) (*ros2msg.Schema, string, error) {
	switch {
	case ch.MessageEncoding != "cdr":
		return nil, "", fmt.Errorf("message encoding \"%s\" is not cdr", ch.MessageEncoding)
	case ch.Type == "":
		return nil, "", errors.New("the channel has no type")
	case ch.SchemaEncoding == "" || ch.SchemaEncoding == "unknown":
		key := "\x00shipped\x00" + ch.Type
		s, ok := t.schemas[key]
		if !ok {
			var err error
			s, err = ros2msg.ParseShipped(ros2msg.Canonical(ch.Type))
			if errors.Is(err, ros2msg.ErrUnknownType) {
				err = fmt.Errorf("the bag holds no definition of %s, and it is not among the shipped common interface types", ch.Type)
			}
			t.schemas[key], t.schErr[key] = s, err
		}
		return s, DefinitionShipped, t.schErr[key]
	case ch.SchemaEncoding != "ros2msg":
		return nil, "", fmt.Errorf("schema encoding \"%s\" is not ros2msg", ch.SchemaEncoding)
	}
	key := ch.Type + "\x00" + string(ch.Definition)
	s, ok := t.schemas[key]
	if !ok {
		var err error
		s, err = ros2msg.Parse(ch.Type, ch.Definition)
		t.schemas[key], t.schErr[key] = s, err
	}
	return s, DefinitionBag, t.schErr[key]
}

// message counts one message: the sink's onMessage.
func (t *tally) message(ch *channel, m *message) error {
	tt := t.topic(ch)
	stream := t.lastS
	logNS := m.LogTime
	if t.msgZstd {
		data, err := t.unzip(m.Data)
		if err != nil {
			t.messages++
			tt.rep.Messages++
			t.decodeError(tt, logNS, tt.rep.Messages-1, fmt.Errorf("zstd message compression: %w", err))
			return nil
		}
		m.Data = data
	}
	t.messages++
	t.bytes += int64(len(m.Data))
	if t.inHole {
		t.holes[len(t.holes)-1].Before, t.inHole = logNS, false
	}
	t.lastLog = logNS
	t.start = min(t.start, logNS)
	t.end = max(t.end, logNS)
	idx := tt.rep.Messages
	tt.rep.Messages++
	tt.rep.Bytes += int64(len(m.Data))
	if tt.rep.FirstLogNS < 0 {
		tt.rep.FirstLogNS = logNS
	}
	tt.rep.LastLogNS = logNS
	if tt.isClock && tt.clockType {
		t.clockMessage(tt, logNS, idx, m.Data)
		return nil
	}
	if !t.clock.seen && !t.clock.stale {
		t.example(&tt.beforeClock, rules.Example{LogNS: logNS, Index: idx})
	}
	if tt.schema == nil {
		return nil
	}
	if t.opts.DecodeAll {
		if _, err := tt.schema.Decode(m.Data); err != nil {
			t.decodeError(tt, logNS, idx, err)
		}
	}
	if l := tt.fixed; l != nil && l.Reads(m.Data) {
		if tt.fixedFields == nil {
			for i := range l.Times {
				tt.fixedFields = append(tt.fixedFields, tt.fieldAt(i, &l.Times[i]))
			}
		}
		for i, f := range tt.fixedFields {
			t.stamp(f, stream, -1, l.Time(m.Data, i), logNS, idx)
		}
		return nil
	}
	ts, err := tt.schema.AppendTimes(t.tbuf[:0], m.Data)
	t.tbuf = ts
	for i := range ts {
		t.stamp(tt.fieldAt(i, &ts[i]), stream, ts[i].Index, ts[i].Time, logNS, idx)
	}
	if err != nil && !t.opts.DecodeAll {
		t.decodeError(tt, logNS, idx, err)
	}
	return nil
}

// countProfiles counts the entries of an offered_qos_profiles YAML
// sequence: one per publisher the recorder saw on the topic.
func countProfiles(yaml string) int {
	n := 0
	for line := range strings.SplitSeq(yaml, "\n") {
		if strings.HasPrefix(line, "- ") || line == "-" {
			n++
		}
	}
	return n
}

func (t *tally) decodeError(tt *topicTally, logNS, idx int64, err error) {
	if tt.firstErr == "" {
		tt.firstErr = err.Error()
	}
	t.example(&tt.decodeErrors, rules.Example{LogNS: logNS, Index: idx, Detail: err.Error()})
}

func (tt *topicTally) field(path string, header bool, owner string) *fieldTally {
	f := tt.fields[path]
	if f == nil {
		other := otherClockOf(owner)
		if other == nil && tt.staticTF {
			other = &staticTransforms
		}
		f = &fieldTally{topic: tt.rep.Topic, path: path, header: header, min: math.MaxInt64, max: math.MinInt64, other: other}
		f.log.maxLead, f.clock.maxLead = math.MinInt64, math.MinInt64
		tt.fields[path] = f
		tt.order = append(tt.order, path)
	}
	return f
}

// fieldAt returns the tally of the i-th Time field of a message: messages
// of one type usually list the same fields in the same order.
func (tt *topicTally) fieldAt(i int, tf *ros2msg.TimeField) *fieldTally {
	if i < len(tt.byPos) {
		if f := tt.byPos[i]; f != nil && f.path == tf.Path {
			return f
		}
	}
	f := tt.field(tf.Path, tf.Header, tf.Owner)
	for len(tt.byPos) <= i {
		tt.byPos = append(tt.byPos, nil)
	}
	tt.byPos[i] = f
	return f
}

// stamp counts one Time value tm of field f of a message (index: its
// element in an array, or -1): 0, not normalized, below the previous one
// of its publisher stream, against the window W, and against both
// references; a field of another clock only for not normalized.
func (t *tally) stamp(f *fieldTally, stream, index int, tm timemsg.Time, logNS, idx int64) {
	v := tm.Nanoseconds()
	f.count++
	f.min, f.max = min(f.min, v), max(f.max, v)
	f.series.add(Point{logNS, v})
	ex := rules.Example{LogNS: logNS, ValueNS: v, Index: idx}
	if index >= 0 {
		ex.Element = index
	}
	if !tm.Normalized() { // R8
		e := ex
		e.Detail = fmt.Sprintf("nanosec %d", tm.Nanosec)
		t.example(&f.notNormalized, e)
	}
	if f.other != nil { // not the graph's clock: nothing to compare it with
		return
	}
	if v == 0 { // R10, R29: nothing else to say about an unset stamp
		t.example(&f.zero, ex)
		return
	}
	if index < 0 {
		for len(f.prev) <= stream {
			f.prev = append(f.prev, prevStamp{})
		}
		if p := f.prev[stream]; p.ok && v < p.v {
			e := ex
			e.Before = p.v
			t.example(&f.backwards, e)
		}
		f.prev[stream] = prevStamp{v, true}
	}
	if w := t.opts.Window.Nanoseconds(); w > 0 { // R25, R27
		switch {
		case v < w:
			t.example(&f.windowNegative, ex)
		case v == w:
			t.example(&f.windowZero, ex)
		}
	}
	t.compare(&f.log, &ex, logNS, "")
	if t.clock.seen && !t.clock.stale {
		detail := ""
		if abs(v-logNS) <= t.opts.BaseTolerance.Nanoseconds() {
			detail = "near log (wall) time"
		}
		t.compare(&f.clock, &ex, t.clock.last, detail)
	}
}

// compare counts a stamp against reference ref: off base, or in the
// future; detail describes an off-base example. (ex is built only when it
// is kept: a stamp on another time base, such as every stamp of a
// sim-time bag against the log time, costs a count.)
func (t *tally) compare(b *baseTally, ex *rules.Example, ref int64, detail string) {
	if d := ex.ValueNS - ref; abs(d) > t.opts.BaseTolerance.Nanoseconds() {
		if t.room(&b.offBase) {
			e := *ex
			e.RefNS, e.Detail = ref, detail
			t.keep(&b.offBase.ex, e)
		}
	} else {
		b.maxLead = max(b.maxLead, d)
		if d > t.opts.FutureTolerance.Nanoseconds() && t.room(&b.future) {
			e := *ex
			e.RefNS = ref
			t.keep(&b.future.ex, e)
		}
	}
}

// room counts one more occurrence in c and reports whether an example of
// it would be kept.
func (t *tally) room(c *counter) bool {
	c.n++
	return len(c.ex) < t.opts.Examples
}

// ref is the reference f's stamps are judged against: /clock when the bag
// has it, the recorder's log time otherwise. Stamps recorded only before
// the first /clock are then before_first_clock, not on another time base.
func (f *fieldTally) ref(t *tally) *baseTally {
	if t.clock.seen {
		return &f.clock
	}
	return &f.log
}

// stamp reports whether f holds stamps (std_msgs/Header stamps and fields
// named *stamp): some checks are errors for stamps and warnings for other
// Time fields, which may hold 0 or distant times on purpose.
func (f *fieldTally) stamp() bool { return f.header || strings.HasSuffix(f.path, "stamp") }

// lowered is the severity of a finding about f of a check that is an error
// for stamps: the check's own for a stamp (Info, the zero value, stands
// for it), a warning for another Time field.
func (f *fieldTally) lowered() rules.Severity {
	if f.stamp() {
		return rules.Info
	}
	return rules.Warning
}

// subject is what a finding about f is about.
func (f *fieldTally) subject() rules.Subject { return rules.Subject{Topic: f.topic, Field: f.path} }

// rateHz is n messages logged from first to last, per second.
func rateHz(n, first, last int64) float64 {
	if n < 2 || last <= first {
		return 0
	}
	return float64(n-1) / (float64(last-first) / 1e9)
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// clockMessage feeds one /clock message to the clockstream analyser, at
// its log time (the recorder's receive time). The publisher of a recorded
// message is unknown: clock_publishers comes from the recorded QoS
// profiles.
func (t *tally) clockMessage(tt *topicTally, logNS, idx int64, data []byte) {
	c := &t.clock
	at := time.Duration(logNS)
	if c.stream == nil {
		c.stream = clockstream.NewAnalyzer(t.clockConfig(), at)
		c.at, c.winAt = at, at
	}
	// The analyser needs receive order; chunks of a bag may overlap.
	at = max(at, c.at)
	s := clockstream.Decode(at, "", data)
	c.idx = idx
	c.stream.Observe(s)
	line := c.split.Observe(s)
	c.at = at
	if at-c.winAt >= time.Second { // close an RTF interval
		if r := c.stream.Report(at, nil); r.RTF != nil {
			if !c.rtfSeen {
				c.rtfMinv, c.rtfMaxv, c.rtfSeen = *r.RTF, *r.RTF, true
			}
			c.rtfMinv, c.rtfMaxv = min(c.rtfMinv, *r.RTF), max(c.rtfMaxv, *r.RTF)
		}
		c.winAt = at
	}
	if s.Err != nil {
		if bad := notNormalized(s.Err); bad != nil { // R8: counted and dropped
			f := tt.field("clock", false, "")
			t.example(&f.notNormalized, rules.Example{LogNS: logNS, ValueNS: bad.Clock.Nanoseconds(), Index: idx,
				Detail: fmt.Sprintf("nanosec %d", bad.Clock.Nanosec)})
		} else {
			t.decodeError(tt, logNS, idx, s.Err)
		}
		return
	}
	v := s.Value
	c.series.add(Point{logNS, v})
	if line != c.line.id || c.line.d == nil { // a timeline other than the last message's
		c.line.id, c.line.d = line, c.lines[line]
		if c.line.d == nil && len(c.lines) < maxLineSeries {
			c.line.d = &decimator{}
			c.lines[line] = c.line.d
		}
	}
	if d := c.line.d; d != nil {
		d.add(Point{logNS, v})
	}
	if w := t.opts.Window.Nanoseconds(); w > 0 && v <= w { // R27
		ex := rules.Example{LogNS: logNS, ValueNS: v, Index: idx}
		if v == w {
			t.example(&c.windowZero, ex)
		} else {
			t.example(&c.windowNegative, ex)
		}
	}
	if !c.seen || v != c.stand.value {
		if c.stand.example >= 0 { // the call only when a pause waits for its length: /clock moves on nearly every message
			t.endStand()
		}
		c.stand.log, c.stand.idx, c.stand.value, c.stand.msgs = logNS, idx, v, 0
	}
	c.stand.lastLog = logNS
	c.stand.msgs++
	if !c.seen {
		c.seen = true
		c.report.FirstLogNS = logNS
	}
	c.last, c.report.LastLogNS, c.stale = v, logNS, false
}

// notNormalized returns the message a /clock decode error refused for a
// nanosec of 1e9 or more, or nil. (A function of its own, so that only an
// error costs an allocation, not every /clock message.)
func notNormalized(err error) *timemsg.InvalidClockError {
	var bad *timemsg.InvalidClockError
	if errors.Is(err, clockstream.ErrNotNormalized) && errors.As(err, &bad) {
		return bad
	}
	return nil
}

// endStand ends the current run of one /clock value: if the analyser
// called it a pause, its example now says how long the value held.
func (t *tally) endStand() {
	c := &t.clock
	if i := c.stand.example; i >= 0 {
		c.pauses[i].Detail = fmt.Sprintf("/clock held at one value for %s s of log time (%d messages)",
			units.Span(c.stand.lastLog-c.stand.log), c.stand.msgs)
	}
	c.stand.example = -1
}

// clockConfig is the analyser's configuration: clockstream's defaults,
// with Options.Periods.
func (t *tally) clockConfig() clockstream.Config {
	cfg := clockstream.DefaultConfig()
	cfg.Periods = t.opts.Periods
	cfg.OnEvent = t.clockEvent
	return cfg
}

// clockEvent keeps an example of each gap, pause and jump the analyser
// reports; the event's At is the log time of the message revealing it.
func (t *tally) clockEvent(e clockstream.Event) {
	c := &t.clock
	ex := rules.Example{LogNS: int64(e.At), ValueNS: e.To, Index: c.idx}
	switch e.Kind {
	case clockstream.BackwardJump: // R14, R22: a backward jump resets ROS timers
		ex.Before, ex.Detail = e.From, fmt.Sprintf("back by %s s", units.Span(e.From-e.To))
		t.keep(&c.backward, ex)
	case clockstream.ForwardJump:
		ex.Before, ex.Detail = e.From, fmt.Sprintf("ahead by %s s in %s s of log time", units.Span(e.To-e.From), units.Span(e.At-c.at))
		t.keep(&c.forward, ex)
	case clockstream.Gap:
		ex.Before, ex.Detail = e.From, fmt.Sprintf("no /clock for %s s of log time", units.Span(e.Length))
		if per := c.stream.Period(); per > 0 {
			ex.Detail += fmt.Sprintf(" (%.0f periods)", float64(e.Length)/float64(per))
		}
		t.keep(&c.gaps, ex)
	case clockstream.Pause: // the example is the run's first message; endStand completes it
		if len(c.pauses) < t.opts.Examples {
			c.stand.example = len(c.pauses)
		}
		t.keep(&c.pauses, rules.Example{LogNS: c.stand.log, ValueNS: c.stand.value, Index: c.stand.idx})
	}
}

// skip is told that messages were skipped (a damaged chunk): steps
// across the hole are not judged, neither for /clock nor for stamps, and
// until the next /clock nothing is judged against /clock (stamps,
// before_first_clock): every reference that depends on it is reset.
func (t *tally) skip() {
	t.skipped = true
	if !t.inHole {
		t.holes = append(t.holes, Hole{After: t.lastLog, Before: math.MaxInt64})
		t.inHole = true
	}
	t.clock.stale = !t.opts.holesKeepClock
	if t.clock.stream != nil {
		t.clock.stream.Break()
	}
	t.clock.split.Break()
	t.endStand()                        // a pause ends at the hole
	t.clock.stand.value = math.MinInt64 // the next value starts a new run
	for _, tt := range t.topics {
		for _, f := range tt.fields {
			clear(f.prev)
		}
	}
}

// finishClock completes the /clock summary from the analyser's totals.
func (t *tally) finishClock() {
	t.endStand()
	c := &t.clock
	r := &c.report
	r.Timelines = []clockstream.PublisherStats{}
	if c.stream != nil {
		tot := c.stream.Totals(c.at)
		r.Present, r.Messages, r.FirstNS, r.LastNS = tot.HaveClock, int64(tot.Messages), tot.First, tot.Last
		r.PeriodNS, r.StepNS = int64(tot.Period), int64(tot.Step)
		r.RTF = tot.RTF
		if c.rtfSeen {
			r.RTFMin, r.RTFMax = &c.rtfMinv, &c.rtfMaxv
		}
		if c.split.Interleaved() {
			// The values alternate between timelines: one RTF of the
			// whole is meaningless; each timeline has its own.
			r.RTF, r.RTFMin, r.RTFMax = nil, nil, nil
			r.Timelines = c.split.Timelines(c.at)
		}
		r.BackwardJumps, r.ForwardJumps, r.Gaps = int64(tot.BackwardJumps), int64(tot.ForwardJumps), int64(tot.Gaps)
		r.Pauses, r.Stalls = int64(tot.Pauses), int64(tot.Pauses)
		if tt := t.topics[timemsg.ClockTopic]; tt != nil {
			r.RateHz = rateHz(tt.rep.Messages, tt.rep.FirstLogNS, tt.rep.LastLogNS)
		}
	}
	r.SimTimeLog = c.seen && abs(r.FirstNS-r.FirstLogNS) <= t.opts.BaseTolerance.Nanoseconds()
	for _, tt := range t.topics {
		if tt.isClock {
			r.Publishers = max(r.Publishers, tt.rep.Publishers)
		}
	}
}

// sortedTopics returns the topics by name.
func (t *tally) sortedTopics() []*topicTally {
	out := make([]*topicTally, 0, len(t.topics))
	for _, tt := range t.topics {
		out = append(out, tt)
	}
	slices.SortFunc(out, func(a, b *topicTally) int { return strings.Compare(a.rep.Topic, b.rep.Topic) })
	return out
}

// timeFields returns every Time field, topic by topic (by name), each
// topic's in the order first seen.
func (t *tally) timeFields() []*fieldTally {
	var out []*fieldTally
	for _, tt := range t.sortedTopics() {
		for _, p := range tt.order {
			out = append(out, tt.fields[p])
		}
	}
	return out
}

// skippedMessages is how many messages damaged chunks held.
func (t *tally) skippedMessages() int64 {
	var n int64
	for _, f := range t.files {
		n += f.Skipped
	}
	return n
}

// unzip decompresses one message of a bag with zstd message compression.
func (t *tally) unzip(data []byte) ([]byte, error) {
	if t.zdec == nil {
		z, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<30))
		if err != nil {
			return nil, err
		}
		t.zdec = z
	}
	out, err := t.zdec.DecodeAll(data, t.zbuf[:0])
	if err != nil {
		return nil, err
	}
	t.zbuf = out
	return out, nil
}

func (t *tally) close() {
	if t.zdec != nil {
		t.zdec.Close()
	}
}

// fileName names a file of the bag in an example.
func fileName(path string) string { return filepath.Base(path) }

// decimator keeps at most maxPoints points of a series, halving its
// resolution whenever it fills, so memory stays flat however long the bag.
type decimator struct {
	pts    []Point
	stride int64
	skip   int64 // points to pass over before the next one kept
}

const maxPoints = 2048

// maxLineSeries bounds the /clock timelines drawn apart (a recording
// looped many times starts a timeline at each loop).
const maxLineSeries = 8

func (d *decimator) add(p Point) {
	if d.skip > 0 {
		d.skip--
		return
	}
	if d.stride == 0 {
		d.stride = 1
	}
	if len(d.pts) == maxPoints {
		half := d.pts[:0]
		for i := 0; i < len(d.pts); i += 2 {
			half = append(half, d.pts[i])
		}
		d.pts = half
		d.stride *= 2 // p, the (maxPoints × old stride)-th, falls on the new stride
	}
	d.pts = append(d.pts, p)
	d.skip = d.stride - 1
}

func (d *decimator) points() []Point { return d.pts }
