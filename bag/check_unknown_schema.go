package bag

import (
	"fmt"

	"github.com/simclock/simclock/rules"
)

// CodeUnknownSchema: a topic could not be decoded (no definition, or not ros2msg/cdr): its messages are not analysed.
const CodeUnknownSchema rules.Code = "unknown_schema"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeUnknownSchema, Severity: rules.Warning,
			Title: "a topic whose type has no definition in the bag nor among the shipped ones: not analysed",
			Fix:   "record with a rosbag2 that stores definitions (Iron or later, or MCAP)"},
		Detect: func(t *tally) []rules.Finding {
			var out []rules.Finding
			for _, tt := range t.sortedTopics() {
				if tt.parseErr != nil && tt.rep.Messages > 0 {
					out = append(out, rules.Finding{Subject: rules.Subject{Topic: tt.rep.Topic}, Count: tt.rep.Messages,
						Message: fmt.Sprintf("messages of type \"%s\" not analysed: %v", tt.rep.Type, tt.parseErr)})
				}
			}
			return out
		},
	}, nil)
}
