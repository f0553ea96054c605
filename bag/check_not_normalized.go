package bag

import (
	"github.com/simclock/simclock/rules"
)

// CodeNotNormalized: Time values whose nanosec is 10⁹ or more, /clock included.
const CodeNotNormalized rules.Code = "not_normalized"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeNotNormalized, Severity: rules.Warning, Rules: []rules.ID{rules.R8},
			Title: "a Time with nanosec ≥ 10⁹",
			Fix:   "build Time values through a normalising constructor"},
		Detect: func(t *tally) []rules.Finding {
			return fieldFindings(t, func(f *fieldTally) (counter, string) {
				return f.notNormalized, "nanosec of 1e9 or more"
			}, false)
		},
	}, nil)
}
