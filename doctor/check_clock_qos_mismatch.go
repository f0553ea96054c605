package doctor

import (
	"fmt"
	"strings"

	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/rules"
)

// CodeClockQoSMismatch: a /clock reader that matches no /clock writer.
const CodeClockQoSMismatch rules.Code = "clock_qos_mismatch"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeClockQoSMismatch, Severity: rules.Error, Rules: []rules.ID{rules.R16},
			Title: "a /clock reader matches no /clock writer (QoS), so its node's time stays 0",
			Fix:   "give the reader the QoS rclcpp uses for /clock (BEST_EFFORT, VOLATILE, KEEP_LAST 1), e.g. drop qos_overrides./clock.subscription.* parameters, or make the writer offer what the reader asks"},
		Detect: clockQoSMismatch,
	})
}

// clockQoSMismatch: a /clock reader that matches none of the writers.
func clockQoSMismatch(a *analysis) []rules.Finding {
	if len(a.clockWriters) == 0 {
		return nil
	}
	var out []rules.Finding
	for _, r := range a.clockReaders {
		if len(a.snap.Matches(r)) > 0 {
			continue
		}
		var why []string
		for _, w := range a.clockWriters {
			var parts []string
			if w.DDSType != r.DDSType {
				parts = append(parts, fmt.Sprintf("type %s, reader wants %s", w.DDSType, r.DDSType))
			}
			for _, inc := range graph.Incompatible(w.QoS, r.QoS) {
				parts = append(parts, inc.String())
			}
			why = append(why, fmt.Sprintf("%s (%s)", a.who(w), strings.Join(parts, "; ")))
		}
		out = append(out, finding(a.who(r), "/clock",
			fmt.Sprintf("the /clock reader of %s (%s) matches no /clock writer: %s; its sim time stays 0",
				a.who(r), r.QoS, strings.Join(why, ", "))))
	}
	return out
}
