package lint

// The first tick of an integration (R29, elapsed.go): x += v * dt moves
// nothing when v is still 0 then, whatever dt is. A velocity member that
// the constructor sets to 0 and that only a subscription's callback sets
// otherwise has no value yet when the timer first fires after the first
// /clock (no command has arrived), so the inflated first dt multiplies 0.

import (
	"strings"
)

// zeroedStep reports whether every use of the elapsed time in e is
// multiplied by a factor that is 0 at the first tick (zeroAtFirstTick),
// so that e does not depend on the elapsed time then: x + v * cos(yaw) * dt.
// at is the offset of the statement, for assignments made before it.
func (c *checker) zeroedStep(e *expr, uses func(*expr) bool, f *fn, at int) bool {
	if e == nil || !uses(e) {
		return true
	}
	switch e.kind {
	case eBinary:
		switch e.op {
		case "*":
			return c.zeroAtFirstTick(e.l, f, at, 0) || c.zeroAtFirstTick(e.r, f, at, 0) ||
				c.zeroedStep(e.l, uses, f, at) && c.zeroedStep(e.r, uses, f, at)
		case "/":
			return c.zeroAtFirstTick(e.l, f, at, 0) || c.zeroedStep(e.l, uses, f, at) && !uses(e.r)
		case "+", "-":
			return c.zeroedStep(e.l, uses, f, at) && c.zeroedStep(e.r, uses, f, at)
		}
	case eOther:
		if e.n != nil && (e.n.kind == "unary_operator" || e.n.kind == "unary_expression") && len(e.subs) == 1 {
			return c.zeroedStep(e.subs[0], uses, f, at)
		}
	}
	return false
}

// zeroAtFirstTick reports whether e is 0 when a timer first fires after
// the first /clock: a literal 0, a product with such a factor, a local all
// of whose values are, or a member the constructor sets to 0 that nothing
// sets otherwise before then (zeroMember).
func (c *checker) zeroAtFirstTick(e *expr, f *fn, at int, depth int) bool {
	if e == nil || depth > 4 {
		return false
	}
	switch e.kind {
	case eNumber:
		return isZero(e)
	case eBinary:
		switch e.op {
		case "*":
			return c.zeroAtFirstTick(e.l, f, at, depth+1) || c.zeroAtFirstTick(e.r, f, at, depth+1)
		case "/":
			return c.zeroAtFirstTick(e.l, f, at, depth+1)
		case "+", "-":
			return c.zeroAtFirstTick(e.l, f, at, depth+1) && c.zeroAtFirstTick(e.r, f, at, depth+1)
		}
	case eOther:
		if e.n != nil && (e.n.kind == "unary_operator" || e.n.kind == "unary_expression") && len(e.subs) == 1 {
			return c.zeroAtFirstTick(e.subs[0], f, at, depth+1)
		}
	case eCall:
		// float(v), static_cast<double>(v)
		if e.recv != nil && isCastName(e.recv.name) && len(e.args) == 1 {
			return c.zeroAtFirstTick(e.args[0], f, at, depth+1)
		}
	case eName, eAttr:
		p := c.d.path(e, f)
		if m, ok := strings.CutPrefix(p, "self."); ok && !strings.Contains(m, ".") {
			return c.zeroMember(m, f, at, depth)
		}
		if p == "" || p == "self" || strings.Contains(p, ".") {
			return false
		}
		var vals []*expr
		for g := f; g != nil && len(vals) == 0; g = g.outer {
			vals = c.d.localVals[g][p]
		}
		if len(vals) == 0 {
			return false
		}
		for _, v := range vals {
			if !c.zeroAtFirstTick(v, f, at, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// zeroMember reports whether member m of f's class is 0 at the first tick
// of f: the constructor (or a default member initializer) sets it to 0 and
// nothing else that runs by then sets it to anything else. Assignments
// that run by then are those of the constructor and the methods it calls,
// those of f before offset at, and those of the methods f calls. Any
// other assignment must be in a subscription's callback (a message
// arrives after the tick that first sees /clock, or never).
func (c *checker) zeroMember(m string, f *fn, at int, depth int) bool {
	cls := f.cls
	if cls == nil {
		return false
	}
	zero := false
	if fl := cls.fields[m]; fl != nil && fl.init != nil {
		if !c.zeroAtFirstTick(fl.init, f, at, depth+1) && !zeroBraced(fl.init) {
			return false
		}
		zero = true
	}
	reach := c.d.reach(cls)
	calls := c.calledFrom(f)
	for _, a := range c.d.memberVals[cls][m] {
		isZero := c.zeroAtFirstTick(a.value, a.f, at, depth+1)
		switch {
		case reach[a.f] || a.f.ctor || isInitMethod(a.f.name):
			if !isZero {
				return false
			}
			zero = true
		case within(a.f, f):
			if a.value.n != nil && a.value.n.start < at && !isZero {
				return false
			}
		case calls[a.f]:
			if !isZero {
				return false
			}
		case isZero:
		case c.subscriptionCallback(a.f):
		default:
			return false
		}
	}
	return zero && !c.mutatedElsewhere(m, cls)
}

// mutatedElsewhere reports whether a method of cls other than a
// subscription's callback changes member m other than by assignment: an
// increment (++count_) or, in C++, passing it to a call that may take it
// by reference (get_parameter("v", v_)).
func (c *checker) mutatedElsewhere(m string, cls *class) bool {
	found := false
	for _, g := range cls.fns {
		if c.subscriptionCallback(g) {
			continue
		}
		isM := func(x *expr) bool { return x != nil && c.d.rootPath(x, g) == "self."+m }
		eachStmt(g.body, func(s *stmt) {
			for _, e := range []*expr{s.e, s.value} {
				walkExpr(e, func(x *expr) {
					switch {
					case found:
					case x.kind == eOther && x.n != nil && (x.n.kind == "update_expression" || x.n.kind == "augmented_assignment"):
						for _, sub := range x.subs {
							if isM(sub) {
								found = true
							}
						}
					case x.kind == eCall && cls.lang == langCPP && !isLogCall(x):
						for _, a := range x.args {
							if isM(a) {
								found = true
							}
						}
					}
				})
			}
		})
	}
	return found
}

// zeroBraced reports whether a C++ initializer is {0} or {0.0}.
func zeroBraced(e *expr) bool {
	return e != nil && e.kind == eOther && len(e.subs) == 1 && isZero(e.subs[0])
}

// within reports whether g is f or a lambda or nested function inside it.
func within(g, f *fn) bool {
	for ; g != nil; g = g.outer {
		if g == f {
			return true
		}
	}
	return false
}

// calledFrom returns the methods of f's class that f calls, however deep.
func (c *checker) calledFrom(f *fn) map[*fn]bool {
	out := map[*fn]bool{}
	queue := []*fn{f}
	for len(queue) > 0 {
		g := queue[0]
		queue = queue[1:]
		for h := range c.d.callees(g) {
			if !out[h] {
				out[h] = true
				queue = append(queue, h)
			}
		}
	}
	return out
}

// subscriptionCallback reports whether g is a subscription's callback:
// handed to create_subscription (or a message_filters Subscriber) by a
// method of its class or a free function of its file, as handedTo reads a
// registration (self.cb, callback=self.cb, std::bind(&C::cb, this, _1), a
// lambda written in the call).
func (c *checker) subscriptionCallback(g *fn) bool {
	if g.cls == nil {
		return false
	}
	reg, _ := c.handedTo(g, isSubscriptionName)
	return reg
}
