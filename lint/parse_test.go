//go:build cgo

package lint

import (
	"fmt"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWalkMatchesCursor checks the one-call C walk against a copy made
// through the binding's cursor API, node by node, on the corpus.
func TestWalkMatchesCursor(t *testing.T) {
	if !haveWalk {
		t.Skip("fast walk unavailable; parse uses the cursor copy")
	}
	paths, _ := filepath.Glob("testdata/corpus/*.txtar")
	n := 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range parseArchive(data).files {
			l := langOf(f.name)
			if l != langPython && l != langCPP {
				continue
			}
			fast, _, err := parse(l, f.data)
			if err != nil {
				t.Fatal(err)
			}
			slow := cursorCopy(t, l, f.data)
			if a, b := treeString(fast), treeString(slow); a != b {
				t.Errorf("%s: walk and cursor copies differ", f.name)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("no files compared")
	}
}

func treeString(n *node) string {
	var sb strings.Builder
	var rec func(n *node, depth int)
	rec = func(n *node, depth int) {
		fmt.Fprintf(&sb, "%d %s %s %d %d\n", depth, n.kind, n.field, n.start, n.end)
		for _, c := range n.children {
			if c.parent != n {
				sb.WriteString("bad parent\n")
			}
			rec(c, depth+1)
		}
	}
	rec(n, 0)
	return sb.String()
}

// cursorCopy parses src and copies it through the cursor API only; tests
// compare it with the fast walk.
func cursorCopy(t interface{ Fatal(...any) }, l lang, src []byte) *node {
	p := newParser(map[lang]*sitter.Language{langPython: pythonLang, langCPP: cppLang}[l])
	defer p.Close()
	tree := p.Parse(src, nil)
	if tree == nil {
		t.Fatal("no tree")
	}
	defer tree.Close()
	cur := tree.Walk()
	defer cur.Close()
	return copyTree(cur, names[l])
}
