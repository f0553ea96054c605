//go:build cgo

package lint

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/simclock/simclock/rules"
)

func TestApplyEdits(t *testing.T) {
	src := []byte("Time(1, 2)")
	got, err := ApplyEdits(src, []Edit{
		{Start: 8, End: 8, New: "nanoseconds="},
		{Start: 5, End: 5, New: "seconds="},
		{Start: 5, End: 5, New: "seconds="}, // duplicates apply once
	})
	if err != nil || string(got) != "Time(seconds=1, nanoseconds=2)" {
		t.Fatalf("got %q, %v", got, err)
	}
	_, err = ApplyEdits(src, []Edit{{Start: 0, End: 6, New: "x"}, {Start: 5, End: 7, New: "y"}})
	if !errors.Is(err, ErrOverlappingEdits) {
		t.Fatalf("overlap: err = %v, want ErrOverlappingEdits", err)
	}
	_, err = ApplyEdits(src, []Edit{{Start: 5, End: 99}})
	if !errors.Is(err, ErrOverlappingEdits) {
		t.Fatalf("out of range: err = %v", err)
	}
}

func TestParseRules(t *testing.T) {
	got, err := ParseRules(" r27, R29,R27 ")
	if err != nil || fmt.Sprint(got) != "[R27 R29]" {
		t.Fatalf("got %v, %v", got, err)
	}
	if got, err := ParseRules(""); err != nil || got != nil {
		t.Fatalf("empty: got %v, %v", got, err)
	}
	if _, err := ParseRules("R27,R99"); !errors.Is(err, ErrUnknownRule) {
		t.Fatalf("err = %v, want ErrUnknownRule", err)
	}
	if _, err := Source("a.py", nil, Config{Rules: []rules.ID{rules.R1}}); !errors.Is(err, ErrUnknownRule) {
		t.Fatalf("Source with unknown rule: err = %v", err)
	}
}

