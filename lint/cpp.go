package lint

import "strings"

// cppFront lowers a tree-sitter-cpp tree into the IR.
type cppFront struct {
	u *unit
	// classes resolves a class name to its definition, shared across the
	// files of one run so that a method defined in a .cpp file sees the
	// members declared in its header.
	classes *classTable
}

// chronoSuffixes are the std::chrono_literals suffixes.
var chronoSuffixes = map[string]bool{"h": true, "min": true, "s": true, "ms": true, "us": true, "ns": true}

func lowerCPP(u *unit, ct *classTable) {
	c := &cppFront{u: u, classes: ct}
	mod := &fn{name: "<file>", u: u, n: u.root, params: map[string]string{}}
	u.fns = append(u.fns, mod)
	c.top(u.root, nil)
}

// top walks declarations outside function bodies looking for classes,
// function definitions and comments.
func (c *cppFront) top(n *node, cls *class) {
	for _, ch := range n.children {
		switch ch.kind {
		case "comment":
		case "class_specifier", "struct_specifier":
			c.class(ch)
		case "function_definition":
			c.function(ch, cls)
		case "field_declaration":
			if cls != nil {
				c.field(ch, cls)
			}
			c.top(ch, cls) // nested class specifiers
		case "string_literal", "raw_string_literal":
			c.expr(ch, nil)
		case "compound_statement":
			// stray block outside a function: ignore its statements
		default:
			c.top(ch, cls)
		}
	}
}

func (c *cppFront) class(n *node) {
	nameNode := n.child("name")
	if nameNode == nil {
		c.top(n.child("body"), nil)
		return
	}
	var cls *class
	if n.child("body") != nil && isCPPSource(c.u.path) {
		// Defined in a source file: this file's own class (another
		// file's same-named class is another one).
		cls = c.classes.local(c.u.path, c.u.text(nameNode))
	} else {
		cls = c.classes.get(c.u.text(nameNode))
	}
	c.u.classes = append(c.u.classes, cls)
	for _, ch := range n.children {
		if ch.kind == "base_class_clause" {
			for _, b := range ch.children {
				if b.kind == "access_specifier" || b.kind == "comment" {
					continue
				}
				t := normType(c.u.text(b))
				if isNodeType(t) {
					cls.isNode = true
				}
				cls.bases = append(cls.bases, simpleTypeName(t))
				cls.baseTypes = append(cls.baseTypes, t)
			}
		}
	}
	if body := n.child("body"); body != nil {
		// Members declared below the constructor that initialises them are
		// known to it: record their names and types first.
		for _, ch := range body.children {
			if ch.kind != "field_declaration" {
				continue
			}
			typ := normType(c.u.text(ch.child("type")))
			for _, d := range ch.childrenField("declarator") {
				if name := c.u.text(d); d.kind == "field_identifier" && cls.fields[name] == nil {
					cls.fields[name] = &field{name: name, typ: typ, n: d, decl: ch, file: c.u}
				}
			}
		}
		c.top(body, cls)
	}
}

// isNodeType reports whether a normalised type name is a ROS 2 node.
func isNodeType(t string) bool {
	t = strings.TrimSuffix(t, ">")
	if i := strings.IndexByte(t, '<'); i >= 0 {
		t = t[:i]
	}
	last := t[strings.LastIndexByte(t, '.')+1:]
	return last == "Node" || last == "LifecycleNode"
}

// simpleTypeName is the last component of a normalised type name, without
// template arguments: ns.Base<int> is Base.
func simpleTypeName(t string) string {
	if i := strings.IndexByte(t, '<'); i >= 0 {
		t = t[:i]
	}
	return t[strings.LastIndexByte(t, '.')+1:]
}

// normType normalises a C++ type or qualified name: no spaces, "::" as ".",
// no leading scope, no const or reference.
func normType(s string) string {
	s = strings.ReplaceAll(s, "::", ".")
	s = strings.TrimPrefix(s, ".")
	s = strings.TrimPrefix(s, "const ")
	s = strings.Join(strings.Fields(s), "")
	s = strings.TrimRight(s, "&*")
	s = strings.TrimSuffix(s, "const")
	return s
}

