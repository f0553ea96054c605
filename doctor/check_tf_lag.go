package doctor

import (
	"fmt"

	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
)

// CodeTFLag: a transform's stamps lag /clock beyond the tolerance.
const CodeTFLag rules.Code = "tf_lag"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeTFLag, Severity: rules.Warning,
			Title: "a node's transforms on /tf lag /clock beyond the tolerance: lookups at now() extrapolate",
			Fix: "stamp transforms with the node's clock when they are computed, from the same /clock as the graph; " +
				"check the publisher keeps up (its rate, its CPU), or look up at the latest time (tf2::TimePointZero, " +
				"rclpy Time()) or with a timeout"},
		Detect: tfLag,
	})
}

// tfLag: per transform and writer on a dynamic tf topic, the 95th
// percentile of its latest lags beyond the tolerance (a transform late now
// and then is not a finding; one late one time in twenty is).
func tfLag(a *analysis) []rules.Finding {
	var out []rules.Finding
	for _, t := range a.tf {
		if t.Static || t.Lag == nil || t.Lag.P95 <= int64(a.obs.Tolerance) {
			continue
		}
		l := t.Lag
		out = append(out, finding(t.Publisher, t.Topic, fmt.Sprintf(
			"%s's transform %s on %s lags /clock: median %s s, p95 %s s, max %s s over its latest %d stamps "+
				"(tolerance %s s); listeners looking it up at now() fail with \"Lookup would require extrapolation "+
				"into the future\"",
			t.Publisher, t, t.Topic, units.Span(l.P50), units.Span(l.P95), units.Span(l.Max), l.Count,
			units.Span(a.obs.Tolerance))))
	}
	return out
}
