package report_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/simclock/simclock/internal/report"
	"github.com/simclock/simclock/internal/report/reporttest"
	"github.com/simclock/simclock/rules"
)

var (
	zeroStamp = rules.Check{Code: "zero_stamp", Severity: rules.Error, Rules: []rules.ID{rules.R10, rules.R29},
		Title: "Time fields equal to 0", Fix: "stamp from now() once the clock is valid"}
	stale  = rules.Check{Code: "stale_stamps", Severity: rules.Warning, Title: "stamps lag /clock", Fix: "stamp when the data is taken"}
	window = rules.Check{Code: "unguarded-window", Severity: rules.Warning, Rules: []rules.ID{rules.R27},
		Title: "now() − W without a guard", Fix: "skip while now <= W", Help: "Under sim time now() is 0 until the first /clock."}

	findings = []rules.Finding{
		{Code: "zero_stamp", Severity: rules.Error, Rules: rules.IDs{rules.R10, rules.R29},
			Subject: rules.Subject{Topic: "/range", Field: "header.stamp"}, Count: 2, Message: "stamps equal to 0",
			Fix: zeroStamp.Fix, Examples: []rules.Example{{LogNS: 5, Index: 1}}},
		{Code: "stale_stamps", Severity: rules.Warning, Rules: nil, Subject: rules.Subject{Node: "/planner", Topic: "/scan"},
			Message: "/planner stamps /scan behind /clock: 3 of 44 stamps", Fix: stale.Fix},
		{Code: "unguarded-window", Severity: rules.Info, Rules: rules.IDs{rules.R27},
			Subject: rules.Subject{File: "pkg/node.py", Line: 3, Col: 5, EndLine: 3, EndCol: 20},
			Message: "now - W has no guard", Why: "now() is 0 first", Fix: window.Fix},
	}
)

