package cli

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/simclock/simclock/lint"
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
		dir    string   // where the README runs it, from internal/cli
		args   []string // the same command
		least  int      // lines the excerpt must check
	}{
		{"$ simclock experiment startup\n", ".", []string{"experiment", "startup"}, 10},
		{"$ simclock bag inspect internal/cli/testdata/bag/hazards.mcap", ".", []string{"bag", "inspect", "testdata/bag/hazards.mcap"}, 10},
		{"$ cd internal/cli/testdata/lint/pkg && simclock lint .", "testdata/lint/pkg", []string{"lint", "."}, 8},
	} {
		t.Run(ex.args[0], func(t *testing.T) { // not parallel: t.Chdir
			_, block, ok := strings.Cut(string(readme), ex.prompt)
			if !ok {
				t.Fatalf("README has no %q example", ex.prompt)
			}
			_, block, _ = strings.Cut(block, "\n") // the rest of the command line
			block, _, _ = strings.Cut(block, "```")
			t.Chdir(ex.dir)
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

// Every line of the README's Go snippets is a line of a compiled, run
// example or test of the module (comments and spacing aside), so a
// snippet cannot name a package path or a function that does not exist.
func TestReadmeGoSnippets(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	normalize := func(line string) string {
		if i := strings.Index(line, "//"); i >= 0 && !strings.Contains(line[:i], `"`) {
			line = line[:i]
		} else if i := strings.Index(line, " //"); i >= 0 {
			line = line[:i]
		}
		return strings.Join(strings.Fields(line), " ")
	}
	known := map[string]bool{}
	err = filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		for _, l := range strings.Split(string(src), "\n") {
			known[normalize(l)] = true
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, block := range strings.Split(string(readme), "```go\n")[1:] {
		block, _, _ = strings.Cut(block, "```")
		for _, l := range strings.Split(block, "\n") {
			n := normalize(l)
			if n == "" || n == "import (" || n == ")" {
				continue
			}
			if !known[n] {
				t.Errorf("README Go line is in no example or test: %s", strings.TrimSpace(l))
			}
			checked++
		}
	}
	if checked < 10 {
		t.Errorf("only %d README Go lines checked", checked)
	}
}

// The plots the README shows are what simclock draws today
// (bash scripts/docs-plots regenerates them).
func TestDocsPlotsUpToDate(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []struct {
		doc  string
		args []string
	}{
		{"startup.svg", []string{"experiment", "startup", "--plot", filepath.Join(dir, "startup.svg")}},
		{"bag.svg", []string{"bag", "inspect", "--window", "101", "--svg", filepath.Join(dir, "bag.svg"), "testdata/bag/hazards.mcap"}},
	} {
		runSimclock(t, p.args...)
		got, err := os.ReadFile(filepath.Join(dir, p.doc))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("../../docs", p.doc))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("docs/%s is stale: run bash scripts/docs-plots", p.doc)
		}
	}
}

// The README lists the JSON lines of experiment startup with every field;
// the field names (at every depth) must be the ones simclock prints, so
// a renamed field cannot stay documented under its old name.
func TestReadmeStartupJSONFields(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]map[string]bool{} // kind -> field names
	kindRe, fieldRe := regexp.MustCompile(`^- \x60\{"kind":"(\w+)"`), regexp.MustCompile(`"(\w+)":`)
	section := string(readme)[strings.Index(string(readme), "### JSON output"):]
	section = section[:strings.Index(section, "\n## ")]
	for _, line := range strings.Split(section, "\n") {
		if m := kindRe.FindStringSubmatch(line); m != nil {
			documented[m[1]] = map[string]bool{}
			for _, f := range fieldRe.FindAllStringSubmatch(line, -1) {
				documented[m[1]][f[1]] = true
			}
		}
	}
	if len(documented) != 4 {
		t.Fatalf("README documents kinds %v, want env, scenario, history_time_zero, summary", documented)
	}
	out, _, code := runSimclock(t, "experiment", "startup", "--format", "json")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatal(err)
		}
		kind := obj["kind"].(string)
		printed := map[string]bool{}
		var collect func(v any)
		collect = func(v any) {
			switch v := v.(type) {
			case map[string]any:
				for k, x := range v {
					printed[k] = true
					collect(x)
				}
			case []any:
				for _, x := range v {
					collect(x)
				}
			}
		}
		collect(obj)
		doc, ok := documented[kind]
		if !ok {
			t.Errorf("kind %q is printed but not in the README", kind)
			continue
		}
		for k := range printed {
			if !doc[k] {
				t.Errorf("%s: field %q is printed but not in the README", kind, k)
			}
		}
		for k := range doc {
			if !printed[k] {
				t.Errorf("%s: the README lists %q, which simclock does not print", kind, k)
			}
		}
	}
}

// The README's lint section lists the rules lint has ("Rules: …"): each of
// lint's rules is named there by number, so that a reader who picks one for
// --rules finds it, and every rule number the list gives on its own in
// parentheses ("(R27)", "(R5)") is one --rules accepts.
func TestReadmeLintRules(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(string(readme), "attributes. Rules: ")
	if !ok {
		t.Fatal(`README's lint section has no "Rules: " list`)
	}
	list, _, _ = strings.Cut(list, "Why a rule matters")
	for _, r := range lint.Rules {
		if !regexp.MustCompile(`\b` + r.ID.String() + `\b`).MatchString(list) {
			t.Errorf("README's lint rules list does not name %s (%s)", r.ID, r.Name)
		}
	}
	own := regexp.MustCompile(`\((R\d+)[),]`).FindAllStringSubmatch(list, -1)
	if len(own) < len(lint.Rules) {
		t.Errorf("only %d rule numbers in parentheses in README's lint rules list", len(own))
	}
	for _, m := range own {
		if _, err := lint.ParseRule(m[1]); err != nil {
			t.Errorf("README's lint rules list gives (%s), which --rules refuses: %v", m[1], err)
		}
	}
}
