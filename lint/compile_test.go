//go:build cgo

package lint

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// compileAll lists the archives whose every C++ file must compile; in the
// others only the corrected ok_ files are held to it (their positive
// cases are fragments of larger classes).
var compileAll = map[string]bool{"misses.txtar": true, "realworld.txtar": true, "distro_jazzy.txtar": true, "distro_kilted.txtar": true}

// TestCasesCompile keeps the corpus cases honest: every Python file of
// every archive byte-compiles (python3 -m py_compile), and the corrected
// C++ files (and every C++ file of compileAll) pass g++ -fsyntax-only
// against the stub headers of testdata/stubs. Skipped when python3 or g++
// is missing.
func TestCasesCompile(t *testing.T) {
	paths, err := filepath.Glob("testdata/corpus/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	stubs, err := filepath.Abs("testdata/stubs")
	if err != nil {
		t.Fatal(err)
	}
	python, _ := exec.LookPath("python3")
	gxx, _ := exec.LookPath("g++")
	if python == "" && gxx == "" {
		t.Skip("neither python3 nor g++ installed")
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			t.Parallel()
			compileArchive(t, path, stubs, python, gxx)
		})
	}
}

// compileArchive compiles the cases of one archive.
func compileArchive(t *testing.T, path, stubs, python, gxx string) {
	{
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		a := parseArchive(data)
		dir := t.TempDir()
		extract(t, a, dir)
		// One compiler run per archive and language: fast, and the error
		// names the file.
		var py, cpp []string
		for _, f := range a.files {
			p := filepath.Join(dir, filepath.FromSlash(f.name))
			switch langOf(f.name) {
			case langPython:
				py = append(py, p)
			case langCPP:
				if compileAll[filepath.Base(path)] || strings.HasPrefix(filepath.Base(f.name), "ok_") {
					cpp = append(cpp, p)
				}
			}
		}
		var cmds []*exec.Cmd
		if python != "" && len(py) > 0 {
			cmds = append(cmds, exec.Command(python, append([]string{"-m", "py_compile"}, py...)...))
		}
		if gxx != "" && len(cpp) > 0 {
			// -x c++ so that headers are checked as sources, not precompiled.
			cmds = append(cmds, exec.Command(gxx, append([]string{"-std=c++17", "-fsyntax-only", "-I", stubs, "-I", dir, "-x", "c++"}, cpp...)...))
		}
		for _, cmd := range cmds {
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s: cases do not compile: %v\n%s", filepath.Base(path), err, out)
			}
		}
	}
}
