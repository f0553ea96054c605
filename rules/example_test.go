package rules_test

import (
	"fmt"

	"github.com/simclock/simclock/rules"
)

// A finding cites a rule by number; its summary and URL say what it means.
func ExampleID() {
	r := rules.R27
	fmt.Println(r)
	fmt.Println(r.Summary())
	fmt.Println(r.URL())
	// Output:
	// R27
	// The window guard that works skips while now ≤ W; 'now == 0 or now < W' lets the boundary tick through with time 0.
	// https://github.com/simclock/simclock/blob/main/docs/rules.md#r27
}

// A tool's detector pairs a check with the function that finds it in the
// tool's analysed state; Run fills each finding's code, severity, rules
// and fix from the check.
func ExampleDetector() {
	type speeds struct {
		topic    string
		negative int64
	}
	negativeSpeed := rules.Detector[speeds]{
		Check: rules.Check{Code: "negative_speed", Severity: rules.Warning, Rules: []rules.ID{rules.R4},
			Title: "speeds below 0", Fix: "check the sign convention"},
		Detect: func(s speeds) []rules.Finding {
			if s.negative == 0 {
				return nil
			}
			return []rules.Finding{{Subject: rules.Subject{Topic: s.topic}, Count: s.negative, Message: "speeds below 0"}}
		},
	}
	for _, f := range negativeSpeed.Run(speeds{"/odom", 3}) {
		fmt.Println(f.Severity, f.Code, f.Topic, f.Rules, f.Count, f.Fix)
	}
	// Output:
	// warning negative_speed /odom R4 3 check the sign convention
}
