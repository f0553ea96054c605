package lint

import (
	"strings"

	"github.com/simclock/simclock/rules"
)

// Guard levels of an R27 window subtraction: how much of the unsafe range
// now <= W the conditions holding at the subtraction exclude.
const (
	guardNone     = iota // nothing
	guardZeroOnly        // only now == 0 (ticks in (0, W) still go negative)
	guardBoundary        // now < W (the tick at exactly W gives time 0)
	guardSafe            // now <= W: correct (R27)
)

// cond is a condition known to hold (or, when neg, known to be false) at a
// program point.
type cond struct {
	e   *expr
	neg bool
}

// checker runs the checks over the units of one run.
type checker struct {
	d        *dataflow
	enabled  map[rules.ID]bool
	findings []Finding
	// ifConds caches every if-condition of a function.
	ifConds map[*fn][]*expr
	// pairs caches paired.
	pairs map[pairKey]map[string]bool
	// helperDepth bounds helperLevel's descent into helpers.
	helperDepth int
	// distro is the ROS 2 distribution findings are worded for.
	distro string
	// simTime says the code may run on sim time: a launch or parameter
	// file of the run, or a file of the package, mentions use_sim_time.
	simTime bool
	// root is the package's directory (holding package.xml), "" outside
	// any package; wallNodes caches nodeOnWallTime per file.
	root      string
	wallNodes map[*unit]bool
	// comparedOnly marks window subtractions whose result is only ever
	// compared (directly, or through a local read only in comparisons).
	comparedOnly map[*expr]bool
	// seen records (function, key) pairs already reported, for rules that
	// report one finding per baseline and function.
	seen map[seenKey]bool
	// dead caches unreferenced per method.
	dead map[*fn]bool
}

type seenKey struct {
	f   *fn
	key string
}

// once reports whether key is new for f, and records it.
func (c *checker) once(f *fn, key string) bool {
	k := seenKey{f, key}
	if c.seen[k] {
		return false
	}
	c.seen[k] = true
	return true
}

// visitFn calls visit on every expression of f with the conditions that
// hold there: enclosing if branches, and earlier `if c: return` statements
// in the same or an enclosing block.
func visitFn(f *fn, visit func(e *expr, conds []cond)) {
	var walk func(stmts []*stmt, conds []cond) []cond
	var visitExpr func(e *expr, conds []cond)
	visitExpr = func(e *expr, conds []cond) {
		if e == nil {
			return
		}
		visit(e, conds)
		if e.kind == eCond && len(e.subs) == 3 {
			// c ? a : b, a if c else b: each branch runs only on its side of c
			visitExpr(e.subs[2], conds)
			visitExpr(e.subs[0], append(conds[:len(conds):len(conds)], cond{e.subs[2], false}))
			visitExpr(e.subs[1], append(conds[:len(conds):len(conds)], cond{e.subs[2], true}))
			return
		}
		visitExpr(e.recv, conds)
		visitExpr(e.l, conds)
		switch e.kind {
		case eAnd: // the right operand runs only when the left is true
			visitExpr(e.r, append(conds[:len(conds):len(conds)], cond{e.l, false}))
		case eOr:
			visitExpr(e.r, append(conds[:len(conds):len(conds)], cond{e.l, true}))
		default:
			visitExpr(e.r, conds)
		}
		for _, a := range e.args {
			visitExpr(a, conds)
		}
		for _, k := range e.kwargs {
			visitExpr(k.value, conds)
		}
		for _, s := range e.subs {
			visitExpr(s, conds)
		}
	}
	// walk visits stmts and returns the conditions that hold after them
	// (conds plus those added by early exits).
	walk = func(stmts []*stmt, conds []cond) []cond {
		local := conds[:len(conds):len(conds)]
		for _, s := range stmts {
			switch s.kind {
			case sExpr, sExit:
				visitExpr(s.e, local)
			case sAssign:
				visitExpr(s.value, local)
			case sIf:
				visitExpr(s.e, local)
				afterThen := walk(s.then, append(local[:len(local):len(local)], cond{s.e, false}))
				afterElse := walk(s.els, append(local[:len(local):len(local)], cond{s.e, true}))
				// When one branch always leaves, what holds after the if is
				// what holds at the end of the other (an elif chain of
				// early returns accumulates).
				switch te, ee := exits(s.then), exits(s.els); {
				case te && !ee:
					local = afterElse[:len(afterElse):len(afterElse)]
				case ee && !te:
					local = afterThen[:len(afterThen):len(afterThen)]
				}
			case sBlock:
				walk(s.body, local)
			}
		}
		return local
	}
	walk(f.body, nil)
}

