package doctor

import "github.com/simclock/simclock/rules"

// CodeExpectSimStamps: a topic --expect sim_stamps=TOPIC names is missing,
// unsampled, or not stamped with sim time.
const CodeExpectSimStamps rules.Code = "expect_sim_stamps"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeExpectSimStamps, Severity: rules.Error, Rules: []rules.ID{rules.R16, rules.R26},
			Title: "a topic expected to carry sim stamps (--expect sim_stamps=TOPIC) is missing, had no message, or is stamped on another time base",
			Fix:   "stamp with the publishing node's clock (now()) with use_sim_time true; check the publisher runs and publishes within --duration"},
		Detect: func(a *analysis) []rules.Finding { return expectFindings(a, ExpectSimStamps, false) },
	})
}
