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
		Severity: rules.Warning,
		Fix:      "skip the update while prev <= 0 or now <= 0, then move the baseline to now",
		Help: "A baseline stored in the constructor, before the first /clock, is 0 under sim time, so the first dt is the " +
			"whole first /clock value (125 s instead of 0.5 s): it is positive, passes a dt < 0 check, and inflates " +
			"integrals or deflates finite-difference rates. Skip the update while prev <= 0 or now <= 0, then move the baseline to now.",
		SimTimeOnly: true,
		detector:    detector{expr: detectR29},
	})
}

// detectR29 reports now - prev where prev was taken from now() in the
// constructor.
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
	if c.stateGuarded(e, prev, f, conds) || c.pairedGate(e, prev, f) || c.throttle(e, prev, f) || !c.once(f, prev) {
		return
	}
	for _, cd := range conds {
		if c.readsMember(cd.e, f) {
			return // behind a state (if (initial_count_ > SKIP) ...): usually set by then
		}
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
	msg := fmt.Sprintf("baseline %s is taken from now() in the constructor (0 before the first /clock) and %q does not guard against it", strings.TrimPrefix(prev, "self."), e.text())
	if dtCheck {
		msg += "; a dt < 0 check does not catch it"
	}
	c.report(u, e, rules.R29, msg,
		"A baseline stored before the first /clock is 0, so the first dt is the whole first /clock value (e.g. 125 s instead of 0.5 s): "+
			"it is positive, passes a dt < 0 check, and inflates integrals or deflates finite-difference rates (R29).",
		"skip the update when prev <= 0 or now <= 0, then treat dt < 0 as a backward jump, and always move the baseline to now (or use simclock guard.DtTracker)",
		nil)
}

// throttle reports whether the elapsed time now - prev at site is only
// compared with a threshold the way throttles and rate limiters do: a
// branch taken while the elapsed time is small leaves ("if (dt < min)
// return;"), or the branch taken once it is large moves the baseline
// ("if (dt >= period) { prev = now; ... }"), or only expires what the
// baseline's setter set (see expires). A large first interval then only
// lets the first event through. An elapsed time used in arithmetic, or
// compared as a timeout whose expiry does anything else, is not a throttle.
func (c *checker) throttle(site *expr, prev string, f *fn) bool {
	dts, defs := c.elapsedLocals(site, f)
	uses := func(e *expr) bool { return containsExpr(e, site) || len(dts) > 0 && c.mentions(e, dts, f, false) }
	found := false
	ok := true
	var walk func(stmts []*stmt)
	walk = func(stmts []*stmt) {
		for _, s := range stmts {
			switch s.kind {
			case sIf:
				if uses(s.e) {
					if !c.throttleIf(s, uses, prev, f) {
						ok = false
					}
					found = true
				}
			case sAssign:
				// should_publish = ... || dt > max_interval is a comparison
				// too; dt * v is arithmetic.
				if !slices.Contains(defs, s) && uses(s.value) && !onlyCompared(s.value, uses) {
					ok = false
				}
			default:
				if uses(s.e) {
					ok = false
				}
			}
			walk(s.then)
			walk(s.els)
			walk(s.body)
		}
	}
	walk(f.body)
	return found && ok
}

// throttleIf reports whether if-statement s, whose condition compares the
// elapsed time, has a throttle's shape.
func (c *checker) throttleIf(s *stmt, uses func(*expr) bool, prev string, f *fn) bool {
	cond, neg := s.e, false
	for cond.kind == eNot {
		cond, neg = cond.l, !neg
	}
	var cmp *expr
	var find func(e *expr)
	find = func(e *expr) {
		if e == nil || cmp != nil {
			return
		}
		if e.kind == eCompare && uses(e) {
			cmp = e
			return
		}
		if e.kind == eAnd || e.kind == eOr {
			find(e.l)
			find(e.r)
		}
	}
	find(cond)
	if cmp == nil {
		return false
	}
	// small: the then branch runs while the elapsed time is small.
	var small bool
	switch {
	case uses(cmp.l) && !uses(cmp.r):
		small = cmp.op == "<" || cmp.op == "<="
	case uses(cmp.r) && !uses(cmp.l):
		small = cmp.op == ">" || cmp.op == ">="
	default:
		return false
	}
	if cmp.op == "==" || cmp.op == "!=" || isZero(cmp.l) || isZero(cmp.r) {
		return false // dt < 0 is a backward-jump check, not a minimum interval
	}
	if neg {
		small = !small
	}
	smallBranch, largeBranch := s.then, s.els
	if !small {
		smallBranch, largeBranch = s.els, s.then
	}
	if exits(smallBranch) {
		return true
	}
	moves := false
	eachStmt(largeBranch, func(st *stmt) {
		if st.kind == sAssign && c.d.path(st.target, f) == prev {
			moves = true
		}
	})
	return moves || c.expires(largeBranch, prev, f)
}

// expires reports whether the branch a watchdog takes once the elapsed time
// is large only assigns members that the method moving the baseline sets
// together with it (turtlebot3's fake node zeroes the wheel speeds its
// cmd_vel callback sets with last_cmd_vel_time_): it expires the last
// command. With the constructor's baseline no command has set them yet, so
// expiring them early changes nothing. A branch that sets anything else (a
// stale flag, an error state) is still reported.
func (c *checker) expires(branch []*stmt, prev string, f *fn) bool {
	m, ok := strings.CutPrefix(prev, "self.")
	if !ok || f.cls == nil || len(branch) == 0 {
		return false
	}
	paired := c.paired(f.cls, m)
	for _, st := range branch {
		if st.kind != sAssign || !paired[c.d.rootPath(st.target, f)] {
			return false
		}
	}
	return true
}

// onlyCompared reports whether every part of e that uses the elapsed time
// is inside a comparison.
func onlyCompared(e *expr, uses func(*expr) bool) bool {
	if e == nil || !uses(e) || e.kind == eCompare {
		return true
	}
	switch e.kind {
	case eAnd, eOr, eNot:
		return onlyCompared(e.l, uses) && onlyCompared(e.r, uses)
	}
	return false
}

// elapsedLocals returns the locals computed from the elapsed time at site
// (dt = (now - prev).seconds()) and the statements that define them.
func (c *checker) elapsedLocals(site *expr, f *fn) (map[string]bool, []*stmt) {
	dts := map[string]bool{}
	var defs []*stmt
	eachStmt(f.body, func(s *stmt) {
		if s.kind == sAssign && s.value != nil && containsExpr(s.value, site) {
			if p := c.d.path(s.target, f); p != "" && !strings.HasPrefix(p, "self.") {
				dts[p] = true
				defs = append(defs, s)
			}
		}
	})
	return dts, defs
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
