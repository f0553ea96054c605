package doctor

import (
	"fmt"

	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
	"github.com/simclock/simclock/transport"
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
	if len(a.clockWriters) == 0 {
		return nil
	}
	var out []rules.Finding
	for _, s := range a.stampedWriters() {
		if s.tf {
			continue // per transform: check_tf_*.go
		}
		if c := s.stamps.Counts[Stale]; c > 0 && s.writer.QoS.Durability == transport.Volatile {
			ex := s.stamps.Example[Stale]
			out = append(out, finding(s.who, s.topic,
				fmt.Sprintf("%s stamps %s behind /clock: %d of %d stamps (e.g. %s at sim time %s, %s s behind)",
					s.who, s.topic, c, s.stamps.Counts.Total(), units.Value(ex.Stamp), units.Value(ex.Ref), units.Span(ex.Ref-ex.Stamp))))
		}
	}
	return out
}
