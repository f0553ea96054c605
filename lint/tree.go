package lint

// node is a syntax tree node copied out of tree-sitter into Go memory, so the
// analysis runs in pure Go with no cgo call per node visited. Only named
// nodes and anonymous nodes that carry a field name (such as a binary
// operator's "operator") are kept.
type node struct {
	kind     string // tree-sitter node kind, e.g. "call" or "binary_expression"
	field    string // field name in the parent, "" when none
	start    int    // byte offset of the first byte
	end      int    // byte offset just past the last byte
	children []*node
	parent   *node
}

// child returns the first child whose field name is field, or nil.
func (n *node) child(field string) *node {
	if n == nil {
		return nil
	}
	for _, c := range n.children {
		if c.field == field {
			return c
		}
	}
	return nil
}

// childrenField returns every child whose field name is field.
func (n *node) childrenField(field string) []*node {
	var out []*node
	for _, c := range n.children {
		if c.field == field {
			out = append(out, c)
		}
	}
	return out
}

// firstKind returns the first child of the given kind, or nil.
func (n *node) firstKind(kind string) *node {
	if n == nil {
		return nil
	}
	for _, c := range n.children {
		if c.kind == kind {
			return c
		}
	}
	return nil
}
