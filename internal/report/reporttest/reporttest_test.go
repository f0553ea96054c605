package reporttest

import (
	"fmt"
	"os/exec"
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

// The JUnit check rejects what junit-10.xsd, colcon test-result or
// run_test.py would read otherwise than meant.
func TestValidateJUnitRejects(t *testing.T) {
	const head = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"
	valid := head + `<testsuite name="p.t" tests="1" errors="0" failures="1" time="0.001"><testcase name="R27 (a.py:1:1)" classname="p.t"><failure message="m"/></testcase></testsuite>`
	r := &recorder{TB: t}
	if c := ValidateJUnit(r, []byte(valid)); len(r.failures) != 0 || c.Tests != 1 || c.Failures != 1 {
		t.Fatalf("a valid report was rejected: %v %+v", r.failures, c)
	}
	cases := map[string]string{
		"failures miscounted": strings.Replace(valid, `failures="1"`, `failures="0"`, 1),
		"not a number":        strings.Replace(valid, `tests="1"`, `tests="one"`, 1),
		"not xml":             head + `<testsuite`,
		"other root":          head + `<report/>`,
	}
	if _, err := exec.LookPath("xmllint"); err == nil {
		// Only the schema knows these.
		cases["testcase without a name"] = strings.Replace(valid, `name="R27 (a.py:1:1)" `, "", 1)
		cases["no errors attribute"] = strings.Replace(valid, `errors="0" `, "", 1)
		cases["time not a number"] = strings.Replace(valid, `time="0.001"`, `time="soon"`, 1)
	}
	for name, report := range cases {
		r := &recorder{TB: t}
		ValidateJUnit(r, []byte(report))
		if len(r.failures) == 0 {
			t.Errorf("%s: an invalid report was accepted", name)
		}
	}
}
