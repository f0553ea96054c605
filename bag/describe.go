package bag

import (
	"strconv"

	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
)

// Describe says where example e of finding f is and what it holds, as the
// text and HTML reports print it: each check says how its examples read
// (register), most as describeValue. It is "" for findings whose examples
// carry nothing to show.
func (r *Report) Describe(f rules.Finding, e rules.Example) string {
	if d, ok := describers[f.Code]; ok {
		return d(r, e)
	}
	return describeValue(r, e)
}

// describeValue says where a value is and what it is: the log time from
// the bag's start, the message (and file, for a split bag), the value and
// what it was compared with, then the example's detail.
func describeValue(r *Report, e rules.Example) string {
	s := where(r, e) + ": " + units.Value(e.ValueNS)
	if e.Before != 0 {
		s += " after " + units.Value(e.Before)
	}
	if e.RefNS != 0 {
		s += " vs " + units.Value(e.RefNS)
	}
	return withDetail(s, e)
}

// describeMessage says where a message is, for findings about messages
// rather than values, then the example's detail.
func describeMessage(r *Report, e rules.Example) string { return withDetail(where(r, e), e) }

// describeDetail is the example's detail alone, for findings about the
// files rather than messages (damage, metadata).
func describeDetail(_ *Report, e rules.Example) string { return e.Detail }

// where is the log time of an example from the bag's start, and its
// message (and file, for a split bag).
func where(r *Report, e rules.Example) string {
	s := "at log +" + units.Span(e.LogNS-r.StartLogNS) + " s (message " + strconv.FormatInt(e.Index, 10)
	if e.File != "" && len(r.Files) > 1 {
		s += " of " + e.File
	}
	return s + ")"
}

func withDetail(s string, e rules.Example) string {
	if e.Detail != "" {
		s += " — " + e.Detail
	}
	return s
}
