package reporttest

import (
	"fmt"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what would fail the test.
type recorder struct {
	testing.TB
	failures []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, a ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, a...))
}
func (r *recorder) Fatalf(format string, a ...any) { r.Errorf(format, a...) }

// The schema rejects what SARIF does not allow, so a passing validation
// means something.
func TestValidateSARIFRejects(t *testing.T) {
	valid := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"simclock"}},"results":[{"ruleId":"x","level":"%s","message":{"text":"m"}}]}]}`
	r := &recorder{TB: t}
	ValidateSARIF(r, []byte(fmt.Sprintf(valid, "warning")))
	if len(r.failures) != 0 {
		t.Fatalf("a valid log was rejected: %v", r.failures)
	}
	for name, log := range map[string]string{
		"level":    fmt.Sprintf(valid, "fatal"),
		"version":  strings.Replace(fmt.Sprintf(valid, "note"), "2.1.0", "2.0", 1),
		"message":  `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"simclock"}},"results":[{"ruleId":"x"}]}]}`,
		"not json": `{"version":`,
	} {
		r := &recorder{TB: t}
		ValidateSARIF(r, []byte(log))
		if len(r.failures) == 0 {
			t.Errorf("%s: an invalid log was accepted", name)
		}
	}
}
