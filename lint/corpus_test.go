//go:build cgo

package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/simclock/simclock/rules"
)

// archive is a parsed txtar file: a comment, then "-- name --" sections.
type archive struct {
	comment string
	files   []archiveFile
}

type archiveFile struct {
	name string
	data []byte
}

// parseArchive parses the txtar format (golang.org/x/tools/txtar), which is
// small enough not to justify a dependency.
func parseArchive(data []byte) archive {
	var a archive
	var cur *archiveFile
	for line := range strings.SplitAfterSeq(string(data), "\n") {
		trim := strings.TrimRight(line, "\r\n")
		if name, ok := strings.CutPrefix(trim, "-- "); ok && strings.HasSuffix(name, " --") {
			a.files = append(a.files, archiveFile{name: strings.TrimSuffix(name, " --")})
			cur = &a.files[len(a.files)-1]
			continue
		}
		if cur == nil {
			a.comment += line
		} else {
			cur.data = append(cur.data, line...)
		}
	}
	return a
}

// extract writes an archive's files under dir.
func extract(t testing.TB, a archive, dir string) {
	t.Helper()
	for _, f := range a.files {
		p := filepath.Join(dir, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// writeFiles writes files (name to source) into a new temporary directory
// and returns it.
func writeFiles(t testing.TB, files map[string]string) string {
	t.Helper()
	var a archive
	for name, src := range files {
		a.files = append(a.files, archiveFile{name: name, data: []byte(src)})
	}
	dir := t.TempDir()
	extract(t, a, dir)
	return dir
}

// lintAndFix lints dir as `simclock lint --fix` does: it runs the linter
// and applies the findings' edits, returning the findings and how many
// were fixed.
func lintAndFix(t testing.TB, dir string, cfg Config) (*Result, int) {
	t.Helper()
	res, err := Run(t.Context(), []string{dir}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	n, err := Fix(res)
	if err != nil {
		t.Fatal(err)
	}
	return res, n
}

// wants collects the "want: R27 R28" annotations of the files: each names
// the rules expected on its line. Files whose name starts with "ok_" are
// the corrected versions and must carry no annotation.
func wants(t *testing.T, a archive) []string {
	t.Helper()
	var out []string
	for _, f := range a.files {
		for i, line := range strings.Split(string(f.data), "\n") {
			_, w, ok := strings.Cut(line, "want: ")
			if !ok {
				continue
			}
			if strings.HasPrefix(filepath.Base(f.name), "ok_") {
				t.Fatalf("%s:%d: corrected file has a want annotation", f.name, i+1)
			}
			// "R29:info" wants an info finding; a bare rule wants one
			// that fails the run.
			for _, r := range strings.Fields(w) {
				id, sev, _ := strings.Cut(r, ":")
				if id, err := rules.Parse(id); err == nil {
					if _, ok := RuleByID(id); ok {
						out = append(out, fmt.Sprintf("%s:%d: %s", f.name, i+1, wantKey(id, sev == "info")))
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// wantKey names a finding of rule id in the want annotations' words.
func wantKey(id rules.ID, info bool) string {
	if info {
		return id.String() + ":info"
	}
	return id.String()
}

// TestCorpus lints every archive in testdata/corpus and compares the
// findings, by file, line and rule, with the want annotations.
func TestCorpus(t *testing.T) {
	paths, err := filepath.Glob("testdata/corpus/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			a := parseArchive(data)
			dir := t.TempDir()
			extract(t, a, dir)
			// A "ros-distro: kilted" line in the archive's comment picks the
			// distribution the expectations are written for.
			cfg := Config{}
			for line := range strings.SplitSeq(a.comment, "\n") {
				if d, ok := strings.CutPrefix(strings.TrimSpace(line), "ros-distro:"); ok {
					cfg.RosDistro = strings.TrimSpace(d)
				}
			}
			res, err := Run(t.Context(), []string{dir}, cfg)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range res.Findings {
				if len(f.Rules) == 0 {
					continue // about a suppression comment: suppress_test.go
				}
				rel, _ := filepath.Rel(dir, f.File)
				got = append(got, fmt.Sprintf("%s:%d: %s", filepath.ToSlash(rel), f.Line, wantKey(f.Rule(), f.Severity == rules.Info)))
			}
			slices.Sort(got)
			want := wants(t, a)
			for _, g := range got {
				if !slices.Contains(want, g) {
					t.Errorf("unexpected finding %s", g)
				}
			}
			for _, w := range want {
				if !slices.Contains(got, w) {
					t.Errorf("missing finding %s", w)
				}
			}
			if len(res.ParseErrors) > 0 {
				t.Errorf("parse errors in %v", res.ParseErrors)
			}
		})
	}
}
