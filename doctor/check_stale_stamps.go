package doctor

import (
	"fmt"

	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
)

// CodeStaleStamps: a node's stamps lag /clock.
const CodeStaleStamps rules.Code = "stale_stamps"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeStaleStamps, Severity: rules.Warning,
			Title: "a node's stamps lag the current /clock beyond the tolerance",
			Fix:   "stamp with the node's clock when the data is taken; if the node replays or buffers data, check it reads the same /clock as the graph"},
		Detect: staleStamps,
	})
}

// staleStamps: per topic and volatile writer, stamps behind /clock (a
// transient local writer's latched samples are old by design).
func staleStamps(a *analysis) []rules.Finding {
	return a.offClockStamps(Stale, func(s stampedWriter, n int, stamp, ref int64) string {
		return fmt.Sprintf("%s stamps %s behind /clock: %d of %d stamps (e.g. %s at sim time %s, %s s behind)",
			s.who, s.topic, n, s.stamps.Counts.Total(), units.Value(stamp), units.Value(ref), units.Span(ref-stamp))
	})
}
