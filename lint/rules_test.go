package lint

import (
	"strings"
	"testing"

	"github.com/simclock/simclock/rules/rulestest"
)

// TestRulesDocumented checks that every rule is complete, registered once
// and written out in docs/rules.md under its name.
func TestRulesDocumented(t *testing.T) {
	if len(Rules) == 0 {
		t.Fatal("no rules registered")
	}
	rulestest.CheckDocumented(t, Checks())
	for i, r := range Rules {
		if !r.ID.Valid() || r.Summary == "" || r.Help == "" || r.Fix == "" {
			t.Errorf("rule %v is incomplete: %+v", r.ID, r)
		}
		if r.expr == nil && r.str == nil {
			t.Errorf("rule %v has no detector", r.ID)
		}
		if i > 0 && Rules[i-1].ID >= r.ID {
			t.Errorf("rules out of order: %v before %v", Rules[i-1].ID, r.ID)
		}
		if !strings.HasSuffix(r.HelpURL(), "docs/rules.md#"+strings.ToLower(r.ID.String())) {
			t.Errorf("%v: help URL %s", r.ID, r.HelpURL())
		}
	}
}