// TestRulesSelect checks that Config.Rules filters findings.
func TestRulesSelect(t *testing.T) {
	src := []byte(`from rclpy.time import Time
from rclpy.duration import Duration
def f(node):
    a = Time(1, 2)
    return node.get_clock().now() - Duration(seconds=1)
`)
	all, err := Source("n.py", src, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Findings) != 2 {
		t.Fatalf("all rules: %d findings, want 2: %+v", len(all.Findings), all.Findings)
	}
	// The R28 note is adjusted after it is reported; with R28 off there is
	// nothing to adjust.
	if _, err := Source("n.py", []byte("from rclpy.time import Time\nb.lookup_transform('a', 'b', Time())\n"), Config{Rules: []rules.ID{rules.R16}}); err != nil {
		t.Fatal(err)
	}
	only, err := Source("n.py", src, Config{Rules: []rules.ID{rules.R2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(only.Findings) != 1 || only.Findings[0].Rule() != rules.R2 {
		t.Fatalf("R2 only: %+v", only.Findings)
	}
}

// TestPosition checks 1-based lines and code-point columns past non-ASCII text.
func TestPosition(t *testing.T) {
	src := []byte("from rclpy.time import Time\nx = ('é', Time(1))\n")
	res, err := Source("p.py", src, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 {
		t.Fatalf("%+v", res.Findings)
	}
	f := res.Findings[0]
	if f.Line != 2 || f.Col != 11 || f.EndLine != 2 || f.EndCol != 18 {
		t.Fatalf("position %d:%d-%d:%d, want 2:11-2:18", f.Line, f.Col, f.EndLine, f.EndCol)
	}
}

// TestHeaderAndSource checks that C++ members declared in a header are
// seen by the methods in the package's source file, and only within the
// package.
func TestHeaderAndSource(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/package.xml", "<package/>")
	write("a/include/a/n.hpp", `#include <rclcpp/rclcpp.hpp>
class N : public rclcpp::Node {
public:
  N();
  void tick();
private:
  rclcpp::Duration window_;
  rclcpp::Time never_;
};
`)
	write("a/src/n.cpp", `#include "a/n.hpp"
N::N() : Node("n"), window_(1, 0) {}
void N::tick() {
  auto t = now() - window_;
  auto d = now() - never_;
}
`)
	// Another package with a class of the same name and other members.
	write("b/package.xml", "<package/>")
	write("b/src/n.cpp", `class N : public rclcpp::Node {
  void tick() { auto t = now() - window_; }
  int window_;
};
`)
	res, err := Run(t.Context(), []string{dir}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		rel, _ := filepath.Rel(dir, f.File)
		got = append(got, filepath.ToSlash(rel)+":"+f.Rule().String())
	}
	if strings.Join(got, " ") != "a/src/n.cpp:R27 a/src/n.cpp:R5" {
		t.Fatalf("findings %v, want R27 and R5 in a/src/n.cpp only", got)
	}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"p/a.py", "p/b.cpp", "p/c.txt", "p/build/x.py", "p/.git/y.py", "p/install/z.cpp", "p/include/h.hpp"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := Files([]string{filepath.Join(dir, "p"), filepath.Join(dir, "p/c.txt")})
	if err != nil {
		t.Fatal(err)
	}
	var rel []string
	for _, f := range files {
		r, _ := filepath.Rel(dir, f)
		rel = append(rel, filepath.ToSlash(r))
	}
	if strings.Join(rel, " ") != "p/a.py p/b.cpp p/c.txt p/include/h.hpp" {
		t.Fatalf("files %v", rel)
	}
	if _, err := Files([]string{filepath.Join(dir, "missing")}); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing path: err = %v", err)
	}
}

// TestSyntaxErrors checks that broken files are still analysed and
// reported as partly parsed.
func TestSyntaxErrors(t *testing.T) {
	src := []byte("from rclpy.time import Time\ndef f(:\n    pass\nx = Time(1)\n")
	res, err := Source("broken.py", src, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ParseErrors) != 1 {
		t.Errorf("ParseErrors = %v, want the file", res.ParseErrors)
	}
	if len(res.Findings) != 1 || res.Findings[0].Rule() != rules.R2 {
		t.Errorf("findings %+v, want R2 after the syntax error", res.Findings)
	}
}

// TestConfigFix checks R16 fixes in YAML and XML launch files, where the
// parser reports positions in lines and columns.
func TestConfigFix(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"p.yaml", "a:\n  ros__parameters:\n    'use_simulated_time': true\n", "a:\n  ros__parameters:\n    'use_sim_time': true\n"},
		{"p.yaml", "é: 1\nb: {use_simtime: true}\n", "é: 1\nb: {use_sim_time: true}\n"},
		{"x.launch.xml", "<launch><param name=\"use_simtime\" value=\"true\"/></launch>", "<launch><param name=\"use_sim_time\" value=\"true\"/></launch>"},
	} {
		res, err := Source(tc.name, []byte(tc.src), Config{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Findings) != 1 || res.Findings[0].Rule() != rules.R16 {
			t.Fatalf("%s: findings %+v", tc.name, res.Findings)
		}
		got, err := ApplyEdits([]byte(tc.src), res.Findings[0].Edits)
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: fixed to %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
	res, err := Source("bad.yaml", []byte("a: [\n"), Config{})
	if err != nil || len(res.ParseErrors) != 1 {
		t.Errorf("invalid YAML: %v, parse errors %v", err, res.ParseErrors)
	}
}

func TestBlankMacros(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"class COMPOSITION_PUBLIC Talker : public rclcpp::Node {};", "class                    Talker : public rclcpp::Node {};"},
		{"#define COMPOSITION_PUBLIC __attribute__((visibility(\"default\")))\nCOMPOSITION_PUBLIC void f();",
			"#define COMPOSITION_PUBLIC __attribute__((visibility(\"default\")))\n                   void f();"},
		{"#if X \\\n  && MY_EXPORT\nint a;", "#if X \\\n  && MY_EXPORT\nint a;"},
		{`printf("%" PRId64 " // MY_PUBLIC\n", x); /* A_EXPORT */`, `printf("%"        " // MY_PUBLIC\n", x); /* A_EXPORT */`},
		{"PUBLIC EXPORT_X _PUBLIC PRIZ64", "PUBLIC EXPORT_X _PUBLIC PRIZ64"},
	} {
		if got := string(blankVisibilityMacros([]byte(tc.in))); got != tc.want {
			t.Errorf("blank(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
	src := []byte("int x;")
	if got := blankVisibilityMacros(src); &got[0] != &src[0] {
		t.Error("copied a source with nothing to blank")
	}
}

// TestMaxFileSize checks that a file larger than MaxFileSize is reported
// as not parsed, by name, instead of being read.
func TestMaxFileSize(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "table.cpp")
	if err := os.WriteFile(big, []byte("int x;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, MaxFileSize+1); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ok.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Run(t.Context(), []string{dir}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Files != 2 || len(res.Failures()) != 1 || res.Failures()[0].File != big || res.Failures()[0].Recovered {
		t.Errorf("files %d, failures %+v: want the big file named as not parsed", res.Files, res.Failures())
	}
}

// TestSyntaxErrorSaysWhy checks that a file that does not parse is named
// with its line and the likely cause for its language, and is still
// analysed: a Python file mid-edit, a C++ file whose macro the parser
// cannot expand.
func TestSyntaxErrorSaysWhy(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"mid_edit.py": "import rclpy\n\ndef on_tick(self:\n    x = self.get_clock().now()\n",
		"driver.cpp":  "#include <x.h>\nMY_PLUGIN_EXPORT(Foo, Bar)\nclass Foo {\n  int f( { return 0; }\n};\n",
	})
	res, err := Run(t.Context(), []string{dir}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"mid_edit.py": "mid-edit", "driver.cpp": "macro"}
	if len(res.ParseErrors) != len(want) {
		t.Fatalf("parse errors %+v, want one per file", res.ParseErrors)
	}
	for _, pe := range res.ParseErrors {
		w := want[filepath.Base(pe.File)]
		if w == "" || !strings.Contains(pe.Message, w) || !pe.Recovered || pe.Line < 1 {
			t.Errorf("%s:%d: %q (recovered %v), want a recovered error saying %q", pe.File, pe.Line, pe.Message, pe.Recovered, w)
		}
	}
}

// TestRefusesNonRegular checks that a named pipe given as a path is
// refused at once instead of being read forever.
func TestRefusesNonRegular(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo.py")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	_, err := Run(t.Context(), []string{fifo}, Config{})
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a named pipe") {
		t.Fatalf("err = %v, want ErrNotRegular naming a named pipe", err)
	}
}

// TestNumberTablesLowerSmall checks that a generated table of numbers is
// one expression, not one per number: memory follows the code, not the
// data (a 3.9 MB generated table took 334 MB before, 245 MB after).
func TestNumberTablesLowerSmall(t *testing.T) {
	var b strings.Builder
	b.WriteString("TABLE = [\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "    (%d, %d.5, -%d.25),\n", i, i, i)
	}
	b.WriteString("]\nNAMES = ['use_sim_time', 'rate']\n")
	src := []byte(b.String())
	root, _, err := parse(langPython, src)
	if err != nil {
		t.Fatal(err)
	}
	u := &unit{path: "table.py", lang: langPython, src: src, root: root}
	lowerPython(u)
	n := 0
	for _, f := range u.fns {
		eachStmt(f.body, func(s *stmt) {
			for _, e := range []*expr{s.e, s.target, s.value} {
				walkExpr(e, func(*expr) { n++ })
			}
		})
	}
	if n > 20 {
		t.Errorf("%d expressions for a table of 2000 rows and two names", n)
	}
	if len(u.strings) != 2 {
		t.Errorf("%d string literals kept, want the 2 names (R16 reads them)", len(u.strings))
	}
}
