package cli

import (
	"os"
	"strings"
	"testing"
)

// docs/cli.md quotes what some usage errors print; each quote is what the
// command it names prints today, with exit status 2.
func TestCLIDocQuotesUsageErrors(t *testing.T) {
	doc, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(doc)), " ") // a quote may span a line break
	for _, c := range []struct {
		quote string // as docs/cli.md quotes it
		args  []string
	}{
		{"did you mean startup?", []string{"experiment", "startpu"}},
		{`invalid argument "xml" for "--format" flag: want text, json, sarif or junit`, []string{"lint", "--format", "xml", "."}},
		{"want a whole number", []string{"experiment", "startup", "--clock-every", "1e6"}},
		{"want a rate in Hz", []string{"experiment", "startup", "--timer-hz", "abc"}},
	} {
		if !strings.Contains(text, c.quote) {
			t.Errorf("docs/cli.md no longer quotes %q: update this test", c.quote)
		}
		_, errOut, code := runSimclock(t, c.args...)
		if code != ExitUsage || !strings.Contains(errOut, c.quote) {
			t.Errorf("simclock %s: exit %d, stderr %q; docs/cli.md quotes %q with exit 2",
				strings.Join(c.args, " "), code, errOut, c.quote)
		}
	}
}
