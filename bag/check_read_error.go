package bag

import (
	"context"
	"errors"

	"github.com/simclock/simclock/rules"
)

// CodeReadError: a file could not be read to its end (truncated or corrupt): the report covers what came before.
const CodeReadError rules.Code = "read_error"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeReadError, Severity: rules.Error,
			Title: "the file is truncated or corrupt: the report covers what came before",
			Fix:   "re-copy the bag; for a recording cut short, the report of what was read stands"},
		Detect: func(t *tally) []rules.Finding {
			if t.readErr == nil || errors.Is(t.readErr, context.Canceled) {
				return nil
			}
			return []rules.Finding{{Count: 1, Message: t.readErr.Error() + "; the report covers everything before it"}}
		},
	}, nil)
}
