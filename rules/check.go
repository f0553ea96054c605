package rules

import "fmt"

// Check describes one kind of finding a tool reports: its stable code, how
// serious it is, the rules it enforces, what it says and how to fix it.
// Each tool keeps its checks in one table (bag.Checks, doctor.Checks, lint's
// registry), so adding a finding is one entry plus its detector, and
// docs/rules.md documents every code (a test checks it).
type Check struct {
	// Code is the stable identifier in JSON output, snake_case:
	// "clock_qos_mismatch". Codes are never renamed.
	Code string
	// Severity is how serious a finding of this kind is.
	Severity Severity
	// Rules are the rules the check enforces, most specific first.
	Rules []ID
	// Title says in one line what was found.
	Title string
	// Fix says what to change.
	Fix string
}

// Validate reports a check that is missing a code, title or fix, or cites
// something that is not a rule.
func (c Check) Validate() error {
	if c.Code == "" || c.Title == "" || c.Fix == "" {
		return fmt.Errorf("rules: check %q needs a code, a title and a fix", c.Code)
	}
	for _, r := range c.Rules {
		if !r.Valid() {
			return fmt.Errorf("rules: check %q cites %d, not a rule", c.Code, int(r))
		}
	}
	return nil
}
