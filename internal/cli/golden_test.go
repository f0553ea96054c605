package cli

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"testing"

	"github.com/simclock/simclock/rules"
)

// Golden files hold what a command writes about its findings, not the
// list of every check the tool has: adding a check to a tool (one file
// and its docs/rules.md line) changes no golden. The full lists are
// checked against the tools' Checks in code instead.

// sarifLog is a SARIF log with what a golden keeps of it left raw.
type sarifLog struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name           string            `json:"name"`
				Version        string            `json:"version"`
				InformationURI string            `json:"informationUri"`
				Rules          []json.RawMessage `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Invocations        json.RawMessage `json:"invocations"`
		OriginalURIBaseIDs json.RawMessage `json:"originalUriBaseIds,omitempty"`
		ColumnKind         string          `json:"columnKind"`
		Results            []sarifResult   `json:"results"`
	} `json:"runs"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   json.RawMessage `json:"message"`
	Locations json.RawMessage `json:"locations"`
	Fixes     json.RawMessage `json:"fixes,omitempty"`
}

// sarifGolden checks that a SARIF log's rules are the tool's checks, in
// order, named by ruleID, and that every result points at its rule; it
// returns the log as its golden holds it: only the rules the results cite,
// in the tool's order, the results' ruleIndex renumbered to match.
func sarifGolden(t *testing.T, out string, checks []rules.Check, ruleID func(rules.Check) string) string {
	t.Helper()
	var log sarifLog
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	run := &log.Runs[0]
	ids := make([]string, len(run.Tool.Driver.Rules))
	for i, r := range run.Tool.Driver.Rules {
		var rule struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(r, &rule); err != nil {
			t.Fatal(err)
		}
		ids[i] = rule.ID
	}
	var want []string
	for _, c := range checks {
		want = append(want, ruleID(c))
	}
	if !slices.Equal(ids, want) {
		t.Errorf("SARIF rules %v, want the tool's checks %v", ids, want)
	}
	citedAt := map[int]bool{}
	for i, r := range run.Results {
		if r.RuleIndex < 0 || r.RuleIndex >= len(ids) || ids[r.RuleIndex] != r.RuleID {
			t.Fatalf("result %d: ruleIndex %d does not point at %s", i, r.RuleIndex, r.RuleID)
		}
		citedAt[r.RuleIndex] = true
	}
	cited := []json.RawMessage{}
	renumber := map[int]int{}
	for i, r := range run.Tool.Driver.Rules {
		if citedAt[i] {
			renumber[i] = len(cited)
			cited = append(cited, r)
		}
	}
	for i := range run.Results {
		run.Results[i].RuleIndex = renumber[run.Results[i].RuleIndex]
	}
	run.Tool.Driver.Rules = cited
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(log); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// lintEnvRules is the list of rules on lint's env line.
var lintEnvRules = regexp.MustCompile(`("command":"lint",.*"rules":)\[[^]]*\]`)

// lintJSONGolden checks that lint's env line lists every rule, and
// returns the output as its golden holds it: the list left out.
func lintJSONGolden(t *testing.T, out string, ids []rules.ID) string {
	t.Helper()
	b, _ := json.Marshal(ids)
	m := lintEnvRules.FindStringSubmatch(out)
	if m == nil || !bytes.HasSuffix([]byte(m[0]), b) {
		t.Errorf("lint's env line does not list the rules %s:\n%s", b, out)
	}
	return lintEnvRules.ReplaceAllString(out, `${1}["…every rule…"]`)
}
