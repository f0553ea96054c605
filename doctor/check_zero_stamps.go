package doctor

import (
	"fmt"

	"github.com/simclock/simclock/rules"
	"github.com/simclock/simclock/transport"
)

// CodeZeroStamps: a node publishes stamps of 0.
const CodeZeroStamps rules.Code = "zero_stamps"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeZeroStamps, Severity: rules.Warning, Rules: []rules.ID{rules.R10, rules.R26},
			Title: "a node publishes stamps that are 0: it stamped before its first /clock, or never set the stamp",
			Fix:   "wait until the node's clock has started (time > 0) before publishing, and set header.stamp = now()"},
		Detect: zeroStamps,
	})
}

// zeroStamps: per topic and writer, stamps of 0.
func zeroStamps(a *analysis) []rules.Finding {
	var out []rules.Finding
	for _, s := range a.stampedWriters() {
		if s.tf && s.writer.QoS.Durability != transport.Volatile {
			continue // tf2 keeps a static transform for all time, whatever its stamp
		}
		if c := s.stamps.Counts[Zero]; c > 0 {
			out = append(out, finding(s.who, s.topic,
				fmt.Sprintf("%s publishes %s with stamp 0: %d of %d stamps", s.who, s.topic, c, s.stamps.Counts.Total())))
		}
	}
	return out
}
