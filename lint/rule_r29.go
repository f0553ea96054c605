package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/simclock/simclock/rules"
)

func init() {
	register(Rule{
		ID:       rules.R29,
		Name:     "constructor-baseline",
		Summary:  "baseline taken from now() in a constructor, used in now() - prev without a prev <= 0 guard",
		Severity: rules.Info,
		Fix:      "skip the update while prev <= 0 or now <= 0, then move the baseline to now",
		Help: "A baseline stored in the constructor, before the first /clock, is 0 under sim time, so the first dt is the " +
			"whole first /clock value (125 s instead of 0.5 s): it is positive, passes a dt < 0 check, and inflates " +
			"integrals or deflates finite-difference rates. Skip the update while prev <= 0 or now <= 0, then move the baseline to now.",
		SimTimeOnly: true,
		detector:    detector{expr: detectR29},
	})
}

// detectR29 reports now - prev where prev was taken from now() by a
// constructor that runs before the first /clock (startup.go), and no
// assignment on the way from there to the subtraction moves it. What is
// reported depends on how the elapsed time is used (elapsedUse): a dt in
// arithmetic, the hazard itself, and a timeout whose effect the analysis
// cannot judge are reported, always at info (r29Info); throttles,
// harmless watchdogs and dt values bounded from above are not reported.
func detectR29(c *checker, e *expr, f *fn, conds []cond) {
	if e.kind != eBinary || e.op != "-" || f.ctor {
		return
	}
	l, r := c.d.facts(e.l, f), c.d.facts(e.r, f)
	if l&fNow == 0 || r&fCtorNow == 0 {
		return
	}
	// The current time is a now() call or a local; a member on the left
	// (end_stamp_ - start_stamp_) is a difference of two stored stamps.
	if strings.HasPrefix(c.d.path(e.l, f), "self.") {
		return
	}
	prev := c.d.path(e.r, f)
	if prev == "" {
		return
	}
	set := map[string]bool{prev: true}
	for _, ce := range c.allIfConds(f) {
		if !containsExpr(ce, e) && c.mentions(ce, set, f, false) {
			return // some check looks at the baseline
		}
	}
	if c.stateGuarded(e, prev, f, conds) || c.pairedGate(e, prev, f) || c.resetBefore(e, prev, f) || !c.once(f, prev) {
		return
	}
	for _, cd := range conds {
		if c.readsMember(cd.e, f) {
			return // behind a state (if (initial_count_ > SKIP) ...): usually set by then
		}
	}
	use := c.elapsedUse(e, prev, f)
	if use < elapsedUnknown {
		return
	}
	u := f.u
	// Does the function check dt < 0 on a value computed from this
	// subtraction? Then say so: that check does not catch R29.
	dtCheck := false
	dts := map[string]bool{}
	for g := f; g != nil; g = g.outer {
		for name, vals := range c.d.localVals[g] {
			for _, v := range vals {
				if containsExpr(v, e) {
					dts[name] = true
				}
			}
		}
	}
	if len(dts) > 0 {
		for _, ce := range c.allIfConds(f) {
			if c.mentions(ce, dts, f, false) {
				dtCheck = true
			}
		}
	}
	base := strings.TrimPrefix(prev, "self.")
	msg := fmt.Sprintf("baseline %s is taken from now() in the constructor (0 before the first /clock) and \"%s\" does not guard against it", base, e.text())
	why := "A baseline stored before the first /clock is 0, so the first dt is the whole first /clock value (e.g. 125 s instead of 0.5 s): " +
		"it is positive, passes a dt < 0 check, and inflates integrals or deflates finite-difference rates (R29)."
	fix := "skip the update when prev <= 0 or now <= 0, then treat dt < 0 as a backward jump, and always move the baseline to now (or use simclock guard.DtTracker)"
	if use == elapsedUnknown {
		msg = fmt.Sprintf("baseline %s is taken from now() in the constructor (0 before the first /clock), so \"%s\" is the whole first /clock value the first time; "+
			"a timeout or deadline measured from it expires at once under sim time (not a dt: check what it does)", base, e.text())
		why = "A baseline stored before the first /clock is 0, so the first elapsed time measured from it is the whole first /clock value (R29): " +
			"a grace period or deadline from startup is over before it began. Whether that matters depends on what the code does then, which the linter cannot tell."
		fix = "start the baseline when the clock has started (skip while prev <= 0, then set it to now), or measure startup deadlines on a steady clock"
	} else if use == elapsedZeroed {
		msg = fmt.Sprintf("baseline %s is taken from now() in the constructor (0 before the first /clock), so \"%s\" is the whole first /clock value the first time; "+
			"every step it makes is multiplied by a value still 0 then (set to 0 at construction and otherwise only by a subscription's callback): nothing moves on the first tick", base, e.text())
		why = "A baseline stored before the first /clock is 0, so the first dt is the whole first /clock value (R29). Here that dt only multiplies values " +
			"the constructor sets to 0 and only a message sets otherwise (a commanded velocity before any command): the first step is 0, whatever dt is."
		fix = "nothing is needed while no message can arrive before the first tick; to be safe, skip the update when prev <= 0 or now <= 0, then move the baseline to now"
	} else if dtCheck {
		msg += "; a dt < 0 check does not catch it"
	}
	// Every form says why it is info when its package shows no sim time,
	// as R26-R28 do; on sim time the timeout and zeroed forms already say
	// what a reader must check, the dt form says why it does not fail.
	switch {
	case !c.onSimTime(u):
		msg += c.noSimTimeReason(u)
	case use == elapsedArith:
		msg += r29Info
	}
	c.reportInfo(u, e, rules.R29, msg, why, fix, nil)
}

