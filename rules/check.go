package rules

import (
	"cmp"
	"fmt"
	"slices"
)

// A Code names one kind of finding: the stable key of JSON output, of
// SARIF results and of docs/rules.md. bag and doctor write codes in
// snake_case ("clock_backward"), lint in kebab-case ("unguarded-window").
// Each tool declares its codes as typed constants, so a misspelt code
// does not compile. Codes are never renamed.
type Code string

// Check describes one kind of finding a tool reports: its stable code, how
// serious it is, the rules it enforces, what it says and how to fix it.
// docs/rules.md documents every code (rulestest.CheckDocumented checks it).
type Check struct {
	// Code is the stable identifier in JSON output.
	Code Code
	// Severity is how serious a finding of this kind is.
	Severity Severity
	// Rules are the rules the check enforces, most specific first.
	Rules []ID
	// Title says in one line what was found.
	Title string
	// Fix says what to change.
	Fix string
	// Help, when set, says in a paragraph why the finding matters (lint's
	// rules have one); SARIF output uses it as the rule's full description.
	Help string
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

// A Detector is one check of a tool together with the function that finds
// it in S, the state the tool has analysed (bag's tally of a recording,
// doctor's analysis of a graph): what a finding means and how it is found,
// in one value, as a staticcheck analyzer holds its doc and its run
// function. Each detector lives in a file of its own and registers itself
// in its tool's Detectors from init, so adding a check is that file plus
// its line in docs/rules.md.
type Detector[S any] struct {
	Check
	// Detect returns the findings of the check in s. It fills what only it
	// knows: the subject, count, message and examples, and a Fix or Why
	// when it can say more than the check. Run fills the rest.
	Detect func(s S) []Finding
}

// Run returns d's findings in s. Each carries d's code and rules, d's fix
// unless Detect gave one, and d's severity unless Detect set a lower one
// (bag reports some checks one level lower for Time fields that are not
// stamps); Info, the zero Severity, stands for the check's own.
func (d Detector[S]) Run(s S) []Finding {
	fs := d.Detect(s)
	for i := range fs {
		f := &fs[i]
		f.Code, f.Rules = d.Code, d.Rules
		if f.Severity == Info || f.Severity > d.Severity {
			f.Severity = d.Severity
		}
		if f.Fix == "" {
			f.Fix = d.Fix
		}
	}
	return fs
}

// Detectors is the detectors of one tool, each registered from its own
// file. The tool's table of checks is derived from it (Checks), so there
// is no second list to keep in step.
type Detectors[S any] []Detector[S]

// Register adds d. It panics when d's check is incomplete, has no Detect,
// or reuses a code: a programming error that any test of the tool catches
// as the package initialises.
func (ds *Detectors[S]) Register(d Detector[S]) {
	if err := d.Validate(); err != nil {
		panic(err)
	}
	if d.Detect == nil {
		panic(fmt.Sprintf("rules: check %q has no Detect", d.Code))
	}
	if slices.ContainsFunc(*ds, func(o Detector[S]) bool { return o.Code == d.Code }) {
		panic(fmt.Sprintf("rules: check %q registered twice", d.Code))
	}
	*ds = append(*ds, d)
	slices.SortFunc(*ds, func(a, b Detector[S]) int { return cmp.Compare(a.Code, b.Code) })
}

// Checks returns the checks of every detector, by code.
func (ds Detectors[S]) Checks() []Check {
	out := make([]Check, len(ds))
	for i, d := range ds {
		out[i] = d.Check
	}
	return out
}

// Run returns the findings of every detector in s, detector by detector.
func (ds Detectors[S]) Run(s S) []Finding {
	var out []Finding
	for _, d := range ds {
		out = append(out, d.Run(s)...)
	}
	return out
}
