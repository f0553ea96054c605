package bag

import (
	"github.com/simclock/simclock/rules"
)

// CodeDecodeError: messages that do not decode with their topic's schema.
const CodeDecodeError rules.Code = "decode_error"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeDecodeError, Severity: rules.Warning,
			Title: "messages that do not decode with their schema",
			Fix:   "check that the recorded definition matches the publisher's type"},
		Detect: func(t *tally) []rules.Finding {
			var out []rules.Finding
			for _, tt := range t.sortedTopics() {
				if c := tt.decodeErrors; c.n > 0 {
					out = append(out, rules.Finding{Subject: rules.Subject{Topic: tt.rep.Topic}, Count: c.n,
						Message: "messages that do not decode with their schema: " + tt.firstErr, Examples: c.ex})
				}
			}
			return out
		},
	}, describeMessage)
}
