package cli

import (
	"os"
	"strings"
	"testing"
)

// The README shows simclock's output; every line it shows must be what
// simclock prints, so the documentation cannot drift. A line ending in
// "..." or "…" shows the start of a longer line; a bare "..." stands for
// lines left out.
func TestReadmeExcerpts(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range []struct {
		prompt string   // the command line as the README prints it
		args   []string // the same command, run from internal/cli
		least  int      // lines the excerpt must check
	}{
		{"$ simclock experiment startup\n", []string{"experiment", "startup"}, 10},
		{"$ simclock bag inspect internal/cli/testdata/bag/hazards.mcap", []string{"bag", "inspect", "testdata/bag/hazards.mcap"}, 10},
	} {
		t.Run(ex.args[0], func(t *testing.T) {
			_, block, ok := strings.Cut(string(readme), ex.prompt)
			if !ok {
				t.Fatalf("README has no %q example", ex.prompt)
			}
			_, block, _ = strings.Cut(block, "\n") // the rest of the command line
			block, _, _ = strings.Cut(block, "```")
			out, _, _ := runSimclock(t, ex.args...)
			out = scrub(out)
			checked := 0
			for _, line := range strings.Split(block, "\n") {
				line = strings.TrimRight(line, " ")
				// The verdict carries a duration measured on this machine.
				if line == "" || line == "..." || strings.HasPrefix(line, "Verdict:") {
					continue
				}
				line = strings.TrimRight(strings.TrimSuffix(strings.TrimSuffix(line, "..."), "…"), " ")
				if !strings.Contains(out, line) {
					t.Errorf("README line not in the output:\n%s", line)
				}
				checked++
			}
			if checked < ex.least {
				t.Errorf("only %d README lines checked", checked)
			}
		})
	}
}
