package doctor

import (
	"fmt"

	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
)

// CodeFutureStamps: a node's stamps lead /clock.
const CodeFutureStamps rules.Code = "future_stamps"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeFutureStamps, Severity: rules.Warning,
			Title: "a node's stamps are ahead of the current /clock beyond the tolerance",
			Fix:   "check that the node reads this graph's /clock (one /clock source, R18) and does not add offsets to its stamps"},
		Detect: futureStamps,
	})
}

// futureStamps: per topic and volatile writer, stamps ahead of /clock.
func futureStamps(a *analysis) []rules.Finding {
	return a.offClockStamps(Future, func(s stampedWriter, n int, stamp, ref int64) string {
		return fmt.Sprintf("%s stamps %s ahead of /clock: %d of %d stamps (e.g. %s at sim time %s, %s s ahead)",
			s.who, s.topic, n, s.stamps.Counts.Total(), units.Value(stamp), units.Value(ref), units.Span(stamp-ref))
	})
}
