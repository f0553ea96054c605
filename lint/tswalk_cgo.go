//go:build cgo

package lint

/*
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

// Declarations copied from tree-sitter's api.h (v0.25), whose core
// github.com/tree-sitter/go-tree-sitter compiles into the binary. They are
// weak so that this package's own cgo link check, which does not include
// that library, succeeds; the final binary has the definitions, and the Go
// side checks the results against the binding's API before using them.
typedef struct { uint32_t context[4]; const void *id; const void *tree; } sc_node;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } sc_cursor;

extern void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t),
                             void *(*)(void *, size_t), void (*)(void *)) __attribute__((weak));
extern sc_cursor ts_tree_cursor_new(sc_node) __attribute__((weak));
extern void ts_tree_cursor_delete(sc_cursor *) __attribute__((weak));
extern sc_node ts_tree_cursor_current_node(const sc_cursor *) __attribute__((weak));
extern uint16_t ts_tree_cursor_current_field_id(const sc_cursor *) __attribute__((weak));
extern bool ts_tree_cursor_goto_first_child(sc_cursor *) __attribute__((weak));
extern bool ts_tree_cursor_goto_next_sibling(sc_cursor *) __attribute__((weak));
extern bool ts_tree_cursor_goto_parent(sc_cursor *) __attribute__((weak));
extern uint16_t ts_node_symbol(sc_node) __attribute__((weak));
extern bool ts_node_is_named(sc_node) __attribute__((weak));
extern uint32_t ts_node_start_byte(sc_node) __attribute__((weak));
extern uint32_t ts_node_end_byte(sc_node) __attribute__((weak));
extern bool ts_node_is_error(sc_node) __attribute__((weak));
extern bool ts_node_is_missing(sc_node) __attribute__((weak));
extern bool ts_node_has_error(sc_node) __attribute__((weak));
extern void *ts_parser_parse_string(void *, const void *, const char *, uint32_t) __attribute__((weak));
extern sc_node ts_tree_root_node(const void *) __attribute__((weak));
extern void ts_tree_delete(void *) __attribute__((weak));

static int sc_libc_allocator(void) {
	if (!ts_set_allocator) {
		return 0;
	}
	ts_set_allocator(malloc, calloc, realloc, free);
	return 1;
}

static int sc_have_walk(void) {
	return ts_tree_cursor_new && ts_tree_cursor_delete && ts_tree_cursor_current_node &&
		ts_tree_cursor_current_field_id && ts_tree_cursor_goto_first_child &&
		ts_tree_cursor_goto_next_sibling && ts_tree_cursor_goto_parent && ts_node_symbol &&
		ts_node_is_named && ts_node_start_byte && ts_node_end_byte && ts_node_is_error &&
		ts_node_is_missing && ts_node_has_error && ts_parser_parse_string && ts_tree_root_node &&
		ts_tree_delete;
}

// sc_rec is one kept node: named, or carrying a field name.
typedef struct {
	uint32_t start, end;
	int32_t parent;
	uint16_t symbol, field;
} sc_rec;

static int sc_push(sc_rec **out, size_t *n, size_t *cap, sc_node nd, uint16_t field, int32_t parent) {
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 1024;
		sc_rec *p = realloc(*out, c * sizeof **out);
		if (!p) {
			return 0;
		}
		*out = p;
		*cap = c;
	}
	sc_rec *r = &(*out)[(*n)++];
	r->start = ts_node_start_byte(nd);
	r->end = ts_node_end_byte(nd);
	r->parent = parent;
	r->symbol = ts_node_symbol(nd);
	r->field = field;
	return 1;
}

// sc_walk flattens the tree under *root in pre-order into a malloc'd
// array; the caller frees it. Returns NULL on allocation failure. *err_at
// is set to the start byte of the first error or missing node, if any.
static sc_rec *sc_walk(const sc_node *root, size_t *count, int64_t *err_at) {
	sc_rec *out = NULL;
	size_t n = 0, cap = 0, sp = 0, scap = 64;
	int32_t *stack = malloc(scap * sizeof *stack);
	if (!stack || !sc_push(&out, &n, &cap, *root, 0, -1)) {
		goto fail;
	}
	stack[sp++] = 0;
	sc_cursor cur = ts_tree_cursor_new(*root);
	if (ts_tree_cursor_goto_first_child(&cur)) {
		for (;;) {
			sc_node nd = ts_tree_cursor_current_node(&cur);
			uint16_t field = ts_tree_cursor_current_field_id(&cur);
			if (*err_at < 0 && (ts_node_is_error(nd) || ts_node_is_missing(nd))) {
				*err_at = ts_node_start_byte(nd);
			}
			int keep = field != 0 || ts_node_is_named(nd);
			if (keep) {
				if (!sc_push(&out, &n, &cap, nd, field, stack[sp - 1])) {
					ts_tree_cursor_delete(&cur);
					goto fail;
				}
				if (ts_tree_cursor_goto_first_child(&cur)) {
					if (sp == scap) {
						scap *= 2;
						int32_t *s = realloc(stack, scap * sizeof *stack);
						if (!s) {
							ts_tree_cursor_delete(&cur);
							goto fail;
						}
						stack = s;
					}
					stack[sp++] = (int32_t)(n - 1);
					continue;
				}
			}
			while (!ts_tree_cursor_goto_next_sibling(&cur)) {
				if (sp == 1 || !ts_tree_cursor_goto_parent(&cur)) {
					goto done;
				}
				sp--;
			}
		}
	}
done:
	ts_tree_cursor_delete(&cur);
	free(stack);
	*count = n;
	return out;
fail:
	free(stack);
	free(out);
	return NULL;
}

// sc_parse parses src with parser and flattens the tree, all in one call
// from Go: no read callback into Go, no copy of the source, and the tree
// is freed before returning. *err_at is -1 for a clean parse, else the
// start byte of the first error (0 when tree-sitter reports an error it
// does not place). Returns NULL when there is no tree or no memory.
static sc_rec *sc_parse(void *parser, const char *src, uint32_t len, size_t *count, int64_t *err_at) {
	void *tree = ts_parser_parse_string(parser, NULL, src, len);
	if (!tree) {
		return NULL;
	}
	sc_node root = ts_tree_root_node(tree);
	*err_at = -1;
	sc_rec *recs = sc_walk(&root, count, err_at);
	if (*err_at < 0 && ts_node_has_error(root)) {
		*err_at = 0;
	}
	ts_tree_delete(tree);
	return recs;
}
*/
import "C"

