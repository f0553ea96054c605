package rules

import "fmt"

// Severity is how serious a finding is. Every simclock tool (lint, bag,
// doctor, monitor) uses these three words in its output.
type Severity int

// The severities, least serious first, so they order naturally.
const (
	// Info is worth knowing and never fails a run.
	Info Severity = iota
	// Warning is probably a hazard; it fails a run (exit 1).
	Warning
	// Error is a hazard; it fails a run (exit 1).
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

// Fails reports whether a finding of this severity makes a run exit 1.
func (s Severity) Fails() bool { return s >= Warning }

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
