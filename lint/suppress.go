package lint

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/simclock/simclock/rules"
)

// Suppression comments. "# simclock: ignore[R27]" or
// "// simclock: ignore[unguarded-window,R28]" silences the rules it names
// (by number or name) on its line, or on the next line when it stands alone
// on its own; "simclock: ignore" silences every rule there. As
// golangci-lint's nolintlint does, a comment that does nothing is itself
// reported: one naming no rule the linter checks (ignore[R1], a misspelt
// name), and one that silences no finding (the code was fixed, or the
// comment is on the wrong line). Both are info, warnings under
// Config.Strict: a stale comment is not a hazard, but it hides the next one.

// The finding codes of suppression comments (docs/rules.md).
const (
	CodeUnknownSuppression rules.Code = "unknown-suppression"
	CodeUnusedSuppression  rules.Code = "unused-suppression"
)

// suppressionChecks describe what a suppression comment can get wrong.
// They cite no rule of the specification.
var suppressionChecks = []rules.Check{
	{Code: CodeUnknownSuppression, Severity: rules.Info,
		Title: "a simclock: ignore comment names a rule simclock lint does not check",
		Fix:   "name the rule by its number (R27) or its name (unguarded-window), as the finding shows them",
		Help: "A suppression comment that names no rule of the linter (a misspelt name, a rule number " +
			"the linter has no check for) silences nothing, so the finding it was meant for is still reported."},
	{Code: CodeUnusedSuppression, Severity: rules.Info,
		Title: "a simclock: ignore comment that silences no finding",
		Fix:   "remove the comment, or the rule from its list",
		Help: "A suppression comment that silences no finding on its line (or, alone on its line, the " +
			"next) is left over from code that was fixed or moved; kept, it would silence the next real " +
			"finding there."},
}

// suppression is one "simclock: ignore" comment.
type suppression struct {
	comment *node
	all     bool       // a bare "simclock: ignore"
	rules   []rules.ID // the rules named, in order
	unknown []string   // the names that are not rules of the linter
	used    map[rules.ID]bool
	usedAll bool
}

// parseSuppression reads the suppression in a comment's text, or returns
// false when the comment holds none.
func parseSuppression(text string) (suppression, bool) {
	i := strings.Index(text, "simclock:")
	if i < 0 {
		return suppression{}, false
	}
	rest := strings.TrimSpace(text[i+len("simclock:"):])
	rest, ok := strings.CutPrefix(rest, "ignore")
	if !ok {
		return suppression{}, false
	}
	// "simclock: ignored for now" is prose, not a directive.
	if r := []rune(rest); len(r) > 0 && (unicode.IsLetter(r[0]) || unicode.IsDigit(r[0]) || r[0] == '-' || r[0] == '_') {
		return suppression{}, false
	}
	s := suppression{used: map[rules.ID]bool{}}
	inner, ok := strings.CutPrefix(strings.TrimLeft(rest, " \t"), "[")
	if !ok {
		s.all = true
		return s, true
	}
	list := inner
	if j := strings.IndexByte(inner, ']'); j >= 0 {
		list = inner[:j]
	}
	for name := range strings.SplitSeq(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		id, err := ParseRule(name)
		switch {
		case err != nil:
			s.unknown = append(s.unknown, name)
		case !slices.Contains(s.rules, id):
			s.rules = append(s.rules, id)
		}
	}
	if len(s.rules) == 0 && len(s.unknown) == 0 {
		s.unknown = append(s.unknown, "[]")
	}
	return s, true
}

// suppress drops the findings of fs silenced by a suppression comment of
// u and returns the rest, followed by the findings about the suppression
// comments themselves. enabled says whether a rule ran on u: a comment
// for a rule that did not run (--rules, a per-file ignore) cannot be
// judged unused, nor can any comment in a file that did not parse cleanly
// (judge false).
func (u *unit) suppress(fs []Finding, enabled func(rules.ID) bool, judge, strict bool) []Finding {
	byLine := map[int][]*suppression{}
	var all []*suppression
	for _, c := range u.comments {
		s, ok := parseSuppression(u.text(c))
		if !ok {
			continue
		}
		s.comment = c
		sp := &s
		all = append(all, sp)
		line, _ := u.position(c.start)
		byLine[line] = append(byLine[line], sp)
		// A comment alone on its line covers the next line too.
		start := bytes.LastIndexByte(u.src[:c.start], '\n') + 1
		if len(bytes.TrimSpace(u.src[start:c.start])) == 0 {
			byLine[line+1] = append(byLine[line+1], sp)
		}
	}
	out := fs[:0]
	for _, f := range fs {
		silenced := false
		for _, s := range byLine[f.Line] {
			switch {
			case s.all:
				s.usedAll = true
				silenced = true
			case slices.Contains(s.rules, f.Rule()):
				s.used[f.Rule()] = true
				silenced = true
			}
		}
		if !silenced {
			out = append(out, f)
		}
	}
	severity := rules.Info
	if strict {
		severity = rules.Warning
	}
	report := func(s *suppression, code rules.Code, msg string) {
		check := suppressionChecks[0]
		if code == CodeUnusedSuppression {
			check = suppressionChecks[1]
		}
		f := Finding{Finding: rules.Finding{Code: code, Severity: severity, Rules: rules.IDs{},
			Subject: rules.Subject{File: u.path}, Message: msg, Why: check.Help, Fix: check.Fix}}
		f.Line, f.Col = u.position(s.comment.start)
		f.EndLine, f.EndCol = u.position(s.comment.end)
		out = append(out, f)
	}
	for _, s := range all {
		for _, name := range s.unknown {
			msg := fmt.Sprintf("simclock: ignore[%s] names no rule simclock lint checks (its rules: %s)", name,
				strings.ReplaceAll(knownRules(), ",", ", "))
			if name == "[]" {
				msg = "simclock: ignore[] names no rule; a bare simclock: ignore silences every rule"
			}
			report(s, CodeUnknownSuppression, msg)
		}
		if !judge {
			continue
		}
		if s.all && !s.usedAll && allEnabled(enabled) {
			report(s, CodeUnusedSuppression, "simclock: ignore silences no finding here")
		}
		for _, id := range s.rules {
			if !s.used[id] && enabled(id) {
				r, _ := RuleByID(id)
				report(s, CodeUnusedSuppression, fmt.Sprintf("simclock: ignore[%s] silences no %s (%s) finding here", id, id, r.Name))
			}
		}
	}
	return out
}

// allEnabled reports whether every rule ran.
func allEnabled(enabled func(rules.ID) bool) bool {
	for _, r := range Rules {
		if !enabled(r.ID) {
			return false
		}
	}
	return true
}
