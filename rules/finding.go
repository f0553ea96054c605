package rules

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
)

// A Finding is one problem a tool found: the same type, and the same JSON
// object, for lint, bag and doctor. Its code, severity, rules and fix come
// from the tool's Check; the tool's detector fills the subject, the count,
// the message and the examples.
type Finding struct {
	Code     Code     `json:"code"`
	Severity Severity `json:"severity"`
	// Rules are the rules the finding's check enforces; a JSON array,
	// empty when the check cites none.
	Rules IDs `json:"rules"`
	// Subject says what the finding is about; its fields are members of
	// the finding's JSON object.
	Subject
	// Count is how many occurrences the finding stands for (bag: messages
	// or stamps; 0 when the tool counts none).
	Count   int64  `json:"count,omitempty"`
	Message string `json:"message"`
	// Why says why it matters, citing the rules, when the tool says it
	// per finding (lint).
	Why string `json:"why,omitempty"`
	// Fix says what to change: the check's, unless the detector says more.
	Fix string `json:"fix,omitempty"`
	// Examples are the first occurrences (bag).
	Examples []Example `json:"examples,omitempty"`
}

// A Subject is what a finding is about. Each tool fills what it has:
// doctor a node and a topic, bag a topic and a Time field, lint a file and
// a range in it (1-based lines, columns in Unicode code points).
type Subject struct {
	Node    string `json:"node,omitempty"`
	Topic   string `json:"topic,omitempty"`
	Field   string `json:"field,omitempty"` // a Time field's path, "header.stamp"
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	EndLine int    `json:"end_line,omitempty"`
	EndCol  int    `json:"end_col,omitempty"`
}

// An Example is one occurrence of a finding in a recording: when it was
// logged, the value found and what it was compared with.
type Example struct {
	LogNS   int64  `json:"log_ns"`              // the recorder's receive time
	ValueNS int64  `json:"value_ns"`            // the stamp or /clock value
	RefNS   int64  `json:"ref_ns,omitempty"`    // what it was compared with
	Detail  string `json:"detail,omitempty"`    // free text
	Index   int64  `json:"index"`               // message index within its topic, from 0
	File    string `json:"file,omitempty"`      // file holding it (split bags)
	Element int    `json:"element,omitempty"`   // array element, for Times inside arrays
	Before  int64  `json:"before_ns,omitempty"` // previous value, for jumps
}

// IDs is a list of rules. It is a JSON array even when empty, so a reader
// can always iterate a finding's "rules".
type IDs []ID

// MarshalJSON writes the rules as an array of names, [] when there are none.
func (ids IDs) MarshalJSON() ([]byte, error) {
	if ids == nil {
		return []byte("[]"), nil
	}
	return json.Marshal([]ID(ids))
}

// String joins the rules' names with commas: "R14,R22".
func (ids IDs) String() string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = id.String()
	}
	return strings.Join(s, ",")
}

// Count returns how many findings have severity s.
func Count(fs []Finding, s Severity) int {
	n := 0
	for _, f := range fs {
		if f.Severity == s {
			n++
		}
	}
	return n
}

// Sort orders findings as bag and doctor print them: most severe first,
// then by code, then by subject.
func Sort(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(-cmp.Compare(a.Severity, b.Severity), cmp.Compare(a.Code, b.Code),
			cmp.Compare(a.Node, b.Node), cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Field, b.Field),
			cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
}
