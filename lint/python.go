package lint

import "strings"

// pyFront lowers a tree-sitter-python tree into the IR.
type pyFront struct {
	u *unit
}

func lowerPython(u *unit) {
	p := &pyFront{u: u}
	u.imports = map[string]string{}
	mod := &fn{name: "<module>", u: u, n: u.root, params: map[string]string{}}
	u.fns = append(u.fns, mod)
	mod.body = p.block(u.root, mod, nil)
	pyBesideSimTime(u)
}

// block lowers the statements that are children of n.
func (p *pyFront) block(n *node, f *fn, cls *class) []*stmt {
	var out []*stmt
	for _, c := range n.children {
		out = append(out, p.stmt(c, f, cls)...)
	}
	return out
}

func (p *pyFront) stmt(n *node, f *fn, cls *class) []*stmt {
	u := p.u
	switch n.kind {
	case "comment":
		return nil
	case "import_statement", "import_from_statement":
		p.imports(n)
		if n.parent == u.root {
			end := n.end
			for end < len(u.src) && u.src[end] != '\n' {
				end++
			}
			if end < len(u.src) {
				end++
			}
			u.lastImportEnd = end
			imp := pyImport{from: n.kind == "import_from_statement", start: n.start, end: end}
			if imp.from {
				imp.module = u.text(n.child("module_name"))
			} else if names := n.childrenField("name"); len(names) > 0 {
				imp.module = u.text(names[0])
				if a := names[0].child("name"); names[0].kind == "aliased_import" && a != nil {
					imp.module = u.text(a)
				}
			}
			u.topImports = append(u.topImports, imp)
		}
		return nil
	case "class_definition":
		p.class(n, f)
		return nil
	case "function_definition":
		p.function(n, f, cls)
		return nil
	case "decorated_definition":
		if d := n.child("definition"); d != nil {
			return p.stmt(d, f, cls)
		}
		return nil
	case "expression_statement":
		var out []*stmt
		for _, c := range n.children {
			if c.kind == "comment" {
				continue
			}
			out = append(out, p.exprStmt(c, f)...)
		}
		return out
	case "if_statement":
		return []*stmt{p.ifStmt(n, f, cls)}
	case "return_statement", "raise_statement", "continue_statement", "break_statement":
		s := &stmt{kind: sExit, n: n}
		if len(n.children) > 0 {
			s.e = p.expr(n.children[0], f)
		}
		return []*stmt{s}
	case "for_statement", "while_statement", "try_statement", "with_statement",
		"except_clause", "else_clause", "finally_clause", "block", "match_statement",
		"case_clause", "except_group_clause":
		s := &stmt{kind: sBlock, n: n}
		for _, c := range n.children {
			switch c.kind {
			case "block", "except_clause", "else_clause", "finally_clause", "case_clause",
				"except_group_clause":
				if c.kind == "block" {
					s.body = append(s.body, p.block(c, f, cls)...)
				} else {
					s.body = append(s.body, p.stmt(c, f, cls)...)
				}
			case "comment":
			default:
				if c.field == "body" || c.field == "consequence" {
					s.body = append(s.body, p.block(c, f, cls)...)
				} else {
					s.body = append(s.body, &stmt{kind: sExpr, n: c, e: p.expr(c, f)})
				}
			}
		}
		return []*stmt{s}
	case "pass_statement", "global_statement", "nonlocal_statement", "future_import_statement":
		return nil
	}
	return []*stmt{{kind: sExpr, n: n, e: p.expr(n, f)}}
}