func (c *cppFront) field(n *node, cls *class) {
	typ := normType(c.u.text(n.child("type")))
	var f *field
	for _, ch := range n.children {
		switch {
		case ch.field == "declarator":
			f = nil
			if ch.kind != "field_identifier" {
				continue // methods, pointers, arrays
			}
			f = &field{name: c.u.text(ch), typ: typ, n: ch, decl: n, file: c.u}
			cls.fields[f.name] = f
		case ch.field == "default_value" && f != nil:
			// double x_{0.0}, v_{1.0}: each declarator's own initializer
			f.init = c.construct(typ, ch, nil)
			if isTimeType(typ) && !constructs(f.init, typ) {
				// rclcpp::Time t_ = now(); copy-initialises the member from
				// the value, as t_{now()} does: read both as a construction
				// of the type from it (a default member initialiser written
				// "= now()" is not a default-constructed SYSTEM_TIME 0).
				// "= rclcpp::Time(0, 0, RCL_SYSTEM_TIME)" is that
				// construction already.
				f.init = &expr{kind: eCall, n: ch, recv: &expr{kind: eName, n: ch, name: typ}, args: []*expr{f.init}}
			}
		}
	}
}

// constructs reports whether e is a construction of type typ: typ(...),
// {...} lowered by construct, or the type's unqualified name (Time(...)
// after using rclcpp::Time).
func constructs(e *expr, typ string) bool {
	return e.kind == eCall && e.recv != nil && e.recv.kind == eName &&
		(e.recv.name == typ || e.recv.name == simpleTypeName(typ))
}

// construct lowers an initializer of a value of type typ: "= v", "(a, b)"
// or "{a, b}". Argument lists become a call of the type, so rclcpp::Time
// t(0, 0, RCL_ROS_TIME) reads like rclcpp::Time(0, 0, RCL_ROS_TIME).
func (c *cppFront) construct(typ string, n *node, f *fn) *expr {
	switch n.kind {
	case "argument_list", "initializer_list":
		e := &expr{kind: eCall, n: n, recv: &expr{kind: eName, n: n, name: typ}, argList: n}
		for _, a := range n.children {
			if a.kind != "comment" {
				e.args = append(e.args, c.expr(a, f))
			}
		}
		return e
	}
	return c.expr(n, f)
}

// innerDeclarator returns the declarator a pointer or reference declarator
// wraps: the "declarator" field, or (a reference declarator has none) the
// first child that is a declarator.
func innerDeclarator(n *node) *node {
	if d := n.child("declarator"); d != nil {
		return d
	}
	for _, c := range n.children {
		if strings.HasSuffix(c.kind, "declarator") {
			return c
		}
	}
	return nil
}

// declName finds the identifier a declarator declares.
func (c *cppFront) declName(n *node) *node {
	for n != nil {
		switch n.kind {
		case "identifier", "field_identifier", "qualified_identifier", "destructor_name", "operator_name":
			return n
		}
		next := n.child("declarator")
		if next == nil {
			next = n.firstKind("identifier")
		}
		n = next
	}
	return nil
}

