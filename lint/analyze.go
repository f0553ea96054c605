package lint

import (
	"fmt"
	"strings"
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
	enabled  map[string]bool
	findings []Finding
	// ifConds caches every if-condition of a function.
	ifConds map[*fn][]*expr
	// pairs caches paired.
	pairs map[pairKey]map[string]bool
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

// isWindowSub reports whether e is now() - Duration.
func (c *checker) isWindowSub(e *expr, f *fn) bool {
	if e.kind != eBinary || e.op != "-" {
		return false
	}
	l, r := c.d.facts(e.l, f), c.d.facts(e.r, f)
	if l&fNow == 0 || r&fDuration == 0 || r&fTime != 0 {
		return false
	}
	// A zero window, or one that scales with now (now - 0.9 * now), cannot
	// go negative.
	return !zeroDuration(e.r) && !c.mentions(e.r, c.aliases(e.l, f), f, true)
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
			visitFn(f, func(e *expr, conds []cond) {
				if c.isWindowSub(e, f) {
					c.d.agoLevel[e] = c.guardLevel(e, f, conds)
				}
			})
		}
	}
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
		if !neg && c.mentions(e, now, f, true) {
			return guardZeroOnly // truthiness: now.nanoseconds != 0
		}
	}
	return guardNone
}

// allIfConds returns every if-condition in f and its enclosing functions.
func (c *checker) allIfConds(f *fn) []*expr {
	if got, ok := c.ifConds[f]; ok {
		return got
	}
	var out []*expr
	for g := f; g != nil; g = g.outer {
		eachStmt(g.body, func(s *stmt) {
			if s.kind == sIf {
				out = append(out, s.e)
			}
		})
	}
	c.ifConds[f] = out
	return out
}

// check runs every enabled check on u.
func (c *checker) check(u *unit) {
	for _, f := range u.fns {
		visitFn(f, func(e *expr, conds []cond) {
			switch e.kind {
			case eBinary:
				if e.op == "-" {
					c.checkWindow(e, f, conds)
					c.checkBaseline(e, f, conds)
				}
				if e.op == "-" {
					c.checkClockTypes(e, f, conds)
				}
			case eCompare:
				c.checkClockTypes(e, f, conds)
			case eCall:
				c.checkLookup(e, f)
				c.checkPositional(e, f)
			}
		})
	}
	for _, s := range u.strings {
		c.checkSimTimeName(s)
	}
}

// report adds a finding for rule at e, if the rule is enabled, and returns
// it for adjustment (nil when the rule is off).
func (c *checker) report(u *unit, e *expr, rule, msg, why, fix string, edits []Edit) *Finding {
	if !c.enabled[rule] {
		return nil
	}
	r, _ := RuleByID(rule)
	c.findings = append(c.findings, u.finding(e.n, r, msg, why, fix, edits))
	return &c.findings[len(c.findings)-1]
}

// fixText picks the Python or the C++ wording of a fix.
func fixText(u *unit, py, cpp string) string {
	if u.lang == langPython {
		return py
	}
	return cpp
}

func (c *checker) checkWindow(e *expr, f *fn, conds []cond) {
	if !c.isWindowSub(e, f) {
		return
	}
	u := f.u
	lvl := c.d.agoLevel[e]
	if lvl == guardSafe {
		return
	}
	fix := fixText(u,
		"skip while now <= W: `if now.nanoseconds <= window.nanoseconds: return` before subtracting (or simclock guard.Ago)",
		"skip while now <= W: `if (now.nanoseconds() <= window.nanoseconds()) return;` before subtracting (or simclock guard.Ago)")
	if f.ctor && f.cls != nil && f.cls.isNode {
		c.report(u, e, "R26",
			fmt.Sprintf("%q is computed in the constructor of Node subclass %s, where now() is 0 under sim time", e.text(), f.cls.name),
			"Constructors run before the first /clock, so now() returns 0 whatever time the simulator starts at (R26): 0 - W is negative "+
				"(rclpy raises ValueError 'Subtraction leads to negative time'; rclcpp on Humble/Jazzy silently stores a negative Time).",
			"compute the window in a callback that runs after the clock has started, and "+fix, nil)
		return
	}
	why := "Under sim time now() is 0 until the first /clock and then counts from the simulator's start, so now - W is negative for every tick " +
		"before W (rclpy raises ValueError; rclcpp on Humble/Jazzy gives a negative Time) and exactly 0 on the tick at W, which tf2 reads as 'latest' (R27, R28)."
	var msg string
	switch lvl {
	case guardNone:
		msg = fmt.Sprintf("%q has no guard against now <= W", e.text())
	case guardZeroOnly:
		msg = fmt.Sprintf("%q is guarded only against now == 0: ticks with 0 < now < W still go negative", e.text())
	case guardBoundary:
		msg = fmt.Sprintf("%q is guarded with now < W (or == 0 or < W), which lets the boundary tick now == W through: the result is time 0", e.text())
	}
	c.report(u, e, "R27", msg, why, fix, nil)
}

