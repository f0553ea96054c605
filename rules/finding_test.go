package rules_test

import (
	"encoding/json"
	"testing"

	"github.com/simclock/simclock/rules"
)

// The --fail-on policies, over every severity.
func TestFailOn(t *testing.T) {
	for _, tc := range []struct {
		word                 string
		info, warning, error bool
	}{
		{"warning", false, true, true},
		{"error", false, false, true},
		{"info", true, true, true},
		{"never", false, false, false},
	} {
		f, err := rules.ParseFailOn(tc.word)
		if err != nil || f.String() != tc.word {
			t.Fatalf("ParseFailOn(%q) = %v, %v", tc.word, f, err)
		}
		if f.Fails(rules.Info) != tc.info || f.Fails(rules.Warning) != tc.warning || f.Fails(rules.Error) != tc.error {
			t.Errorf("--fail-on %s: info %v, warning %v, error %v", tc.word,
				f.Fails(rules.Info), f.Fails(rules.Warning), f.Fails(rules.Error))
		}
		fs := []rules.Finding{{Severity: rules.Warning}}
		if rules.Fails(fs, f) != tc.warning {
			t.Errorf("--fail-on %s: Fails of a warning = %v", tc.word, rules.Fails(fs, f))
		}
	}
	var zero rules.FailOn
	if zero != rules.FailOnWarning {
		t.Error("the zero FailOn is not the default, warning")
	}
	if _, err := rules.ParseFailOn("fatal"); err == nil {
		t.Error("ParseFailOn(fatal) succeeded")
	}
}

// Run fills a finding from its check: code, rules, fix, and the check's
// severity unless the detector lowered it; it cannot raise it.
func TestDetectorRun(t *testing.T) {
	d := rules.Detector[int]{
		Check: rules.Check{Code: "too_big", Severity: rules.Error, Rules: []rules.ID{rules.R4}, Title: "t", Fix: "the fix"},
		Detect: func(n int) []rules.Finding {
			return []rules.Finding{
				{Message: "plain", Count: int64(n)},
				{Message: "lowered", Severity: rules.Warning},
				{Message: "own fix", Fix: "more", Code: "other", Rules: rules.IDs{rules.R1}},
			}
		},
	}
	fs := d.Run(7)
	if len(fs) != 3 {
		t.Fatalf("%d findings", len(fs))
	}
	for i, want := range []struct {
		sev rules.Severity
		fix string
	}{{rules.Error, "the fix"}, {rules.Warning, "the fix"}, {rules.Error, "more"}} {
		f := fs[i]
		if f.Code != "too_big" || len(f.Rules) != 1 || f.Rules[0] != rules.R4 || f.Severity != want.sev || f.Fix != want.fix {
			t.Errorf("finding %d: %+v", i, f)
		}
	}
	if fs[0].Count != 7 {
		t.Errorf("count %d", fs[0].Count)
	}
}

// Register refuses an incomplete check, a missing Detect and a code used
// twice; Checks lists the checks by code.
func TestDetectorsRegister(t *testing.T) {
	var ds rules.Detectors[int]
	none := func(int) []rules.Finding { return nil }
	ds.Register(rules.Detector[int]{Check: rules.Check{Code: "b", Title: "t", Fix: "f"}, Detect: none})
	ds.Register(rules.Detector[int]{Check: rules.Check{Code: "a", Title: "t", Fix: "f"}, Detect: none})
	if cs := ds.Checks(); len(cs) != 2 || cs[0].Code != "a" || cs[1].Code != "b" {
		t.Errorf("Checks() = %+v", cs)
	}
	for name, d := range map[string]rules.Detector[int]{
		"twice":     {Check: rules.Check{Code: "a", Title: "t", Fix: "f"}, Detect: none},
		"no detect": {Check: rules.Check{Code: "c", Title: "t", Fix: "f"}},
		"no title":  {Check: rules.Check{Code: "d", Fix: "f"}, Detect: none},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Register did not panic", name)
				}
			}()
			ds.Register(d)
		}()
	}
}

// Every tool writes a finding as the same JSON object: the subject's
// fields inline, "rules" always an array.
func TestFindingJSON(t *testing.T) {
	for _, tc := range []struct {
		f    rules.Finding
		want string
	}{
		{rules.Finding{Code: "zero_stamp", Severity: rules.Error, Rules: rules.IDs{rules.R10, rules.R29},
			Subject: rules.Subject{Topic: "/range", Field: "header.stamp"}, Count: 2, Message: "m",
			Examples: []rules.Example{{LogNS: 1, ValueNS: 0, Index: 0}}},
			`{"code":"zero_stamp","severity":"error","rules":["R10","R29"],"topic":"/range","field":"header.stamp","count":2,"message":"m","examples":[{"log_ns":1,"value_ns":0,"index":0}]}`},
		{rules.Finding{Code: "stale_stamps", Severity: rules.Warning, Subject: rules.Subject{Node: "/n", Topic: "/t"}, Message: "m", Fix: "f"},
			`{"code":"stale_stamps","severity":"warning","rules":[],"node":"/n","topic":"/t","message":"m","fix":"f"}`},
		{rules.Finding{Code: "unguarded-window", Severity: rules.Warning, Rules: rules.IDs{rules.R27},
			Subject: rules.Subject{File: "a.py", Line: 3, Col: 5, EndLine: 3, EndCol: 9}, Message: "m", Why: "w", Fix: "f"},
			`{"code":"unguarded-window","severity":"warning","rules":["R27"],"file":"a.py","line":3,"col":5,"end_line":3,"end_col":9,"message":"m","why":"w","fix":"f"}`},
	} {
		b, err := json.Marshal(tc.f)
		if err != nil || string(b) != tc.want {
			t.Errorf("got %s, %v\nwant %s", b, err, tc.want)
		}
	}
}

func TestSort(t *testing.T) {
	fs := []rules.Finding{
		{Code: "b", Severity: rules.Warning},
		{Code: "z", Severity: rules.Info},
		{Code: "b", Severity: rules.Error, Subject: rules.Subject{Topic: "/y"}},
		{Code: "b", Severity: rules.Error, Subject: rules.Subject{Topic: "/x"}},
		{Code: "a", Severity: rules.Error},
	}
	rules.Sort(fs)
	var got string
	for _, f := range fs {
		got += string(f.Code) + f.Topic + " "
	}
	if want := "a b/x b/y b z "; got != want {
		t.Errorf("order %q, want %q", got, want)
	}
	if rules.Count(fs, rules.Error) != 3 {
		t.Errorf("Count(error) = %d", rules.Count(fs, rules.Error))
	}
}
