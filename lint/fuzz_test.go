//go:build cgo

package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzSource feeds arbitrary text to both front ends: the linter must not
// panic, positions must lie inside the file, and every fix must apply.
func FuzzSource(f *testing.F) {
	paths, _ := filepath.Glob("testdata/corpus/*.txtar")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range parseArchive(data).files {
			f.Add(strings.HasSuffix(file.name, ".py"), file.data)
		}
	}
	f.Add(true, []byte("x = (now - Duration(seconds=1)"))
	f.Add(false, []byte("class A : rclcpp::Node { A() : prev_(now() { x = now() - 1s; } };"))
	f.Fuzz(func(t *testing.T, python bool, src []byte) {
		name := "f.cpp"
		if python {
			name = "f.py"
		}
		res, err := Source(name, src, Config{})
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Count(string(src), "\n") + 1
		var edits []Edit
		for _, fd := range res.Findings {
			if fd.Line < 1 || fd.Line > lines || fd.Col < 1 || fd.EndLine < fd.Line {
				t.Fatalf("bad position %d:%d-%d:%d in %d lines", fd.Line, fd.Col, fd.EndLine, fd.EndCol, lines)
			}
			if fd.Message == "" || fd.Why == "" || fd.Fix == "" {
				t.Fatalf("finding without text: %+v", fd)
			}
			edits = append(edits, fd.Edits...)
		}
		if _, err := ApplyEdits(src, edits); err != nil {
			t.Fatalf("fixes do not apply: %v", err)
		}
	})
}
