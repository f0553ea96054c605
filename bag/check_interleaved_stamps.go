package bag

import (
	"fmt"

	"github.com/simclock/simclock/rules"
)

// CodeInterleavedStamps: stamps going backwards on a topic several
// publishers share, in a bag that does not say whose each message is
// (rosbag2 records none): the publishers' stamps interleave, which is no
// hazard, and nothing can be judged per publisher.
const CodeInterleavedStamps rules.Code = "interleaved_stamps"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeInterleavedStamps, Severity: rules.Info,
			Title: "stamps going backwards on a topic several publishers share, which the bag does not tell apart: their stamps interleave",
			Fix:   "nothing to fix; record with a storage that keeps each publisher apart to have each one's stamps checked"},
		Detect: func(t *tally) []rules.Finding {
			return fieldFindings(t, func(f *fieldTally) (counter, string) {
				tt := t.topics[f.topic]
				if !tt.sharedUnattributed() {
					return counter{}, ""
				}
				return f.backwards, fmt.Sprintf("stamps going backwards within the topic, which %d publishers share: the bag does not say whose each message is, so these are their stamps interleaving, not judged per publisher", tt.rep.Publishers)
			}, false)
		},
	}, nil)
}
