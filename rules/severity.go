package rules

import "fmt"

// Severity is how serious a finding is. Every simclock tool (lint, bag,
// doctor, monitor) uses these three words in its output; FailOn decides
// which of them fail a run.
type Severity int

// The severities, least serious first, so they order naturally.
const (
	// Info is worth knowing; it fails a run only with --fail-on info.
	Info Severity = iota
	// Warning is probably a hazard; it fails a run (exit 1) by default,
	// and not with --fail-on error.
	Warning
	// Error is a hazard; it fails a run (exit 1) unless --fail-on never.
	Error
)

// String returns "info", "warning" or "error".
func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// SARIFLevel returns the SARIF 2.1.0 level: "note" for Info, else the same word.
func (s Severity) SARIFLevel() string {
	if s == Info {
		return "note"
	}
	return s.String()
}

// MarshalText writes the severity's word.
func (s Severity) MarshalText() ([]byte, error) {
	if s < Info || s > Error {
		return nil, fmt.Errorf("rules: unknown severity %d", int(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads "info", "warning" or "error" ("note" is read as info,
// for SARIF input).
func (s *Severity) UnmarshalText(b []byte) error {
	p, err := ParseSeverity(string(b))
	if err != nil {
		return err
	}
	*s = p
	return nil
}

// ParseSeverity reads a severity word.
func ParseSeverity(word string) (Severity, error) {
	switch word {
	case "info", "note":
		return Info, nil
	case "warning":
		return Warning, nil
	case "error":
		return Error, nil
	}
	return 0, fmt.Errorf("rules: unknown severity %q (want info, warning or error)", word)
}

// FailOn is what fails a run of lint, bag inspect or doctor: their shared
// --fail-on flag. The zero value is the default, FailOnWarning.
type FailOn int

// The policies, from the default.
const (
	// FailOnWarning fails a run on a warning or an error (the default).
	FailOnWarning FailOn = iota
	// FailOnError fails a run on an error only.
	FailOnError
	// FailOnInfo fails a run on any finding.
	FailOnInfo
	// FailOnNever never fails a run on findings.
	FailOnNever
)

// FailOnWords are the values of --fail-on, the default first.
var FailOnWords = []string{"warning", "error", "info", "never"}

// String returns the policy's word, as --fail-on takes it.
func (f FailOn) String() string {
	if f < 0 || int(f) >= len(FailOnWords) {
		return fmt.Sprintf("failon(%d)", int(f))
	}
	return FailOnWords[f]
}

// ParseFailOn reads a --fail-on value: warning, error, info or never.
func ParseFailOn(word string) (FailOn, error) {
	for i, w := range FailOnWords {
		if w == word {
			return FailOn(i), nil
		}
	}
	return 0, fmt.Errorf("rules: unknown --fail-on %q (want warning, error, info or never)", word)
}

// Fails reports whether a finding of severity s fails a run under f.
func (f FailOn) Fails(s Severity) bool {
	switch f {
	case FailOnWarning:
		return s >= Warning
	case FailOnError:
		return s >= Error
	case FailOnInfo:
		return true
	}
	return false
}

// Fails reports whether any of fs fails a run under f: the one exit-status
// policy of lint, bag inspect and doctor.
func Fails(fs []Finding, f FailOn) bool {
	for _, x := range fs {
		if f.Fails(x.Severity) {
			return true
		}
	}
	return false
}
