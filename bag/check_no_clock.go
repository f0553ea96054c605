package bag

import (
	"github.com/simclock/simclock/rules"
)

// CodeNoClock: the bag has no valid /clock message: stamps are judged against the recorder's log time.
const CodeNoClock rules.Code = "no_clock"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeNoClock, Severity: rules.Info, Rules: []rules.ID{rules.R16},
			Title: "the bag has no /clock: stamps are compared with log time",
			Fix:   "record /clock with the bag when nodes run on sim time"},
		Detect: func(t *tally) []rules.Finding {
			if t.clock.seen {
				return nil
			}
			msg := "the bag has no /clock: stamps are compared with the recorder's log time"
			if t.skipped {
				msg = "no /clock in what could be read (damaged chunks were skipped): stamps are compared with the recorder's log time"
			}
			return []rules.Finding{{Count: 1, Message: msg}}
		},
	}, nil)
}
