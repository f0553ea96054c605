package bag

import (
	"strconv"

	"github.com/simclock/simclock/internal/units"
)

// Describe says where example e of finding f is and what it holds, as the
// text and HTML reports print it: the log time from the bag's start, the
// message (and file, for a split bag), the value and what it was compared
// with. It is "" for findings whose examples carry nothing to show.
func (r *Report) Describe(f Finding, e Example) string {
	switch f.Code {
	case CodeReadError, CodeNoClock:
		return ""
	case CodeDamagedChunk, CodeMetadata:
		return e.Detail
	}
	s := "at log +" + units.Span(e.LogNS-r.StartLogNS) + " s (message " + strconv.FormatInt(e.Index, 10)
	if e.File != "" && len(r.Files) > 1 {
		s += " of " + e.File
	}
	s += ")"
	if f.Code != CodeBeforeFirstClock && f.Code != CodeDecodeError {
		s += ": " + units.Value(e.ValueNS)
		if e.Before != 0 {
			s += " after " + units.Value(e.Before)
		}
		if e.RefNS != 0 {
			s += " vs " + units.Value(e.RefNS)
		}
	}
	if e.Detail != "" {
		s += " — " + e.Detail
	}
	return s
}
