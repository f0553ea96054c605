package bag

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/ros2msg"
	"github.com/simclock/simclock/rules"
	"github.com/simclock/simclock/timemsg"
)

// Options tune Inspect. The zero value gives the defaults.
type Options struct {
	// Window is W of the "stamp − W ≤ 0" check (R25, R27); 0 turns it off.
	Window time.Duration
	// Periods is N: a /clock gap (no message) or pause (the value stands
	// still) lasts longer than N periods (clockstream.Config.Periods, as
	// simclock monitor's --periods). Defaults to clockstream's 5.
	Periods int
	// BaseTolerance is how far a stamp may be from the bag's clock before
	// it counts as on another time base (R3, R30). Defaults to 60 s.
	BaseTolerance time.Duration
	// FutureTolerance is how far a stamp may lead the bag's clock before
	// it counts as in the future. Defaults to 100 ms.
	FutureTolerance time.Duration
	// DecodeAll fully decodes every message (ros2msg.Schema.Decode) and
	// reports the messages that do not decode, not just the ones whose
	// Time fields cannot be reached. Slower.
	DecodeAll bool
	// Progress, when set, is called with the bytes read so far and the
	// total size of the bag's files.
	Progress func(done, total int64)
	// Examples is how many occurrences each finding lists. Defaults to 3.
	Examples int
	// NoCRC skips the integrity checks (chunk CRCs, lz4 frame checksums)
	// for speed: a damaged chunk may then be analysed as if it were sound.
	NoCRC bool
}

func (o *Options) defaults() {
	if o.Periods <= 0 {
		o.Periods = clockstream.DefaultConfig().Periods
	}
	if o.BaseTolerance <= 0 {
		o.BaseTolerance = 60 * time.Second
	}
	if o.FutureTolerance <= 0 {
		o.FutureTolerance = 100 * time.Millisecond
	}
	if o.Examples <= 0 {
		o.Examples = 3
	}
}

// Severity ranks findings: the one vocabulary of every simclock tool.
type Severity = rules.Severity

// Severities.
const (
	SeverityError   = rules.Error
	SeverityWarning = rules.Warning
	SeverityInfo    = rules.Info
)

// Finding codes. Each has its entry in Checks, and is documented in
// docs/rules.md.
const (
	CodeNoClock          = "no_clock"
	CodeClockBackward    = "clock_backward"
	CodeClockGap         = "clock_gap"
	CodeClockStall       = "clock_stall"
	CodeClockJump        = "clock_jump_forward"
	CodeClockType        = "clock_type"
	CodeBeforeFirstClock = "before_first_clock"
	CodeZeroStamp        = "zero_stamp"
	CodeTimeBase         = "time_base_mismatch"
	CodeFutureStamp      = "future_stamp"
	CodeNonMonotonic     = "non_monotonic_stamp"
	CodeNotNormalized    = "not_normalized"
	CodeWindowNegative   = "window_negative"
	CodeWindowZero       = "window_zero"
	CodeClockWindow      = "clock_window"
	CodeUnknownSchema    = "unknown_schema"
	CodeDecodeError      = "decode_error"
	CodeReadError        = "read_error"
	CodeClockPublishers  = "clock_publishers"
	CodeDamagedChunk     = "damaged_chunk"
	CodeMetadata         = "metadata_mismatch"
	CodeNoMetadata       = "no_metadata"
)

// An Example is one occurrence of a finding.
type Example struct {
	LogNS   int64  `json:"log_ns"`              // recorder's receive time
	ValueNS int64  `json:"value_ns"`            // the stamp or /clock value
	RefNS   int64  `json:"ref_ns,omitempty"`    // what it was compared with
	Detail  string `json:"detail,omitempty"`    // free text
	Index   int64  `json:"index"`               // message index within its topic, from 0
	File    string `json:"file,omitempty"`      // file holding it (split bags)
	Element int    `json:"element,omitempty"`   // array element, for Times inside arrays
	Before  int64  `json:"before_ns,omitempty"` // previous value, for jumps
}

// A Finding is one hazard found in a bag.
type Finding struct {
	Severity Severity  `json:"severity"`
	Code     string    `json:"code"`
	Rule     string    `json:"rule,omitempty"` // rules enforced, "R10,R29" (from Checks)
	Topic    string    `json:"topic,omitempty"`
	Field    string    `json:"field,omitempty"` // Time field path
	Count    int64     `json:"count"`
	Message  string    `json:"message"`
	Examples []Example `json:"examples,omitempty"`
}

