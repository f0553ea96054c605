package doctor

import (
	"fmt"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/rules"
)

// CodeClockMalformed: a clock writer's messages are not a valid Clock.
const CodeClockMalformed rules.Code = "clock_malformed"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeClockMalformed, Severity: rules.Error, Rules: []rules.ID{rules.R8, rules.R9},
			Title: "a /clock writer sends messages that are not a valid rosgraph_msgs/msg/Clock (they do not decode, or carry nanosec ≥ 1e9)",
			Fix:   "publish rosgraph_msgs/msg/Clock serialized as rmw does (CDR, sec then nanosec below 1e9); a valid Clock type name over another layout is dropped or misread by every node"},
		Detect: clockMalformed,
	})
}

// clockMalformed: messages that are not a valid Clock; with no valid one
// at all, nodes never get a time from this writer.
func clockMalformed(a *analysis) []rules.Finding {
	var out []rules.Finding
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
		out = append(out, finding(cw.Node, cw.Topic, msg))
	}
	return out
}