func (p *pyFront) exprStmt(n *node, f *fn) []*stmt {
	switch n.kind {
	case "assignment":
		left, right := n.child("left"), n.child("right")
		var typ string
		if t := n.child("type"); t != nil {
			typ = p.u.text(t)
		}
		if right == nil {
			return nil
		}
		if right.kind == "assignment" { // a = b = value
			inner := p.exprStmt(right, f)
			if len(inner) > 0 && inner[len(inner)-1].kind == sAssign {
				v := inner[len(inner)-1].value
				return append(inner, &stmt{kind: sAssign, n: n, target: p.expr(left, f), value: v, typ: typ})
			}
			return inner
		}
		return []*stmt{{kind: sAssign, n: n, target: p.expr(left, f), value: p.expr(right, f), typ: typ}}
	case "augmented_assignment":
		left := p.expr(n.child("left"), f)
		right := p.expr(n.child("right"), f)
		if op := p.u.text(n.child("operator")); op == "-=" || op == "+=" {
			// t -= W stores t - W: lowered so, the window checks see it.
			return []*stmt{{kind: sAssign, n: n, target: left, value: &expr{kind: eBinary, n: n, op: op[:1], l: left, r: right}}}
		}
		return []*stmt{{kind: sExpr, n: n, e: &expr{kind: eOther, n: n, subs: []*expr{left, right}}}}
	}
	return []*stmt{{kind: sExpr, n: n, e: p.expr(n, f)}}
}

func (p *pyFront) ifStmt(n *node, f *fn, cls *class) *stmt {
	s := &stmt{kind: sIf, n: n, e: p.expr(n.child("condition"), f)}
	s.then = p.block(n.child("consequence"), f, cls)
	// Alternatives chain: elif clauses become nested ifs in the else branch.
	tail := &s.els
	for _, alt := range n.childrenField("alternative") {
		switch alt.kind {
		case "elif_clause":
			e := &stmt{kind: sIf, n: alt, e: p.expr(alt.child("condition"), f)}
			e.then = p.block(alt.child("consequence"), f, cls)
			*tail = []*stmt{e}
			tail = &e.els
		case "else_clause":
			*tail = p.block(alt.child("body"), f, cls)
		}
	}
	return s
}

func (p *pyFront) class(n *node, outer *fn) {
	u := p.u
	c := &class{name: u.text(n.child("name")), lang: langPython, fields: map[string]*field{}}
	if sup := n.child("superclasses"); sup != nil {
		for _, b := range sup.children {
			q := p.qualify(b)
			last := q[strings.LastIndexByte(q, '.')+1:]
			if last == "Node" || last == "LifecycleNode" {
				c.isNode = true
			}
			if last != "" {
				c.bases = append(c.bases, last)
			}
		}
	}
	u.classes = append(u.classes, c)
	if body := n.child("body"); body != nil {
		for _, s := range body.children {
			switch s.kind {
			case "function_definition":
				p.function(s, outer, c)
			case "decorated_definition":
				if d := s.child("definition"); d != nil && d.kind == "function_definition" {
					p.function(d, outer, c)
				}
			case "comment":
			default:
				// Class-level statements (constants, nested classes) run at
				// import time; lower them into the enclosing function.
				if outer != nil {
					outer.body = append(outer.body, p.stmt(s, outer, nil)...)
				}
			}
		}
	}
}

func (p *pyFront) function(n *node, outer *fn, cls *class) {
	u := p.u
	f := &fn{name: u.text(n.child("name")), cls: cls, u: u, n: n, params: map[string]string{}}
	if outer != nil && outer.name != "<module>" {
		f.outer = outer
	}
	f.ctor = cls != nil && f.name == "__init__"
	if ps := n.child("parameters"); ps != nil {
		for _, prm := range ps.children {
			switch prm.kind {
			case "identifier":
				f.params[u.text(prm)] = ""
				f.paramOrder = append(f.paramOrder, u.text(prm))
			case "typed_parameter", "typed_default_parameter", "default_parameter":
				name := prm.child("name")
				if name == nil {
					name = prm.firstKind("identifier")
				}
				typ := ""
				if t := prm.child("type"); t != nil {
					typ = p.qualify(t)
				}
				if name != nil {
					f.params[u.text(name)] = typ
					f.paramOrder = append(f.paramOrder, u.text(name))
				}
			}
		}
	}
	u.fns = append(u.fns, f)
	f.body = p.block(n.child("body"), f, cls)
}

