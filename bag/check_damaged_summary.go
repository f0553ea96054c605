package bag

import (
	"fmt"

	"github.com/simclock/simclock/rules"
)

// CodeDamagedSummary: an MCAP summary section was not trusted (its CRC,
// framing or indexes disagree with the data); the file was read from its
// data section instead: damage, never a hazard.
const CodeDamagedSummary rules.Code = "damaged_summary"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeDamagedSummary, Severity: rules.Error,
			Title: "an MCAP summary section that fails its CRC or disagrees with the data: the file is read from its data section",
			Fix:   "re-copy the bag; mcap recover rewrites the summary from the data"},
		Detect: damagedSummaries,
	}, describeDetail)
}

// damagedSummaries: one finding for every file whose summary was not
// trusted, with the first few as examples.
func damagedSummaries(t *tally) []rules.Finding {
	var ex []rules.Example
	var n int64
	for _, f := range t.files {
		if f.SummaryDamage == "" {
			continue
		}
		n++
		if len(ex) < t.opts.Examples {
			ex = append(ex, rules.Example{File: fileName(f.Path), Detail: f.SummaryDamage})
		}
	}
	if n == 0 {
		return nil
	}
	return []rules.Finding{{Count: n, Examples: ex,
		Message: fmt.Sprintf("%d files have a damaged MCAP summary section: read from their data section instead, which the report covers", n)}}
}
