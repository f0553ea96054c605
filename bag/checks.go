package bag

import (
	"github.com/simclock/simclock/rules"
	"github.com/simclock/simclock/timemsg"
)

// detectors holds every check of Inspect, each registered from its file,
// check_<code>.go: the check's table entry, its detector over the tally of
// the bag, and how its examples read, so adding a finding is one such
// file plus its line in docs/rules.md. A check that is an error for stamps
// is reported one level lower (warning) for other Time fields.
var detectors rules.Detectors[*tally]

// describers holds how the examples of a check read, for the checks
// whose examples are not the usual "at log +T s (message N): value".
var describers = map[rules.Code]func(r *Report, e rules.Example) string{}

// Checks returns every kind of finding Inspect reports, by code: its
// severity, the rules it enforces, what it says and how to fix it.
func Checks() []rules.Check { return detectors.Checks() }

// register adds a check of Inspect; describe says how its examples read
// (nil: describeValue).
func register(d rules.Detector[*tally], describe func(r *Report, e rules.Example) string) {
	detectors.Register(d)
	if describe != nil {
		describers[d.Code] = describe
	}
}

// clockFinding is the finding of a /clock check that counted n
// occurrences, with their first examples: none when n is 0.
func clockFinding(n int64, ex []rules.Example, message string) []rules.Finding {
	if n == 0 {
		return nil
	}
	return []rules.Finding{{Subject: rules.Subject{Topic: timemsg.ClockTopic}, Count: n, Message: message, Examples: ex}}
}

// fieldFindings is the findings of a check of Time fields: one per field
// whose counter (what) counted something, with the message what gives.
// lowered: the check is an error for stamps and a warning for other Time
// fields (fieldTally.lowered).
func fieldFindings(t *tally, what func(f *fieldTally) (counter, string), lowered bool) []rules.Finding {
	var out []rules.Finding
	for _, f := range t.timeFields() {
		c, msg := what(f)
		if c.n == 0 {
			continue
		}
		fd := rules.Finding{Subject: f.subject(), Count: c.n, Message: msg, Examples: c.ex}
		if lowered {
			fd.Severity = f.lowered()
		}
		out = append(out, fd)
	}
	return out
}