// imports records the names an import statement binds.
func (p *pyFront) imports(n *node) {
	u := p.u
	if n.kind == "import_statement" {
		for _, c := range n.childrenField("name") {
			switch c.kind {
			case "dotted_name":
				full := u.text(c)
				first := full
				if i := strings.IndexByte(full, '.'); i >= 0 {
					first = full[:i]
				}
				u.imports[first] = first
			case "aliased_import":
				u.imports[u.text(c.child("alias"))] = u.text(c.child("name"))
			}
		}
		return
	}
	mod := u.text(n.child("module_name"))
	for _, c := range n.childrenField("name") {
		switch c.kind {
		case "dotted_name":
			u.imports[u.text(c)] = mod + "." + u.text(c)
		case "aliased_import":
			u.imports[u.text(c.child("alias"))] = mod + "." + u.text(c.child("name"))
		}
	}
}

// qualify returns the dotted name an expression such as rclpy.time.Time or
// an imported alias refers to, resolved through the file's imports; "" when
// it is not a plain dotted name.
func (p *pyFront) qualify(n *node) string {
	switch n.kind {
	case "identifier":
		name := p.u.text(n)
		if q, ok := p.u.imports[name]; ok {
			return q
		}
		return name
	case "attribute":
		obj := p.qualify(n.child("object"))
		if obj == "" {
			return ""
		}
		return obj + "." + p.u.text(n.child("attribute"))
	case "generic_type", "type":
		if len(n.children) > 0 {
			return p.qualify(n.children[0])
		}
	}
	return ""
}