// r29Info says why an R29 finding is info: measured on code nobody here
// had read, every failing R29 finding was false, and whether the first
// tick matters is for a reader to judge (lint/corpus/README.md, round 8).
const r29Info = "; info: R29 never fails a run (on unseen code its failing findings were false; whether the first dt matters needs a reader)"

// resetBefore reports whether every way to the subtraction at site passes an
// assignment of the baseline p first, outside the constructor:
//   - f (or the function a lambda is defined in, before the lambda) calls a
//     method of its class that assigns p unconditionally
//     ("navigate() { initializeGoal(); ... [&]{ now() - start_time_ } }");
//   - f is run only from methods of its class that assign p before they
//     call or hand it on ("handle_accepted(g) { start_time_ = now();
//     std::thread{std::bind(&Server::execute, this, g)}.detach(); }").
func (c *checker) resetBefore(site *expr, p string, f *fn) bool {
	if f.cls == nil {
		return false
	}
	return c.callsSetterBefore(site, p, f, false) || c.setBeforeRefs(f, p)
}

// callsSetterBefore reports whether, before site, f (or the function a
// lambda is defined in, before the lambda) calls a method of its class
// that assigns member p unconditionally from ROS time, or (when direct)
// assigns it itself.
func (c *checker) callsSetterBefore(site *expr, p string, f *fn, direct bool) bool {
	at := site.n.start
	for g := f; g != nil; g = g.outer {
		found := false
		eachStmt(g.body, func(s *stmt) {
			if found || s.n == nil || s.n.start >= at {
				return
			}
			if direct && s.kind == sAssign && s.value != nil && c.d.path(s.target, g) == p && c.d.assignFacts(s, p, g)&(fNow|fROS) != 0 {
				found = true
			}
			for _, e := range []*expr{s.e, s.value} {
				walkExpr(e, func(call *expr) {
					if h := c.methodCalled(call, g); h != nil && c.assignsTop(h, p) {
						found = true
					}
				})
			}
		})
		if found {
			return true
		}
		if g.n != nil {
			at = g.n.start // in the outer function, only what runs before the lambda is defined
		}
	}
	return false
}

// paramSetAtCalls reports whether every call that hands parameter param
// of f a SYSTEM_TIME member assigns that member from ROS time first
// ("self.last_move = self.now(); while ...: self.elapsed(self.last_move)"),
// so the constructor's Time() never reaches f.
func (c *checker) paramSetAtCalls(param string, f *fn) bool {
	calls := 0
	for _, fl := range c.d.flows {
		if fl.to != f || fl.call == nil || fl.call.n == nil {
			continue
		}
		for i, a := range fl.args {
			if i >= len(fl.params) || fl.params[i] != param || c.d.facts(a, fl.from)&(fSystem|fUnset) == 0 {
				continue
			}
			calls++
			p := c.d.path(a, fl.from)
			if !strings.HasPrefix(p, "self.") || !c.callsSetterBefore(fl.call, p, fl.from, true) {
				return false
			}
		}
	}
	return calls > 0
}

