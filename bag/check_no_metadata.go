package bag

import (
	"fmt"

	"github.com/simclock/simclock/rules"
)

// CodeNoMetadata: a bag directory has no metadata.yaml.
const CodeNoMetadata rules.Code = "no_metadata"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeNoMetadata, Severity: rules.Info,
			Title: "a bag directory without metadata.yaml: its storage files are read in split order",
			Fix:   "run ros2 bag reindex DIR to rebuild metadata.yaml"},
		Detect: func(t *tally) []rules.Finding {
			if !t.set.noMetadata {
				return nil
			}
			return []rules.Finding{{Count: 1, Message: fmt.Sprintf("%s has no metadata.yaml (a recording cut short?): read its %d storage files in split order", t.set.dir, len(t.set.files))}}
		},
	}, nil)
}
