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
			if l := langOf(file.name); l == langPython || l == langCPP {
				f.Add(l == langPython, file.data)
			}
		}
	}
	f.Add(true, []byte("x = (now - Duration(seconds=1)"))
	f.Add(false, []byte("class A : rclcpp::Node { A() : prev_(now() { x = now() - 1s; } };"))
	// A guard helper that calls itself: helperLevel must not recurse forever.
	f.Add(true, []byte("def f(now, w):\n    return f(now, w)\nclass A:\n    def g(self):\n        now = self.get_clock().now()\n        if not f(now, self.w):\n            return\n        return now - Duration(seconds=1)\n"))
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

// FuzzConfig does the same for YAML parameter files and XML launch files.
func FuzzConfig(f *testing.F) {
	f.Add(true, []byte("a:\n  ros__parameters:\n    use_simtime: true # simclock: ignore\n"))
	f.Add(true, []byte("- {\"use_simulated_time\": 1}\n---\nb: [use_simtime]\n"))
	f.Add(false, []byte(`<launch><param name="use_simtime" value="1"/><!-- c --></launch>`))
	f.Fuzz(func(t *testing.T, yml bool, src []byte) {
		name := "f.launch.xml"
		if yml {
			name = "f.yaml"
		}
		res, err := Source(name, src, Config{})
		if err != nil {
			t.Fatal(err)
		}
		var edits []Edit
		for _, fd := range res.Findings {
			if fd.Line < 1 || fd.Col < 1 {
				t.Fatalf("bad position %+v", fd)
			}
			edits = append(edits, fd.Edits...)
		}
		if _, err := ApplyEdits(src, edits); err != nil {
			t.Fatalf("fixes do not apply: %v", err)
		}
	})
}