func (c *cppFront) function(n *node, cls *class) {
	u := c.u
	fd := n.child("declarator")
	for fd != nil && fd.kind != "function_declarator" {
		fd = innerDeclarator(fd)
	}
	if fd == nil {
		return
	}
	nameNode := c.declName(fd.child("declarator"))
	if nameNode == nil {
		return
	}
	name := u.text(nameNode)
	if nameNode.kind == "qualified_identifier" {
		q := normType(name)
		parts := strings.Split(q, ".")
		name = parts[len(parts)-1]
		if len(parts) >= 2 {
			cls = c.classes.of(u.path, parts[len(parts)-2])
		}
	}
	f := &fn{name: name, cls: cls, u: u, n: n, params: map[string]string{}}
	f.ctor = cls != nil && name == cls.name
	if ps := fd.child("parameters"); ps != nil {
		for _, prm := range ps.children {
			if prm.kind != "parameter_declaration" && prm.kind != "optional_parameter_declaration" {
				continue
			}
			if id := c.declName(prm.child("declarator")); id != nil {
				f.params[u.text(id)] = normType(u.text(prm.child("type")))
				f.paramOrder = append(f.paramOrder, u.text(id))
				if d := prm.child("declarator"); d != nil && d.kind == "reference_declarator" &&
					!strings.Contains(u.text(prm), "const") {
					if f.outParams == nil {
						f.outParams = map[string]bool{}
					}
					f.outParams[u.text(id)] = true
				}
			}
		}
	}
	u.fns = append(u.fns, f)
	// Constructor initializer list: base Node(...) marks a node class;
	// member(args) is an assignment that runs in the constructor.
	if fil := n.firstKind("field_initializer_list"); fil != nil {
		for _, fi := range fil.children {
			if fi.kind == "comment" {
				continue
			}
			if fi.kind != "field_initializer" || len(fi.children) < 2 {
				continue
			}
			target, args := fi.children[0], fi.children[len(fi.children)-1]
			tname := normType(u.text(target))
			if isNodeType(tname) && cls != nil {
				cls.isNode = true
			}
			if target.kind != "field_identifier" || isNodeType(tname) {
				// A base class's arguments run in the constructor too:
				// Node("name", NodeOptions().parameter_overrides(...)).
				f.body = append(f.body, &stmt{kind: sExpr, n: fi, e: c.expr(args, f)})
				continue
			}
			var value *expr
			typ := ""
			if cls != nil && cls.fields[tname] != nil {
				typ = cls.fields[tname].typ
			}
			if len(args.children) == 1 && typ == "" {
				value = c.expr(args.children[0], f)
			} else if len(args.children) == 1 && args.kind == "argument_list" && !strings.HasPrefix(typ, "rclcpp.Time") {
				value = c.expr(args.children[0], f)
			} else {
				value = c.construct(typ, args, f)
			}
			f.body = append(f.body, &stmt{kind: sAssign, n: fi,
				target: &expr{kind: eAttr, n: target, name: tname, recv: &expr{kind: eName, name: "self"}},
				value:  value})
		}
	}
	if body := n.child("body"); body != nil {
		f.body = append(f.body, c.block(body, f)...)
	}
}

func (c *cppFront) block(n *node, f *fn) []*stmt {
	if n == nil {
		return nil
	}
	if n.kind != "compound_statement" {
		return c.stmt(n, f)
	}
	var out []*stmt
	for _, ch := range n.children {
		out = append(out, c.stmt(ch, f)...)
	}
	return out
}

