package bag

import "github.com/simclock/simclock/rules"

// JSON line types: each embeds a report part after its "kind".
type (
	bagLine struct {
		Kind string `json:"kind"`
		BagReport
	}
	fileLine struct {
		Kind string `json:"kind"`
		FileInfo
	}
	clockLine struct {
		Kind string `json:"kind"`
		ClockReport
	}
	topicLine struct {
		Kind string `json:"kind"`
		TopicReport
	}
	findingLine struct {
		Kind string `json:"kind"`
		rules.Finding
	}
	summaryLine struct {
		Kind       string `json:"kind"`
		Files      int    `json:"files"`
		Messages   int64  `json:"messages"`
		Bytes      int64  `json:"bytes"`
		Topics     int    `json:"topics"`
		StartLogNS int64  `json:"start_log_ns"`
		EndLogNS   int64  `json:"end_log_ns"`
		Errors     int    `json:"errors"`
		Warnings   int    `json:"warnings"`
		Infos      int    `json:"infos"`
		Complete   bool   `json:"complete"`
		Skipped    int64  `json:"skipped_messages"`
	}
)

// JSONLines returns the report as the JSON-lines objects documented in
// the package doc, in order: bag (for a bag directory), files, clock, topics, findings, summary.
// Each value marshals (encoding/json) to one object with a "kind" field.
func (r *Report) JSONLines() []any {
	var out []any
	if r.Bag != nil {
		out = append(out, bagLine{"bag", *r.Bag})
	}
	for _, f := range r.Files {
		if f.Compression == nil {
			f.Compression = []string{}
		}
		out = append(out, fileLine{"file", f})
	}
	out = append(out, clockLine{"clock", r.Clock})
	for _, t := range r.Topics {
		if t.TimeFields == nil {
			t.TimeFields = []TimeFieldReport{}
		}
		out = append(out, topicLine{"topic", t})
	}
	for _, f := range r.Findings {
		out = append(out, findingLine{"finding", f})
	}
	out = append(out, summaryLine{Kind: "summary", Files: len(r.Files), Messages: r.Messages, Bytes: r.Bytes,
		Topics: len(r.Topics), StartLogNS: r.StartLogNS, EndLogNS: r.EndLogNS, Errors: r.Count(SeverityError),
		Warnings: r.Count(SeverityWarning), Infos: r.Count(SeverityInfo), Complete: r.Complete, Skipped: r.Skipped})
	return out
}