import (
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// The Go binding routes every tree-sitter allocation through an exported
// Go function that calls C.malloc: a C-to-Go-to-C round trip per
// allocation. Its default functions are libc's, so pointing tree-sitter at
// libc directly is equivalent, and memory allocated either way can be
// freed either way.
func init() {
	C.sc_libc_allocator()
}

var haveWalk = C.sc_have_walk() != 0

// walkTree copies the tree under root with one cgo call instead of several
// per node. ok is false when the fast path is unavailable or its result
// does not match the binding's view of the root; the caller then copies
// through the binding's cursor.
func walkTree(root *sitter.Node, g *grammarNames) (n *node, ok bool) {
	if !haveWalk || unsafe.Sizeof(*root) != unsafe.Sizeof(C.sc_node{}) {
		return nil, false
	}
	var count C.size_t
	errAt := C.int64_t(-1)
	// sitter.Node is a struct holding exactly one C.TSNode.
	recs := C.sc_walk((*C.sc_node)(unsafe.Pointer(root)), &count, &errAt)
	if recs == nil {
		return nil, false
	}
	defer C.free(unsafe.Pointer(recs))
	rs := unsafe.Slice(recs, int(count))
	start, end := root.ByteRange()
	if len(rs) == 0 || uint(rs[0].start) != start || uint(rs[0].end) != end || uint16(rs[0].symbol) != root.KindId() {
		return nil, false
	}
	return buildNodes(rs, g), true
}

// parseWalk parses src with p and copies the tree out in one cgo call
// (sc_parse). errAt is the byte offset of the first syntax error, -1 when
// there is none. ok is false when the fast path is unavailable.
func parseWalk(p *sitter.Parser, src []byte, g *grammarNames) (root *node, errAt int, ok bool) {
	if !haveWalk || unsafe.Sizeof(*p) != unsafe.Sizeof(uintptr(0)) || len(src) >= 1<<32-1 {
		return nil, 0, false
	}
	// sitter.Parser is a struct holding exactly one *C.TSParser.
	inner := *(*unsafe.Pointer)(unsafe.Pointer(p))
	var data *C.char
	if len(src) > 0 {
		data = (*C.char)(unsafe.Pointer(&src[0]))
	} else {
		data = (*C.char)(unsafe.Pointer(&emptySource[0]))
	}
	var count C.size_t
	var errAtC C.int64_t
	recs := C.sc_parse(inner, data, C.uint32_t(len(src)), &count, &errAtC)
	if recs == nil {
		return nil, 0, false
	}
	defer C.free(unsafe.Pointer(recs))
	rs := unsafe.Slice(recs, int(count))
	if len(rs) == 0 {
		return nil, 0, false
	}
	return buildNodes(rs, g), int(errAtC), true
}

// emptySource gives an empty file a valid pointer to pass to C.
var emptySource = []byte{0}

// buildNodes turns the flat records of sc_walk into linked Go nodes, held
// in one slice.
func buildNodes(rs []C.sc_rec, g *grammarNames) *node {
	nodes := make([]node, len(rs))
	// Every node but the root is some node's child: one backing array
	// holds all children lists, each sized by a first counting pass, so
	// no list is grown by append.
	counts := make([]int32, len(rs))
	for i := range rs {
		if p := int(rs[i].parent); p >= 0 && p < i {
			counts[p]++
		}
	}
	kids := make([]*node, len(rs))
	off := 0
	for i, c := range counts {
		nodes[i].children = kids[off : off : off+int(c)]
		off += int(c)
	}
	for i := range rs {
		r := &rs[i]
		nd := &nodes[i]
		nd.kind = "ERROR" // ts_builtin_sym_error is 65535, past the table
		if int(r.symbol) < len(g.kinds) {
			nd.kind = g.kinds[r.symbol]
		}
		if int(r.field) < len(g.fields) {
			nd.field = g.fields[r.field]
		}
		nd.start, nd.end = int(r.start), int(r.end)
		if p := int(r.parent); p >= 0 && p < i {
			nd.parent = &nodes[p]
			nd.parent.children = append(nd.parent.children, nd)
		}
	}
	return &nodes[0]
}