// exits reports whether a statement list always leaves the enclosing block.
func exits(stmts []*stmt) bool {
	if len(stmts) == 0 {
		return false
	}
	last := stmts[len(stmts)-1]
	switch last.kind {
	case sExit:
		return true
	case sIf:
		return exits(last.then) && exits(last.els)
	case sBlock:
		if last.n != nil && (last.n.kind == "compound_statement" || last.n.kind == "block") {
			return exits(last.body)
		}
	}
	return false
}

// isWindowSub reports whether e is now() - Duration, or a message's stamp
// minus a Duration (isStampWindow).
func (c *checker) isWindowSub(e *expr, f *fn) bool {
	if e.kind != eBinary || e.op != "-" {
		return false
	}
	l, r := c.d.facts(e.l, f), c.d.facts(e.r, f)
	if l&fNow == 0 && !c.isStampWindow(e, f) || r&fDuration == 0 || r&fTime != 0 {
		return false
	}
	// A zero window, or one that scales with now (now - 0.9 * now), cannot
	// go negative.
	return !zeroDuration(e.r) && !c.mentions(e.r, c.aliases(e.l, f), f, true)
}

// isStampWindow reports whether e is a ROS time that is not the clock's
// now() (a message's header stamp, Time.from_msg, a member holding the last
// one) minus a Duration: under sim time stamps count from the simulator's
// start, so the result is negative for the stamps of the first W seconds
// (robot_localization's last_measurement_time - history_length). A time
// that may be zero is one only when the zero is a default-constructed
// member that nothing but stamps is assigned to (stampOnly).
func (c *checker) isStampWindow(e *expr, f *fn) bool {
	if e.kind != eBinary || e.op != "-" {
		return false
	}
	l, r := c.d.facts(e.l, f), c.d.facts(e.r, f)
	if l&fROS == 0 || l&(fNow|fSystem) != 0 || r&fDuration == 0 || r&fTime != 0 {
		return false
	}
	return l&(fZero|fUnset) == 0 || c.d.stampOnly("", e.l, f, 0)
}

// zeroDuration reports whether e constructs a Duration from literal zeros
// only: Duration(seconds=0), rclcpp::Duration(0, 0), from_seconds(0.0).
func zeroDuration(e *expr) bool {
	if e.kind != eCall || len(e.args)+len(e.kwargs) == 0 {
		return false
	}
	for _, a := range e.args {
		if !isZero(a) {
			return false
		}
	}
	for _, k := range e.kwargs {
		if !isZero(k.value) {
			return false
		}
	}
	return true
}

// guardPass records the guard level of every window subtraction, so that
// fAgo is only attached to results that may really be <= 0.
func (c *checker) guardPass(units []*unit) {
	for _, u := range units {
		for _, f := range u.fns {
			var subs []*expr
			visitFn(f, func(e *expr, conds []cond) {
				if c.isWindowSub(e, f) {
					c.d.agoLevel[e] = c.guardLevel(e, f, conds)
					subs = append(subs, e)
				}
			})
			for _, e := range subs {
				if c.onlyComparedResult(e, f) {
					c.comparedOnly[e] = true
				}
			}
		}
	}
}

