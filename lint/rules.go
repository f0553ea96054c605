package lint

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/simclock/simclock/rules"
)

// Rule describes one check. IDs are the rule numbers of the ROS 2 time
// specification (docs/rules.md); a check that guards against several rules
// uses the one whose failure it reports.
//
// Every rule lives in a file of its own, rule_rNN.go, which registers the
// rule's metadata together with its detector, the way staticcheck keeps one
// analyzer per check: adding a rule is one such file.
type Rule struct {
	ID rules.ID
	// Name is a short kebab-case name: the finding code in docs/rules.md
	// and the rule name in SARIF.
	Name     string
	Summary  string // what is found, in one line
	Severity rules.Severity
	// Fixable reports whether --fix can repair some findings mechanically.
	Fixable bool
	// Fix says in one line how to repair a finding.
	Fix string
	// Help is a paragraph saying why the pattern is wrong and how to fix it,
	// printed once per rule in human output and used as SARIF rule help.
	Help string
	// SimTimeOnly rules are hazards of a clock that starts at 0: they are
	// not reported in test code that runs on wall time (see context.go).
	SimTimeOnly bool

	// The detectors. A rule sets the hooks it needs; check calls them.
	detector
}

// detector is what a rule runs over a unit. Hooks left nil are skipped.
type detector struct {
	// expr is called on every expression of every function (Python and
	// C++), with the conditions known to hold there.
	expr func(c *checker, e *expr, f *fn, conds []cond)
	// str is called on every string literal (Python and C++) and on every
	// parameter-name-like key or attribute value in YAML and XML files.
	str func(c *checker, s *expr)
}

// HelpURL is the address of the rule's section in docs/rules.md.
func (r Rule) HelpURL() string { return r.ID.URL() }

// Check describes the rule as a finding kind, in the table form every
// simclock tool shares.
func (r Rule) Check() rules.Check {
	return rules.Check{Code: rules.Code(r.Name), Severity: r.Severity, Rules: []rules.ID{r.ID}, Title: r.Summary, Fix: r.Fix, Help: r.Help}
}

// Checks returns every rule as a finding kind, in rule-number order, then
// the findings about suppression comments (unknown-suppression,
// unused-suppression), which cite no rule.
func Checks() []rules.Check {
	out := make([]rules.Check, 0, len(Rules)+len(suppressionChecks))
	for _, r := range Rules {
		out = append(out, r.Check())
	}
	return append(out, suppressionChecks...)
}

// Rules lists every check, in rule-number order. The rule_rNN.go files
// fill it at initialisation.
var Rules []Rule

// register adds r to Rules, keeping rule-number order. It panics on a
// duplicate ID, which is a programming error.
func register(r Rule) {
	if _, ok := RuleByID(r.ID); ok {
		panic(fmt.Sprintf("lint: rule %s registered twice", r.ID))
	}
	Rules = append(Rules, r)
	slices.SortFunc(Rules, func(a, b Rule) int { return cmp.Compare(a.ID, b.ID) })
}

// RuleByID returns the linter's rule with the given ID.
func RuleByID(id rules.ID) (Rule, bool) {
	for _, r := range Rules {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

// ParseRule reads a rule by its number ("R27", "r27") or its name
// ("unguarded-window"), as --rules, the config file and suppression
// comments name them.
func ParseRule(s string) (rules.ID, error) {
	s = strings.TrimSpace(s)
	for _, r := range Rules {
		if strings.EqualFold(s, r.Name) {
			return r.ID, nil
		}
	}
	id, err := rules.Parse(s)
	if _, ok := RuleByID(id); err != nil || !ok {
		return 0, fmt.Errorf("%w \"%s\" (known: %s)", ErrUnknownRule, s, knownRules())
	}
	return id, nil
}

// knownRules lists the linter's rules by number.
func knownRules() string {
	known := make([]string, len(Rules))
	for i, r := range Rules {
		known[i] = r.ID.String()
	}
	return strings.Join(known, ",")
}

// ParseRules parses a comma-separated rule list such as "R27,R29" or
// "unguarded-window,R29". An empty string selects every rule.
func ParseRules(s string) ([]rules.ID, error) {
	var ids []rules.ID
	for part := range strings.SplitSeq(s, ",") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		id, err := ParseRule(part)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}