// ClockReport summarises /clock in clockstream's words (its package doc
// defines message, period, step, gap, pause, jump and RTF): the numbers
// are those of a clockstream.Analyzer fed the recorded /clock messages at
// their log times, as simclock monitor and doctor describe a live /clock.
type ClockReport struct {
	Present    bool    `json:"present"`      // a valid /clock value was recorded
	Messages   int64   `json:"messages"`     // valid or not
	FirstNS    int64   `json:"first_ns"`     // first valid /clock value
	LastNS     int64   `json:"last_ns"`      // last valid /clock value
	FirstLogNS int64   `json:"first_log_ns"` // when the first valid /clock was recorded
	LastLogNS  int64   `json:"last_log_ns"`  // when the last valid /clock was recorded
	RateHz     float64 `json:"rate_hz"`      // messages per second of log time
	PeriodNS   int64   `json:"period_ns"`    // median log-time interval, recent
	StepNS     int64   `json:"step_ns"`      // median value step, recent
	// RTF is the real-time factor: /clock advance over log-time advance,
	// jumps left out (pauses count, at RTF 0); 0 when none (several
	// publishers, or nothing advanced).
	RTF float64 `json:"rtf"`
	// RTFMin and RTFMax are the extremes of the real-time factor over
	// successive intervals of at least one second of log time (0 when the
	// bag is shorter).
	RTFMin        float64 `json:"rtf_min"`
	RTFMax        float64 `json:"rtf_max"`
	BackwardJumps int64   `json:"backward_jumps"`
	ForwardJumps  int64   `json:"forward_jumps"`
	Gaps          int64   `json:"gaps"`
	Pauses        int64   `json:"pauses"`
	// Stalls is Pauses under its old name, kept for schema-1 readers.
	Stalls int64 `json:"stalls"`
	// SimTimeLog is true when log time follows /clock (the recorder ran
	// with --use-sim-time), false when log time is wall time.
	SimTimeLog bool `json:"sim_time_log"`
	// Publishers is how many publishers /clock had when it was recorded:
	// the entries of its channel's offered_qos_profiles (0: unknown).
	Publishers int `json:"publishers"`
}

func (ClockReport) topic() string { return timemsg.ClockTopic }

// TimeFieldReport summarises one Time field of one topic.
type TimeFieldReport struct {
	Field        string `json:"field"`  // path, "header.stamp"
	Header       bool   `json:"header"` // a std_msgs/Header stamp
	Count        int64  `json:"count"`
	Zero         int64  `json:"zero"`
	MinNS        int64  `json:"min_ns"`
	MaxNS        int64  `json:"max_ns"`
	NonMonotonic int64  `json:"non_monotonic"`
	// OtherBase counts stamps on another time base than the reference.
	OtherBase int64 `json:"other_base"`
	// Future counts stamps ahead of the reference by more than the
	// tolerance; MaxLeadNS is the largest lead (negative: always behind).
	Future    int64 `json:"future"`
	MaxLeadNS int64 `json:"max_lead_ns"`
	// Reference is what stamps were compared with: "clock" or "log".
	Reference      string `json:"reference"`
	WindowNegative int64  `json:"window_negative"`
	WindowZero     int64  `json:"window_zero"`
}

// TopicReport summarises one topic.
type TopicReport struct {
	Topic      string  `json:"topic"`
	Type       string  `json:"type"`
	Encoding   string  `json:"encoding"` // schema encoding, "ros2msg"
	Messages   int64   `json:"messages"`
	Bytes      int64   `json:"bytes"`
	FirstLogNS int64   `json:"first_log_ns"`
	LastLogNS  int64   `json:"last_log_ns"`
	RateHz     float64 `json:"rate_hz"`
	BeforeClk  int64   `json:"before_first_clock"`
	Publishers int     `json:"publishers"` // from offered_qos_profiles; 0: unknown
	Decoded    bool    `json:"decoded"`    // the schema parsed
	// Definition says where the type's definition came from: "bag",
	// "shipped" (a common type the bag does not define) or "" (none).
	Definition string            `json:"definition,omitempty"`
	DecodeErrs int64             `json:"decode_errors"`
	TimeFields []TimeFieldReport `json:"time_fields"`
}

// A Point is one sample of a plotted series: log time against value.
type Point struct {
	LogNS, ValueNS int64
}

// A Series is a decimated timeline of one clock or stamp field, for plots.
type Series struct {
	Topic  string
	Field  string
	Points []Point
}

// Report is everything Inspect found.
type Report struct {
	Files      []FileInfo    `json:"files"`
	Messages   int64         `json:"messages"`
	Bytes      int64         `json:"bytes"`
	StartLogNS int64         `json:"start_log_ns"`
	EndLogNS   int64         `json:"end_log_ns"`
	Clock      ClockReport   `json:"clock"`
	Topics     []TopicReport `json:"topics"`
	Findings   []Finding     `json:"findings"`
	// Complete is false when a read error stopped Inspect early; the
	// report then covers everything before the error.
	Complete bool `json:"complete"`
	// Skipped counts the messages of damaged chunks, not analysed.
	Skipped int64 `json:"skipped_messages"`
	// Bag describes the bag directory, when one was given.
	Bag *BagReport `json:"bag,omitempty"`
	// Series holds the /clock timeline and the stamp timelines, decimated
	// to a few thousand points each, for plots.
	Series []Series `json:"-"`
	// Window is the W of the stamp − W checks (Options.Window), drawn on
	// plots; 0 when off.
	Window time.Duration `json:"-"`
}

// Count returns how many findings have severity s.
func (r *Report) Count(s Severity) int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == s {
			n++
		}
	}
	return n
}

