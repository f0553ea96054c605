package lint

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Level is how serious a finding is, with SARIF's names.
type Level string

// Levels. Notes are reported but do not fail a run (see Result.Failed).
const (
	LevelError   Level = "error"
	LevelWarning Level = "warning"
	LevelNote    Level = "note"
)

// RulesDoc is where the rules are documented; a rule's HelpURL points at
// its section.
const RulesDoc = "https://github.com/simclock/simclock/blob/main/docs/rules.md"

// Rule describes one check. IDs are the rule numbers of the ROS 2 time
// specification (docs/rules.md); a check that guards against several rules
// uses the one whose failure it reports.
//
// Every rule lives in a file of its own, rule_rNN.go, which registers the
// rule's metadata together with its detector, the way staticcheck keeps one
// analyzer per check: adding a rule is one such file.
type Rule struct {
	ID      string
	Name    string // short kebab-case name, used in SARIF
	Summary string // one line
	Level   Level
	// Fixable reports whether --fix can repair some findings mechanically.
	Fixable bool
	// Help is a paragraph saying why the pattern is wrong and how to fix it,
	// printed once per rule in human output and used as SARIF rule help.
	Help string

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
func (r Rule) HelpURL() string {
	return RulesDoc + "#" + strings.ToLower(r.ID)
}

// number is the numeric part of the ID, for ordering (R2 before R16).
func (r Rule) number() int {
	n, _ := strconv.Atoi(strings.TrimPrefix(r.ID, "R"))
	return n
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
	slices.SortFunc(Rules, func(a, b Rule) int { return cmp.Compare(a.number(), b.number()) })
}

// RuleByID returns the rule with the given ID (case-insensitive).
func RuleByID(id string) (Rule, bool) {
	for _, r := range Rules {
		if strings.EqualFold(r.ID, id) {
			return r, true
		}
	}
	return Rule{}, false
}

// ParseRules parses a comma-separated rule list such as "R27,R29". An empty
// string selects every rule.
func ParseRules(s string) ([]string, error) {
	var ids []string
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		r, ok := RuleByID(part)
		if !ok {
			known := make([]string, len(Rules))
			for i, r := range Rules {
				known[i] = r.ID
			}
			return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownRule, part, strings.Join(known, ","))
		}
		if !slices.Contains(ids, r.ID) {
			ids = append(ids, r.ID)
		}
	}
	return ids, nil
}