// onlyComparedResult reports whether the value of window subtraction site
// is only ever an operand of a comparison: directly
// ("if (stamp < now() - W)"), or through a local that is read only that way
// ("cutoff = now() - W; while (q.front().stamp < cutoff) ..."). A negative
// time compares correctly, so on distributions whose rclcpp stores it
// silently nothing goes wrong.
func (c *checker) onlyComparedResult(site *expr, f *fn) bool {
	var local string
	isSite := func(e *expr) bool { return e == site }
	isLocal := func(e *expr) bool { return local != "" && e.kind == eName && c.d.path(e, f) == local }
	found, ok := false, true
	var scan func(e *expr, target func(*expr) bool)
	scan = func(e *expr, target func(*expr) bool) {
		if e == nil || !ok {
			return
		}
		if target(e) {
			ok = false // used other than as a comparison operand
			return
		}
		if e.kind == eCompare {
			for _, side := range []*expr{e.l, e.r} {
				if target(side) {
					found = true
				} else {
					scan(side, target)
				}
			}
			return
		}
		eachChild(e, func(c *expr) { scan(c, target) })
	}
	var defs []*stmt
	eachStmt(f.body, func(s *stmt) {
		if s.kind == sAssign && s.value == site {
			if p := c.d.path(s.target, f); p != "" && !strings.HasPrefix(p, "self.") {
				local = p
				defs = append(defs, s)
				return
			}
			ok = false // stored in a member
		}
	})
	eachStmt(f.body, func(s *stmt) {
		for _, d := range defs {
			if s == d {
				return
			}
		}
		for _, e := range []*expr{s.e, s.value} {
			scan(e, isSite)
			if local != "" {
				scan(e, isLocal)
			}
		}
		if s.kind == sAssign && local != "" && s.target != nil && c.d.path(s.target, f) == local {
			ok = false // reassigned: keep it simple
		}
	})
	return ok && found
}

func (c *checker) guardLevel(site *expr, f *fn, conds []cond) int {
	aliases := c.aliases(site.l, f)
	best := guardNone
	for _, cd := range conds {
		best = max(best, c.condLevel(cd.e, cd.neg, aliases, f))
	}
	return best
}

// aliases is the set of paths that stand for the time operand: its own
// path and locals computed from it (now_ns = now.nanoseconds).
func (c *checker) aliases(e *expr, f *fn) map[string]bool {
	set := map[string]bool{}
	p := c.d.path(e, f)
	if p == "" {
		return set
	}
	set[p] = true
	for range 2 {
		for g := f; g != nil; g = g.outer {
			for name, vals := range c.d.localVals[g] {
				for _, v := range vals {
					if c.mentions(v, set, f, false) {
						set[name] = true
					}
				}
			}
		}
	}
	return set
}

// mentions reports whether e reads one of the paths in set, or (when
// nowCalls) calls a node clock's now().
func (c *checker) mentions(e *expr, set map[string]bool, f *fn, nowCalls bool) bool {
	if e == nil {
		return false
	}
	switch e.kind {
	case eName, eAttr:
		if p := c.d.path(e, f); p != "" && set[p] {
			return true
		}
	case eCall:
		if nowCalls && c.d.callFacts(e, f)&fNow != 0 {
			return true
		}
	}
	if c.mentions(e.recv, set, f, nowCalls) || c.mentions(e.l, set, f, nowCalls) || c.mentions(e.r, set, f, nowCalls) {
		return true
	}
	for _, a := range e.args {
		if c.mentions(a, set, f, nowCalls) {
			return true
		}
	}
	for _, k := range e.kwargs {
		if c.mentions(k.value, set, f, nowCalls) {
			return true
		}
	}
	for _, s := range e.subs {
		if c.mentions(s, set, f, nowCalls) {
			return true
		}
	}
	return false
}

var negOp = map[string]string{"==": "!=", "!=": "==", "<": ">=", ">=": "<", "<=": ">", ">": "<="}
var flipOp = map[string]string{"==": "==", "!=": "!=", "<": ">", ">": "<", "<=": ">=", ">=": "<="}

