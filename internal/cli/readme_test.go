package cli

import (
	"os"
	"strings"
	"testing"
)

// The README shows the main job's output; every line it shows must be
// what simclock prints, so the documentation cannot drift.
func TestReadmeStartupExcerpt(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "$ simclock experiment startup\n")
	if !ok {
		t.Fatal("README has no '$ simclock experiment startup' example")
	}
	block, _, _ = strings.Cut(block, "```")
	out, _, code := runSimclock(t, "experiment", "startup")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	out = scrub(out)
	checked := 0
	for _, line := range strings.Split(block, "\n") {
		line = strings.TrimRight(line, " ")
		// Elided lines end in "..." or "…"; the verdict carries a duration.
		if line == "" || strings.HasSuffix(line, "...") || strings.HasSuffix(line, "…") || strings.HasPrefix(line, "Verdict:") {
			continue
		}
		if !strings.Contains(out, line) {
			t.Errorf("README line not in the output:\n%s", line)
		}
		checked++
	}
	if checked < 10 {
		t.Errorf("only %d README lines checked", checked)
	}
}
