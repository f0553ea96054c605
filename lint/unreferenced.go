package lint

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// pyNodeCalled are the methods of rclpy's Node and LifecycleNode that the
// framework calls by name on a subclass that overrides them: the lifecycle
// transitions, and destroy_node (rclpy's shutdown path and the executor's
// users call it on the base).
var pyNodeCalled = map[string]bool{
	"on_configure": true, "on_cleanup": true, "on_shutdown": true, "on_activate": true,
	"on_deactivate": true, "on_error": true, "destroy_node": true, "main": true,
}

// unreferenced reports whether the method enclosing f (f itself, or the
// method a lambda or nested def of f is written in) is one nothing in the
// package can run, and whose name appears nowhere in the files of its
// package (the directory holding package.xml; any file, launch files,
// setup.py, CMakeLists.txt and strings included; comments excluded) but
// where it is declared and defined:
//   - Python (round 28): a method, not decorated, not a dunder and not a
//     name the framework calls (pyNodeCalled), of a class whose only bases
//     are rclpy's Node or LifecycleNode (imported by those names from
//     rclpy). Round 27: a window in a real-robot node's helper whose only
//     call, in the constructor, was commented out.
//   - C++: a member function, not a constructor, destructor or operator,
//     not virtual, override or final and not a lifecycle transition, of a
//     class whose only bases are rclcpp::Node or
//     rclcpp_lifecycle::LifecycleNode; its declaration in the class and
//     its definition (cppDeclaration) do not count, any other mention does
//     (a call, &C::m in a std::bind, another overload's call).
//
// A package too large to scan, or a file too large to read, is taken to
// refer to it. The name is read as a word, whatever its receiver, so a
// same-named method of another object counts.
func (c *checker) unreferenced(f *fn) bool {
	f = outermost(f)
	if c.root == "" || f.u == nil || f.cls == nil || !f.cls.isNode || f.ctor || f.n == nil || f.name == "" || pyNodeCalled[f.name] {
		return false
	}
	switch f.u.lang {
	case langPython:
		if strings.HasPrefix(f.name, "__") {
			return false
		}
		for _, b := range f.cls.bases {
			if b != "Node" && b != "LifecycleNode" || !strings.HasPrefix(f.u.imports[b], "rclpy.") {
				return false // another Node, or written qualified (rclpy.node.Node): left out
			}
		}
	case langCPP:
		if !cppCandidate(f) {
			return false
		}
	default:
		return false
	}
	if c.dead == nil {
		c.dead = map[*fn]bool{}
	}
	if v, ok := c.dead[f]; ok {
		return v
	}
	v := fileExists(filepath.Join(c.root, "package.xml")) && c.scanUnreferenced(f)
	c.dead[f] = v
	return v
}

// cppCandidate reports whether C++ method f may be one nothing calls by
// name: a member function of a class whose only bases are rclcpp::Node or
// rclcpp_lifecycle::LifecycleNode (nothing else can call it through a
// virtual), not a destructor or operator, and not written virtual,
// override or final.
func cppCandidate(f *fn) bool {
	if strings.HasPrefix(f.name, "~") || strings.HasPrefix(f.name, "operator") || len(f.cls.baseTypes) == 0 {
		return false
	}
	for _, b := range f.cls.baseTypes {
		if b != "rclcpp.Node" && b != "rclcpp_lifecycle.LifecycleNode" {
			return false
		}
	}
	body := f.n.child("body")
	if f.n.kind != "function_definition" || body == nil {
		return false
	}
	head := f.u.src[f.n.start:body.start]
	for _, w := range []string{"virtual", "override", "final"} {
		if namedIn(head, w, langCPP, -1) {
			return false
		}
	}
	return true
}

