package doctor

import (
	"fmt"

	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/rules"
)

// CodeTFOldData: after /clock went back, a node keeps stamping a
// transform on the old timeline.
const CodeTFOldData rules.Code = "tf_old_data"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeTFOldData, Severity: rules.Error, Rules: []rules.ID{rules.R14, rules.R22},
			Title: "/clock went back and a node keeps stamping a transform on the timeline from before the jump",
			Fix: "make the publisher stamp with its node clock (now()) so that it follows /clock back, and restart it " +
				"after a simulation reset; do not loop playback of a graph whose nodes keep their own time"},
		Detect: tfOldData,
	})
}

// tfOldData: per transform and writer, stamps ahead of /clock after a
// /clock backward jump.
func tfOldData(a *analysis) []rules.Finding {
	var out []rules.Finding
	for _, t := range a.tf {
		if t.OldTimeline == 0 {
			continue
		}
		ex := t.stamps.OldExample
		out = append(out, finding(t.Publisher, t.Topic, fmt.Sprintf(
			"/clock went back from %s to %s %s, and %s keeps stamping the transform %s on %s on the old timeline: "+
				"%d stamps ahead of /clock (e.g. %s at sim time %s, %s s ahead); listeners that kept its newer "+
				"transforms drop those stamped on the new /clock as TF_OLD_DATA, and those that cleared their buffer "+
				"(\"Detected jump back in time\") cannot look it up at now()",
			units.Value(ex.JumpFrom), units.Value(ex.JumpTo), at(ex.JumpAt), t.Publisher, t, t.Topic, t.OldTimeline,
			units.Value(ex.Stamp), units.Value(ex.Sim), units.Span(ex.Stamp-ex.Sim))))
	}
	return out
}
