package doctor

import (
	"fmt"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
)

// What the checks of each clock writer's stream share (check_clock_*.go:
// it stopped, went silent for a while, stood still, jumped, or sent what
// is not a Clock). Each names the writer and when, in seconds since the
// start of the audit, from the shared /clock analyser's events.

// at says when something happened: "3.012 s into the audit".
func at(d interface{ Nanoseconds() int64 }) string {
	return units.Span(d.Nanoseconds()) + " s into the audit"
}

// firstEvent returns cw's first event of kind k.
func firstEvent(cw ClockWriter, k clockstream.EventKind) (ClockEvent, bool) {
	for _, e := range cw.Events {
		if e.Kind == k {
			return e, true
		}
	}
	return ClockEvent{}, false
}

// jumps reports the writers whose stream jumped (kind), with the first
// jump and how many.
func jumps(a *analysis, kind clockstream.EventKind, verb string, count func(ClockWriter) int) []rules.Finding {
	var out []rules.Finding
	for _, cw := range a.clockRows {
		n := count(cw)
		if n == 0 {
			continue
		}
		e, _ := firstEvent(cw, kind)
		msg := fmt.Sprintf("%s from %s %s from %s to %s (by %s s) %s", cw.Topic, cw.Node, verb,
			units.Value(e.From), units.Value(e.To), units.Span(absDiff(e.To, e.From)), at(e.At))
		if n > 1 {
			msg += fmt.Sprintf(" (%d jumps in all)", n)
		}
		out = append(out, finding(cw.Node, cw.Topic, msg))
	}
	return out
}

func joinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	s := parts[0]
	for _, p := range parts[1 : len(parts)-1] {
		s += ", " + p
	}
	return s + " and " + parts[len(parts)-1]
}
