// Package rulestest checks, from a tool's tests, that every finding code
// the tool can report is written out in docs/rules.md.
package rulestest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/simclock/simclock/rules"
)

// Doc returns the text of docs/rules.md, found by walking up from the
// test's working directory to the module root.
func Doc(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rules.DocPath)))
			if err != nil {
				t.Fatalf("rulestest: %v", err)
			}
			return string(b)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("rulestest: no go.mod above the working directory")
		}
		dir = parent
	}
}

// CheckDocumented fails t for every check that is invalid or whose code
// does not appear, in backquotes, in docs/rules.md, and for codes used twice.
func CheckDocumented(t testing.TB, checks []rules.Check) {
	t.Helper()
	doc := Doc(t)
	seen := map[rules.Code]bool{}
	for _, c := range checks {
		if err := c.Validate(); err != nil {
			t.Error(err)
		}
		if seen[c.Code] {
			t.Errorf("finding code %q is used twice", c.Code)
		}
		seen[c.Code] = true
		if !strings.Contains(doc, "`"+string(c.Code)+"`") {
			t.Errorf("finding code %q is not documented in %s", c.Code, rules.DocPath)
		}
	}
}
