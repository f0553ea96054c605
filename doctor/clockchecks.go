package doctor

import (
	"fmt"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/internal/units"
)

// The detectors of what each clock writer's stream did during the audit:
// it stopped, went silent for a while, stood still, jumped, or sent what
// is not a Clock. Each names the writer and when, in seconds since the
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

// clockStopped: a writer that published and has been silent longer than a
// gap when the report is made, whether it is still in the graph or left.
func clockStopped(a *analysis) []Finding {
	var out []Finding
	for _, cw := range a.clockRows {
		if cw.Msgs == 0 || cw.LastMsg == nil || (cw.Silence == 0 && !cw.Left) {
			continue
		}
		last := "no valid value"
		if cw.SimNs != nil {
			last = "last value " + cw.SimTime
		}
		msg := fmt.Sprintf("%s from %s stopped %s (%s, after %d messages at %.1f Hz)",
			cw.Topic, cw.Node, at(*cw.LastMsg), last, cw.Msgs, cw.RateHz)
		if cw.Silence > 0 {
			msg += fmt.Sprintf(" and has been silent for %s s", units.Span(cw.Silence))
		}
		if cw.Left {
			msg += "; the writer has left the graph"
		}
		msg += ": sim time stands still for every node on it"
		out = append(out, finding(CodeClockStopped, cw.Node, cw.Topic, msg))
	}
	return out
}

// clockGaps: silences that ended during the audit.
func clockGaps(a *analysis) []Finding {
	var out []Finding
	for _, cw := range a.clockRows {
		if cw.Gaps == 0 {
			continue
		}
		e, _ := firstEvent(cw, clockstream.Gap)
		msg := fmt.Sprintf("%s from %s went silent for %s s from %s, then resumed", cw.Topic, cw.Node, units.Span(e.Length), at(e.At))
		if cw.Gaps > 1 {
			msg += fmt.Sprintf(" (%d gaps in all)", cw.Gaps)
		}
		out = append(out, finding(CodeClockGap, cw.Node, cw.Topic, msg))
	}
	return out
}

// clockStalls: messages kept coming while the value stood still.
func clockStalls(a *analysis) []Finding {
	var out []Finding
	for _, cw := range a.clockRows {
		if cw.Pauses == 0 {
			continue
		}
		e, _ := firstEvent(cw, clockstream.Pause)
		msg := fmt.Sprintf("%s from %s stood still at %s from %s (at least %s s) while messages kept coming",
			cw.Topic, cw.Node, units.Value(e.From), at(e.At), units.Span(e.Length))
		if cw.Pauses > 1 {
			msg += fmt.Sprintf(" (%d pauses in all)", cw.Pauses)
		}
		out = append(out, finding(CodeClockStall, cw.Node, cw.Topic, msg))
	}
	return out
}

// clockBackward: a valid value below the previous one.
func clockBackward(a *analysis) []Finding {
	return jumps(a, clockstream.BackwardJump, CodeClockBackward, "went back", func(cw ClockWriter) int { return cw.BackwardJumps })
}

// clockJumpsForward: a value far ahead of the usual step.
func clockJumpsForward(a *analysis) []Finding {
	return jumps(a, clockstream.ForwardJump, CodeClockJumpForward, "jumped forward", func(cw ClockWriter) int { return cw.ForwardJumps })
}

func jumps(a *analysis, kind clockstream.EventKind, code, verb string, count func(ClockWriter) int) []Finding {
	var out []Finding
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
		out = append(out, finding(code, cw.Node, cw.Topic, msg))
	}
	return out
}

// clockMalformed: messages that are not a valid Clock; with no valid one
// at all, nodes never get a time from this writer.
func clockMalformed(a *analysis) []Finding {
	var out []Finding
	for _, cw := range a.clockRows {
		bad := cw.Malformed + cw.NotNormalized
		if bad == 0 {
			continue
		}
		var what []string
		if cw.Malformed > 0 {
			e, _ := firstEvent(cw, clockstream.Malformed)
			what = append(what, fmt.Sprintf("%d do not decode as rosgraph_msgs/msg/Clock (the first %s)", cw.Malformed, at(e.At)))
		}
		if cw.NotNormalized > 0 {
			e, _ := firstEvent(cw, clockstream.NotNormalized)
			what = append(what, fmt.Sprintf("%d carry nanosec ≥ 1e9 (R8; the first %s)", cw.NotNormalized, at(e.At)))
		}
		msg := fmt.Sprintf("%d of %d messages %s from %s are not a valid Clock: %s", bad, cw.Msgs, cw.Topic, cw.Node, joinAnd(what))
		if cw.SimNs == nil {
			msg += "; not one was valid: nodes reading it never get a time (it stays 0)"
		}
		out = append(out, finding(CodeClockMalformed, cw.Node, cw.Topic, msg))
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