func (c *cppFront) stmt(n *node, f *fn) []*stmt {
	u := c.u
	switch n.kind {
	case "comment":
		return nil
	case "compound_statement":
		return []*stmt{{kind: sBlock, n: n, body: c.block(n, f)}}
	case "declaration":
		typ := normType(u.text(n.child("type")))
		if typ == "auto" {
			typ = ""
		}
		var out []*stmt
		for _, d := range n.childrenField("declarator") {
			s := &stmt{kind: sAssign, n: n, typ: typ, decl: true}
			switch d.kind {
			case "init_declarator":
				id := c.declName(d.child("declarator"))
				if id == nil {
					continue
				}
				s.target = &expr{kind: eName, n: id, name: u.text(id)}
				if v := d.child("value"); v != nil {
					s.value = c.construct(typ, v, f)
				} else if len(d.children) > 1 {
					s.value = c.construct(typ, d.children[len(d.children)-1], f)
				}
			case "function_declarator":
				// rclcpp::Clock clock(RCL_ROS_TIME); inside a body is a
				// variable with constructor arguments, whatever the
				// grammar's most vexing parse says.
				id := c.declName(d)
				if id == nil {
					continue
				}
				s.target = &expr{kind: eName, n: id, name: u.text(id)}
				if ps := d.child("parameters"); ps != nil && len(ps.children) > 0 {
					call := &expr{kind: eCall, n: ps, recv: &expr{kind: eName, n: ps, name: typ}, argList: ps}
					for _, p := range ps.children {
						if p.kind != "comment" {
							call.args = append(call.args, &expr{kind: eName, n: p, name: u.text(p)})
						}
					}
					s.value = call
				}
			default:
				id := c.declName(d)
				if id == nil {
					continue
				}
				s.target = &expr{kind: eName, n: id, name: u.text(id)}
			}
			out = append(out, s)
		}
		return out
	case "expression_statement":
		var out []*stmt
		for _, ch := range n.children {
			if ch.kind == "comment" {
				continue
			}
			if ch.kind == "assignment_expression" {
				switch op := u.text(ch.child("operator")); op {
				case "=":
					out = append(out, &stmt{kind: sAssign, n: ch, target: c.expr(ch.child("left"), f), value: c.expr(ch.child("right"), f)})
					continue
				case "-=", "+=":
					// t -= W stores t - W: lowered so, the window checks see it.
					left := c.expr(ch.child("left"), f)
					value := &expr{kind: eBinary, n: ch, op: op[:1], l: left, r: c.expr(ch.child("right"), f)}
					out = append(out, &stmt{kind: sAssign, n: ch, target: left, value: value})
					continue
				}
			}
			if ch.kind == "update_expression" {
				// count_++ assigns count_: it is state (see stateMember).
				arg := c.expr(ch.child("argument"), f)
				out = append(out, &stmt{kind: sAssign, n: ch, target: arg, value: &expr{kind: eOther, n: ch, subs: []*expr{arg}}})
				continue
			}
			out = append(out, &stmt{kind: sExpr, n: ch, e: c.expr(ch, f)})
		}
		return out
	case "if_statement":
		s := &stmt{kind: sIf, n: n}
		if cc := n.child("condition"); cc != nil {
			var pre []*stmt
			if init := cc.child("initializer"); init != nil {
				pre = c.stmt(init, f)
			}
			if v := cc.child("value"); v != nil {
				s.e = c.expr(v, f)
			} else {
				s.e = c.expr(cc, f)
			}
			s.then = c.block(n.child("consequence"), f)
			if alt := n.child("alternative"); alt != nil {
				for _, ch := range alt.children {
					s.els = append(s.els, c.stmt(ch, f)...)
				}
			}
			return append(pre, s)
		}
		return nil
	case "return_statement", "throw_statement", "break_statement", "continue_statement", "co_return_statement":
		s := &stmt{kind: sExit, n: n}
		for _, ch := range n.children {
			if ch.kind != "comment" {
				s.e = c.expr(ch, f)
				break
			}
		}
		return []*stmt{s}
	case "for_statement", "for_range_loop", "while_statement", "do_statement", "try_statement",
		"switch_statement", "case_statement", "catch_clause", "labeled_statement":
		s := &stmt{kind: sBlock, n: n}
		var update []*stmt
		for _, ch := range n.children {
			switch {
			case ch.kind == "comment":
			case n.kind == "for_statement" && (ch.field == "initializer" || ch.field == "update") && !strings.HasSuffix(ch.kind, "_statement") && ch.kind != "declaration":
				// for (t = now(); ...; t = t + p): the initialiser and the
				// update are expression statements (assignments the
				// dataflow sees); the update runs after the body, so it
				// comes after it.
				st := c.stmt(&node{kind: "expression_statement", children: []*node{ch}, start: ch.start, end: ch.end}, f)
				if ch.field == "update" {
					update = append(update, st...)
				} else {
					s.body = append(s.body, st...)
				}
			case ch.kind == "compound_statement" || ch.field == "body" || ch.kind == "catch_clause" || ch.kind == "case_statement":
				s.body = append(s.body, c.stmt(ch, f)...)
			case strings.HasSuffix(ch.kind, "_statement") || ch.kind == "declaration":
				s.body = append(s.body, c.stmt(ch, f)...)
			default:
				s.body = append(s.body, &stmt{kind: sExpr, n: ch, e: c.expr(ch, f)})
			}
		}
		s.body = append(s.body, update...)
		return []*stmt{s}
	case "function_definition", "class_specifier", "struct_specifier":
		c.top(&node{children: []*node{n}}, f.cls)
		return nil
	}
	return []*stmt{{kind: sExpr, n: n, e: c.expr(n, f)}}
}