// checkBaseline: now - prev where prev was taken from now() in the
// constructor (R29).
func (c *checker) checkBaseline(e *expr, f *fn, conds []cond) {
	if f.ctor {
		return
	}
	l, r := c.d.facts(e.l, f), c.d.facts(e.r, f)
	if l&fNow == 0 || r&fCtorNow == 0 {
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
	if c.stateGuarded(e, prev, f, conds) {
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
	msg := fmt.Sprintf("baseline %s is taken from now() in the constructor (0 before the first /clock) and %q does not guard against it", strings.TrimPrefix(prev, "self."), e.text())
	if dtCheck {
		msg += "; a dt < 0 check does not catch it"
	}
	c.report(u, e, "R29", msg,
		"A baseline stored before the first /clock is 0, so the first dt is the whole first /clock value (e.g. 125 s instead of 0.5 s): "+
			"it is positive, passes a dt < 0 check, and inflates integrals or deflates finite-difference rates (R29).",
		"skip the update when prev <= 0 or now <= 0, then treat dt < 0 as a backward jump, and always move the baseline to now (or use simclock guard.DtTracker)",
		nil)
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

// checkClockTypes: a SYSTEM_TIME value subtracted from or compared with a
// ROS_TIME one (R3, R5, R6, R30).
func (c *checker) checkClockTypes(e *expr, f *fn, conds []cond) {
	l, r := c.d.facts(e.l, f), c.d.facts(e.r, f)
	var sys, ros *expr
	switch {
	case l&fSystem != 0 && r&(fNow|fROS) != 0:
		sys, ros = e.l, e.r
	case r&fSystem != 0 && l&(fNow|fROS) != 0:
		sys, ros = e.r, e.l
	default:
		return
	}
	if e.kind == eBinary && (l&fDuration != 0 || r&fDuration != 0) && (l&fTime == 0 || r&fTime == 0) {
		return
	}
	// A check on the SYSTEM side anywhere in the function (if
	// self.last.nanoseconds == 0: self.last = now) means the author handles
	// the unset baseline.
	if p := c.d.path(sys, f); p != "" {
		set := map[string]bool{p: true}
		for _, ce := range c.allIfConds(f) {
			if !containsExpr(ce, e) && c.mentions(ce, set, f, false) {
				return
			}
		}
		if c.stateGuarded(e, p, f, conds) {
			return
		}
	}
	u := f.u
	rule, verb := "R5", "subtracted from"
	if e.kind == eCompare {
		rule, verb = "R6", "compared with"
	} else if sys == e.l {
		verb = "subtracted by"
	}
	rosWhat := "ROS_TIME " + shorten(ros.text())
	msg := fmt.Sprintf("SYSTEM_TIME value %s is %s %s: raises on clock-type mismatch", shorten(sys.text()), verb, rosWhat)
	if rule == "R5" && sys == e.l {
		msg = fmt.Sprintf("%s subtracts ROS_TIME %s from SYSTEM_TIME %s: raises on clock-type mismatch", shorten(e.text()), shorten(ros.text()), shorten(sys.text()))
	}
	why := "Time() and Time(seconds=...) default to SYSTEM_TIME in rclpy, as do rclcpp::Time() and its integer constructors, while get_clock().now() " +
		"and Time.from_msg() are ROS_TIME (R3). Subtracting (R5) or comparing (R6) times of different clock types fails ('Can't subtract/compare times " +
		"with different clock types'), even when the nanoseconds are equal (R30)."
	if u.lang == langCPP {
		why = strings.Replace(why, "fails (", "throws std::runtime_error (", 1)
	}
	fix := fixText(u,
		"give the baseline the ROS clock type: Time(..., clock_type=ClockType.ROS_TIME), or take it from self.get_clock().now()",
		"give the baseline the ROS clock type: rclcpp::Time(0, 0, RCL_ROS_TIME), or take it from now()")
	c.report(u, e, rule, msg, why, fix, c.clockTypeEdits(sys, f))
}

func shorten(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		return fmt.Sprintf("%q", s[:57]+"...")
	}
	return fmt.Sprintf("%q", s)
}

// lookupMethods are the tf2 buffer methods whose third argument is a time.
var lookupMethods = map[string]bool{
	"lookup_transform": true, "lookupTransform": true, "can_transform": true, "canTransform": true,
	"wait_for_transform_async": true, "lookup_transform_async": true, "waitForTransform": true,
}

// checkLookup: tf2 lookup at a time that may be 0 (R28).
func (c *checker) checkLookup(e *expr, f *fn) {
	if e.recv == nil || e.recv.kind != eAttr || !lookupMethods[e.recv.name] {
		return
	}
	var t *expr
	for _, kw := range e.kwargs {
		if kw.name == "time" {
			t = kw.value
		}
	}
	if t == nil && len(e.args) >= 3 {
		t = e.args[2]
	}
	if t == nil {
		return
	}
	u := f.u
	ft := c.d.facts(t, f)
	if ft&fAgo != 0 {
		c.report(u, t, "R28",
			fmt.Sprintf("lookup time %s comes from now() - W and may be exactly 0, which tf2 treats as 'latest available'", shorten(t.text())),
			"tf2 treats a lookup at time 0 as 'latest' (R28): on the boundary tick now == W the lookup silently returns the newest transform instead of the one W ago.",
			"guard the window so that the lookup time is > 0: skip while now <= W (R27)", nil)
		return
	}
	if q := canon(c.d.qual(t.recv, f), u.lang); t.kind == eCall && (q == "rclpy.time.Time" || q == "rclcpp.Time") &&
		ft&fSystem != 0 && len(t.args) == 0 && len(t.kwargs) == 0 {
		note := c.report(u, t, "R28",
			fmt.Sprintf("%s as lookup time asks tf2 for the latest transform, not the one at now or at a message stamp", shorten(t.text())),
			"Time() is 0 ns and tf2 treats time 0 as 'latest available' (R28). That is right when the newest transform is meant, wrong when the data being transformed has a stamp.",
			fixText(u, "pass the data's stamp (Time.from_msg(msg.header.stamp)); if 'latest' is really meant, say so with # simclock: ignore[R28]",
				"pass the data's stamp, or tf2::TimePointZero when 'latest' is meant"),
			nil)
		if note != nil {
			note.Level = LevelNote
		}
	}
}

// checkPositional: rclpy Time/Duration with positional arguments (R2, R7).
func (c *checker) checkPositional(e *expr, f *fn) {
	u := f.u
	if u.lang != langPython || len(e.args) == 0 || e.splat {
		return
	}
	q := canon(c.d.qual(e.recv, f), langPython)
	var rule, what string
	switch q {
	case "rclpy.time.Time":
		rule, what = "R2", "Time"
	case "rclpy.duration.Duration":
		rule, what = "R7", "Duration"
	default:
		return
	}
	names := []string{"seconds", "nanoseconds", "clock_type"}
	if rule == "R7" {
		names = names[:2]
	}
	var edits []Edit
	var kw []string
	if len(e.args) <= len(names) {
		for i, a := range e.args {
			edits = append(edits, Edit{Start: a.n.start, End: a.n.start, New: names[i] + "="})
			kw = append(kw, names[i]+"="+a.text())
		}
	}
	fix := fmt.Sprintf("%s(%s)", what, strings.Join(kw, ", "))
	if kw == nil {
		fix = "pass seconds=, nanoseconds= (and for Time clock_type=) by keyword"
		edits = nil
	}
	c.report(u, e, rule,
		fmt.Sprintf("rclpy %s takes keyword arguments only: %s raises TypeError", what, shorten(e.text())),
		fmt.Sprintf("rclpy.%s(*, seconds=0, nanoseconds=0%s) is keyword-only; seconds and nanoseconds are added, so seconds=1, nanoseconds=500000000 is 1.5 s (R2, R7).",
			map[string]string{"Time": "time.Time", "Duration": "duration.Duration"}[what],
			map[string]string{"Time": ", clock_type=SYSTEM_TIME", "Duration": ""}[what]),
		"write "+fix, edits)
}

// simTimeMisspellings are names people write for use_sim_time.
var simTimeMisspellings = map[string]bool{
	"use_simulated_time": true, "use_simulation_time": true, "use_simtime": true,
	"use_sim_times": true, "use_sime_time": true, "usesimtime": true, "use_sim_tim": true,
	"use_sim_time ": true, " use_sim_time": true,
}

func (c *checker) checkSimTimeName(s *expr) {
	if !simTimeMisspellings[s.name] || s.u == nil {
		return
	}
	var edits []Edit
	if s.content != nil {
		edits = []Edit{{Start: s.content.start, End: s.content.end, New: "use_sim_time"}}
	}
	c.report(s.u, s, "R16",
		fmt.Sprintf("parameter name %q is not use_sim_time: the node silently keeps wall time", s.name),
		"Only the use_sim_time parameter switches a node to /clock (R16); any other spelling declares or sets an unrelated parameter and is ignored.",
		"write 'use_sim_time'", edits)
}

// clockTypeEdits returns edits that give the SYSTEM_TIME constructions
// flowing into sys the ROS clock type: the construction itself when sys is
// one, else every construction assigned to the variable sys names.
func (c *checker) clockTypeEdits(sys *expr, f *fn) []Edit {
	var vals []*expr
	var fields []*field
	if sys.kind == eCall {
		vals = append(vals, sys)
	} else if p := c.d.path(sys, f); sys.kind == eAttr && !strings.HasPrefix(p, "self.") && c.d.lookup(p, f) == 0 {
		vals = append(vals, c.d.fieldVals[f.u][sys.name]...)
	} else if p != "" {
		if m, ok := strings.CutPrefix(p, "self."); ok && f.cls != nil {
			for _, v := range c.d.memberVals[f.cls][m] {
				vals = append(vals, v.value)
			}
			if fl := f.cls.fields[m]; fl != nil {
				if fl.init != nil {
					vals = append(vals, fl.init)
				} else {
					fields = append(fields, fl)
				}
			}
		} else {
			for g := f; g != nil; g = g.outer {
				vals = append(vals, c.d.localVals[g][p]...)
			}
		}
	}
	var edits []Edit
	for _, v := range vals {
		if v.u != f.u || v.kind != eCall {
			continue // fixes stay within the file being linted
		}
		if c.d.callFacts(v, f) != fSystem {
			continue
		}
		q := canon(c.d.qual(v.recv, f), f.u.lang)
		switch {
		case q == "rclpy.time.Time" && v.argList != nil && !v.splat:
			if c.d.clockArg(v, 2) != nil {
				return nil // an explicit SYSTEM_TIME: a choice, not a slip
			}
			close := v.argList.end - 1
			sep := ""
			if len(v.args)+len(v.kwargs) > 0 {
				sep = ", "
			}
			edits = append(edits, Edit{Start: close, End: close, New: sep + "clock_type=ClockType.ROS_TIME"})
			if _, ok := f.u.imports["ClockType"]; !ok {
				edits = append(edits, Edit{Start: f.u.lastImportEnd, End: f.u.lastImportEnd, New: "from rclpy.clock import ClockType\n"})
			}
		case q == "rclcpp.Time" && v.argList != nil:
			if strings.Contains(v.text(), "RCL_") {
				return nil
			}
			switch len(v.args) {
			case 0:
				edits = append(edits, Edit{Start: v.argList.start + 1, End: v.argList.end - 1, New: "0, 0, RCL_ROS_TIME"})
			case 2:
				edits = append(edits, Edit{Start: v.argList.end - 1, End: v.argList.end - 1, New: ", RCL_ROS_TIME"})
			}
		}
	}
	for _, fl := range fields {
		if fl.file == f.u && isTimeType(fl.typ) {
			edits = append(edits, Edit{Start: fl.n.end, End: fl.n.end, New: "{0, 0, RCL_ROS_TIME}"})
		}
	}
	return edits
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
	ros := fNow | fROS
	found := false
	eachStmt(f.body, func(s *stmt) {
		if s.kind == sAssign && s.value != nil && s.n != nil && s.n.start < site.n.start &&
			c.d.path(s.target, f) == p && c.d.facts(s.value, f)&ros != 0 {
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
	paired := c.paired(f.cls, m)
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
// but the constructor.
func (c *checker) paired(cls *class, m string) map[string]bool {
	key := pairKey{cls, m}
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
				if p := c.d.path(s.target, f); strings.HasPrefix(p, "self.") && p != "self."+m {
					out[p] = true
				}
			}
			scan(f, s.then)
			scan(f, s.els)
			scan(f, s.body)
		}
	}
	for _, f := range cls.fns {
		// A constructor assigns everything together; that pairs nothing.
		if !f.ctor {
			scan(f, f.body)
		}
	}
	c.pairs[key] = out
	return out
}

type pairKey struct {
	cls *class
	m   string
}