// Inspect reads one rosbag2 bag and reports its time hazards. paths is
// a bag directory (or its metadata.yaml), or the storage files of one bag
// given one by one (.mcap, .db3, either with .zstd file compression; a
// split bag is all of its files, ordered by their first message when
// their summaries say). A directory is read as "ros2 bag info" reads it:
// the files metadata.yaml lists, in order, checked against its counts.
//
// Inputs that are not one bag (the same file twice, two directories)
// give an error wrapping ErrUsage and no report. Otherwise the report is
// never nil: a read error (truncated or corrupt file) stops reading and
// Inspect returns the report of everything read so far with a
// *ReadError naming the file and byte offset; damaged chunks are skipped
// (their messages counted, never analysed) and Inspect reads on, then
// returns an error wrapping ErrDamaged.
func Inspect(ctx context.Context, paths []string, opts Options) (*Report, error) {
	set, err := resolve(paths)
	if err != nil {
		return nil, err
	}
	var total int64
	for _, f := range set.files {
		if st, err := os.Stat(f.path); err == nil {
			total += st.Size()
		}
	}
	return inspect(ctx, set, total, opts, readBagFile)
}

// readBagFile reads one storage file of a bag, decompressing it first
// when it is compressed whole.
func readBagFile(ctx context.Context, st storage, f bagFile, fi *FileInfo, s *sink) error {
	if f.missing {
		return fmt.Errorf("bag: %s: %w: metadata.yaml lists it, the directory lacks it", f.path, ErrMissingFile)
	}
	path := f.path
	var unzipErr error
	if f.zstd {
		fi.FileCompression = "zstd"
		if st, err := os.Stat(f.path); err == nil {
			fi.Bytes = st.Size()
		}
		tmp, err := decompressFile(f.path)
		if tmp == "" {
			return err
		}
		defer os.Remove(tmp)
		path, unzipErr = tmp, err
	}
	err := st.read(ctx, path, fi, s)
	if err == nil {
		err = unzipErr
	}
	return err
}

// readFunc reads one file of a bag with storage st into s.
type readFunc func(ctx context.Context, st storage, f bagFile, fi *FileInfo, s *sink) error

// inspect runs the analysis over the files of a bag, read by readOne.
func inspect(ctx context.Context, set *bagSet, total int64, opts Options, readOne readFunc) (*Report, error) {
	opts.defaults()
	a := newAnalysis(opts)
	rep := &Report{Window: opts.Window}
	if set.meta != nil || set.dir != "" {
		rep.Bag = &BagReport{Dir: set.dir, Metadata: set.meta, NoMetadata: set.noMetadata}
	}
	if set.meta != nil && set.meta.CompressionMode == "message" {
		a.msgZstd = true
	}
	s := &sink{onMessage: a.message, onChannel: func(c *channel) { a.topic(c) }, onSkip: a.skip, noCRC: opts.NoCRC}
	storages := map[string]storage{"mcap": newMCAPReader(), "sqlite3": sqliteReader{}}
	defer func() {
		for _, st := range storages {
			st.close()
		}
		a.close()
	}()
	var base int64
	var readErr, missingErr error
	for _, f := range set.files {
		fi := FileInfo{Path: f.path}
		a.file = filepath.Base(f.path)
		if opts.Progress != nil {
			b := base
			s.progress = func(done int64) { opts.Progress(b+done, total) }
		}
		err := readOne(ctx, storages[f.storage], f, &fi, s)
		if fi.Storage == "" {
			fi.Storage = f.storage
		}
		base += fi.Bytes
		if err != nil {
			fi.Error = err.Error()
		}
		rep.Files = append(rep.Files, fi)
		if errors.Is(err, ErrMissingFile) {
			missingErr = err
			continue
		}
		if err != nil {
			readErr = err
			break
		}
	}
	a.finish(rep)
	a.checkMetadata(rep, set, readErr == nil)
	damaged := a.damage(rep)
	rep.Complete = readErr == nil && missingErr == nil && !damaged
	if readErr != nil && !errors.Is(readErr, context.Canceled) {
		rep.Findings = append([]Finding{newFinding(Finding{Code: CodeReadError, Count: 1,
			Message: readErr.Error() + "; the report covers everything before it"})}, rep.Findings...)
	}
	sortFindings(rep.Findings)
	switch {
	case readErr != nil:
		return rep, readErr
	case missingErr != nil:
		return rep, missingErr
	case damaged:
		return rep, fmt.Errorf("%w: %d chunks skipped, %d messages not analysed", ErrDamaged, rep.DamagedChunks(), rep.Skipped)
	}
	return rep, nil
}

// stamp kinds of examples kept per field.
const (
	exZero = iota
	exNonMono
	exNotNorm
	exWinNeg
	exWinZero
	exBaseLog
	exBaseClk
	exFutLog
	exFutClk
	nEx
)

type fieldState struct {
	rep     TimeFieldReport
	prev    int64
	hasPrev bool
	ex      [nEx][]Example
	baseLog int64 // vs log time
	futLog  int64
	leadLog int64
	baseClk int64 // vs /clock
	futClk  int64
	leadClk int64
	notNorm int64
	anyLog  bool
	anyClk  bool
	series  decimator
}

type topicState struct {
	rep       TopicReport
	schema    *ros2msg.Schema
	parseErr  error
	isClock   bool
	fields    map[string]*fieldState
	byPos     []*fieldState // fields by position in the last message, a cache of fields
	order     []string
	decodeEx  []Example
	firstErr  string
	beforeEx  []Example
	clockType bool
}

