package bag

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"time"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/rules"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
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

	// holesKeepClock keeps the stamps' /clock reference across a skipped
	// damaged chunk, as before it was reset there: the baseline of the
	// damage runs (TestHoleResetsClockReferences), never set otherwise.
	holesKeepClock bool
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

// Inspect reads one rosbag2 bag and reports its time hazards. paths is
// a bag directory (or its metadata.yaml), or the storage files of one bag
// given one by one (.mcap, .db3, either with .zstd file compression; a
// split bag is all of its files NAME_0, NAME_1, ..., read in index
// order). A directory is read as "ros2 bag info" reads it: the files
// metadata.yaml lists, in order, checked against its counts.
//
// Inputs that are not one bag (the same file twice, two directories,
// several recordings: see InspectAll) give an error wrapping ErrUsage
// and no report; paths that are no bag (missing, a pipe) ErrInput. Otherwise the report is
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
		format, _ := formatNamed(f.storage)
		tmp, err := decompressFile(ctx, f.path, format)
		if tmp == "" {
			return err
		}
		defer os.Remove(tmp)
		path, unzipErr = tmp, err
	}
	err := st.read(ctx, path, fi, s)
	if unzipErr != nil && !errors.Is(err, context.Canceled) {
		// Why the inflation stopped says more than where the file it left ends.
		err = unzipErr
	}
	return err
}

// readFunc reads one file of a bag with storage st into s.
type readFunc func(ctx context.Context, st storage, f bagFile, fi *FileInfo, s *sink) error

// inspect runs the streaming pass over the files of a bag, read by
// readOne, then the checks over what it counted.
func inspect(ctx context.Context, set *bagSet, total int64, opts Options, readOne readFunc) (*Report, error) {
	opts.defaults()
	t := newTally(opts, set)
	defer t.close()
	s := &sink{onMessage: t.message, onChannel: func(c *channel) { t.topic(c) }, onSkip: t.skip, noCRC: opts.NoCRC}
	var missingErr error
	storages := readers{}
	defer storages.close()
	var base int64
	for _, f := range set.files {
		fi := FileInfo{Path: f.path}
		t.newFile(fileName(f.path))
		if opts.Progress != nil {
			b := base
			s.progress = func(done int64) { opts.Progress(b+done, total) }
		}
		err := readOne(ctx, storages.of(f), f, &fi, s)
		if fi.Storage == "" {
			fi.Storage = f.storage
		}
		base += fi.Bytes
		if err != nil {
			fi.Error = err.Error()
		}
		t.files = append(t.files, fi)
		if errors.Is(err, ErrMissingFile) {
			missingErr = err
			continue
		}
		if err != nil {
			t.readErr = err
			break
		}
	}
	rep := t.finish()
	rep.Complete = t.readErr == nil && missingErr == nil && rep.DamagedChunks() == 0 && rep.DamagedSummaries() == 0
	switch {
	case t.readErr != nil:
		return rep, t.readErr
	case missingErr != nil:
		return rep, missingErr
	case rep.DamagedSummaries() > 0 && rep.DamagedChunks() == 0:
		return rep, fmt.Errorf("%w: a damaged summary section was not trusted; the files were read from their data sections", ErrDamaged)
	case rep.DamagedChunks() > 0:
		return rep, fmt.Errorf("%w: %d chunks skipped, %d messages not analysed", ErrDamaged, rep.DamagedChunks(), rep.Skipped)
	}
	return rep, nil
}

// finish writes the report of what was counted: the files, /clock, the
// topics and their Time fields, and the findings of every check.
func (t *tally) finish() *Report {
	t.mergeMetadata()
	t.finishClock()
	rep := &Report{Window: t.opts.Window, Files: t.files, Messages: t.messages, Bytes: t.bytes,
		Clock: t.clock.report, Skipped: t.skippedMessages()}
	if t.set.meta != nil || t.set.dir != "" {
		rep.Bag = &BagReport{Dir: t.set.dir, Metadata: t.set.meta, NoMetadata: t.set.noMetadata}
	}
	if t.messages > 0 {
		rep.StartLogNS, rep.EndLogNS = t.start, t.end
	}
	rep.Holes = t.holes
	switch {
	case len(rep.Clock.Timelines) > 0:
		// Each timeline its own series, the busiest first (it sets the
		// plot's scale): one line through interleaved values is a comb.
		lines := slices.Clone(rep.Clock.Timelines)
		slices.SortStableFunc(lines, func(a, b clockstream.PublisherStats) int { return cmp.Compare(b.Messages, a.Messages) })
		for _, tl := range lines {
			if d := t.clock.lines[transport.PublisherID(tl.ID)]; d != nil {
				rep.Series = append(rep.Series, Series{Topic: timemsg.ClockTopic, Field: "clock (" + tl.ID + ")", Points: d.points()})
			}
		}
	case t.clock.seen:
		rep.Series = append(rep.Series, Series{Topic: timemsg.ClockTopic, Field: "clock", Points: t.clock.series.points()})
	}
	for _, tt := range t.sortedTopics() {
		tr := tt.rep
		tr.FirstLogNS = max(tr.FirstLogNS, 0)
		tr.RateHz = rateHz(tr.Messages, tr.FirstLogNS, tr.LastLogNS)
		tr.DecodeErrs = tt.decodeErrors.n
		if t.clock.seen && !tt.isClock {
			tr.BeforeClk = tt.beforeClock.n
		}
		for _, path := range tt.order {
			f := tt.fields[path]
			tr.TimeFields = append(tr.TimeFields, f.report(t))
			rep.Series = append(rep.Series, Series{Topic: tr.Topic, Field: path, Points: f.series.points()})
		}
		rep.Topics = append(rep.Topics, tr)
	}
	rep.Findings = detectors.Run(t)
	rules.Sort(rep.Findings)
	return rep
}

// report is the summary of f in the report.
func (f *fieldTally) report(t *tally) TimeFieldReport {
	r := TimeFieldReport{Field: f.path, Header: f.header, Count: f.count, Zero: f.zero.n, MinNS: f.min, MaxNS: f.max,
		NonMonotonic: f.backwards.n, WindowNegative: f.windowNegative.n, WindowZero: f.windowZero.n, Reference: "log"}
	if t.clock.seen {
		r.Reference = "clock"
	}
	if f.other != nil {
		r.Reference, r.OtherClock = "none", f.other.Clock
	}
	ref := f.ref(t)
	r.OtherBase, r.Future, r.MaxLeadNS = ref.offBase.n, ref.future.n, ref.maxLead
	if r.MaxLeadNS == math.MinInt64 {
		r.MaxLeadNS = 0
	}
	if r.Count == 0 {
		r.MinNS, r.MaxNS = 0, 0
	}
	return r
}

// mergeMetadata takes from a bag directory's metadata.yaml what the
// storage files may not say: the publishers of each topic, for storages
// without QoS per channel (MCAP written without it).
func (t *tally) mergeMetadata() {
	m := t.set.meta
	if m == nil {
		return
	}
	for _, tt := range t.topics {
		for _, tm := range m.Topics {
			if tm.Name == tt.rep.Topic && tt.rep.Publishers == 0 {
				tt.rep.Publishers = len(tm.QoS)
			}
		}
	}
}
