package doctor

import (
	"fmt"

	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
	"github.com/simclock/simclock/transport"
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
	if len(a.clockWriters) == 0 {
		return nil
	}
	var out []rules.Finding
	for _, s := range a.stampedWriters() {
		if s.tf {
			continue // per transform: check_tf_*.go
		}
		if c := s.stamps.Counts[Future]; c > 0 && s.writer.QoS.Durability == transport.Volatile {
			ex := s.stamps.Example[Future]
			out = append(out, finding(s.who, s.topic,
				fmt.Sprintf("%s stamps %s ahead of /clock: %d of %d stamps (e.g. %s at sim time %s, %s s ahead)",
					s.who, s.topic, c, s.stamps.Counts.Total(), units.Value(ex.Stamp), units.Value(ex.Ref), units.Span(ex.Stamp-ex.Ref))))
		}
	}
	return out
}