// methodCalled returns the method of f's class that call calls by name
// (method(), this->method(), self.method()), or nil.
func (c *checker) methodCalled(call *expr, f *fn) *fn {
	if call.kind != eCall || call.recv == nil || f.cls == nil {
		return nil
	}
	name := ""
	switch r := call.recv; {
	case r.kind == eName && f.u.lang == langCPP:
		name = r.name
	case r.kind == eAttr && r.recv != nil && r.recv.kind == eName && r.recv.name == "self":
		name = r.name
	}
	for _, g := range f.cls.fns {
		if name != "" && g.name == name && g != f && !g.ctor && g.outer == nil {
			return g
		}
	}
	return nil
}

// assignsTop reports whether method g assigns member path p from ROS time
// in its own top-level statements (not under an if, a loop or a lambda).
func (c *checker) assignsTop(g *fn, p string) bool {
	for _, s := range g.body {
		if s.kind == sAssign && s.value != nil && c.d.path(s.target, g) == p && c.d.assignFacts(s, p, g)&(fNow|fROS) != 0 {
			return true
		}
	}
	return false
}

// setBeforeRefs reports whether f is referred to by other methods of its
// class (called, or handed on as &Class::f or self.f), none of them a
// constructor, and each such reference comes after an assignment to p in
// the referring method.
func (c *checker) setBeforeRefs(f *fn, p string) bool {
	if f.cls == nil || f.name == "" || f.outer != nil {
		return false
	}
	refs := 0
	ok := true
	for _, g := range f.cls.fns {
		if g == f {
			continue
		}
		eachStmt(g.body, func(s *stmt) {
			for _, e := range []*expr{s.e, s.value} {
				walkExpr(e, func(x *expr) {
					if !ok || x.n == nil || !c.refersTo(x, f) {
						return
					}
					refs++
					if g.ctor {
						ok = false
						return
					}
					set := false
					eachStmt(g.body, func(a *stmt) {
						if a.kind == sAssign && a.n != nil && a.n.end <= x.n.start && c.d.path(a.target, g) == p {
							set = true
						}
					})
					if !set {
						ok = false
					}
				})
			}
		})
	}
	return ok && refs > 0
}

// refersTo reports whether x names method f: f(...), this->f, self.f, or
// &Class::f.
func (c *checker) refersTo(x *expr, f *fn) bool {
	switch x.kind {
	case eName:
		return x.name == f.name || x.name == f.cls.name+"."+f.name || strings.HasSuffix(x.name, "."+f.cls.name+"."+f.name)
	case eAttr:
		return x.name == f.name && x.recv != nil && x.recv.kind == eName && x.recv.name == "self"
	}
	return false
}

// pairedGate reports whether every use of the elapsed time now - prev at
// site is an if-condition that also requires (with "and") a member assigned
// together with prev outside the constructor: a command timeout's
// "if dt > T and not self.stopped" where the callback that moves the
// baseline also clears the flag. The constructor's baseline is then never
// acted on, provided the flag's constructor value keeps the gate shut; like
// stateGuarded (which covers the same pairing when the subtraction itself
// sits inside such a condition), this trusts that it does.
func (c *checker) pairedGate(site *expr, prev string, f *fn) bool {
	m, ok := strings.CutPrefix(prev, "self.")
	if !ok || f.cls == nil {
		return false
	}
	paired := c.paired(f.cls, m)
	if len(paired) == 0 {
		return false
	}
	dts, defs := c.elapsedLocals(site, f)
	if len(dts) == 0 {
		return false // used in place: stateGuarded reads the conditions around it
	}
	uses := func(e *expr) bool { return c.mentions(e, dts, f, false) }
	// gated: a conjunct of the condition mentions a paired member and not
	// the elapsed time.
	var gated func(e *expr) bool
	gated = func(e *expr) bool {
		if e == nil {
			return false
		}
		if e.kind == eAnd {
			return gated(e.l) || gated(e.r)
		}
		return !uses(e) && c.mentions(e, paired, f, false)
	}
	found, ok := false, true
	var walk func(stmts []*stmt)
	walk = func(stmts []*stmt) {
		for _, s := range stmts {
			if slices.Contains(defs, s) {
				continue
			}
			if s.kind == sIf && uses(s.e) {
				found = true
				if s.e.kind != eAnd || !gated(s.e) {
					ok = false
				}
				continue // the branches run only behind the gate
			}
			if (s.e != nil && uses(s.e)) || (s.value != nil && uses(s.value)) {
				ok = false
			}
			walk(s.then)
			walk(s.els)
			walk(s.body)
		}
	}
	walk(f.body)
	return found && ok
}
