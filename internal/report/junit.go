package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/simclock/simclock/rules"
)

// JUnit XML, in the shape ament_lint's linters write it with --xunit-file
// (ament_flake8's get_xunit_content, ament/ament_lint), so that `colcon
// test`, `colcon test-result` and CI dashboards show a run as they show
// ament_flake8's:
//
//	<testsuite name="my_pkg.simclock_lint" tests="2" errors="0" failures="1" time="0.031">
//	  <testcase name="R27 (my_pkg/node.py:12:9)" classname="my_pkg.simclock_lint">
//	    <failure type="warning" message="now() - W has no guard ...&#xA;fix: ...">why: ...</failure>
//	  </testcase>
//	  <testcase name="R28 (my_pkg/tf.py:4:1)" classname="my_pkg.simclock_lint">
//	    <system-out>info: ...</system-out>
//	  </testcase>
//	  <system-out>Checked files:&#xA;* my_pkg/node.py ...</system-out>
//	</testsuite>
//
// One test case per finding, named by its check and where it is; a finding
// that fails the run (--fail-on) is a failure, one below it a passing test
// case that says what was found. What the tool could not do and that
// fails the run (a path it could not read, no files at all) is an error;
// a run with neither findings nor errors is one passing test case named
// after the tool, as ament's linters write a clean run. ament_cmake_test's
// run_test.py fails the test on a non-zero "failures" or "errors", so the
// file and simclock's exit status agree. The output is valid against the
// Jenkins xUnit plugin's junit-10.xsd (reporttest.ValidateJUnit).

// JUnit is one run of a tool written as a JUnit XML test suite by Write.
type JUnit struct {
	// Name is the suite's name and every test case's classname; ament
	// names it after the result file, "<package>.<test>" (JUnitName).
	Name string
	// Tool names the one test case of a clean run ("simclock_lint").
	Tool string
	// Checks are the tool's checks, by code; RuleID names a check in test
	// case names (nil: by its code), as SARIF does.
	Checks []rules.Check
	RuleID func(rules.Check) string
	// FailOn decides which findings are failures: the run's --fail-on.
	FailOn rules.FailOn
	// Elapsed is how long the run took, the suite's time.
	Elapsed time.Duration
	// Checked lists what was checked, said in the suite's system-out
	// ("Checked files:"), as ament's linters do.
	Checked []string
	// Notifications are what the tool could not do: an error one is a test
	// case in error, the others are said in the suite's system-err.
	Notifications []Notification
	// Passes are what the run asserted and found true (doctor --expect's
	// expectations that held), each a passing test case, so that a gate
	// lists what it checked and not only what failed.
	Passes []JUnitPass
}

// A JUnitPass is a passing test case: its name and what it found.
type JUnitPass struct {
	Name, Output string
}

type junitSuite struct {
	XMLName   xml.Name    `xml:"testsuite"`
	Name      string      `xml:"name,attr"`
	Tests     int         `xml:"tests,attr"`
	Errors    int         `xml:"errors,attr"`
	Failures  int         `xml:"failures,attr"`
	Time      string      `xml:"time,attr"`
	Cases     []junitCase `xml:"testcase"`
	SystemOut string      `xml:"system-out,omitempty"`
	SystemErr string      `xml:"system-err,omitempty"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Type    string `xml:"type,attr,omitempty"`
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// JUnitName is the suite name ament's linters give a result file: its
// directory's name and its own without .xml and .xunit, joined by a dot
// ("test_results/my_pkg/simclock_lint.xunit.xml" is "my_pkg.simclock_lint").
func JUnitName(resultFile string) string {
	abs, err := filepath.Abs(resultFile)
	if err != nil {
		abs = resultFile
	}
	base := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(abs), ".xml"), ".xunit")
	return filepath.Base(filepath.Dir(abs)) + "." + base
}

// Write writes the run with results as a JUnit XML document.
func (j JUnit) Write(w io.Writer, results []Result) error {
	suite := junitSuite{Name: j.Name, Time: strconv.FormatFloat(j.Elapsed.Seconds(), 'f', 3, 64)}
	for _, r := range results {
		c := junitCase{Name: j.caseName(r), Classname: j.Name}
		if j.FailOn.Fails(r.Severity) {
			// colcon test-result shows the message; Jenkins the body too.
			c.Failure = &junitProblem{Type: r.Severity.String(), Message: r.Message + "\nfix: " + r.Fix}
			if r.Why != "" {
				c.Failure.Text = "why: " + r.Why
			}
			suite.Failures++
		} else {
			c.SystemOut = r.Severity.String() + ": " + findingText(r.Finding)
		}
		suite.Cases = append(suite.Cases, c)
	}
	var notes []string
	for _, n := range j.Notifications {
		where := n.File
		if where != "" && n.Line > 0 {
			where += ":" + strconv.Itoa(n.Line)
		}
		if n.Level != rules.Error {
			if where != "" {
				where += ": "
			}
			notes = append(notes, n.Level.String()+": "+where+n.Message)
			continue
		}
		name := j.Tool
		if where != "" {
			name += " (" + where + ")"
		}
		suite.Cases = append(suite.Cases, junitCase{Name: name, Classname: j.Name,
			Error: &junitProblem{Type: "error", Message: n.Message}})
		suite.Errors++
	}
	for _, p := range j.Passes {
		suite.Cases = append(suite.Cases, junitCase{Name: p.Name, Classname: j.Name, SystemOut: p.Output})
	}
	if len(suite.Cases) == 0 {
		suite.Cases = []junitCase{{Name: j.Tool, Classname: j.Name}}
	}
	suite.Tests = len(suite.Cases)
	if len(j.Checked) > 0 {
		suite.SystemOut = "Checked files:\n* " + strings.Join(j.Checked, "\n* ")
	}
	suite.SystemErr = strings.Join(notes, "\n")
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(suite); err != nil {
		return fmt.Errorf("report: JUnit: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// caseName names a finding's test case by its check and where it is, as
// ament_flake8 does ("E501 (node.py:3:80)"): "R27 (src/node.py:12:9)",
// "zero_stamp (run_0.mcap /range header.stamp)", "clock_qos_mismatch
// (/robot/strict /clock)".
func (j JUnit) caseName(r Result) string {
	id := string(r.Code)
	if j.RuleID != nil {
		for _, c := range j.Checks {
			if c.Code == r.Code {
				id = j.RuleID(c)
			}
		}
	}
	var where []string
	switch {
	case r.File != "":
		where = append(where, fmt.Sprintf("%s:%d:%d", r.File, r.Line, r.Col))
	case r.Artifact != "":
		where = append(where, r.Artifact)
	}
	for _, s := range []string{r.Node, r.Topic, r.Field} {
		if s != "" {
			where = append(where, s)
		}
	}
	if len(where) == 0 {
		return id
	}
	return id + " (" + strings.Join(where, " ") + ")"
}

// findingText is a finding in full for a test case's body: what was found,
// the fix and why it matters.
func findingText(f rules.Finding) string {
	s := f.Message + "\nfix: " + f.Fix
	if f.Why != "" {
		s += "\nwhy: " + f.Why
	}
	return s
}