// condLevel is how well condition e (negated when neg) excludes now <= W.
func (c *checker) condLevel(e *expr, neg bool, now map[string]bool, f *fn) int {
	if e == nil {
		return guardNone
	}
	switch e.kind {
	case eNot:
		return c.condLevel(e.l, !neg, now, f)
	case eAnd, eOr:
		l, r := c.condLevel(e.l, neg, now, f), c.condLevel(e.r, neg, now, f)
		if (e.kind == eAnd) != neg { // a conjunction: either side suffices
			return max(l, r)
		}
		return min(l, r)
	case eCompare:
		op, ok := negOp[e.op]
		if !ok {
			return guardNone
		}
		// now.nanoseconds - W.nanoseconds <= 0 reads as now <= W.
		if e.l.kind == eBinary && e.l.op == "-" && isZero(e.r) {
			return c.condLevel(&expr{kind: eCompare, n: e.n, op: e.op, l: e.l.l, r: e.l.r, u: e.u}, neg, now, f)
		}
		if e.r.kind == eBinary && e.r.op == "-" && isZero(e.l) {
			return c.condLevel(&expr{kind: eCompare, n: e.n, op: e.op, l: e.r.r, r: e.r.l, u: e.u}, neg, now, f)
		}
		if !neg {
			op = e.op
		}
		lm, rm := c.mentions(e.l, now, f, true), c.mentions(e.r, now, f, true)
		other := e.r
		switch {
		case lm && !rm:
		case rm && !lm:
			op, other = flipOp[op], e.l
		default:
			return guardNone
		}
		zero := isZero(other)
		switch op {
		case ">":
			if zero {
				return guardZeroOnly
			}
			return guardSafe
		case ">=":
			if zero {
				return guardNone
			}
			return guardBoundary
		case "!=":
			if zero {
				return guardZeroOnly
			}
		}
		return guardNone
	case eName, eAttr, eCall:
		if e.kind == eCall {
			if lvl, ok := c.helperLevel(e, neg, now, f); ok {
				return lvl
			}
		}
		if !neg && c.mentions(e, now, f, true) {
			return guardZeroOnly // truthiness: now.nanoseconds != 0
		}
	}
	return guardNone
}

// allIfConds returns every if-condition in f and its enclosing functions,
// and every loop condition (while, do ... while, for (;cond;)): a loop
// that waits while a baseline is unset checks it as an if does.
func (c *checker) allIfConds(f *fn) []*expr {
	if got, ok := c.ifConds[f]; ok {
		return got
	}
	var out []*expr
	for g := f; g != nil; g = g.outer {
		eachStmt(g.body, func(s *stmt) {
			if s.kind == sIf || s.kind == sExpr && loopCond(s.n) {
				out = append(out, s.e)
			}
		})
	}
	c.ifConds[f] = out
	return out
}

// loopCond reports whether n is the condition of a loop: the front ends
// lower a loop into an sBlock whose body starts with its condition (and a
// C++ for's initialiser and update) as statements, so every rule reads it
// as it reads any statement's expression.
func loopCond(n *node) bool {
	if n == nil || n.field != "condition" || n.parent == nil {
		return false
	}
	switch n.parent.kind {
	case "while_statement", "do_statement", "for_statement":
		return true
	}
	return false
}

// check runs the detectors of every enabled rule on u.
func (c *checker) check(u *unit) {
	var exprHooks []func(*checker, *expr, *fn, []cond)
	var strHooks []func(*checker, *expr)
	wallTest := wallTimeTest(u)
	for _, r := range Rules {
		if !c.enabled[r.ID] || r.SimTimeOnly && wallTest {
			continue
		}
		if r.expr != nil {
			exprHooks = append(exprHooks, r.expr)
		}
		if r.str != nil {
			strHooks = append(strHooks, r.str)
		}
	}
	if len(exprHooks) > 0 {
		for _, f := range u.fns {
			visitFn(f, func(e *expr, conds []cond) {
				for _, h := range exprHooks {
					h(c, e, f, conds)
				}
			})
		}
	}
	for _, s := range u.strings {
		for _, h := range strHooks {
			h(c, s)
		}
	}
}

// report adds a finding for rule at e, if the rule is enabled, and returns
// it for adjustment (nil when the rule is off).
func (c *checker) report(u *unit, e *expr, rule rules.ID, msg, why, fix string, edits []Edit) *Finding {
	if !c.enabled[rule] {
		return nil
	}
	r, _ := RuleByID(rule)
	c.findings = append(c.findings, u.finding(e.n, r, msg, why, fix, edits))
	return &c.findings[len(c.findings)-1]
}

// reportInfo is report at info: a finding that never fails a run, for
// a hazard the analysis cannot confirm (its message says why).
func (c *checker) reportInfo(u *unit, e *expr, rule rules.ID, msg, why, fix string, edits []Edit) *Finding {
	fd := c.report(u, e, rule, msg, why, fix, edits)
	if fd != nil {
		fd.Severity = rules.Info
	}
	return fd
}

// fixText picks the Python or the C++ wording of a fix.
func fixText(u *unit, py, cpp string) string {
	if u.lang == langPython {
		return py
	}
	return cpp
}