func (c *checker) scanUnreferenced(f *fn) bool {
	var names func(src []byte, l lang) bool
	switch f.u.lang {
	case langPython:
		name := f.n.child("name")
		if name == nil || f.u.text(name) != f.name {
			return false
		}
		// A decorator may register the method (or make it a property).
		before := bytes.TrimRight(f.u.src[:f.n.start], " \t\r\n")
		if line := before[bytes.LastIndexByte(before, '\n')+1:]; bytes.HasPrefix(bytes.TrimSpace(line), []byte("@")) {
			return false
		}
		if namedIn(f.u.src, f.name, langPython, name.start) {
			return false
		}
		names = func(src []byte, l lang) bool { return namedIn(src, f.name, l, -1) }
	case langCPP:
		// Its own file, but for its own head (return type, name,
		// parameters), where declarations do not count either.
		if cppNamedIn(f.u.src[:f.n.start], f.name) || cppNamedIn(f.u.src[f.n.child("body").start:], f.name) {
			return false
		}
		names = func(src []byte, l lang) bool {
			if l == langCPP {
				return cppNamedIn(src, f.name)
			}
			return namedIn(src, f.name, l, -1)
		}
	default:
		return false
	}
	own, _ := filepath.Abs(f.u.path)
	named, files := false, 0
	err := filepath.WalkDir(c.root, func(path string, e fs.DirEntry, err error) error {
		switch {
		case named:
			return filepath.SkipAll
		case err != nil:
			named = true // unreadable: it may name the method
			return filepath.SkipAll
		}
		if e.IsDir() {
			if notPackageDir(c.root, path, e) {
				return filepath.SkipDir
			}
			return nil
		}
		if !e.Type().IsRegular() {
			return nil
		}
		if abs, _ := filepath.Abs(path); abs == own {
			return nil
		}
		if files++; files > pkgScanFiles {
			named = true
			return filepath.SkipAll
		}
		l := langOf(path)
		info, err := e.Info()
		if err != nil || info.Size() > pkgScanBytes {
			named = err != nil || l != langNone
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil || names(b, l) {
			named = true
		}
		return nil
	})
	return err == nil && !named
}

// namedIn reports whether name appears in src as a whole word outside a
// comment, other than at offset skip.
func namedIn(src []byte, name string, l lang, skip int) bool {
	return wordWhere(src, name, l, func(at, _ int) bool { return at != skip })
}

// cppNamedIn reports whether name appears in C++ src as a whole word
// outside a comment, other than as the name a member function declaration
// or a definition declares (cppDeclaration). A virtual, override or pure
// declaration names it: something may call it through a base.
func cppNamedIn(src []byte, name string) bool {
	return wordWhere(src, name, langCPP, func(at, end int) bool {
		decl, virtual := cppDeclaration(src, at, end)
		return !decl || virtual
	})
}

// wordWhere reports whether name appears in src as a whole word outside
// a comment at some src[at:end] that counts says counts.
func wordWhere(src []byte, name string, l lang, counts func(at, end int) bool) bool {
	for i := 0; ; {
		k := bytes.Index(src[i:], []byte(name))
		if k < 0 {
			return false
		}
		at := i + k
		i = at + len(name)
		if at > 0 && isIdentByte(src[at-1]) || i < len(src) && isIdentByte(src[i]) || inComment(src, at, l) {
			continue
		}
		if counts(at, i) {
			return true
		}
	}
}

var (
	// cppDeclTail is what may follow a declaration's parameter list up to
	// its ';' (or a definition's '{'): cv and ref qualifiers, noexcept, a
	// trailing return type, override, final, = 0.
	cppDeclTail = regexp.MustCompile(`^\s*(const\s*)?(volatile\s*)?(&&?\s*)?(noexcept\s*)?(->\s*[\w:<>,*&\s]+?)?\s*((override|final)\s*)*(=\s*0\s*)?$`)
	// cppDeclHead is what may come before a declared name: a return type
	// and specifiers (words, ::, template arguments, * and &).
	cppDeclHead   = regexp.MustCompile(`^[\w:<>,*&\s]+$`)
	cppLineCmt    = regexp.MustCompile(`//[^\n]*`)
	cppBlockCmt   = regexp.MustCompile(`(?s)/\*.*?\*/`)
	cppNotDeclare = map[string]bool{
		"return": true, "co_return": true, "co_await": true, "co_yield": true, "else": true, "do": true, "throw": true,
		"new": true, "delete": true, "case": true, "goto": true, "using": true, "typedef": true, "friend": true,
		"sizeof": true, "if": true, "while": true, "for": true, "switch": true, "not": true, "and": true, "or": true,
	}
)

// cppDeclaration reports whether the name at src[at:end] is the name a
// function declaration (ending in ';') or definition (followed by its
// body) declares, read from the text around it: a return type and
// specifiers before it, back to the previous ';', '{', '}' or label colon
// (public:), comments removed; a parameter list and qualifiers after it.
// A call has nothing before it there (m(x);), or a receiver (obj.m(x),
// p->m(x), Base::m(x);), or a keyword (return m(x);), or sits in an
// expression. virtual says the declaration is virtual, override, final or
// pure. The reading errs towards "not a declaration" (the name is then
// taken as a call): an attribute, a macro or a preprocessor line before
// it makes it a call.
func cppDeclaration(src []byte, at, end int) (decl, virtual bool) {
	j := end
	for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\r' || src[j] == '\n') {
		j++
	}
	if j >= len(src) || src[j] != '(' {
		return false, false
	}
	depth, k := 0, j
	for ; k < len(src); k++ {
		if src[k] == '(' {
			depth++
		} else if src[k] == ')' {
			if depth--; depth == 0 {
				break
			}
		}
	}
	if k >= len(src) {
		return false, false
	}
	t := k + 1
	for t < len(src) && src[t] != ';' && src[t] != '{' && src[t] != '}' && src[t] != '(' {
		t++
	}
	if t >= len(src) || src[t] != ';' && src[t] != '{' {
		return false, false
	}
	tail := string(src[k+1 : t])
	tail = cppBlockCmt.ReplaceAllString(cppLineCmt.ReplaceAllString(tail, " "), " ")
	if !cppDeclTail.MatchString(tail) {
		return false, false
	}
	s := at
	for s > 0 {
		b := src[s-1]
		if b == ';' || b == '{' || b == '}' || b == ':' && (s < 2 || src[s-2] != ':') && (s >= len(src) || src[s] != ':') {
			break
		}
		s--
	}
	head := string(src[s:at])
	head = strings.TrimSpace(cppBlockCmt.ReplaceAllString(cppLineCmt.ReplaceAllString(head, " "), " "))
	qualified := strings.HasSuffix(head, "::")
	for strings.HasSuffix(head, "::") {
		// void Class::m(...) {: drop the qualifiers to find the type.
		head = strings.TrimRight(strings.TrimSuffix(head, "::"), " \t\r\n")
		i := strings.LastIndexFunc(head, func(r rune) bool {
			return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '<' || r == '>' || r == ',')
		})
		head = strings.TrimSpace(head[:i+1])
	}
	if head == "" || !cppDeclHead.MatchString(head) || qualified && src[t] == ';' {
		return false, false
	}
	for _, w := range strings.FieldsFunc(head, func(r rune) bool {
		return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		if cppNotDeclare[w] {
			return false, false
		}
		if w == "virtual" {
			virtual = true
		}
	}
	if strings.Contains(tail, "override") || strings.Contains(tail, "final") || strings.Contains(tail, "=") {
		virtual = true
	}
	return true, virtual
}
