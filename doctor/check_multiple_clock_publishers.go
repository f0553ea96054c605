package doctor

import (
	"fmt"
	"strings"

	"github.com/simclock/simclock/rules"
)

// CodeMultipleClockPubs: more than one /clock writer (R18).
const CodeMultipleClockPubs rules.Code = "multiple_clock_publishers"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeMultipleClockPubs, Severity: rules.Warning, Rules: []rules.ID{rules.R18},
			Title: "more than one writer publishes /clock; nodes see time jump between them",
			Fix:   "keep one /clock source: do not run ros2 bag play --clock next to a simulator, and bridge /clock from one simulator only"},
		Detect: multipleClockPublishers,
	})
}

// multipleClockPublishers: more than one writer on one clock topic (R18).
// Per-namespace clocks (/robot1/clock and /robot2/clock) are one writer
// each and not a finding.
func multipleClockPublishers(a *analysis) []rules.Finding {
	var out []rules.Finding
	for _, t := range a.clockTopics() {
		writers := a.writersOn(t)
		if len(writers) < 2 {
			continue
		}
		var names []string
		for _, w := range writers {
			names = append(names, a.who(w))
		}
		out = append(out, finding(names[0], rosTopicOr(t),
			fmt.Sprintf("%d writers publish %s: %s", len(writers), rosTopicOr(t), strings.Join(names, ", "))))
	}
	return out
}