// containsExpr reports whether sub is e or inside it.
func containsExpr(e, sub *expr) bool {
	if e == nil {
		return false
	}
	if e == sub {
		return true
	}
	if containsExpr(e.recv, sub) || containsExpr(e.l, sub) || containsExpr(e.r, sub) {
		return true
	}
	for _, a := range e.args {
		if containsExpr(a, sub) {
			return true
		}
	}
	for _, k := range e.kwargs {
		if containsExpr(k.value, sub) {
			return true
		}
	}
	for _, s := range e.subs {
		if containsExpr(s, sub) {
			return true
		}
	}
	return false
}

// shorten quotes a source excerpt for a message: on one line, cut at 60
// bytes.
func shorten(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		return quote(s[:57] + "...")
	}
	return quote(s)
}

// quote puts a name or a source excerpt in double quotes for a message,
// as it is: the output escapes it, once (the text writer through
// term.Escape, JSON and SARIF as their encodings do), where %q would have
// escaped it a first time.
func quote(s string) string { return `"` + s + `"` }

// forUpdateAround reports whether a is (in) the update of a C++ for loop
// whose body holds site: written before the body, it runs after it, so the
// first iteration reads what came before the loop.
func forUpdateAround(a, site *node) bool {
	for n := a; n != nil && n.parent != nil; n = n.parent {
		if n.field == "update" && n.parent.kind == "for_statement" {
			body := n.parent.child("body")
			return body != nil && body.start <= site.start && site.end <= body.end
		}
	}
	return false
}

// stateGuarded recognises two ways code makes sure a baseline was set
// before it is read, which a flow-insensitive analysis would otherwise
// report:
//   - the function itself assigns the baseline from a ROS time earlier in
//     the source ("if not self.started: self.t0 = now; self.started = True");
//   - a condition holding at the site reads a member that is assigned
//     together with the baseline, in the same block ("if (!cmd_.has_value()
//     || now() - cmd_time_ > 1s)", where a callback sets cmd_ and cmd_time_).
func (c *checker) stateGuarded(site *expr, p string, f *fn, conds []cond) bool {
	return c.stateGuardedBy(site, p, f, conds, false)
}

// stateGuardedBy is stateGuarded; with ctorOnly (R5), assignments in a
// method that only the constructors call, directly in their bodies
// (initParams()), pair nothing either: they run in the constructor, as
// its own assignments do, before any callback can read the members.
func (c *checker) stateGuardedBy(site *expr, p string, f *fn, conds []cond, ctorOnly bool) bool {
	ros := fNow | fROS
	found := false
	eachStmt(f.body, func(s *stmt) {
		if s.kind == sAssign && s.value != nil && s.n != nil && s.n.start < site.n.start && !forUpdateAround(s.n, site.n) &&
			c.d.path(s.target, f) == p && c.d.assignFacts(s, p, f)&ros != 0 {
			found = true
		}
	})
	if found {
		return true
	}
	m, ok := strings.CutPrefix(p, "self.")
	if !ok || f.cls == nil {
		return false
	}
	paired := c.pairedBy(f.cls, m, ctorOnly)
	if len(paired) == 0 {
		return false
	}
	for _, cd := range conds {
		if c.mentions(cd.e, paired, f, false) {
			return true
		}
	}
	return false
}

// paired returns the member paths ("self.x") assigned in the same
// statement list as an assignment to member m, in any method of the class
// but the constructor. An element assignment (speeds_[LEFT] = v) counts as
// one to the member it indexes.
func (c *checker) paired(cls *class, m string) map[string]bool {
	return c.pairedBy(cls, m, false)
}

