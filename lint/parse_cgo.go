//go:build cgo

package lint

import (
	"fmt"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

var (
	pythonLang = sitter.NewLanguage(tspython.Language())
	cppLang    = sitter.NewLanguage(tscpp.Language())
)

// parsers pools one tree-sitter parser per language; a parser is not safe
// for concurrent use, but creating one per file costs more than parsing a
// small file.
var parsers = map[lang]*sync.Pool{
	langPython: {New: func() any { return newParser(pythonLang) }},
	langCPP:    {New: func() any { return newParser(cppLang) }},
}

func newParser(l *sitter.Language) *sitter.Parser {
	p := sitter.NewParser()
	if err := p.SetLanguage(l); err != nil {
		// The grammars are compiled in; a version mismatch is a build bug.
		panic("simclock: lint: " + err.Error())
	}
	return p
}

// parse parses src and copies the tree into Go memory. hasErr reports
// whether tree-sitter had to recover from a syntax error somewhere.
func parse(l lang, src []byte) (root *node, hasErr bool, err error) {
	pool := parsers[l]
	if pool == nil {
		return nil, false, fmt.Errorf("no parser for %v", l)
	}
	p := pool.Get().(*sitter.Parser)
	defer pool.Put(p)
	tree := p.Parse(src, nil)
	if tree == nil {
		return nil, false, fmt.Errorf("%w: tree-sitter returned no tree", ErrParse)
	}
	defer tree.Close()
	tsRoot := tree.RootNode()
	cur := tree.Walk()
	defer cur.Close()
	root = copyTree(cur)
	return root, tsRoot.HasError(), nil
}

// copyTree copies the subtree under the cursor, iteratively, so deeply
// nested input cannot overflow the goroutine stack.
func copyTree(cur *sitter.TreeCursor) *node {
	mk := func(parent *node) *node {
		n := cur.Node()
		return &node{
			kind:   n.Kind(),
			field:  cur.FieldName(),
			start:  int(n.StartByte()),
			end:    int(n.EndByte()),
			row:    int(n.StartPosition().Row),
			parent: parent,
		}
	}
	keep := func() bool {
		n := cur.Node()
		return n.IsNamed() || cur.FieldName() != ""
	}
	root := mk(nil)
	stack := []*node{root}
	if !cur.GotoFirstChild() {
		return root
	}
	for {
		top := stack[len(stack)-1]
		var n *node
		if keep() {
			n = mk(top)
			top.children = append(top.children, n)
		}
		if n != nil && cur.GotoFirstChild() {
			stack = append(stack, n)
			continue
		}
		for !cur.GotoNextSibling() {
			if len(stack) == 1 || !cur.GotoParent() {
				return root
			}
			stack = stack[:len(stack)-1]
		}
	}
}