type analysis struct {
	opts     Options
	file     string
	topics   map[string]*topicState
	byChan   map[*channel]*topicState
	schemas  map[string]*ros2msg.Schema
	schErr   map[string]error
	messages int64
	bytes    int64
	start    int64
	end      int64

	tbuf []ros2msg.TimeField // reused for every message

	lastCh *channel // one-entry cache of byChan
	lastT  *topicState

	// /clock, described by the one clockstream analyser.
	clkStream *clockstream.Analyzer // nil before the first /clock message
	clkAt     time.Duration         // log time of the last /clock message fed
	clkIdx    int64                 // index of the /clock message being fed
	clkWinAt  time.Duration         // start of the current RTF interval
	clk       ClockReport
	clkSeen   bool  // a valid /clock value was recorded
	lastClk   int64 // the latest valid /clock value: the stamps' reference
	rtfSeen   bool  // an RTF interval has completed
	clkEx     map[string][]Example
	clkSeries decimator
	clkWinNeg int64
	clkWinZ   int64
	// stand is the current run of one /clock value, so that a pause's
	// example can say where it began and, once it ends, how long it held.
	stand struct {
		log, lastLog, idx, value, msgs int64
		example                        int // index in clkEx[CodeClockStall], or -1
	}

	skipped bool // some messages were skipped

	// msgZstd: every message is zstd-compressed (compression_mode: message).
	msgZstd bool
	zdec    *zstd.Decoder
	zbuf    []byte
}

func newAnalysis(opts Options) *analysis {
	a := &analysis{
		opts: opts, topics: map[string]*topicState{}, byChan: map[*channel]*topicState{},
		schemas: map[string]*ros2msg.Schema{}, schErr: map[string]error{}, clkEx: map[string][]Example{},
		start: math.MaxInt64, end: math.MinInt64,
	}
	a.stand.example = -1
	return a
}

func (a *analysis) topic(ch *channel) *topicState {
	if ch == a.lastCh {
		return a.lastT
	}
	if t := a.byChan[ch]; t != nil {
		a.lastCh, a.lastT = ch, t
		return t
	}
	t := a.topics[ch.Topic]
	if t == nil {
		t = &topicState{fields: map[string]*fieldState{}}
		t.rep.Topic = ch.Topic
		t.rep.FirstLogNS = -1
		t.rep.Type, t.rep.Encoding = ch.Type, ch.SchemaEncoding
		t.isClock = ch.Topic == timemsg.ClockTopic
		t.rep.Publishers = countProfiles(ch.OfferedQoS)
		t.clockType = ch.Type != "" && ros2msg.Canonical(ch.Type) == ros2msg.Canonical(timemsg.ClockTypeName)
		var src string
		t.schema, src, t.parseErr = a.schemaOf(ch)
		if t.schema != nil {
			t.rep.Definition = src
		}
		if t.isClock && t.clockType && t.parseErr != nil {
			t.parseErr = nil // /clock is decoded by type, whatever its schema text
		}
		t.rep.Decoded = t.schema != nil || t.isClock && t.clockType
		a.topics[ch.Topic] = t
	}
	a.byChan[ch] = t
	a.lastCh, a.lastT = ch, t
	return t
}

// schemaOf parses the definition of a channel's type, or says why it
// cannot be decoded. A type the bag does not define (sqlite3 bags before
// Iron store no definitions) is taken from the definitions shipped for
// common interface packages; any other is unknown, never guessed.
func (a *analysis) schemaOf(ch *channel) (*ros2msg.Schema, string, error) {
	switch {
	case ch.MessageEncoding != "cdr":
		return nil, "", fmt.Errorf("message encoding %q is not cdr", ch.MessageEncoding)
	case ch.Type == "":
		return nil, "", errors.New("the channel has no type")
	case ch.SchemaEncoding == "" || ch.SchemaEncoding == "unknown":
		key := "\x00shipped\x00" + ch.Type
		s, ok := a.schemas[key]
		if !ok {
			var err error
			s, err = ros2msg.ParseShipped(ros2msg.Canonical(ch.Type))
			if errors.Is(err, ros2msg.ErrUnknownType) {
				err = fmt.Errorf("the bag holds no definition of %s, and it is not among the shipped common interface types", ch.Type)
			}
			a.schemas[key], a.schErr[key] = s, err
		}
		return s, DefinitionShipped, a.schErr[key]
	case ch.SchemaEncoding != "ros2msg":
		return nil, "", fmt.Errorf("schema encoding %q is not ros2msg", ch.SchemaEncoding)
	}
	key := ch.Type + "\x00" + string(ch.Definition)
	s, ok := a.schemas[key]
	if !ok {
		var err error
		s, err = ros2msg.Parse(ch.Type, ch.Definition)
		a.schemas[key], a.schErr[key] = s, err
	}
	return s, DefinitionBag, a.schErr[key]
}

// Where a topic's type definition came from (TopicReport.Definition).
const (
	DefinitionBag     = "bag"     // recorded in the bag
	DefinitionShipped = "shipped" // the definitions shipped with simclock
)

func (a *analysis) example(list *[]Example, e Example) {
	if len(*list) < a.opts.Examples {
		e.File = a.file
		*list = append(*list, e)
	}
}

