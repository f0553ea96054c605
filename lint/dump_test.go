//go:build cgo

// Developer tools, skipped unless their environment variable is set:
//
//	LINT_DUMP=file.py go test -run 'TestDump$' -v ./lint      # the lowered tree-sitter tree
//	LINT_FIND='dir ...' go test -run TestDumpFindings -v ./lint  # findings, one per line
//	LINT_ERRS=dir go test -run TestDumpErrors -v ./lint       # where files fail to parse

package lint

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// dump prints n's subtree, one node per line.
func dump(n *node, src []byte, depth int, sb *strings.Builder) {
	txt := string(src[n.start:n.end])
	if len(n.children) > 0 || len(txt) > 40 {
		txt = ""
	}
	fmt.Fprintf(sb, "%s%s %s %q\n", strings.Repeat("  ", depth), n.field, n.kind, txt)
	for _, c := range n.children {
		dump(c, src, depth+1, sb)
	}
}

func TestDump(t *testing.T) {
	f := os.Getenv("LINT_DUMP")
	if f == "" {
		t.Skip("set LINT_DUMP=file to print its tree")
	}
	src, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	root, _, err := parse(langOf(f), src)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	dump(root, src, 0, &sb)
	t.Log("\n" + sb.String())
}

func TestDumpFindings(t *testing.T) {
	f := os.Getenv("LINT_FIND")
	if f == "" {
		t.Skip("set LINT_FIND=path to print its findings")
	}
	res, err := Run(t.Context(), strings.Fields(f), Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range res.Findings {
		t.Logf("%s:%d:%d: %s: %s [%s] edits=%v", x.File, x.Line, x.Col, x.Rule(), x.Message, x.Severity, x.Edits)
	}
	t.Logf("files=%d parse errors=%v", res.Files, res.ParseErrors)
}

func TestDumpErrors(t *testing.T) {
	dir := os.Getenv("LINT_ERRS")
	if dir == "" {
		t.Skip("set LINT_ERRS=dir to print where C++/Python files fail to parse")
	}
	files, err := Files([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		l := langOf(f)
		if l != langCPP && l != langPython {
			continue
		}
		src, _ := os.ReadFile(f)
		in := src
		if l == langCPP {
			in = blankVisibilityMacros(src)
		}
		root, errAt, err := parse(l, in)
		hasErr := errAt >= 0
		if err != nil || !hasErr {
			continue
		}
		var first *node
		var find func(n *node)
		find = func(n *node) {
			if first != nil {
				return
			}
			if n.kind == "ERROR" {
				first = n
				return
			}
			for _, c := range n.children {
				find(c)
			}
		}
		find(root)
		if first == nil {
			t.Logf("%s: missing node", f)
			continue
		}
		u := &unit{src: src}
		line, _ := u.position(first.start)
		txt := strings.Join(strings.Fields(string(src[first.start:min(first.end, first.start+60)])), " ")
		t.Logf("%s:%d: %s", f, line, txt)
	}
}
