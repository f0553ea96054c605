package lint

import (
	"fmt"
	"strings"

	"github.com/simclock/simclock/rules"
)

func init() {
	register(Rule{
		ID:       rules.R5,
		Name:     "clock-type-subtraction",
		Summary:  "SYSTEM_TIME baseline (Time(), rclcpp::Time()) subtracted from or by ROS time",
		Severity: rules.Error,
		Fixable:  true,
		Fix:      "give the baseline the ROS clock type, or take it from the node clock's now()",
		Help: "rclpy's Time() and Time(seconds=...) default to SYSTEM_TIME, as do rclcpp::Time() and its integer " +
			"constructors, while a node clock's now() and Time.from_msg() are ROS_TIME. Subtracting times of different " +
			"clock types raises in rclpy and throws std::runtime_error in rclcpp, even when the nanoseconds are equal. " +
			"Give the baseline the ROS clock type or take it from now(); --fix adds the clock type.",
		detector: detector{expr: detectR5},
	})
}

// detectR5 reports a SYSTEM_TIME value subtracted from or by a ROS_TIME one.
func detectR5(c *checker, e *expr, f *fn, conds []cond) {
	if e.kind == eBinary && e.op == "-" {
		c.checkClockTypes(e, f, conds)
	}
}

// checkClockTypes: a SYSTEM_TIME value subtracted from (R5) or compared
// with (R6) a ROS_TIME one (R3, R30). R5 and R6 share it.
func (c *checker) checkClockTypes(e *expr, f *fn, conds []cond) {
	l, r := c.d.facts(e.l, f), c.d.facts(e.r, f)
	const sysLike = fSystem | fUnset
	var sys, ros *expr
	var sysFacts fact
	switch {
	case l&sysLike != 0 && r&(fNow|fROS) != 0:
		sys, ros, sysFacts = e.l, e.r, l
	case r&sysLike != 0 && l&(fNow|fROS) != 0:
		sys, ros, sysFacts = e.r, e.l, r
	default:
		return
	}
	if e.kind == eBinary && (l&fDuration != 0 || r&fDuration != 0) && (l&fTime == 0 || r&fTime == 0) {
		return
	}
	// msg.header.stamp != last_stamp_ compares messages: the rclcpp::Time
	// converts to a builtin_interfaces Time, which has no clock type.
	if e.kind == eCompare && f.u.lang == langCPP && rawMsgStamp(e.l) {
		return
	}
	// Two parameters: their facts are the union over every caller, and
	// which caller's pair meets here is unknown.
	if c.isParam(e.l, f) && c.isParam(e.r, f) {
		return
	}
	// Both sides may be either clock type (a helper called with ROS times
	// from one caller and SYSTEM times from another): they travel together,
	// unless one is a default-constructed member read before it is set.
	if l&fSystem != 0 && l&(fNow|fROS) != 0 && r&fSystem != 0 && r&(fNow|fROS) != 0 {
		switch {
		case l&fUnset != 0:
			sys, ros, sysFacts = e.l, e.r, fUnset
		case r&fUnset != 0:
			sys, ros, sysFacts = e.r, e.l, fUnset
		default:
			return
		}
	}
	// A check on the SYSTEM side anywhere in the function (if
	// self.last.nanoseconds == 0: self.last = now) means the author handles
	// the unset baseline.
	if p := c.d.path(sys, f); p != "" {
		set := map[string]bool{p: true}
		for _, ce := range c.allIfConds(f) {
			if !containsExpr(ce, e) && c.checksBaseline(ce, set, f) {
				return
			}
		}
		if c.stateGuardedBy(e, p, f, conds, true) || c.localFlagGuarded(p, f, conds) || strings.HasPrefix(p, "self.") && c.resetBefore(e, p, f) ||
			c.isParam(sys, f) && c.paramSetAtCalls(p, f) {
			return
		}
		for _, cd := range conds {
			if c.checksBaseline(cd.e, set, f) {
				return // prev.seconds() > 0.0 && now - prev < W
			}
		}
	}
	// A member that is SYSTEM_TIME only until its first assignment fails a
	// run only where the read is shown to come first (the shapes of the
	// real bugs, unsetRead); where other code may set it first (another
	// class, or a branch behind another object's state), it is info.
	undecided := ""
	if sysFacts&fSystem == 0 {
		switch {
		case !c.unsetRead(e, sys, f, conds):
			if !c.setByOtherClass(sys, f) {
				return
			}
			undecided = "another class assigns it, possibly before every read"
		case c.otherObjectState(conds, f):
			undecided = "the read is behind a condition on another object's state, which may run the first assignment before it"
		}
	}
	// A member that is SYSTEM_TIME only until its first assignment, read
	// inside a try whose handler catches the throw: the mismatch is the
	// author's "never set" test (novatel_gps_driver's rate diagnostic). A
	// value that is SYSTEM_TIME every time (rclcpp::Time(clock_type)) still
	// throws once the other side is set, handled or not.
	// Not when every assignment that could give the member another clock
	// type comes after the read, reached only when the read did not throw
	// (if ((now() - last_warn_).seconds() > 5.0) { ...; last_warn_ = now(); }
	// in the try): the read then sees SYSTEM_TIME every time.
	if p := c.d.path(sys, f); strings.HasPrefix(p, "self.") && sysFacts&(fNow|fROS) != 0 && caughtMismatch(e.n, f.u.src) &&
		!c.setOnlyAfterRead(e, p, f) {
		return
	}
	u := f.u
	rule, verb := rules.R5, "subtracted from"
	if e.kind == eCompare {
		rule, verb = rules.R6, "compared with"
	} else if sys == e.l {
		verb = "subtracted by"
	}
	// R5 in a method nothing in its package names (unreferenced, as R27):
	// the subtraction cannot run.
	if rule == rules.R5 && undecided == "" && c.unreferenced(f) {
		undecided = "nothing in the package calls " + outermost(f).name + "()"
	}
	rosWhat := "ROS_TIME " + shorten(ros.text())
	msg := fmt.Sprintf("SYSTEM_TIME value %s is %s %s: raises on clock-type mismatch", shorten(sys.text()), verb, rosWhat)
	if rule == rules.R5 && sys == e.l {
		msg = fmt.Sprintf("%s subtracts ROS_TIME %s from SYSTEM_TIME %s: raises on clock-type mismatch", shorten(e.text()), shorten(ros.text()), shorten(sys.text()))
	}
	if sysFacts&fSystem == 0 { // fUnset only
		msg = fmt.Sprintf("rclcpp::Time member %s is default-constructed (SYSTEM_TIME 0) and set only outside the constructor: "+
			"until its first assignment it is %s %s, which throws on clock-type mismatch", shorten(sys.text()), verb, rosWhat)
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
	if undecided != "" {
		c.reportInfo(u, e, rule, msg+"; info: "+undecided, why, fix, c.clockTypeEdits(sys, f))
		return
	}
	c.report(u, e, rule, msg, why, fix, c.clockTypeEdits(sys, f))
}

// setByOtherClass reports whether sys is a member of f's class that
// another class assigns (dataflow.setOutside).
func (c *checker) setByOtherClass(sys *expr, f *fn) bool {
	m, ok := strings.CutPrefix(c.d.path(sys, f), "self.")
	return ok && f.cls != nil && c.d.setOutside[f.cls][m]
}

// otherObjectState reports whether a condition holding at the read asks
// another object held in a member about its state (tracker_->state ==
// LOST, planner_.isReady()): which calls reach the read first is that
// object's business, beyond the analysis.
func (c *checker) otherObjectState(conds []cond, f *fn) bool {
	found := false
	for _, cd := range conds {
		walkExpr(cd.e, func(x *expr) {
			var obj *expr
			switch {
			case x.kind == eAttr && x.recv != nil:
				obj = x.recv
			case x.kind == eCall && x.recv != nil && x.recv.kind == eAttr:
				obj = x.recv.recv
			}
			if obj == nil {
				return
			}
			if p := c.d.path(obj, f); strings.HasPrefix(p, "self.") && p != "self" {
				found = true
			}
		})
	}
	return found
}

// constantTime reports whether a Time construction has only numeric
// literals (and clock-type constants) as arguments.
func constantTime(e *expr) bool {
	lit := func(a *expr) bool {
		for a != nil && a.kind == eOther && a.n != nil && (a.n.kind == "unary_operator" || a.n.kind == "unary_expression") && len(a.subs) == 1 {
			a = a.subs[0]
		}
		return a != nil && (a.kind == eNumber || strings.Contains(a.text(), "_TIME"))
	}
	for _, a := range e.args {
		if !lit(a) {
			return false
		}
	}
	for _, k := range e.kwargs {
		if !lit(k.value) {
			return false
		}
	}
	return true
}

// clockTypeImport adds "from rclpy.clock import ClockType" where
// ament_flake8's import order (flake8-import-order, google style) wants
// it: among the third-party imports, before the first whose module sorts
// after rclpy.clock, else after the last import (a group of its own when
// only the standard library's come before).
func clockTypeImport(u *unit) Edit {
	const line = "from rclpy.clock import ClockType\n"
	thirdParty := false
	for _, imp := range u.topImports {
		if stdlibModule(imp.module) {
			continue
		}
		thirdParty = true
		if strings.ToLower(imp.module) > "rclpy.clock" {
			return Edit{Start: imp.start, End: imp.start, New: line}
		}
	}
	if !thirdParty && len(u.topImports) > 0 {
		return Edit{Start: u.lastImportEnd, End: u.lastImportEnd, New: "\n" + line}
	}
	return Edit{Start: u.lastImportEnd, End: u.lastImportEnd, New: line}
}

// stdlibModule reports whether a module is Python's standard library (the
// modules ROS 2 nodes import; flake8-import-order keeps them in a group
// before the third-party ones).
func stdlibModule(m string) bool {
	if i := strings.IndexByte(m, '.'); i >= 0 {
		m = m[:i]
	}
	switch m {
	case "__future__", "abc", "argparse", "array", "ast", "asyncio", "base64", "bisect", "builtins", "collections",
		"concurrent", "configparser", "contextlib", "copy", "csv", "ctypes", "dataclasses", "datetime", "decimal",
		"enum", "errno", "fcntl", "fractions", "functools", "getpass", "glob", "gzip", "hashlib", "heapq", "http",
		"importlib", "inspect", "io", "ipaddress", "itertools", "json", "logging", "math", "multiprocessing",
		"numbers", "operator", "os", "pathlib", "pickle", "platform", "pprint", "queue", "random", "re", "select",
		"selectors", "shlex", "shutil", "signal", "socket", "sqlite3", "ssl", "statistics", "string", "struct",
		"subprocess", "sys", "tempfile", "textwrap", "threading", "time", "timeit", "traceback", "types", "typing",
		"unittest", "urllib", "uuid", "warnings", "weakref", "xml", "zipfile", "zlib":
		return true
	}
	return false
}

// rawMsgStamp reports whether e reads a message header's stamp as the
// message field it is (x.header.stamp), not converted to rclcpp::Time.
func rawMsgStamp(e *expr) bool {
	return e != nil && e.kind == eAttr && e.name == "stamp" && e.recv != nil && e.recv.kind == eAttr && e.recv.name == "header"
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
		if c.d.callFacts(v, f)&^fZero != fSystem {
			continue
		}
		// Only a time written as constants (Time(), Time(seconds=5),
		// rclcpp::Time(5, 0)) keeps its meaning as ROS time: one built from a
		// reading (Time(seconds=time.time()), a wall stamp's fields) would
		// become a deadline the simulation reaches when it says so. No fix
		// is offered then.
		if !constantTime(v) {
			return nil
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
				edits = append(edits, clockTypeImport(f.u))
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

// unsetRead decides whether a read of a default-constructed rclcpp::Time
// member that only methods set (fUnset) is reported: ordering between
// callbacks is invisible to the analysis, so it takes the shapes of the
// real bugs (mavros#1734, message_filters#175): a baseline named last_* or
// prev_*, or one the same function assigns after reading it, with no
// condition on the object's state holding at the read.
func (c *checker) unsetRead(site, sys *expr, f *fn, conds []cond) bool {
	p := c.d.path(sys, f)
	m, ok := strings.CutPrefix(p, "self.")
	if !ok || f.cls == nil {
		return false
	}
	for _, cd := range conds {
		if c.readsMember(cd.e, f) {
			return false // if (!joy_) return; if (count_ > 0) ...: a state guard
		}
	}
	if c.setBeforeCalls(f, p) {
		return false // every caller sets the member before calling f
	}
	if c.setInEarlierTransition(f, m) {
		return false // on_configure sets it; update() runs only once active
	}
	if baselineName(m) {
		return true
	}
	after := false
	eachStmt(f.body, func(s *stmt) {
		if s.kind == sAssign && s.n != nil && s.n.start > site.n.end && c.d.path(s.target, f) == p {
			after = true
		}
	})
	return after
}

// isParam reports whether e names a parameter of f.
func (c *checker) isParam(e *expr, f *fn) bool {
	if e == nil || e.kind != eName {
		return false
	}
	_, ok := f.params[e.name]
	return ok && c.d.path(e, f) == e.name
}

// setBeforeCalls reports whether f is a method called from other methods
// of its class, and each such call comes after an assignment to member p
// in the caller ("if (flags) { prev_reset_ = now(); } ... if (resetAvailable())").
func (c *checker) setBeforeCalls(f *fn, p string) bool {
	if f.cls == nil {
		return false
	}
	calls := 0
	for _, g := range f.cls.fns {
		if g == f {
			continue
		}
		eachStmt(g.body, func(s *stmt) {
			for _, e := range []*expr{s.e, s.value} {
				walkExpr(e, func(call *expr) {
					if call.kind != eCall || call.recv == nil || call.n == nil {
						return
					}
					r := call.recv
					if !(r.kind == eName && r.name == f.name ||
						r.kind == eAttr && r.name == f.name && r.recv != nil && r.recv.kind == eName && r.recv.name == "self") {
						return
					}
					calls++
					set := false
					eachStmt(g.body, func(a *stmt) {
						if a.kind == sAssign && a.n != nil && a.n.end <= call.n.start && c.d.path(a.target, g) == p {
							set = true
						}
					})
					if !set {
						calls = -1 << 30
					}
				})
			}
		})
	}
	return calls > 0
}

// readsMember reports whether e reads object state: a member of f's class
// that a method other than a constructor or initialiser assigns (a flag, a
// counter, a has-data pointer), or a method's result (isDataReady()).
// Configuration set once in the constructor is not state.
func (c *checker) readsMember(e *expr, f *fn) bool {
	if e == nil {
		return false
	}
	if e.kind == eName || e.kind == eAttr {
		if m, ok := strings.CutPrefix(c.d.path(e, f), "self."); ok && f.cls != nil && c.d.stateMember(f.cls, m) {
			return true
		}
	}
	if e.kind == eCall && e.recv != nil && f.cls != nil {
		name := ""
		switch r := e.recv; {
		case r.kind == eName && f.u.lang == langCPP:
			name = r.name
		case r.kind == eAttr && r.recv != nil && r.recv.kind == eName && r.recv.name == "self":
			name = r.name
		}
		for _, g := range f.cls.fns {
			if name != "" && g.name == name {
				return true // a method's answer such as isDataReady()
			}
		}
	}
	if c.readsMember(e.recv, f) || c.readsMember(e.l, f) || c.readsMember(e.r, f) {
		return true
	}
	for _, a := range e.args {
		if c.readsMember(a, f) {
			return true
		}
	}
	for _, s := range e.subs {
		if c.readsMember(s, f) {
			return true
		}
	}
	return false
}

// baselineName reports whether a member path's last name says it holds the
// last value seen (last_time_, prev_stamp, m_lastUpdate, latest_stamp_).
func baselineName(p string) bool {
	name := strings.ToLower(p[strings.LastIndexByte(p, '.')+1:])
	name = strings.TrimLeft(strings.TrimPrefix(name, "m_"), "_")
	return strings.HasPrefix(name, "last") || strings.HasPrefix(name, "prev") || strings.HasPrefix(name, "latest")
}

// caughtMismatch reports whether n lies in the body of a try statement
// with a handler for the clock-type mismatch: std::runtime_error (or a
// base, or catch (...)) in C++, TypeError (or a base, or a bare except) in
// Python.
func caughtMismatch(n *node, src []byte) bool {
	for p := n; p != nil && p.parent != nil; p = p.parent {
		switch p.parent.kind {
		case "function_definition", "lambda_expression":
			return false
		case "try_statement":
			if p.kind == "catch_clause" || p.kind == "except_clause" || p.kind == "finally_clause" || p.kind == "else_clause" {
				continue // a handler is not guarded by its own try
			}
			for _, h := range p.parent.children {
				if h.kind != "catch_clause" && h.kind != "except_clause" {
					continue
				}
				params := h.child("parameters")
				if h.kind == "except_clause" {
					params = nil
					for _, ch := range h.children {
						if ch.kind != "block" && ch.kind != "except" && ch.kind != ":" && ch.kind != "comment" {
							params = ch
							break
						}
					}
					if params == nil {
						return true // a bare except
					}
				}
				if params == nil {
					continue
				}
				t := string(src[params.start:params.end])
				for _, caught := range []string{"runtime_error", "std::exception", "...", "TypeError", "Exception"} {
					if strings.Contains(t, caught) {
						return true
					}
				}
			}
		}
	}
	return false
}

// localFlagGuarded reports whether the local p (a default-constructed
// rclcpp::Time or rclpy Time(), SYSTEM_TIME until assigned) is read only
// behind a local flag that f sets to true only in statement lists that
// also assign p ("bool received = false; rclcpp::Time seen; switch (id)
// { case 1: if (got1_) { seen = seen1_; received = true; } ... }
// if (received) { now - seen }"): the flag says p has been assigned,
// as a member flag does (stateGuarded). A flag set anywhere without p
// guards nothing.
func (c *checker) localFlagGuarded(p string, f *fn, conds []cond) bool {
	if p == "" || strings.Contains(p, ".") {
		return false
	}
	for _, cd := range conds {
		e, neg := cd.e, cd.neg
		for e != nil && e.kind == eNot { // if (!initialized) { ...; return; }
			e, neg = e.l, !neg
		}
		if neg || e == nil || e.kind != eName {
			continue
		}
		if q := c.d.path(e, f); q != "" && q != p && !strings.Contains(q, ".") && c.flagSetWith(flagScope(f, q), q, p) {
			return true
		}
	}
	return false
}

// flagScope returns the function that declares the local q that f reads:
// f itself, or, for a lambda reading a captured local, the enclosing
// function that declares it (q and the time it guards are then set in
// lambdas of that function, which flagSetWith scans too).
func flagScope(f *fn, q string) *fn {
	for g := f; g != nil; g = g.outer {
		if _, ok := g.params[q]; ok {
			return g
		}
		found := false
		eachStmt(g.body, func(s *stmt) {
			if s.kind == sAssign && s.decl && s.target != nil && s.target.kind == eName && s.target.name == q {
				found = true
			}
		})
		if found {
			return g
		}
	}
	return f
}

// flagSetWith reports whether every assignment in f that sets the local
// flag q to anything but false sets it to true in a statement list that
// also assigns the local p a value, and there is at least one.
func (c *checker) flagSetWith(f *fn, q, p string) bool {
	literal := func(e *expr, want string) bool {
		return e != nil && strings.EqualFold(strings.TrimSpace(e.text()), want)
	}
	sets, ok := 0, true
	cur := f
	var scan func(stmts []*stmt)
	scan = func(stmts []*stmt) {
		assignsP := false
		for _, s := range stmts {
			if s.kind == sAssign && s.value != nil && c.d.path(s.target, cur) == p {
				assignsP = true
			}
		}
		for _, s := range stmts {
			if s.kind == sAssign && c.d.path(s.target, cur) == q && !(s.value == nil && s.decl) && !literal(s.value, "false") {
				if !literal(s.value, "true") || !assignsP {
					ok = false
				}
				sets++
			}
			scan(s.then)
			scan(s.els)
			scan(s.body)
		}
	}
	scan(f.body)
	// Lambdas defined in f share its locals by capture: a flag set in one
	// (reset_window = [&] { initialized = true; start = now(); }) counts
	// as a set of the same local.
	for _, g := range f.u.fns {
		if g != f && nestedIn(g, f) {
			cur = g
			scan(g.body)
		}
	}
	return ok && sets > 0
}

// nestedIn reports whether g is a lambda or nested function inside f.
func nestedIn(g, f *fn) bool {
	for o := g.outer; o != nil; o = o.outer {
		if o == f {
			return true
		}
	}
	return false
}

// transitionStage orders a lifecycle node's or ros2_control controller's
// transitions: init/on_init (0) run when the controller is loaded,
// on_configure (1) and on_activate (2) before it is active, where
// update() and the class's callbacks (3) run. Other transitions
// (on_deactivate, on_cleanup, on_shutdown, on_error) come after or
// instead, and order nothing (-1).
func transitionStage(name string) int {
	switch name {
	case "init", "on_init":
		return 0
	case "on_configure":
		return 1
	case "on_activate":
		return 2
	case "on_deactivate", "on_cleanup", "on_shutdown", "on_error":
		return -1
	}
	return 3
}

// setInEarlierTransition reports whether member m of f's class is
// assigned unconditionally (not under an if, a loop, a switch, a try or in
// a lambda; under a preprocessor #if, as the read usually is too) in a
// lifecycle transition that runs before f: on_configure or on_activate
// before update() and the callbacks (rclcpp_lifecycle nodes; ros2_control
// calls update only after configure and activate), init/on_init before
// those. A read in a constructor, in the transition itself or in a later
// one (on_deactivate, on_cleanup) is not covered.
func (c *checker) setInEarlierTransition(f *fn, m string) bool {
	if f.cls == nil {
		return false
	}
	o := f
	for o.outer != nil {
		o = o.outer
	}
	if o.ctor {
		return false
	}
	stage := transitionStage(o.name)
	if stage <= 0 {
		return false
	}
	for _, g := range f.cls.fns {
		if g.outer != nil || g.n == nil {
			continue
		}
		if st := transitionStage(g.name); st < 0 || st >= stage || st == 3 {
			continue
		}
		if assignedUnconditionally(g, m) {
			return true
		}
	}
	return false
}

// assignedUnconditionally reports whether g's body assigns member m
// (m_, this->m_, self.m, by = or a compound operator) outside any if,
// loop, switch, try, conditional expression or lambda; a preprocessor #if
// does not count as a condition.
func assignedUnconditionally(g *fn, m string) bool {
	return firstUnconditionalAssign(g, m, false) != nil
}

// checksBaseline reports whether condition ce reads the baseline (a path
// in set) other than as an operand of a comparison or subtraction with a
// ROS time: "if (now() < deadline_)" elsewhere in the function throws as
// the reported site does, it does not handle an unset baseline
// ("if deadline.nanoseconds == 0" or "if (!last_)" does).
func (c *checker) checksBaseline(ce *expr, set map[string]bool, f *fn) bool {
	if ce == nil {
		return false
	}
	// isBaseline: ce names the baseline itself (a name or member path).
	isBaseline := func(x *expr) bool {
		if x == nil || x.kind != eName && x.kind != eAttr {
			return false
		}
		p := c.d.path(x, f)
		return p != "" && set[p]
	}
	if isBaseline(ce) {
		return true
	}
	if ce.kind == eCompare || ce.kind == eBinary && ce.op == "-" {
		rosOnly := func(x *expr) bool {
			ft := c.d.facts(x, f)
			return ft&(fNow|fROS) != 0 && ft&(fSystem|fUnset) == 0
		}
		if isBaseline(ce.l) && rosOnly(ce.r) && !c.mentions(ce.r, set, f, false) ||
			isBaseline(ce.r) && rosOnly(ce.l) && !c.mentions(ce.l, set, f, false) {
			return false
		}
	}
	found := false
	eachChild(ce, func(x *expr) { found = found || c.checksBaseline(x, set, f) })
	return found
}

// firstUnconditionalAssign returns the first assignment to member m
// (m_, this->m_, self.m) in g's body outside any if, loop, switch, try,
// conditional expression or lambda, or nil. strict takes only a plain =
// (a compound operator reads the old value) and counts a preprocessor #if
// as a condition too.
func firstUnconditionalAssign(g *fn, m string, strict bool) *node {
	body := g.n.child("body")
	if body == nil {
		return nil
	}
	var found *node
	var walk func(n *node)
	walk = func(n *node) {
		if found != nil {
			return
		}
		switch n.kind {
		case "if_statement", "for_statement", "for_range_loop", "while_statement", "do_statement", "switch_statement",
			"try_statement", "conditional_expression", "lambda_expression", "lambda", "with_statement", "match_statement":
			return
		case "preproc_if", "preproc_ifdef":
			if strict {
				return
			}
		case "assignment_expression", "assignment":
			if l := n.child("left"); l != nil {
				t := strings.TrimSpace(g.u.text(l))
				t = strings.TrimPrefix(strings.TrimPrefix(t, "this->"), "self.")
				op := n.child("operator")
				if t == m && (!strict || op == nil || strings.TrimSpace(g.u.text(op)) == "=") {
					found = n
					return
				}
			}
		}
		for _, ch := range n.children {
			walk(ch)
		}
	}
	walk(body)
	return found
}

// setOnlyAfterRead reports whether every assignment of member p that may
// give it a clock type other than SYSTEM_TIME is in f and runs only after
// the read e was evaluated without throwing (readFirst): then the member is
// SYSTEM_TIME at every read at e, and a handler that catches the throw
// hides a check that never works rather than testing "never set". An
// assignment in another method or lambda, by another class, or a member
// initialiser may well run first: not shown.
func (c *checker) setOnlyAfterRead(e *expr, p string, f *fn) bool {
	m, ok := strings.CutPrefix(p, "self.")
	if !ok || f.cls == nil || e.n == nil || c.d.setOutside[f.cls][m] {
		return false
	}
	typ := ""
	if fl := f.cls.fields[m]; fl != nil {
		if fl.init != nil && !zeroSystemTime(fl.init) {
			return false
		}
		typ = fl.typ
	}
	found := false
	for _, v := range c.d.memberVals[f.cls][m] {
		ft := c.d.valueFacts(typ, v.value, v.f)
		if ft&fSystem != 0 && ft&(fNow|fROS) == 0 {
			continue // SYSTEM_TIME again: no other clock type
		}
		if v.f != f || v.value == nil || !readFirst(e.n, v.value.n, f.u.src) {
			return false
		}
		found = true
	}
	return found
}

// readFirst reports whether node a runs only after node r was evaluated
// and did not throw, in one function body: r and a are in one statement
// list, r in an earlier statement that evaluates it whenever it runs (not
// in a branch, a loop, a lambda, a try, or the right of && or ||), or r is
// in the condition of an if (or while) and a in its branch (its body). A
// try between them would catch r's throw and go on to a.
func readFirst(r, a *node, src []byte) bool {
	if r == nil || a == nil || a.start < r.end {
		return false
	}
	onR := map[*node]bool{}
	for n := r; n != nil; n = n.parent {
		onR[n] = true
	}
	lca := a
	for lca != nil && !onR[lca] {
		lca = lca.parent
	}
	if lca == nil || lca == r {
		return false
	}
	below := func(x *node) *node { // the child of lca that holds x
		for ; x != nil && x.parent != lca; x = x.parent {
		}
		return x
	}
	toR, toA := below(r), below(a)
	if toR == nil || toA == nil || toR == toA {
		return false
	}
	andRight := false
	for n := r; n != toR; n = n.parent {
		switch par := n.parent; par.kind {
		case "if_statement", "while_statement":
			if n.field != "condition" {
				return false
			}
		case "binary_expression", "boolean_operator":
			if op := par.child("operator"); n.field == "right" && op != nil {
				switch strings.TrimSpace(string(src[op.start:op.end])) {
				case "||", "or":
					return false
				case "&&", "and":
					andRight = true
				}
			}
		case "lambda_expression", "lambda", "function_definition", "try_statement", "catch_clause", "except_clause",
			"finally_clause", "else_clause", "elif_clause", "conditional_expression", "for_statement", "for_range_loop",
			"do_statement", "switch_statement", "case_statement", "with_statement", "match_statement",
			"list_comprehension", "dictionary_comprehension", "set_comprehension", "generator_expression":
			return false
		}
	}
	switch lca.kind {
	case "compound_statement", "block":
		return !andRight
	case "if_statement":
		return toR.field == "condition" && (toA.field == "consequence" || toA.field == "alternative" && !andRight)
	case "while_statement":
		return toR.field == "condition" && toA.field == "body"
	}
	return false
}