func (p *pyFront) expr(n *node, f *fn) *expr {
	if n == nil {
		return &expr{kind: eOther}
	}
	u := p.u
	switch n.kind {
	case "identifier":
		return &expr{kind: eName, n: n, name: u.text(n)}
	case "attribute":
		return &expr{kind: eAttr, n: n, name: u.text(n.child("attribute")), recv: p.expr(n.child("object"), f)}
	case "call":
		e := &expr{kind: eCall, n: n, recv: p.expr(n.child("function"), f)}
		args := n.child("arguments")
		e.argList = args
		if args != nil {
			for _, a := range args.children {
				switch a.kind {
				case "keyword_argument":
					e.kwargs = append(e.kwargs, kwarg{name: u.text(a.child("name")), value: p.expr(a.child("value"), f)})
				case "list_splat", "dictionary_splat":
					e.splat = true
					e.subs = append(e.subs, p.expr(a, f))
				case "comment":
				default:
					e.args = append(e.args, p.expr(a, f))
				}
			}
		}
		return e
	case "binary_operator":
		return &expr{kind: eBinary, n: n, op: u.text(n.child("operator")), l: p.expr(n.child("left"), f), r: p.expr(n.child("right"), f)}
	case "comparison_operator":
		var operands []*node
		var ops []string
		for _, c := range n.children {
			if c.field == "operators" {
				ops = append(ops, u.text(c))
			} else if c.kind != "comment" {
				operands = append(operands, c)
			}
		}
		if len(operands) != len(ops)+1 || len(ops) == 0 {
			return p.other(n, f)
		}
		var out *expr
		prev := p.expr(operands[0], f)
		for i, op := range ops {
			next := p.expr(operands[i+1], f)
			cmp := &expr{kind: eCompare, n: n, op: op, l: prev, r: next}
			if out == nil {
				out = cmp
			} else {
				out = &expr{kind: eAnd, n: n, l: out, r: cmp}
			}
			prev = next
		}
		return out
	case "boolean_operator":
		k := eAnd
		if u.text(n.child("operator")) == "or" {
			k = eOr
		}
		return &expr{kind: k, n: n, l: p.expr(n.child("left"), f), r: p.expr(n.child("right"), f)}
	case "not_operator":
		return &expr{kind: eNot, n: n, l: p.expr(n.child("argument"), f)}
	case "parenthesized_expression", "await":
		for _, c := range n.children {
			if c.kind != "comment" {
				return p.expr(c, f)
			}
		}
	case "integer", "float":
		return &expr{kind: eNumber, n: n}
	case "list", "tuple", "set", "dictionary", "expression_list":
		// A table of numbers (generated data, calibration arrays) is
		// nothing the checks read: one expression for all of it keeps
		// memory proportional to code, not to data.
		if numbersOnly(n) {
			return &expr{kind: eOther, n: n}
		}
	case "subscript":
		// x['key'] reads like an attribute x.key, so dict-based records
		// flow like objects.
		idx := n.child("subscript")
		if idx != nil && idx.kind == "string" {
			key := p.expr(idx, f)
			if key.content != nil && len(key.subs) == 0 {
				return &expr{kind: eAttr, n: n, name: key.name, recv: p.expr(n.child("value"), f), subs: []*expr{key}}
			}
		}
	case "pair":
		// A dict entry 'key': value; name holds the key when it is a plain string.
		e := p.other(n, f)
		if k := n.child("key"); k != nil && k.kind == "string" && len(e.subs) == 2 && e.subs[0].content != nil {
			e.name = e.subs[0].name
		}
		return e
	case "string":
		e := &expr{kind: eString, n: n}
		var sb strings.Builder
		for _, c := range n.children {
			switch c.kind {
			case "string_content":
				sb.WriteString(u.text(c))
				if e.content == nil {
					e.content = c
				} else {
					e.content = nil // interpolated: no single content node
				}
			case "interpolation":
				e.subs = append(e.subs, p.other(c, f))
			}
		}
		e.name = sb.String()
		u.strings = append(u.strings, e)
		return e
	case "concatenated_string":
		return p.other(n, f)
	case "conditional_expression":
		e := p.other(n, f)
		e.kind = eCond
		if len(e.subs) == 3 { // body if cond else alternative
			e.subs = []*expr{e.subs[0], e.subs[2], e.subs[1]}
		}
		return e
	case "lambda":
		lf := &fn{name: "<lambda>", cls: f.cls, outer: f, u: u, n: n, params: map[string]string{}}
		if ps := n.child("parameters"); ps != nil {
			for _, prm := range ps.children {
				if prm.kind == "identifier" {
					lf.params[u.text(prm)] = ""
				}
			}
		}
		body := n.child("body")
		lf.body = []*stmt{{kind: sExit, n: body, e: p.expr(body, lf)}}
		u.fns = append(u.fns, lf)
		return &expr{kind: eOther, n: n}
	case "comment":
		return &expr{kind: eOther, n: n}
	}
	return p.other(n, f)
}

// numbersOnly reports whether a literal collection holds nothing but
// numbers (signed or not) and collections of numbers.
func numbersOnly(n *node) bool {
	for _, c := range n.children {
		switch c.kind {
		case "integer", "float", "comment":
		case "unary_operator", "list", "tuple", "set", "dictionary", "pair", "expression_list", "parenthesized_expression", "unary_expression", "initializer_list", "number_literal":
			if !numbersOnly(c) {
				return false
			}
		default:
			if c.field != "operator" {
				return false
			}
		}
	}
	return true
}

// other lowers an expression the checks do not model, keeping its
// subexpressions so that nothing inside is missed.
func (p *pyFront) other(n *node, f *fn) *expr {
	e := &expr{kind: eOther, n: n}
	for _, c := range n.children {
		if c.kind == "comment" {
			continue
		}
		if c.field == "operator" || c.field == "operators" {
			continue
		}
		e.subs = append(e.subs, p.expr(c, f))
	}
	return e
}