var cppCompare = map[string]bool{"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true}

func (c *cppFront) expr(n *node, f *fn) *expr {
	if n == nil {
		return &expr{kind: eOther}
	}
	u := c.u
	switch n.kind {
	case "identifier", "namespace_identifier", "type_identifier", "field_identifier":
		return &expr{kind: eName, n: n, name: u.text(n)}
	case "this":
		return &expr{kind: eName, n: n, name: "self"}
	case "qualified_identifier":
		return &expr{kind: eName, n: n, name: normType(u.text(n))}
	case "template_function":
		e := &expr{kind: eName, n: n, name: normType(u.text(n.child("name")))}
		if a := n.child("arguments"); a != nil {
			e.name += "<" + normType(strings.Trim(u.text(a), "<>")) + ">"
		}
		return e
	case "field_expression":
		return &expr{kind: eAttr, n: n, name: u.text(n.child("field")), recv: c.expr(n.child("argument"), f)}
	case "call_expression":
		e := &expr{kind: eCall, n: n, recv: c.expr(n.child("function"), f)}
		args := n.child("arguments")
		e.argList = args
		if args != nil {
			for _, a := range args.children {
				if a.kind == "comment" {
					continue
				}
				e.args = append(e.args, c.expr(a, f))
			}
		}
		return e
	case "new_expression":
		// new ns::X(args) constructs an X, like a call of the type.
		if t := n.child("type"); t != nil {
			e := &expr{kind: eCall, n: n, recv: &expr{kind: eName, n: t, name: normType(u.text(t))}}
			if args := n.child("arguments"); args != nil {
				e.argList = args
				for _, a := range args.children {
					if a.kind != "comment" {
						e.args = append(e.args, c.expr(a, f))
					}
				}
			}
			return e
		}
	case "compound_literal_expression":
		typ := normType(u.text(n.child("type")))
		if v := n.child("value"); v != nil {
			return c.construct(typ, v, f)
		}
	case "binary_expression":
		op := u.text(n.child("operator"))
		l, r := c.expr(n.child("left"), f), c.expr(n.child("right"), f)
		switch {
		case op == "&&" || op == "and":
			return &expr{kind: eAnd, n: n, l: l, r: r}
		case op == "||" || op == "or":
			return &expr{kind: eOr, n: n, l: l, r: r}
		case cppCompare[op]:
			return &expr{kind: eCompare, n: n, op: op, l: l, r: r}
		}
		return &expr{kind: eBinary, n: n, op: op, l: l, r: r}
	case "unary_expression":
		op := u.text(n.child("operator"))
		if op == "!" || op == "not" {
			return &expr{kind: eNot, n: n, l: c.expr(n.child("argument"), f)}
		}
	case "parenthesized_expression":
		for _, ch := range n.children {
			if ch.kind != "comment" {
				return c.expr(ch, f)
			}
		}
	case "number_literal":
		return &expr{kind: eNumber, n: n}
	case "initializer_list":
		// A table of numbers (a generated lookup table): one expression.
		if numbersOnly(n) {
			return &expr{kind: eOther, n: n}
		}
	case "user_defined_literal":
		if s := n.firstKind("literal_suffix"); s != nil && chronoSuffixes[u.text(s)] {
			return &expr{kind: eChrono, n: n}
		}
		return &expr{kind: eOther, n: n}
	case "string_literal", "raw_string_literal":
		e := &expr{kind: eString, n: n}
		for _, ch := range n.children {
			if ch.kind == "string_content" || ch.kind == "raw_string_content" {
				e.name += u.text(ch)
				if e.content == nil {
					e.content = ch
				}
			}
		}
		u.strings = append(u.strings, e)
		return e
	case "conditional_expression":
		return &expr{kind: eCond, n: n, subs: []*expr{
			c.expr(n.child("consequence"), f), c.expr(n.child("alternative"), f), c.expr(n.child("condition"), f)}}
	case "lambda_expression":
		lf := &fn{name: "<lambda>", u: u, n: n, outer: f, params: map[string]string{}}
		if f != nil {
			lf.cls = f.cls
		}
		if d := n.child("declarator"); d != nil {
			if ps := d.child("parameters"); ps != nil {
				for _, prm := range ps.children {
					if id := c.declName(prm.child("declarator")); id != nil {
						lf.params[u.text(id)] = normType(u.text(prm.child("type")))
					}
				}
			}
		}
		u.fns = append(u.fns, lf)
		lf.body = c.block(n.child("body"), lf)
		return &expr{kind: eOther, n: n}
	case "comment":
		return &expr{kind: eOther, n: n}
	}
	e := &expr{kind: eOther, n: n}
	for _, ch := range n.children {
		if ch.kind == "comment" {
			continue
		}
		if ch.field == "operator" {
			continue
		}
		e.subs = append(e.subs, c.expr(ch, f))
	}
	return e
}