func (a *analysis) message(ch *channel, m *message) error {
	t := a.topic(ch)
	logNS := m.LogTime
	if a.msgZstd {
		data, err := a.unzip(m.Data)
		if err != nil {
			a.messages++
			t.rep.Messages++
			a.decodeError(t, logNS, t.rep.Messages-1, fmt.Errorf("zstd message compression: %w", err))
			return nil
		}
		m.Data = data
	}
	a.messages++
	a.bytes += int64(len(m.Data))
	a.start = min(a.start, logNS)
	a.end = max(a.end, logNS)
	idx := t.rep.Messages
	t.rep.Messages++
	t.rep.Bytes += int64(len(m.Data))
	if t.rep.FirstLogNS < 0 {
		t.rep.FirstLogNS = logNS
	}
	t.rep.LastLogNS = logNS
	if t.isClock && t.clockType {
		a.clock(t, logNS, idx, m.Data)
		return nil
	}
	if !a.clkSeen {
		t.rep.BeforeClk++
		a.example(&t.beforeEx, Example{LogNS: logNS, Index: idx})
	}
	if t.schema == nil {
		return nil
	}
	if a.opts.DecodeAll {
		if _, err := t.schema.Decode(m.Data); err != nil {
			a.decodeError(t, logNS, idx, err)
		}
	}
	ts, err := t.schema.AppendTimes(a.tbuf[:0], m.Data)
	a.tbuf = ts
	for i := range ts {
		a.stamp(t, i, &ts[i], logNS, idx)
	}
	if err != nil && !a.opts.DecodeAll {
		a.decodeError(t, logNS, idx, err)
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

func (a *analysis) decodeError(t *topicState, logNS, idx int64, err error) {
	t.rep.DecodeErrs++
	if t.firstErr == "" {
		t.firstErr = err.Error()
	}
	a.example(&t.decodeEx, Example{LogNS: logNS, Index: idx, Detail: err.Error()})
}

func (t *topicState) field(path string, header bool) *fieldState {
	f := t.fields[path]
	if f == nil {
		f = &fieldState{rep: TimeFieldReport{Field: path, Header: header, MinNS: math.MaxInt64, MaxNS: math.MinInt64},
			leadLog: math.MinInt64, leadClk: math.MinInt64}
		t.fields[path] = f
		t.order = append(t.order, path)
	}
	return f
}

// fieldAt returns the state of the i-th Time field of a message: messages
// of one type usually list the same fields in the same order.
func (t *topicState) fieldAt(i int, tf *ros2msg.TimeField) *fieldState {
	if i < len(t.byPos) {
		if f := t.byPos[i]; f != nil && f.rep.Field == tf.Path {
			return f
		}
	}
	f := t.field(tf.Path, tf.Header)
	for len(t.byPos) <= i {
		t.byPos = append(t.byPos, nil)
	}
	t.byPos[i] = f
	return f
}

func (a *analysis) stamp(t *topicState, i int, tf *ros2msg.TimeField, logNS, idx int64) {
	f := t.fieldAt(i, tf)
	v := tf.Time.Nanoseconds()
	r := &f.rep
	r.Count++
	r.MinNS, r.MaxNS = min(r.MinNS, v), max(r.MaxNS, v)
	f.series.add(Point{logNS, v})
	ex := Example{LogNS: logNS, ValueNS: v, Index: idx}
	if tf.Index >= 0 {
		ex.Element = tf.Index
	}
	if !tf.Time.Normalized() { // R8
		f.notNorm++
		e := ex
		e.Detail = fmt.Sprintf("nanosec %d", tf.Time.Nanosec)
		a.example(&f.ex[exNotNorm], e)
	}
	if v == 0 { // R10, R29
		r.Zero++
		a.example(&f.ex[exZero], ex)
		return
	}
	if tf.Index < 0 {
		if f.hasPrev && v < f.prev {
			r.NonMonotonic++
			e := ex
			e.Before = f.prev
			a.example(&f.ex[exNonMono], e)
		}
		f.prev, f.hasPrev = v, true
	}
	if w := a.opts.Window.Nanoseconds(); w > 0 { // R25, R27
		switch {
		case v < w:
			r.WindowNegative++
			a.example(&f.ex[exWinNeg], ex)
		case v == w:
			r.WindowZero++
			a.example(&f.ex[exWinZero], ex)
		}
	}
	tol := a.opts.BaseTolerance.Nanoseconds()
	fut := a.opts.FutureTolerance.Nanoseconds()
	// Against log time: the reference when the bag has no /clock.
	f.anyLog = true
	if d := v - logNS; abs(d) > tol {
		f.baseLog++
		e := ex
		e.RefNS = logNS
		a.example(&f.ex[exBaseLog], e)
	} else {
		f.leadLog = max(f.leadLog, d)
		if d > fut {
			f.futLog++
			e := ex
			e.RefNS = logNS
			a.example(&f.ex[exFutLog], e)
		}
	}
	// Against the latest /clock.
	if a.clkSeen {
		f.anyClk = true
		if d := v - a.lastClk; abs(d) > tol {
			f.baseClk++
			e := ex
			e.RefNS = a.lastClk
			if abs(v-logNS) <= tol {
				e.Detail = "near log (wall) time"
			}
			a.example(&f.ex[exBaseClk], e)
		} else {
			f.leadClk = max(f.leadClk, d)
			if d > fut {
				f.futClk++
				e := ex
				e.RefNS = a.lastClk
				a.example(&f.ex[exFutClk], e)
			}
		}
	}
}

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

// clock feeds one /clock message to the clockstream analyser, at its log
// time (the recorder's receive time). The publisher of a recorded message
// is unknown: clock_publishers comes from the recorded QoS profiles.
func (a *analysis) clock(t *topicState, logNS, idx int64, data []byte) {
	at := time.Duration(logNS)
	if a.clkStream == nil {
		a.clkStream = clockstream.NewAnalyzer(a.clockConfig(), at)
		a.clkAt, a.clkWinAt = at, at
	}
	// The analyser needs receive order; chunks of a bag may overlap.
	at = max(at, a.clkAt)
	s := clockstream.Decode(at, "", data)
	a.clkIdx = idx
	a.clkStream.Observe(s)
	a.clkAt = at
	if at-a.clkWinAt >= time.Second { // close an RTF interval
		if r := a.clkStream.Report(at, nil); r.RTF != nil {
			if !a.rtfSeen {
				a.clk.RTFMin, a.clk.RTFMax, a.rtfSeen = *r.RTF, *r.RTF, true
			}
			a.clk.RTFMin, a.clk.RTFMax = min(a.clk.RTFMin, *r.RTF), max(a.clk.RTFMax, *r.RTF)
		}
		a.clkWinAt = at
	}
	var bad *timemsg.InvalidClockError // the message the decoder refused
	switch {
	case s.Err == nil:
	case errors.Is(s.Err, clockstream.ErrNotNormalized) && errors.As(s.Err, &bad): // R8: counted and dropped
		f := t.field("clock", false)
		f.notNorm++
		a.example(&f.ex[exNotNorm], Example{LogNS: logNS, ValueNS: bad.Clock.Nanoseconds(), Index: idx, Detail: fmt.Sprintf("nanosec %d", bad.Clock.Nanosec)})
		return
	case s.Err != nil:
		a.decodeError(t, logNS, idx, s.Err)
		return
	}
	v := s.Value
	a.clkSeries.add(Point{logNS, v})
	if w := a.opts.Window.Nanoseconds(); w > 0 && v <= w { // R27
		if v == w {
			a.clkWinZ++
			a.addClkEx(CodeWindowZero, Example{LogNS: logNS, ValueNS: v, Index: idx})
		} else {
			a.clkWinNeg++
			a.addClkEx(CodeWindowNegative, Example{LogNS: logNS, ValueNS: v, Index: idx})
		}
	}
	if !a.clkSeen || v != a.stand.value {
		a.endStand()
		a.stand.log, a.stand.idx, a.stand.value, a.stand.msgs = logNS, idx, v, 0
	}
	a.stand.lastLog = logNS
	a.stand.msgs++
	if !a.clkSeen {
		a.clkSeen = true
		a.clk.FirstLogNS = logNS
	}
	a.lastClk, a.clk.LastLogNS = v, logNS
}

// endStand ends the current run of one /clock value: if the analyser
// called it a pause, its example now says how long the value held.
func (a *analysis) endStand() {
	if i := a.stand.example; i >= 0 {
		ex := &a.clkEx[CodeClockStall][i]
		ex.Detail = fmt.Sprintf("/clock held at one value for %s s of log time (%d messages)",
			units.Span(a.stand.lastLog-a.stand.log), a.stand.msgs)
	}
	a.stand.example = -1
}

// clockConfig is the analyser's configuration: clockstream's defaults,
// with Options.Periods.
func (a *analysis) clockConfig() clockstream.Config {
	cfg := clockstream.DefaultConfig()
	cfg.Periods = a.opts.Periods
	cfg.OnEvent = a.clockEvent
	return cfg
}

// clockEvent keeps an example of each gap, pause and jump the analyser
// reports; the event's At is the log time of the message revealing it.
func (a *analysis) clockEvent(e clockstream.Event) {
	ex := Example{LogNS: int64(e.At), ValueNS: e.To, Index: a.clkIdx}
	switch e.Kind {
	case clockstream.BackwardJump: // R14, R22: a backward jump resets ROS timers
		ex.Before, ex.Detail = e.From, fmt.Sprintf("back by %s s", units.Span(e.From-e.To))
		a.addClkEx(CodeClockBackward, ex)
	case clockstream.ForwardJump:
		ex.Before, ex.Detail = e.From, fmt.Sprintf("ahead by %s s in %s s of log time", units.Span(e.To-e.From), units.Span(e.At-a.clkAt))
		a.addClkEx(CodeClockJump, ex)
	case clockstream.Gap:
		ex.Before, ex.Detail = e.From, fmt.Sprintf("no /clock for %s s of log time", units.Span(e.Length))
		if per := a.clkStream.Period(); per > 0 {
			ex.Detail += fmt.Sprintf(" (%.0f periods)", float64(e.Length)/float64(per))
		}
		a.addClkEx(CodeClockGap, ex)
	case clockstream.Pause: // the example is the run's first message; endStand completes it
		ex = Example{LogNS: a.stand.log, ValueNS: a.stand.value, Index: a.stand.idx}
		if l := a.clkEx[CodeClockStall]; len(l) < a.opts.Examples {
			a.stand.example = len(l)
		}
		a.addClkEx(CodeClockStall, ex)
	}
}

func (a *analysis) addClkEx(code string, e Example) {
	l := a.clkEx[code]
	a.example(&l, e)
	a.clkEx[code] = l
}

// skip is told that messages were skipped (a damaged chunk): steps
// across the hole are not judged, neither for /clock nor for stamps.
func (a *analysis) skip() {
	a.skipped = true
	if a.clkStream != nil {
		a.clkStream.Break()
	}
	a.endStand()                  // a pause ends at the hole
	a.stand.value = math.MinInt64 // the next value starts a new run
	for _, t := range a.topics {
		for _, f := range t.fields {
			f.hasPrev = false
		}
	}
}

func (a *analysis) finish(rep *Report) {
	a.endStand()
	c := &a.clk
	if a.clkStream != nil {
		tot := a.clkStream.Totals(a.clkAt)
		c.Present, c.Messages, c.FirstNS, c.LastNS = tot.HaveClock, int64(tot.Messages), tot.First, tot.Last
		c.PeriodNS, c.StepNS = int64(tot.Period), int64(tot.Step)
		if tot.RTF != nil {
			c.RTF = *tot.RTF
		}
		c.BackwardJumps, c.ForwardJumps, c.Gaps = int64(tot.BackwardJumps), int64(tot.ForwardJumps), int64(tot.Gaps)
		c.Pauses, c.Stalls = int64(tot.Pauses), int64(tot.Pauses)
		if t := a.topics[timemsg.ClockTopic]; t != nil {
			c.RateHz = rateHz(t.rep.Messages, t.rep.FirstLogNS, t.rep.LastLogNS)
		}
	}
	cfg := a.clockConfig()
	c.SimTimeLog = a.clkSeen && abs(c.FirstNS-c.FirstLogNS) <= a.opts.BaseTolerance.Nanoseconds()
	rep.Clock = *c
	rep.Messages, rep.Bytes = a.messages, a.bytes
	if a.messages > 0 {
		rep.StartLogNS, rep.EndLogNS = a.start, a.end
	}
	if a.clkSeen {
		rep.Series = append(rep.Series, Series{Topic: timemsg.ClockTopic, Field: "clock", Points: a.clkSeries.points()})
	}
	var fs []Finding
	addAs := func(sev Severity, f Finding) {
		if f.Count > 0 {
			fs = append(fs, f.as(sev))
		}
	}
	add := func(f Finding) { addAs(checkOf(f.Code).Severity, f) }
	// /clock findings.
	if !a.clkSeen {
		msg := "the bag has no /clock: stamps are compared with the recorder's log time"
		if a.skipped {
			msg = "no /clock in what could be read (damaged chunks were skipped): stamps are compared with the recorder's log time"
		}
		add(Finding{Code: CodeNoClock, Count: 1, Message: msg})
	}
	add(Finding{Code: CodeClockBackward, Topic: timemsg.ClockTopic, Count: c.BackwardJumps,
		Message: "/clock jumps backwards (a looped or restarted recording): ROS timers reset and dt goes negative", Examples: a.clkEx[CodeClockBackward]})
	add(Finding{Code: CodeClockGap, Topic: timemsg.ClockTopic, Count: c.Gaps,
		Message: fmt.Sprintf("/clock gaps: no message for more than %d periods of %s s", cfg.Periods, units.Span(c.PeriodNS)), Examples: a.clkEx[CodeClockGap]})
	add(Finding{Code: CodeClockStall, Topic: timemsg.ClockTopic, Count: c.Pauses,
		Message: fmt.Sprintf("/clock pauses: the value stands still for more than %d periods: sim timers stop while paused", cfg.Periods), Examples: a.clkEx[CodeClockStall]})
	add(Finding{Code: CodeClockJump, Topic: timemsg.ClockTopic, Count: c.ForwardJumps,
		Message: fmt.Sprintf("/clock jumps forward by more than %d steps of %s s per period: due timers fire at once", cfg.JumpSteps, units.Span(c.StepNS)), Examples: a.clkEx[CodeClockJump]})
	add(Finding{Code: CodeClockWindow, Topic: timemsg.ClockTopic, Count: a.clkWinNeg + a.clkWinZ,
		Message:  fmt.Sprintf("/clock values at or below the window %s s: now − W is negative or zero at these times", units.Span(a.opts.Window)),
		Examples: append(a.clkEx[CodeWindowNegative], a.clkEx[CodeWindowZero]...)})
	names := make([]string, 0, len(a.topics))
	for n := range a.topics {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t := a.topics[n]
		tr := t.rep
		if tr.FirstLogNS < 0 {
			tr.FirstLogNS = 0
		}
		tr.RateHz = rateHz(tr.Messages, tr.FirstLogNS, tr.LastLogNS)
		if t.isClock {
			c.Publishers = max(c.Publishers, tr.Publishers)
			rep.Clock.Publishers = c.Publishers
		}
		if t.isClock && tr.Publishers > 1 {
			add(Finding{Code: CodeClockPublishers, Topic: n, Count: int64(tr.Publishers),
				Message: fmt.Sprintf("/clock had %d publishers when recorded: more than one is a fault", tr.Publishers)})
		}
		if t.isClock && !t.clockType {
			add(Finding{Code: CodeClockType, Topic: n, Count: tr.Messages,
				Message: fmt.Sprintf("/clock carries %s, not %s", tr.Type, timemsg.ClockTypeName)})
		}
		if t.parseErr != nil {
			add(Finding{Code: CodeUnknownSchema, Topic: n, Count: tr.Messages,
				Message: fmt.Sprintf("messages of type %q not analysed: %v", tr.Type, t.parseErr)})
		}
		add(Finding{Code: CodeDecodeError, Topic: n, Count: tr.DecodeErrs,
			Message: "messages that do not decode with their schema: " + t.firstErr, Examples: t.decodeEx})
		if a.clkSeen && !t.isClock && tr.BeforeClk > 0 {
			add(Finding{Code: CodeBeforeFirstClock, Topic: n, Count: tr.BeforeClk,
				Message: "messages recorded before the first /clock: their nodes saw now() == 0", Examples: t.beforeEx})
		} else {
			tr.BeforeClk = 0
		}
		for _, path := range t.order {
			f := t.fields[path]
			r := f.rep
			// With /clock in the bag, stamps are judged against it alone:
			// stamps recorded only before the first /clock are
			// before_first_clock, not on another time base.
			useClk := a.clkSeen
			if useClk {
				r.Reference, r.OtherBase, r.Future, r.MaxLeadNS = "clock", f.baseClk, f.futClk, f.leadClk
			} else {
				r.Reference, r.OtherBase, r.Future, r.MaxLeadNS = "log", f.baseLog, f.futLog, f.leadLog
			}
			if r.MaxLeadNS == math.MinInt64 {
				r.MaxLeadNS = 0
			}
			if r.Count == 0 {
				r.MinNS, r.MaxNS = 0, 0
			}
			tr.TimeFields = append(tr.TimeFields, r)
			rep.Series = append(rep.Series, Series{Topic: n, Field: path, Points: f.series.points()})
			// Stamps (Header stamps and fields named *stamp) are errors;
			// other Time fields may hold 0 or far times on purpose.
			stampSev := SeverityWarning
			if r.Header || strings.HasSuffix(path, "stamp") {
				stampSev = SeverityError
			}
			addAs(stampSev, Finding{Code: CodeZeroStamp, Topic: n, Field: path, Count: r.Zero,
				Message: "stamps equal to 0: uninitialised time (set before the first /clock, or never set)", Examples: f.ex[exZero]})
			add(Finding{Code: CodeNotNormalized, Topic: n, Field: path, Count: f.notNorm,
				Message: "nanosec of 1e9 or more", Examples: f.ex[exNotNorm]})
			if useClk {
				ex := f.ex[exBaseClk]
				detail := "on another time base than /clock"
				if len(ex) > 0 && ex[0].Detail != "" {
					detail = "system (wall) time stamps in a sim-time bag"
				}
				addAs(stampSev, Finding{Code: CodeTimeBase, Topic: n, Field: path, Count: r.OtherBase,
					Message: fmt.Sprintf("%s: more than %s s from the latest /clock", detail, units.Span(a.opts.BaseTolerance)), Examples: ex})
				add(Finding{Code: CodeFutureStamp, Topic: n, Field: path, Count: r.Future,
					Message: fmt.Sprintf("stamps ahead of the latest /clock by more than %s s (max %s s)", units.Span(a.opts.FutureTolerance), units.Span(r.MaxLeadNS)), Examples: f.ex[exFutClk]})
			} else {
				addAs(stampSev, Finding{Code: CodeTimeBase, Topic: n, Field: path, Count: r.OtherBase,
					Message: fmt.Sprintf("stamps more than %s s from the recorder's log time: sim-time stamps in a wall-clock bag, or clock skew", units.Span(a.opts.BaseTolerance)), Examples: f.ex[exBaseLog]})
				add(Finding{Code: CodeFutureStamp, Topic: n, Field: path, Count: r.Future,
					Message: fmt.Sprintf("stamps ahead of the log time by more than %s s (max %s s): clock skew between hosts?", units.Span(a.opts.FutureTolerance), units.Span(r.MaxLeadNS)), Examples: f.ex[exFutLog]})
			}
			add(Finding{Code: CodeNonMonotonic, Topic: n, Field: path, Count: r.NonMonotonic,
				Message: "stamps going backwards within the topic", Examples: f.ex[exNonMono]})
			addAs(stampSev, Finding{Code: CodeWindowNegative, Topic: n, Field: path, Count: r.WindowNegative,
				Message: fmt.Sprintf("stamp − %s s is negative: rclpy raises \"Subtraction leads to negative time\"", units.Span(a.opts.Window)), Examples: f.ex[exWinNeg]})
			addAs(stampSev, Finding{Code: CodeWindowZero, Topic: n, Field: path, Count: r.WindowZero,
				Message: fmt.Sprintf("stamp − %s s is exactly 0: tf2 reads time 0 as \"latest\"", units.Span(a.opts.Window)), Examples: f.ex[exWinZero]})
		}
		rep.Topics = append(rep.Topics, tr)
	}
	rep.Findings = fs
}

// decimator keeps at most maxPoints points of a series, halving its
// resolution whenever it fills, so memory stays flat however long the bag.
type decimator struct {
	pts    []Point
	stride int64
	skip   int64 // points to pass over before the next one kept
}

const maxPoints = 2048

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