// Every line starts with its kind, whatever the value; a value that is
// not an object is an error, never a broken line.
func TestJSONLines(t *testing.T) {
	var b bytes.Buffer
	j := report.NewJSONLines(&b)
	if err := j.Write("env", struct {
		Schema int `json:"schema"`
	}{2}); err != nil {
		t.Fatal(err)
	}
	if err := j.Write("empty", struct{}{}); err != nil {
		t.Fatal(err)
	}
	if err := j.Findings(findings[1:2]); err != nil {
		t.Fatal(err)
	}
	if err := j.Write("bad", 3); err == nil {
		t.Error("a number written as a line")
	}
	want := `{"kind":"env","schema":2}
{"kind":"empty"}
{"kind":"finding","code":"stale_stamps","severity":"warning","rules":[],"node":"/planner","topic":"/scan","message":"/planner stamps /scan behind /clock: 3 of 44 stamps","fix":"stamp when the data is taken"}
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestText(t *testing.T) {
	var b bytes.Buffer
	example := func(f rules.Finding, e rules.Example) string { return "at message 1" }
	if err := (report.Text{Layout: report.Records, Width: 60, Example: example}).Write(&b, findings[:1]); err != nil {
		t.Fatal(err)
	}
	if err := (report.Text{Layout: report.Sentences, Width: 60}).Write(&b, findings[1:2]); err != nil {
		t.Fatal(err)
	}
	want := `error   zero_stamp /range header.stamp [R10,R29] ×2: stamps
    equal to 0
          at message 1
warning stale_stamps: /planner stamps /scan behind /clock: 3
  of 44 stamps
  fix: stamp when the data is taken
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// A run of every kind of subject is valid SARIF 2.1.0: a file with a
// region and a fix, a bag with a topic and field, a node and a topic; and
// a notification at a file.
func TestSARIFValid(t *testing.T) {
	dir := t.TempDir()
	roots, err := report.ScanRoot(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	run := report.SARIF{Version: "0.1.0", Checks: []rules.Check{stale, window, zeroStamp}, Roots: roots, Failed: true,
		Notifications: []report.Notification{{Level: rules.Error, Message: "could not parse", File: filepath.Join(dir, "pkg/x.yaml"), Line: 2}, {Level: rules.Warning, Message: "cut short"}}}
	results := []report.Result{
		{Finding: findings[0], Artifact: filepath.Join(dir, "bags/run_0.mcap")},
		{Finding: findings[1]},
		{Finding: findings[2], Edits: []report.Edit{{Start: 0, End: 0, New: "x"}}},
	}
	var b bytes.Buffer
	if err := run.Write(&b, results); err != nil {
		t.Fatal(err)
	}
	reporttest.ValidateSARIF(t, b.Bytes())
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID      string `json:"id"`
						HelpURI string `json:"helpUri"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string            `json:"ruleId"`
				RuleIndex int               `json:"ruleIndex"`
				Level     string            `json:"level"`
				Locations []json.RawMessage `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	r := log.Runs[0]
	for i, want := range []struct{ id, level, loc string }{
		{"zero_stamp", "error", `"uri":"bags/run_0.mcap"`},
		{"stale_stamps", "warning", `"name":"/planner"`},
		{"unguarded-window", "note", `"startLine":3`},
	} {
		res := r.Results[i]
		if res.RuleID != want.id || r.Tool.Driver.Rules[res.RuleIndex].ID != want.id || res.Level != want.level ||
			len(res.Locations) != 1 || !strings.Contains(strings.ReplaceAll(string(res.Locations[0]), " ", ""), want.loc) {
			t.Errorf("result %d: %+v %s", i, res, res.Locations)
		}
	}
	if r.Tool.Driver.Rules[0].HelpURI != rules.Home+"/blob/main/docs/rules.md#finding-codes" ||
		r.Tool.Driver.Rules[2].HelpURI != rules.R10.URL() {
		t.Errorf("help URIs %+v", r.Tool.Driver.Rules)
	}
	// A finding whose check is not in the run is an error, not a result
	// pointing at another rule.
	if err := (report.SARIF{Checks: []rules.Check{stale}}).Write(&b, results[:1]); err == nil {
		t.Error("a result without its rule was written")
	}
}

// JUnit in ament's shape: a finding that reaches --fail-on is a failure,
// one below it a passing test case saying what was found, an error
// notification a test case in error, the rest said in system-err; every
// kind of subject names its test case; control characters from a file
// cannot break the XML.
func TestJUnit(t *testing.T) {
	withControl := findings[2]
	withControl.Message = "now - W has no guard \x1b[31m<here>\x00"
	run := report.JUnit{Name: "my_pkg.simclock_lint", Tool: "simclock_lint", Checks: []rules.Check{stale, window, zeroStamp},
		RuleID: func(c rules.Check) string {
			if len(c.Rules) == 1 {
				return c.Rules[0].String()
			}
			return string(c.Code)
		},
		FailOn: rules.FailOnWarning, Elapsed: 31 * time.Millisecond, Checked: []string{"pkg/node.py", "pkg/x.yaml"},
		Notifications: []report.Notification{
			{Level: rules.Error, Message: "could not read: permission denied", File: "pkg/secret"},
			{Level: rules.Warning, Message: "could not parse", File: "pkg/x.yaml", Line: 2},
		}}
	results := []report.Result{
		{Finding: findings[0], Artifact: "bags/run_0.mcap"},
		{Finding: findings[1]},
		{Finding: withControl},
	}
	var b bytes.Buffer
	if err := run.Write(&b, results); err != nil {
		t.Fatal(err)
	}
	counts := reporttest.ValidateJUnit(t, b.Bytes())
	if counts.Tests != 4 || counts.Failures != 2 || counts.Errors != 1 {
		t.Errorf("counts %+v, want 4 tests, 2 failures (error, warning), 1 error (unreadable)", counts)
	}
	checkGolden(t, "testdata/junit.golden", b.String())

	// A clean run is one passing test case named after the tool; under
	// --fail-on never nothing fails.
	b.Reset()
	run.Notifications, run.Checked = nil, nil
	if err := run.Write(&b, nil); err != nil {
		t.Fatal(err)
	}
	if c := reporttest.ValidateJUnit(t, b.Bytes()); c.Tests != 1 || c.Failures != 0 || c.Cases[0] != "simclock_lint" {
		t.Errorf("clean run: %+v\n%s", c, b.String())
	}
	b.Reset()
	run.FailOn = rules.FailOnNever
	if err := run.Write(&b, results); err != nil {
		t.Fatal(err)
	}
	if c := reporttest.ValidateJUnit(t, b.Bytes()); c.Tests != 3 || c.Failures != 0 {
		t.Errorf("--fail-on never: %+v", c)
	}
}

func TestJUnitName(t *testing.T) {
	for file, want := range map[string]string{
		"build/test_results/my_pkg/simclock_lint.xunit.xml": "my_pkg.simclock_lint",
		"results/my_pkg/lint.xml":                           "my_pkg.lint",
		"/tmp/x/report":                                     "x.report",
	} {
		if got := report.JUnitName(file); got != want {
			t.Errorf("JUnitName(%q) = %q, want %q", file, got, want)
		}
	}
}

// update rewrites the golden files: go test ./internal/report -update
var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// checkGolden compares got with the file at path, or rewrites it with -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./internal/report -update creates it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test ./internal/report -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
