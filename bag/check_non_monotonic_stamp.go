package bag

import (
	"fmt"

	"github.com/simclock/simclock/rules"
)

// CodeNonMonotonic: a stamp below the one before it from the same
// publisher (Times outside arrays): on a topic with one publisher, or one
// whose storage records each publisher apart. A topic several publishers
// share in a bag that does not say whose each message is gives
// interleaved_stamps instead.
const CodeNonMonotonic rules.Code = "non_monotonic_stamp"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeNonMonotonic, Severity: rules.Warning,
			Title: "stamps going backwards within one publisher's messages",
			Fix:   "check for a reset clock, or stamps taken before a queue that reorders them"},
		Detect: func(t *tally) []rules.Finding {
			return fieldFindings(t, func(f *fieldTally) (counter, string) {
				tt := t.topics[f.topic]
				switch {
				case tt.sharedUnattributed():
					return counter{}, ""
				case tt.streams > 1:
					return f.backwards, fmt.Sprintf("stamps going backwards within one publisher's messages (the storage records the topic's publishers as %d channels)", tt.streams)
				}
				return f.backwards, "stamps going backwards within the topic"
			}, false)
		},
	}, nil)
}

// sharedUnattributed reports whether several publishers share the topic
// (its offered QoS profiles say so) and the storage does not say whose
// each message is (one channel): rosbag2 records no publisher with a
// message, so their stamps interleave in the bag.
func (tt *topicTally) sharedUnattributed() bool { return tt.streams <= 1 && tt.rep.Publishers > 1 }
