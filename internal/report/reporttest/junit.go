package reporttest

import (
	"bytes"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// JUnitCounts are what a JUnit report says of its run, as colcon
// test-result and ament_cmake_test's run_test.py read it.
type JUnitCounts struct {
	Tests, Failures, Errors int
	// Cases are the test cases' names, in order.
	Cases []string
}

// ValidateJUnit fails t when report is not a JUnit XML report that
// Jenkins' junit-10.xsd accepts (checked with xmllint from Debian's
// libxml2-utils; the check is skipped where xmllint is missing, unless CI
// is set) and that colcon test-result and run_test.py read as it means:
// a <testsuite> or <testsuites> root whose tests, failures and errors are
// whole numbers matching its test cases. It returns the counts.
func ValidateJUnit(t testing.TB, report []byte) JUnitCounts {
	t.Helper()
	validateXSD(t, report)
	var suite struct {
		XMLName  xml.Name
		Tests    string `xml:"tests,attr"`
		Failures string `xml:"failures,attr"`
		Errors   string `xml:"errors,attr"`
		Cases    []struct {
			Name     string     `xml:"name,attr"`
			Failures []struct{} `xml:"failure"`
			Errors   []struct{} `xml:"error"`
		} `xml:"testcase"`
	}
	if err := xml.Unmarshal(report, &suite); err != nil {
		t.Fatalf("JUnit report is not XML: %v", err)
	}
	if suite.XMLName.Local != "testsuite" {
		t.Fatalf("JUnit report's root is <%s>, want <testsuite> (as ament's linters write)", suite.XMLName.Local)
	}
	var c JUnitCounts
	for name, attr := range map[string]struct {
		s   string
		dst *int
	}{"tests": {suite.Tests, &c.Tests}, "failures": {suite.Failures, &c.Failures}, "errors": {suite.Errors, &c.Errors}} {
		n, err := strconv.Atoi(attr.s)
		if err != nil || n < 0 {
			t.Errorf("testsuite %s=%q is not a whole number (colcon test-result skips the file)", name, attr.s)
		}
		*attr.dst = n
	}
	failures, errors := 0, 0
	for _, tc := range suite.Cases {
		c.Cases = append(c.Cases, tc.Name)
		failures += len(tc.Failures)
		errors += len(tc.Errors)
	}
	if c.Tests != len(suite.Cases) || c.Failures != failures || c.Errors != errors {
		t.Errorf("testsuite says tests=%d failures=%d errors=%d, its test cases hold %d, %d and %d",
			c.Tests, c.Failures, c.Errors, len(suite.Cases), failures, errors)
	}
	return c
}

// JUnitSchema is the path of junit-10.xsd.
func JUnitSchema() string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "testdata", "junit-10.xsd")
}

// validateXSD validates report against junit-10.xsd with xmllint.
func validateXSD(t testing.TB, report []byte) {
	t.Helper()
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and xmllint is missing (apt-get install libxml2-utils): %v", err)
		}
		t.Logf("xmllint is not installed (apt-get install libxml2-utils): JUnit output not checked against its schema")
		return
	}
	cmd := exec.Command(xmllint, "--noout", "--nonet", "--schema", JUnitSchema(), "-")
	cmd.Stdin = bytes.NewReader(report)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("JUnit output is not valid against junit-10.xsd: %v\n%s", err, out)
	}
}
