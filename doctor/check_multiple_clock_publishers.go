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

// multipleClockPublishers: more than one /clock writer (R18).
func multipleClockPublishers(a *analysis) []rules.Finding {
	if len(a.clockWriters) < 2 {
		return nil
	}
	var names []string
	for _, w := range a.clockWriters {
		names = append(names, a.who(w))
	}
	return []rules.Finding{finding(names[0], "/clock",
		fmt.Sprintf("%d writers publish /clock: %s", len(a.clockWriters), strings.Join(names, ", ")))}
}
