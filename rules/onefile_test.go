package rules_test

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAddingACheckIsOneFile shows that adding a bag finding, a doctor
// check or a lint rule is one file plus its line in docs/rules.md. In a
// copy of the module, each tool gets a check of its own in a new file:
// alone, the file fails exactly the test that keeps docs/rules.md in step
// (so the check is registered, and nothing else notices it); with its
// line in docs/rules.md, every test of the tool's package passes, and so
// do the CLI's golden tests of the three tools, whose SARIF rules must be
// each tool's checks. It builds and tests a copy, so it is skipped under
// -short.
func TestAddingACheckIsOneFile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests a copy of the module")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed: %v", err)
	}
	dir := copyModule(t)
	lintID := unusedLintRule(t, dir)
	for path, src := range map[string]string{
		"bag/check_dummy_probe.go":               dummyBagCheck,
		"doctor/check_dummy_probe.go":            dummyDoctorCheck,
		"lint/rule_r" + lintID[1:] + "_dummy.go": fmt.Sprintf(dummyLintRule, lintID),
	} {
		if err := os.WriteFile(filepath.Join(dir, path), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goTest := func(args ...string) (string, error) {
		cmd := exec.Command(goTool, append([]string{"test", "-count=1"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	// The files alone: the docs test fails, naming each new code.
	out, err := goTest("-run", "^(TestChecksDocumented|TestRulesDocumented)$", "./bag", "./doctor", "./lint")
	if err == nil {
		t.Fatalf("the new checks pass without their docs/rules.md line:\n%s", out)
	}
	for _, want := range []string{
		`FAIL	github.com/simclock/simclock/bag`, `FAIL	github.com/simclock/simclock/doctor`, `FAIL	github.com/simclock/simclock/lint`,
		`finding code "dummy_probe" is not documented`, `finding code "dummy-probe" is not documented`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("without its docs line, want %q in:\n%s", want, out)
		}
	}

	// With their lines in docs/rules.md, every test passes.
	addDocLines(t, dir, map[string]string{
		"### simclock lint":   "| " + lintID + " | `dummy-probe` | info | a test's stand-in |",
		"### simclock bag":    "| `dummy_probe` | info | | a test's stand-in |",
		"### simclock doctor": "| `dummy_probe` | info | | a test's stand-in |",
	})
	if out, err := goTest("./bag", "./doctor", "./lint"); err != nil {
		t.Fatalf("with its docs line, a tool's tests fail:\n%s", out)
	}
	if out, err := goTest("-run", "^(TestBagInspectGolden|TestBagInspectSARIF|TestDoctorReportGolden|TestLintGolden)$", "./internal/cli"); err != nil {
		t.Fatalf("with its docs line, the CLI's golden tests fail:\n%s", out)
	}
}

// copyModule copies the module this test belongs to, without its git
// metadata, into a temporary directory.
func copyModule(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no module at %s: %v", root, err)
	}
	dst := t.TempDir()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.Name() == ".git" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case d.Type().IsRegular():
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			return os.WriteFile(target, data, info.Mode().Perm())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// unusedLintRule returns a rule lint has no file for, "R30" say: lint
// keys its rules by number.
func unusedLintRule(t *testing.T, dir string) string {
	t.Helper()
	for n := 30; n >= 1; n-- {
		matches, _ := filepath.Glob(filepath.Join(dir, "lint", fmt.Sprintf("rule_r%02d*.go", n)))
		if len(matches) == 0 {
			return fmt.Sprintf("R%d", n)
		}
	}
	t.Fatal("lint has a rule for every number")
	return ""
}

// addDocLines adds each line as the first row of the table under its
// heading in docs/rules.md.
func addDocLines(t *testing.T, dir string, lines map[string]string) {
	t.Helper()
	path := filepath.Join(dir, "docs", "rules.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for heading, line := range lines {
		i := strings.Index(doc, "\n"+heading+"\n")
		if i < 0 {
			t.Fatalf("no %q in docs/rules.md", heading)
		}
		j := strings.Index(doc[i:], "\n|---")
		if j < 0 {
			t.Fatalf("no table under %q", heading)
		}
		k := i + j + 1 + strings.Index(doc[i+j+1:], "\n") + 1
		doc = doc[:k] + line + "\n" + doc[k:]
	}
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The new checks, each as a newcomer would write it: a code, an entry and
// a detector. None finds anything in the tools' test data, so the tools'
// own tests are unaffected.
const (
	dummyBagCheck = `package bag

import "github.com/simclock/simclock/rules"

// CodeDummyProbe: topics of more than a billion messages.
const CodeDummyProbe rules.Code = "dummy_probe"

func init() {
	register(rules.Detector[*tally]{
		Check: rules.Check{Code: CodeDummyProbe, Severity: rules.Info,
			Title: "a topic of more than a billion messages", Fix: "nothing: it is a test's stand-in"},
		Detect: func(t *tally) []rules.Finding {
			var out []rules.Finding
			for _, tt := range t.sortedTopics() {
				if tt.rep.Messages > 1e9 {
					out = append(out, rules.Finding{Subject: rules.Subject{Topic: tt.rep.Topic}, Count: tt.rep.Messages,
						Message: "more than a billion messages"})
				}
			}
			return out
		},
	}, nil)
}
`
	dummyDoctorCheck = `package doctor

import "github.com/simclock/simclock/rules"

// CodeDummyProbe: a node named /dummy_probe.
const CodeDummyProbe rules.Code = "dummy_probe"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeDummyProbe, Severity: rules.Info,
			Title: "a node named /dummy_probe", Fix: "nothing: it is a test's stand-in"},
		Detect: func(a *analysis) []rules.Finding {
			var out []rules.Finding
			for _, n := range a.snap.Nodes {
				if n.FullName() == "/dummy_probe" {
					out = append(out, finding(n.FullName(), "", "a node named /dummy_probe"))
				}
			}
			return out
		},
	})
}
`
	dummyLintRule = `package lint

import "github.com/simclock/simclock/rules"

func init() {
	register(Rule{
		ID:       rules.%[1]s,
		Name:     "dummy-probe",
		Summary:  "a string literal that spells dummy-probe-literal",
		Severity: rules.Info,
		Fix:      "nothing: it is a test's stand-in",
		Help:     "A test's stand-in: adding a rule is this file and its line in docs/rules.md.",
		detector: detector{str: func(c *checker, s *expr) {
			if s.u != nil && s.name == "dummy-probe-literal" {
				c.report(s.u, s, rules.%[1]s, "the string spells dummy-probe-literal", "a test's stand-in", "nothing", nil)
			}
		}},
	})
}
`
)
