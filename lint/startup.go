package lint

import (
	"strings"
	"unicode"
)

// What runs before the first /clock. A node's constructor does: under sim
// time its clock reads 0 there. So does everything the constructor builds,
// directly or through the methods it calls, and what a plugin builds in its
// initialiser (onInitialize, on_configure), which runs while the node starts.
// An object built later, in a callback or a behaviour-tree tick, is built
// after the first /clock, and a now() in its constructor is the current
// time. startup.go finds, per group of files, which classes are built at
// startup, following the instantiations it can see: a class built only by
// reflection (pluginlib, a decision engine loading elements by name) or in
// another package is not known to be built at startup.

// instSite is a construction of a class: a call of the class, new, a
// make_shared or make_unique, or a declaration of a local or member by
// value.
type instSite struct {
	cls  *class
	call *expr // the call whose arguments go to a constructor; nil for a declaration without arguments
}

// classesByName indexes the group's classes by simple name.
func (d *dataflow) classesByName() map[string][]*class {
	if d.byName != nil {
		return d.byName
	}
	d.byName = map[string][]*class{}
	for _, c := range d.classes {
		d.byName[c.name] = append(d.byName[c.name], c)
	}
	return d.byName
}

// constructed returns the classes of the group that call e may construct.
func (d *dataflow) constructed(e *expr, f *fn) []*class {
	if e.kind != eCall || e.recv == nil {
		return nil
	}
	name := ""
	switch r := e.recv; {
	case r.kind == eName:
		name = r.name
		for _, factory := range []string{"make_shared<", "make_unique<", "allocate_shared<"} {
			if i := strings.Index(name, factory); i >= 0 {
				name = firstTemplateArg(name[i+len(factory)-1:])
				break
			}
		}
		name = simpleTypeName(name)
	case r.kind == eAttr && f.u.lang == langPython:
		name = r.name // module.Helper(...)
	}
	if name == "" {
		return nil
	}
	var out []*class
	for _, c := range d.classesByName()[name] {
		if c.lang == f.u.lang {
			out = append(out, c)
		}
	}
	return out
}

// firstTemplateArg returns the first argument of a template argument list
// "<a<b>, c>": "a<b>".
func firstTemplateArg(s string) string {
	s = strings.TrimPrefix(s, "<")
	depth := 0
	for i, r := range s {
		switch r {
		case '<':
			depth++
		case '>':
			if depth == 0 {
				return s[:i]
			}
			depth--
		case ',':
			if depth == 0 {
				return s[:i]
			}
		}
	}
	return s
}

// instantiations lists the constructions in f.
func (d *dataflow) instantiations(f *fn) []instSite {
	if got, ok := d.insts[f]; ok {
		return got
	}
	var out []instSite
	visit := func(e *expr) {
		for _, c := range d.constructed(e, f) {
			out = append(out, instSite{cls: c, call: e})
		}
	}
	eachStmt(f.body, func(s *stmt) {
		for _, e := range []*expr{s.e, s.value} {
			walkExpr(e, visit)
		}
		// Helper h; declares and default-constructs a local.
		if s.kind == sAssign && s.decl && s.value == nil && s.typ != "" && f.u.lang == langCPP {
			for _, c := range d.classesByName()[simpleTypeName(s.typ)] {
				if c.lang == langCPP {
					out = append(out, instSite{cls: c})
				}
			}
		}
	})
	d.insts[f] = out
	return out
}

// findStartup fills d.startup (the classes whose constructors run before
// the first /clock) and d.ctorReach (per class, the methods its
// constructors run: the constructors and the methods they call, however
// deep). It also marks a class deriving from a node class of the group as
// a node.
func (d *dataflow) findStartup() {
	d.startup = map[*class]bool{}
	d.ctorReach = map[*class]map[*fn]bool{}
	byName := d.classesByName()
	// Node subclasses of node subclasses.
	for changed := true; changed; {
		changed = false
		for _, c := range d.classes {
			if c.isNode {
				continue
			}
			for _, b := range c.bases {
				for _, bc := range byName[b] {
					if bc != c && bc.isNode && bc.lang == c.lang {
						c.isNode = true
						changed = true
					}
				}
			}
		}
	}
	startFns := map[*fn]bool{}
	var queue []*fn
	addFn := func(f *fn) {
		if !startFns[f] {
			startFns[f] = true
			queue = append(queue, f)
		}
	}
	var addClass func(c *class)
	addClass = func(c *class) {
		if d.startup[c] {
			return
		}
		d.startup[c] = true
		for g := range d.reach(c) {
			addFn(g)
		}
		// A member held by value is built with its owner.
		for _, fl := range c.fields {
			if c.lang != langCPP || strings.Contains(fl.typ, "<") || strings.HasSuffix(fl.typ, "Ptr") {
				continue
			}
			for _, fc := range byName[simpleTypeName(fl.typ)] {
				if fc != c && fc.lang == langCPP {
					addClass(fc)
				}
			}
		}
	}
	for _, c := range d.classes {
		if c.isNode {
			addClass(c)
		}
	}
	for _, u := range d.units {
		for _, f := range u.fns {
			if f.outer == nil && !f.ctor && startupEntry(f.name) {
				addFn(f)
			}
		}
	}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		for _, s := range d.instantiations(f) {
			addClass(s.cls)
		}
		// The methods of its own class it calls run then too.
		if f.cls != nil {
			for g := range d.callees(f) {
				addFn(g)
			}
		}
	}
}

// reach returns the methods the constructors of c run: the constructors
// and the methods of c they call by name, transitively.
func (d *dataflow) reach(c *class) map[*fn]bool {
	if got, ok := d.ctorReach[c]; ok {
		return got
	}
	out := map[*fn]bool{}
	var queue []*fn
	for _, g := range c.fns {
		if g.ctor && g.outer == nil {
			out[g] = true
			queue = append(queue, g)
		}
	}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		for g := range d.callees(f) {
			if !out[g] {
				out[g] = true
				queue = append(queue, g)
			}
		}
	}
	d.ctorReach[c] = out
	return out
}

// callees returns the methods of f's class that f calls by name
// (method(), this->method(), self.method()), lambdas' bodies excluded:
// they run later.
func (d *dataflow) callees(f *fn) map[*fn]bool {
	out := map[*fn]bool{}
	if f.cls == nil {
		return out
	}
	visit := func(e *expr) {
		if e.kind != eCall || e.recv == nil {
			return
		}
		name := ""
		switch r := e.recv; {
		case r.kind == eName && f.u.lang == langCPP:
			name = r.name
		case r.kind == eAttr && r.recv != nil && r.recv.kind == eName && r.recv.name == "self":
			name = r.name
		}
		if name == "" {
			return
		}
		for _, g := range f.cls.fns {
			if g.name == name && g != f && g.outer == nil {
				out[g] = true
			}
		}
	}
	eachStmt(f.body, func(s *stmt) {
		for _, e := range []*expr{s.e, s.target, s.value} {
			walkExpr(e, visit)
		}
	})
	return out
}

// startupEntry reports whether a free function or method of this name runs
// while the program starts: main, a Python module's top level, and
// initialisers such as onInitialize, on_init, on_configure, setup.
func startupEntry(name string) bool {
	if name == "main" || name == "<module>" {
		return true
	}
	for _, w := range nameWords(name) {
		switch w {
		case "init", "initialize", "initialise", "configure", "setup":
			return true
		}
	}
	return false
}

// nameWords splits a snake_case or camelCase name into lower-case words.
func nameWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '_' || !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return words
}