// pairedBy is paired; with ctorOnly, a method that only the constructors
// call (calledOnlyByCtors) pairs nothing either, unless a constructor
// assigns m too.
func (c *checker) pairedBy(cls *class, m string, ctorOnly bool) map[string]bool {
	key := pairKey{cls, m, ctorOnly}
	if got, ok := c.pairs[key]; ok {
		return got
	}
	out := map[string]bool{}
	var scan func(f *fn, stmts []*stmt)
	scan = func(f *fn, stmts []*stmt) {
		has := false
		for _, s := range stmts {
			if s.kind == sAssign && c.d.path(s.target, f) == "self."+m {
				has = true
			}
		}
		for _, s := range stmts {
			if has && s.kind == sAssign {
				if p := c.d.rootPath(s.target, f); strings.HasPrefix(p, "self.") && p != "self."+m {
					out[p] = true
				}
			}
			scan(f, s.then)
			scan(f, s.els)
			scan(f, s.body)
		}
	}
	// With ctorOnly, the constructors' helpers pair nothing when no
	// constructor assigns m itself: what the helper stores is then what
	// the member holds when the constructor returns. (A constructor that
	// overwrites it after the call leaves the helper's value unread; the
	// data flow does not order the two, so the pairing stays.)
	ctorSets := false
	for _, v := range c.d.memberVals[cls][m] {
		if v.f.ctor {
			ctorSets = true
		}
	}
	for _, f := range cls.fns {
		// A constructor assigns everything together; that pairs nothing.
		if !f.ctor && !(ctorOnly && !ctorSets && c.calledOnlyByCtors(f)) {
			scan(f, f.body)
		}
	}
	c.pairs[key] = out
	return out
}

type pairKey struct {
	cls      *class
	m        string
	ctorOnly bool
}

// calledOnlyByCtors reports whether f is a method of its class that the
// class's constructors call directly in their bodies (initParams();,
// this->initParams();, self.init_params()), and that nothing else in the
// class refers to: no other method calls it, and no constructor hands it
// on (std::bind(&C::f, this), a lambda calling it, a callback argument),
// which would run it later, from a callback. Its assignments are then
// made while the constructor runs, before any callback can read them.
func (c *checker) calledOnlyByCtors(f *fn) bool {
	if f.cls == nil || f.outer != nil || f.ctor || f.name == "" {
		return false
	}
	calls := 0
	for _, g := range f.cls.fns {
		if g == f {
			continue
		}
		refs, direct := 0, 0
		eachStmt(g.body, func(s *stmt) {
			for _, e := range []*expr{s.e, s.target, s.value} {
				walkExpr(e, func(x *expr) {
					if c.refersTo(x, f) {
						refs++
					}
				})
			}
			// A call standing as its own statement: initParams();
			if s.kind == sExpr && s.e != nil && s.e.kind == eCall && s.e.recv != nil && c.refersTo(s.e.recv, f) {
				direct++
			}
		})
		if refs == 0 {
			continue
		}
		if !g.ctor || g.outer != nil || refs != direct {
			return false
		}
		calls += direct
	}
	return calls > 0
}

// helperLevel is the guard level of a call to a helper that returns a
// condition on the time it is given ("if not clock_started(now, W)",
// "if (too_early(now)) return;"): the helper's returned expression, read
// with its parameters bound to the call's arguments. ok is false when the
// callee is not such a helper of the same file or class.
func (c *checker) helperLevel(call *expr, neg bool, now map[string]bool, f *fn) (int, bool) {
	name, method := "", false
	switch r := call.recv; {
	case r == nil:
		return guardNone, false
	case r.kind == eName:
		name = r.name
	case r.kind == eAttr && r.recv != nil && r.recv.kind == eName && r.recv.name == "self":
		name, method = r.name, true
	default:
		return guardNone, false
	}
	var h *fn
	for _, g := range f.u.fns {
		if g.name == name && g != f && (g.cls == f.cls || !method && g.cls == nil) {
			h = g
			break
		}
	}
	if h == nil && f.cls != nil {
		for _, g := range f.cls.fns {
			if g.name == name && g != f {
				h = g
				break
			}
		}
	}
	if h == nil || len(h.body) == 0 || c.helperDepth >= 3 {
		return guardNone, false // none, or helpers calling helpers (recursion)
	}
	last := h.body[len(h.body)-1]
	if last.kind != sExit || last.e == nil {
		return guardNone, false
	}
	params := h.paramOrder
	if h.u.lang == langPython && h.cls != nil && len(params) > 0 && params[0] == "self" {
		params = params[1:]
	}
	bound := map[string]bool{}
	for i, a := range call.args {
		if i < len(params) && c.mentions(a, now, f, true) {
			bound[params[i]] = true
		}
	}
	for _, kw := range call.kwargs {
		if c.mentions(kw.value, now, f, true) {
			bound[kw.name] = true
		}
	}
	c.helperDepth++
	defer func() { c.helperDepth-- }()
	return c.condLevel(last.e, neg, bound, h), true
}
