package rules_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/simclock/simclock/rules"
	"github.com/simclock/simclock/rules/rulestest"
)

// Every rule has a summary and a section in docs/rules.md that its URL
// points to, headed with its number.
func TestEveryRuleIsDocumented(t *testing.T) {
	doc := rulestest.Doc(t)
	if len(rules.All) != 30 {
		t.Fatalf("All has %d rules, want 30", len(rules.All))
	}
	for _, id := range rules.All {
		if id.Summary() == "" {
			t.Errorf("%v has no summary", id)
		}
		anchor := `<a id="` + id.Anchor() + `"></a>`
		i := strings.Index(doc, anchor)
		if i < 0 {
			t.Errorf("%v: no %s in %s", id, anchor, rules.DocPath)
			continue
		}
		if rest := strings.TrimSpace(doc[i+len(anchor):]); !strings.HasPrefix(rest, "### "+id.String()+" ") {
			t.Errorf("%v: the anchor is not followed by a '### %v' heading", id, id)
		}
		if !strings.HasSuffix(id.URL(), rules.DocPath+"#"+id.Anchor()) {
			t.Errorf("%v: URL %s does not point at its anchor", id, id.URL())
		}
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want rules.ID
		ok   bool
	}{
		{"R27", rules.R27, true}, {"r1", rules.R1, true}, {" R30 ", rules.R30, true},
		{"R0", 0, false}, {"R31", 0, false}, {"27", 0, false}, {"R", 0, false}, {"Rx", 0, false}, {"", 0, false},
	} {
		got, err := rules.Parse(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("Parse(%q) = %v, %v; want %v, ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

// Rule IDs and severities are words in JSON, and read back.
func TestJSON(t *testing.T) {
	in := struct {
		Rules    []rules.ID     `json:"rules"`
		Severity rules.Severity `json:"severity"`
	}{[]rules.ID{rules.R18, rules.R27}, rules.Warning}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"rules":["R18","R27"],"severity":"warning"}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	out := in
	out.Rules, out.Severity = nil, rules.Info
	if err := json.Unmarshal(b, &out); err != nil || out.Severity != rules.Warning || len(out.Rules) != 2 || out.Rules[1] != rules.R27 {
		t.Fatalf("round trip: %+v, %v", out, err)
	}
	if _, err := json.Marshal(rules.ID(31)); err == nil {
		t.Error("R31 marshalled without error")
	}
}

func TestSeverity(t *testing.T) {
	for _, tc := range []struct {
		s     rules.Severity
		word  string
		sarif string
	}{
		{rules.Info, "info", "note"},
		{rules.Warning, "warning", "warning"},
		{rules.Error, "error", "error"},
	} {
		if tc.s.String() != tc.word || tc.s.SARIFLevel() != tc.sarif {
			t.Errorf("%v: got %q %q", tc.s, tc.s.String(), tc.s.SARIFLevel())
		}
		if p, err := rules.ParseSeverity(tc.word); err != nil || p != tc.s {
			t.Errorf("ParseSeverity(%q) = %v, %v", tc.word, p, err)
		}
	}
	if _, err := rules.ParseSeverity("fatal"); err == nil {
		t.Error("ParseSeverity(fatal) succeeded")
	}
}

func TestCheckValidate(t *testing.T) {
	good := rules.Check{Code: "x_y", Severity: rules.Error, Rules: []rules.ID{rules.R16}, Title: "t", Fix: "f"}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []rules.Check{
		{Code: "", Title: "t", Fix: "f"},
		{Code: "a", Title: "", Fix: "f"},
		{Code: "a", Title: "t", Fix: ""},
		{Code: "a", Title: "t", Fix: "f", Rules: []rules.ID{0}},
	} {
		if bad.Validate() == nil {
			t.Errorf("%+v validated", bad)
		}
	}
}
