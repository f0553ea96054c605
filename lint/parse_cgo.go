//go:build cgo

package lint

import (
	"fmt"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

// haveParser reports whether this build can parse: it has cgo.
const haveParser = true

var (
	pythonLang = sitter.NewLanguage(tspython.Language())
	cppLang    = sitter.NewLanguage(tscpp.Language())
	// names caches each grammar's kind and field names, so copying a tree
	// needs no cgo call (and no allocation) for them.
	names = map[lang]*grammarNames{langPython: newNames(pythonLang), langCPP: newNames(cppLang)}
)

// grammarNames holds a grammar's node-kind and field names by id.
type grammarNames struct {
	kinds  []string
	named  []bool
	fields []string
}

func newNames(l *sitter.Language) *grammarNames {
	g := &grammarNames{}
	for id := range l.NodeKindCount() {
		g.kinds = append(g.kinds, l.NodeKindForId(uint16(id)))
		g.named = append(g.named, l.NodeKindIsNamed(uint16(id)))
	}
	for id := range l.FieldCount() + 1 { // field ids start at 1
		g.fields = append(g.fields, l.FieldNameForId(uint16(id)))
	}
	return g
}

// parserSet holds a tree-sitter parser per language for one goroutine
// (a parser is not safe for concurrent use). Each lint worker keeps one for
// the whole run, so parsers are created once per worker, not per file,
// and closed when the worker ends: the binding sets no finalizer, so a
// parser that is dropped without Close leaks its C memory.
type parserSet struct {
	ps map[lang]*sitter.Parser
}

func newParserSet() *parserSet { return &parserSet{ps: map[lang]*sitter.Parser{}} }

// close frees the parsers.
func (s *parserSet) close() {
	for _, p := range s.ps {
		p.Close()
	}
	clear(s.ps)
}

// grammars are the tree-sitter languages by lang.
var grammars = map[lang]*sitter.Language{langPython: pythonLang, langCPP: cppLang}

func newParser(l *sitter.Language) *sitter.Parser {
	p := sitter.NewParser()
	if err := p.SetLanguage(l); err != nil {
		// The grammars are compiled in; a version mismatch is a build bug.
		panic("simclock: lint: " + err.Error())
	}
	return p
}

// parse parses src and copies the tree into Go memory. errAt is the byte
// offset of the first syntax error tree-sitter had to recover from, -1
// when there is none.
func parse(l lang, src []byte) (root *node, errAt int, err error) {
	s := newParserSet()
	defer s.close()
	return s.parse(l, src)
}

// parse is parse with the set's parser for l.
func (s *parserSet) parse(l lang, src []byte) (root *node, errAt int, err error) {
	p := s.ps[l]
	if p == nil {
		g := grammars[l]
		if g == nil {
			return nil, -1, fmt.Errorf("no parser for %v", l)
		}
		p = newParser(g)
		s.ps[l] = p
	}
	if root, errAt, ok := parseWalk(p, src, names[l]); ok {
		return root, errAt, nil
	}
	tree := p.Parse(src, nil)
	if tree == nil {
		return nil, -1, fmt.Errorf("%w: tree-sitter returned no tree", ErrParse)
	}
	defer tree.Close()
	tsRoot := tree.RootNode()
	errAt = -1
	if tsRoot.HasError() {
		errAt = 0
	}
	if root, ok := walkTree(tsRoot, names[l]); ok {
		return root, firstError(root, errAt), nil
	}
	cur := tree.Walk()
	defer cur.Close()
	root = copyTree(cur, names[l])
	return root, firstError(root, errAt), nil
}

// firstError is the start of the first ERROR node under n, or def when
// there is none (tree-sitter's missing nodes are not copied).
func firstError(n *node, def int) int {
	if def < 0 {
		return def
	}
	var find func(n *node) int
	find = func(n *node) int {
		if n.kind == "ERROR" {
			return n.start
		}
		for _, c := range n.children {
			if at := find(c); at >= 0 {
				return at
			}
		}
		return -1
	}
	if at := find(n); at >= 0 {
		return at
	}
	return def
}

// copyTree copies the subtree under the cursor, iteratively, so deeply
// nested input cannot overflow the goroutine stack. Kind and field names
// come from the cached tables; the cgo calls left are one per fact needed.
func copyTree(cur *sitter.TreeCursor, g *grammarNames) *node {
	// visit reads the cursor's node, returning nil when it is dropped:
	// anonymous nodes (punctuation, keywords) without a field name.
	visit := func(parent *node) *node {
		n := cur.Node()
		id := int(n.KindId())
		fid := int(cur.FieldId())
		field := ""
		if fid < len(g.fields) {
			field = g.fields[fid]
		}
		named := id >= len(g.named) || g.named[id]
		if parent != nil && !named && field == "" {
			return nil
		}
		kind := "ERROR" // ts_builtin_sym_error is 65535, past the table
		if id < len(g.kinds) {
			kind = g.kinds[id]
		}
		start, end := n.ByteRange()
		return &node{kind: kind, field: field, start: int(start), end: int(end), parent: parent}
	}
	root := visit(nil)
	stack := []*node{root}
	if !cur.GotoFirstChild() {
		return root
	}
	for {
		top := stack[len(stack)-1]
		n := visit(top)
		if n != nil {
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
