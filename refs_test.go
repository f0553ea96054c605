package simclock_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/simclock/simclock/rules"
)

// Every reference in the repository's code and docs resolves inside the
// repository: a rule number is one of docs/rules.md's, a § names a
// document the repository has (or a published standard), an upstream
// citation names a repository docs/rules.md pins, and nothing points at
// the notes, specifications or issue tracker the project was built from.
func TestReferencesResolve(t *testing.T) {
	upstream := pinnedUpstreams(t)
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			// tools/ is a separate module; testdata holds inputs, upstream
			// excerpts and recordings, quoted as they are.
			if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "tools" || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if path == "refs_test.go" { // it names what it looks for
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".sh", ".cpp", ".c", ".h":
			files = append(files, path)
		}
		if filepath.Dir(path) == "scripts" && filepath.Ext(path) == "" {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("found only %d files", len(files))
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, p := range danglingRefs(path, line, upstream) {
				t.Errorf("%s:%d: %s", path, i+1, p)
			}
		}
	}
}

// The checker finds each kind of dangling reference, and passes their
// resolved forms.
func TestDanglingRefs(t *testing.T) {
	upstream := []string{"rclpy", "rcl"}
	for _, tc := range []struct {
		line string
		want string // "" for none
	}{
		{"// R99: rclcpp's wait_until_started", "R99"},
		{`{"R5", "x", "§5 R72", 1},`, "§"},
		{"// (DV-109, TT-010)", "DV-109"},
		{"// run by scripts/lint-corpus (issue 11)", "issue 11"},
		{"// docs: /work/shared/notes/interop.md §1.6", "/work/shared"},
		{"// ros2-time-reference.md §14", "ros2-time-reference.md"},
		{"// rclcpp:rclcpp/src/rclcpp/clock.cpp:221", "rclcpp"},
		{"// R30, R27 and R1", ""},
		{"// rclpy:rclpy/rclpy/time.py:66-73 and rcl:rcl/src/rcl/time.c:27", ""},
		{"// (RTPS 2.2 §9.6.1.1)", ""},
		{"// docs/rules.md §R9", ""},
		{"// rcl#1089 and rclpy#1490", ""},
		{`"RIHS01_e28ce254", R2D2, TR100`, ""},
	} {
		got := danglingRefs("x.go", tc.line, upstream)
		if tc.want == "" && len(got) > 0 || tc.want != "" && !slices.ContainsFunc(got, func(p string) bool { return strings.Contains(p, tc.want) }) {
			t.Errorf("%q: %q, want %q", tc.line, got, tc.want)
		}
	}
}

var (
	ruleNumber   = regexp.MustCompile(`\bR(\d+)\b`)
	vectorID     = regexp.MustCompile(`\b(PT|PC|PM|CT|TT|CP|CK|CS|CD|CR|CM|DV)-\d{3}\b`)
	projectIssue = regexp.MustCompile(`(?i)\bissue \d+\b`)
	citation     = regexp.MustCompile(`\b([a-z][a-z0-9_]*(?:@rolling)?):([A-Za-z0-9_./-]+\.(?:py|c|h|cpp|hpp|md|msg|txt)):\d+`)
	sectionRef   = regexp.MustCompile(`§`)
	// Documents the project was built from, which the repository does not
	// hold.
	outsideDocs = []string{"/work/shared", "shared/spec", "shared/notes", "ros2-time.md", "ros2-time-reference.md",
		"interop.md", "code-review.md", "newcomer-trial.md", "users-and-peers.md", "aesthetics.md"}
	// Published standards a § may point into.
	standards = []string{"RTPS", "DDS", "XTypes", "CDR", "RFC", "IDL"}
)

// notRules are the rule numbers past the last that tests use on purpose,
// as input that must be refused.
var notRules = map[string][]string{
	filepath.Join("rules", "rules_test.go"):          {"R0", "R31"},
	filepath.Join("lint", "lint_test.go"):            {"R99"},
	filepath.Join("internal", "cli", "lint_test.go"): {"R99"},
	filepath.Join("lint", "settings_test.go"):        {"R99"},
	filepath.Join("lint", "suppress_test.go"):        {"R99"},
}

// danglingRefs returns the references in one line of path that do not
// resolve inside the repository.
func danglingRefs(path, line string, upstream []string) []string {
	var out []string
	for _, m := range ruleNumber.FindAllStringSubmatch(line, -1) {
		n, _ := strconv.Atoi(m[1])
		if !rules.ID(n).Valid() && !slices.Contains(notRules[path], m[0]) {
			out = append(out, m[0]+" is not one of docs/rules.md's rules (R1-R30); cite upstream as repository:path:line")
		}
	}
	for _, m := range vectorID.FindAllString(line, -1) {
		out = append(out, m+" names a test vector of a document the repository does not have")
	}
	for _, m := range projectIssue.FindAllString(line, -1) {
		out = append(out, m+" points at an issue tracker the repository does not have; say what it was")
	}
	for _, d := range outsideDocs {
		if strings.Contains(line, d) {
			out = append(out, d+" is not in the repository")
		}
	}
	for _, m := range citation.FindAllStringSubmatch(line, -1) {
		if !slices.Contains(upstream, m[1]) {
			out = append(out, m[1]+" is not a repository docs/rules.md pins under Upstream sources")
		}
	}
	for _, loc := range sectionRef.FindAllStringIndex(line, -1) {
		before := line[:loc[0]]
		if !sectionResolves(path, before) {
			out = append(out, "§ after "+strconv.Quote(lastWords(before, 3))+" does not name a document of the repository or a standard")
		}
	}
	return out
}

// sectionResolves reports whether the text before a § names what it is a
// section of: a standard, or a file of the repository.
func sectionResolves(path, before string) bool {
	words := strings.Fields(before)
	if len(words) == 0 {
		return false
	}
	for _, w := range words[max(0, len(words)-3):] {
		w = strings.Trim(w, "(),;:`'\"")
		if slices.Contains(standards, w) {
			return true
		}
		if strings.Contains(w, ".") {
			for _, p := range []string{w, filepath.Join(filepath.Dir(path), w)} {
				if _, err := os.Stat(p); err == nil {
					return true
				}
			}
		}
	}
	return false
}

func lastWords(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[max(0, len(f)-n):], " ")
}

// pinnedUpstreams lists the repository names of docs/rules.md's Upstream
// sources table.
func pinnedUpstreams(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(rules.DocPath)
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(data), "## Upstream sources")
	if !ok {
		t.Fatal(rules.DocPath + " has no Upstream sources section")
	}
	table, _, _ = strings.Cut(table, "\n## ")
	var names []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([^`]+)` \\|").FindAllStringSubmatch(table, -1) {
		names = append(names, m[1])
	}
	if len(names) < 3 {
		t.Fatalf("Upstream sources lists %v", names)
	}
	return names
}
