package bag

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/rules"
	"github.com/simclock/simclock/timemsg"
)

// Severity ranks findings: the one vocabulary of every simclock tool.
type Severity = rules.Severity

// Severities.
const (
	SeverityError   = rules.Error
	SeverityWarning = rules.Warning
	SeverityInfo    = rules.Info
)

// Report is everything Inspect found.
type Report struct {
	Files      []FileInfo    `json:"files"`
	Messages   int64         `json:"messages"`
	Bytes      int64         `json:"bytes"`
	StartLogNS int64         `json:"start_log_ns"`
	EndLogNS   int64         `json:"end_log_ns"`
	Clock      ClockReport   `json:"clock"`
	Topics     []TopicReport `json:"topics"`
	// Findings are the hazards and damage found, most severe first, then
	// by code and subject (rules.Sort). Their codes are the Code*
	// constants, one per check (Checks).
	Findings []rules.Finding `json:"findings"`
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
	// Holes are where damaged chunks were skipped, in log time, drawn on
	// plots.
	Holes []Hole `json:"-"`
}

// A Hole is a stretch of a bag's messages that was skipped (damaged
// chunks): between the log time of the last message read before it and
// that of the first message read after it. After is math.MinInt64 when
// the hole comes first, Before math.MaxInt64 when nothing follows it.
type Hole struct {
	After, Before int64
}

// Count returns how many findings have severity s.
func (r *Report) Count(s Severity) int { return rules.Count(r.Findings, s) }

// DamagedChunks returns how many chunks of the bag were skipped as damaged.
func (r *Report) DamagedChunks() int {
	n := 0
	for _, f := range r.Files {
		n += len(f.Damaged)
	}
	return n
}

// DamagedSummaries returns how many files of the bag had an MCAP summary
// section that was not trusted (they were read from their data section).
func (r *Report) DamagedSummaries() int {
	n := 0
	for _, f := range r.Files {
		if f.SummaryDamage != "" {
			n++
		}
	}
	return n
}

// Incomplete says why the report does not cover the whole bag, in a
// sentence, or "" when it does.
func (r *Report) Incomplete() string {
	switch {
	case r.Complete:
		return ""
	case r.DamagedChunks() > 0 && r.Count(SeverityError) > 0 && !r.has(CodeReadError):
		return fmt.Sprintf("%d damaged chunks were skipped (%d messages): the report covers the rest of the bag", r.DamagedChunks(), r.Skipped)
	case r.has(CodeDamagedSummary) && !r.has(CodeReadError) && !r.has(CodeMetadata):
		return "a damaged summary section was not trusted: the report comes from the data section"
	}
	return "the bag could not be read to its end: the report covers everything before the error"
}

func (r *Report) has(code rules.Code) bool {
	for _, f := range r.Findings {
		if f.Code == code {
			return true
		}
	}
	return false
}

// BagReport describes a bag directory as its metadata.yaml does.
type BagReport struct {
	Dir string `json:"dir"`
	// Metadata is the parsed metadata.yaml; nil when the directory has
	// none (NoMetadata), as after a recorder crash.
	Metadata   *Metadata `json:"metadata,omitempty"`
	NoMetadata bool      `json:"no_metadata,omitempty"`
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
	// jumps left out (pauses count, at RTF 0); nil (JSON null) when there
	// is none: nothing advanced, or the values alternate between several
	// timelines (Timelines), where one RTF of the whole means nothing.
	RTF *float64 `json:"rtf"`
	// RTFMin and RTFMax are the extremes of the real-time factor over
	// successive intervals of at least one second of log time; nil when
	// the bag is shorter, or when RTF is nil for several timelines.
	RTFMin        *float64 `json:"rtf_min"`
	RTFMax        *float64 `json:"rtf_max"`
	BackwardJumps int64    `json:"backward_jumps"`
	ForwardJumps  int64    `json:"forward_jumps"`
	Gaps          int64    `json:"gaps"`
	Pauses        int64    `json:"pauses"`
	// Stalls is Pauses under its old name, kept for schema-1 readers.
	Stalls int64 `json:"stalls"`
	// SimTimeLog is true when log time follows /clock (the recorder ran
	// with --use-sim-time), false when log time is wall time.
	SimTimeLog bool `json:"sim_time_log"`
	// Publishers is how many publishers /clock had when it was recorded:
	// the entries of its channel's offered_qos_profiles (0: unknown).
	Publishers int `json:"publishers"`
	// Timelines, when the /clock values alternate between several
	// timelines (several publishers interleaved, told apart by their
	// values: a bag does not record who sent a message), gives each
	// timeline's messages, rate, RTF and last value, as simclock monitor
	// gives each publisher's; empty otherwise. IDs are "timeline 1", ... in
	// the order the timelines started.
	Timelines []clockstream.PublisherStats `json:"timelines"`
}

func (ClockReport) topic() string { return timemsg.ClockTopic }

// RTFText says the real-time factor in words: "RTF 1.000 (0.500 to
// 1.000 per second of log time)", "RTF - (no advance measured)", or, for
// values alternating between several timelines, that there is no one
// RTF and each timeline has its own.
func (c ClockReport) RTFText() string {
	switch {
	case len(c.Timelines) > 1:
		return fmt.Sprintf("RTF - (the values alternate between %d timelines, several publishers: each has its own)", len(c.Timelines))
	case c.RTF == nil:
		return "RTF - (no advance measured)"
	case c.RTFMin == nil || c.RTFMax == nil:
		return "RTF " + ratioText(c.RTF)
	}
	return fmt.Sprintf("RTF %s (%s to %s per second of log time)", ratioText(c.RTF), ratioText(c.RTFMin), ratioText(c.RTFMax))
}

// ratioText prints a real-time factor with 3 decimals, "-" for none.
func ratioText(r *float64) string {
	if r == nil || math.IsNaN(*r) || math.IsInf(*r, 0) {
		return "-"
	}
	return strconv.FormatFloat(*r, 'f', 3, 64)
}

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
	// Reference is what stamps were compared with: "clock" or "log", or
	// "none" for a field that carries another clock (OtherClock).
	Reference      string `json:"reference"`
	WindowNegative int64  `json:"window_negative"`
	WindowZero     int64  `json:"window_zero"`
	// OtherClock, for a field that by design carries another clock than
	// the graph's ("system", "external", "static": docs/rules.md lists
	// them), says which; its values are not judged against any clock.
	OtherClock string `json:"other_clock,omitempty"`
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

// Where a topic's type definition came from (TopicReport.Definition).
const (
	DefinitionBag     = "bag"     // recorded in the bag
	DefinitionShipped = "shipped" // the definitions shipped with simclock
)

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
