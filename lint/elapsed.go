package lint

// The elapsed-time analysis of R29 (rule_r29.go): how the time since a
// constructor baseline, now - prev, is used at and after the subtraction.
// A dt in arithmetic (integrals, rates) is the hazard; a throttle, a
// watchdog whose expiry only resets state, a dt bounded from above or a
// value only logged is not; a timeout whose effect cannot be judged is in
// between.

import (
	"slices"
	"strings"
)

// How the elapsed time now - prev is used, from harmless to hazardous.
type elapsedKind int

const (
	elapsedUnused   elapsedKind = iota // only logged, or not at all
	elapsedGuarded                     // an upper bound skips or clamps a large dt
	elapsedHarmless                    // only compared, as a throttle or a watchdog whose expiry only resets state
	elapsedUnknown                     // compared or handed on with effects the analysis cannot judge
	elapsedZeroed                      // a dt in arithmetic, multiplied only by values still 0 at the first tick (firsttick.go)
	elapsedArith                       // a dt in arithmetic: integrals, rates
)

// elapsedUse classifies the uses of the elapsed time at site: the
// subtraction itself and the locals computed from it by a conversion
// (dt = (now - prev).nanoseconds / 1e9). An upper bound that skips or
// replaces a large dt guards the arithmetic after it, and the branch of an
// if taken only while the elapsed time is small is guarded too.
func (c *checker) elapsedUse(site *expr, prev string, f *fn) elapsedKind {
	dts, defs := c.elapsedAliases(site, f)
	uses := func(e *expr) bool { return containsExpr(e, site) || len(dts) > 0 && c.mentions(e, dts, f, false) }
	// derived are the locals computed from the elapsed time by arithmetic
	// (rate = count / dt, step = v * dt): where they go decides.
	derived := map[string]bool{}
	for changed := true; changed; {
		changed = false
		eachStmt(f.body, func(s *stmt) {
			if s.kind != sAssign || s.value == nil || defs[s] || !(uses(s.value) || c.mentions(s.value, derived, f, false)) ||
				onlyCompared(s.value, func(e *expr) bool { return uses(e) || c.mentions(e, derived, f, false) }) {
				return // a flag (fresh = elapsed < T) is a comparison, judged where it is stored
			}
			if onlyPhase(s.value, func(e *expr) bool { return uses(e) || c.mentions(e, derived, f, false) }) {
				return // a phase (fmod(t, period), sin(w * t)): a late start only shifts it
			}
			if p := c.d.rootPath(s.target, f); p != "" && !strings.HasPrefix(p, "self.") && !derived[p] && !dts[p] {
				derived[p] = true
				changed = true
			}
		})
	}
	usesAny := func(e *expr) bool { return uses(e) || len(derived) > 0 && c.mentions(e, derived, f, false) }
	// usesDt is usesAny without the derived locals whose every value is
	// a zeroed step (yaw_mid = yaw + 0.5 * w * dt with w still 0).
	carried := map[string]bool{}
	for p := range derived {
		for g := f; g != nil; g = g.outer {
			for _, v := range c.d.localVals[g][p] {
				if v.n == nil || !c.zeroedStep(v, uses, f, v.n.start) {
					carried[p] = true
				}
			}
		}
	}
	usesDt := func(e *expr) bool { return uses(e) || len(carried) > 0 && c.mentions(e, carried, f, false) }
	unknown, harmless, flag := false, false, false
	guardAt := -1 // offset of the first guard
	type arithUse struct {
		at     int
		zeroed bool // multiplied by a value still 0 at the first tick
	}
	var ariths []arithUse
	arith := func(s *stmt) {
		if s.n == nil {
			return
		}
		e := s.e
		if s.kind == sAssign {
			e = s.value
		}
		ariths = append(ariths, arithUse{s.n.start, s.kind != sExpr && c.zeroedStep(e, usesDt, f, s.n.start)})
	}
	var walk func(stmts []*stmt)
	walk = func(stmts []*stmt) {
		for _, s := range stmts {
			if defs[s] {
				if c.clamps(s.value, uses) && (guardAt < 0 || s.n.start < guardAt) {
					guardAt = s.n.start
				}
				continue
			}
			skipThen, skipElse := false, false
			switch s.kind {
			case sIf:
				switch {
				case uses(s.e):
					var kind elapsedKind
					kind, skipThen, skipElse = c.elapsedIf(s, uses, dts, prev, f)
					switch kind {
					case elapsedGuarded:
						if guardAt < 0 || s.n.start < guardAt {
							guardAt = s.n.start
						}
					case elapsedHarmless:
						harmless = true
					case elapsedUnknown:
						unknown = true
					}
				case usesAny(s.e):
					unknown = true // a rate compared: a false alarm at most
				}
			case sAssign:
				if s.value == nil || !usesAny(s.value) {
					break
				}
				p := c.d.rootPath(s.target, f)
				switch {
				case onlyPhase(s.value, usesAny):
					// a phase: a late start shifts a periodic signal, nothing grows
				case derived[p] && !strings.HasPrefix(p, "self."):
					// followed where it goes
				case onlyCompared(s.value, usesAny) && !strings.HasPrefix(p, "self."):
					// a local flag (should_publish = ... || dt > max): beside
					// a throttle, one more reason to act on a large interval
					flag = true
				case onlyCompared(s.value, usesAny), c.conversionOf(s.value, uses, f):
					unknown = true // a flag or the elapsed time stored: its effect is elsewhere
				default:
					arith(s)
				}
			case sExit:
				if s.e != nil && usesAny(s.e) {
					if onlyCompared(s.e, usesAny) || c.conversionOf(s.e, uses, f) {
						unknown = true // returned: the caller decides
					} else {
						arith(s)
					}
				}
			default:
				if s.e != nil && usesAny(s.e) && !c.onlyLogged(s.e, usesAny) {
					if onlyCompared(s.e, usesAny) {
						unknown = true // a loop condition: waiting until a deadline
					} else {
						arith(s) // handed to a computation: integrate(v, dt)
					}
				}
			}
			if !skipThen {
				walk(s.then)
			}
			if !skipElse {
				walk(s.els)
			}
			walk(s.body)
		}
	}
	walk(f.body)
	zeroed := false
	for _, a := range ariths {
		if guardAt < 0 || a.at < guardAt {
			if !a.zeroed {
				return elapsedArith
			}
			zeroed = true
		}
	}
	switch {
	case zeroed && !c.moves(f.body, prev, f):
		// a time since start (count / (now - start)): every later value
		// is measured from the constructor's 0 too, not only the first
		return elapsedArith
	case zeroed && !unknown:
		return elapsedZeroed
	case guardAt >= 0 && !zeroed:
		return elapsedGuarded
	case unknown, flag && !harmless:
		return elapsedUnknown
	case harmless:
		return elapsedHarmless
	}
	return elapsedUnused
}

// elapsedAliases returns the locals that hold the elapsed time at site or
// a conversion of it (dt = (now - prev).seconds(); dt_ms = dt * 1000;
// dt = min(dt, 0.1)), and the assignments that define them.
func (c *checker) elapsedAliases(site *expr, f *fn) (map[string]bool, map[*stmt]bool) {
	dts := map[string]bool{}
	defs := map[*stmt]bool{}
	uses := func(e *expr) bool { return containsExpr(e, site) || len(dts) > 0 && c.mentions(e, dts, f, false) }
	for changed := true; changed; {
		changed = false
		eachStmt(f.body, func(s *stmt) {
			if s.kind != sAssign || s.value == nil || defs[s] || !uses(s.value) {
				return
			}
			p := c.d.path(s.target, f)
			if p == "" || strings.HasPrefix(p, "self.") || !c.conversionOf(s.value, uses, f) && !c.clamps(s.value, uses) {
				return
			}
			dts[p] = true
			defs[s] = true
			changed = true
		})
	}
	return dts, defs
}

// conversionOf reports whether e is the elapsed time converted: scaled by
// constants, turned into seconds or nanoseconds, cast, with nothing else
// of the program in it.
func (c *checker) conversionOf(e *expr, uses func(*expr) bool, f *fn) bool {
	if e == nil {
		return true
	}
	if uses(e) && (e.kind == eName || e.kind == eBinary && e.op == "-" && c.d.facts(e, f)&fDuration != 0 && e.l != nil && c.d.facts(e.l, f)&fNow != 0) {
		return true
	}
	switch e.kind {
	case eNumber:
		return true
	case eName:
		return isConstName(e.name)
	case eAttr:
		// (now - prev).nanoseconds, dt.seconds
		return uses(e.recv) && c.conversionOf(e.recv, uses, f) || !uses(e) && isConstName(e.name)
	case eCall:
		switch {
		case e.recv != nil && e.recv.kind == eAttr && uses(e.recv.recv):
			// .seconds(), .nanoseconds(), .count(), .to_sec(), .to_msg()
			return len(e.args) == 0 && c.conversionOf(e.recv.recv, uses, f)
		case e.recv != nil && (e.recv.kind == eName || e.recv.kind == eAttr) && isCastName(e.recv.name):
			for _, a := range e.args {
				if !c.conversionOf(a, uses, f) {
					return false
				}
			}
			return len(e.args) > 0
		}
		return false
	case eBinary:
		return (e.op == "*" || e.op == "/" || e.op == "+" || e.op == "-") && c.conversionOf(e.l, uses, f) && c.conversionOf(e.r, uses, f)
	case eCond:
		// ns > 0 ? ns / 1000 : 0
		return len(e.subs) >= 2 && c.conversionOf(e.subs[0], uses, f) && c.conversionOf(e.subs[1], uses, f)
	}
	return false
}

// isConstName reports whether a name reads as a constant: 1e9-style
// macros and ALL_CAPS or kConstant names.
func isConstName(n string) bool {
	n = n[strings.LastIndexByte(n, '.')+1:]
	if len(n) > 1 && n[0] == 'k' && n[1] >= 'A' && n[1] <= 'Z' {
		return true
	}
	return n != "" && strings.ToUpper(n) == n && strings.ContainsAny(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
}

// isCastName reports whether a callee converts a number: float(),
// static_cast<double>, std::chrono::duration_cast<...>, abs().
func isCastName(n string) bool {
	if i := strings.IndexByte(n, '<'); i >= 0 {
		n = n[:i]
	}
	n = n[strings.LastIndexByte(n, '.')+1:]
	switch n {
	case "float", "int", "double", "static_cast", "duration_cast", "abs", "fabs", "round", "from_nanoseconds", "from_seconds", "Duration", "toSec", "to_sec":
		return true
	}
	return false
}

// clamps reports whether e bounds the elapsed time from above:
// min(dt, max_dt), std::min(dt, 0.1), std::clamp(dt, 0.0, max), np.clip,
// and a floor over one of them, max(0.01, min(dt, k)).
func (c *checker) clamps(e *expr, uses func(*expr) bool) bool {
	if e == nil || e.kind != eCall || e.recv == nil || len(e.args) < 2 {
		return false
	}
	n := e.recv.name
	if i := strings.IndexByte(n, '<'); i >= 0 {
		n = n[:i]
	}
	n = n[strings.LastIndexByte(n, '.')+1:]
	switch n {
	case "min", "fmin", "clamp", "clip":
		return uses(e) && slices.ContainsFunc(e.args, func(a *expr) bool { return !uses(a) })
	case "max", "fmax":
		// max(0.01, min(dt, k)): a floor over a bound is still bounded, when
		// every argument that holds the elapsed time is bounded itself.
		return uses(e) && !slices.ContainsFunc(e.args, func(a *expr) bool { return uses(a) && !c.clamps(a, uses) })
	}
	return false
}

// onlyLogged reports whether every use of the elapsed time in e is an
// argument of a logging call (RCLCPP_INFO, get_logger().warn, print).
func (c *checker) onlyLogged(e *expr, uses func(*expr) bool) bool {
	if e == nil || !uses(e) {
		return true
	}
	if e.kind == eCall && isLogCall(e) {
		return true
	}
	if e.kind == eBinary && e.op == "<<" && strings.HasPrefix(strings.TrimSpace(e.text()), "std::c") {
		return true // std::cout << ... << dt
	}
	ok := true
	eachChild(e, func(ch *expr) {
		if ch != nil && !c.onlyLogged(ch, uses) {
			ok = false
		}
	})
	return ok && e.kind != eCall
}

// onlyPhase reports whether every use of the elapsed time in e is inside a
// periodic function (sin, cos, fmod, remainder, Python's %): the time since
// start is then the phase of a test signal or an animation, which a
// baseline of 0 under sim time shifts without inflating anything
// (driverless' sinusoidal steering sender).
func onlyPhase(e *expr, uses func(*expr) bool) bool {
	if e == nil || !uses(e) {
		return true
	}
	if e.kind == eCall && e.recv != nil {
		n := e.recv.name
		n = n[strings.LastIndexByte(n, '.')+1:]
		switch n {
		case "sin", "cos", "sinf", "cosf", "fmod", "fmodf", "remainder":
			return true
		}
	}
	if e.kind == eBinary && e.op == "%" {
		return true
	}
	if e.kind == eCall {
		return false
	}
	ok, inner := true, false
	eachChild(e, func(ch *expr) {
		if ch != nil && uses(ch) {
			inner = true
			ok = ok && onlyPhase(ch, uses)
		}
	})
	return ok && inner // e itself is the elapsed time otherwise
}

// isLogCall reports whether call logs: RCLCPP_*, ROS_*, LOG_* and
// RCUTILS_LOG_* macros, printf, print, and a logger's debug/info/warn/
// error/fatal methods.
func isLogCall(call *expr) bool {
	r := call.recv
	if r == nil {
		return false
	}
	switch r.kind {
	case eName:
		n := r.name
		return strings.HasPrefix(n, "RCLCPP_") || strings.HasPrefix(n, "ROS_") || strings.HasPrefix(n, "LOG_") ||
			strings.HasPrefix(n, "RCUTILS_LOG") || n == "printf" || n == "fprintf" || n == "print" || n == "std.printf"
	case eAttr:
		switch r.name {
		case "debug", "info", "warn", "warning", "error", "fatal", "critical", "log", "loginfo", "logwarn":
			return true
		}
	}
	return false
}

// elapsedIf classifies an if-statement whose condition compares the
// elapsed time, and says which branch runs only while it is small (its
// uses are guarded).
func (c *checker) elapsedIf(s *stmt, uses func(*expr) bool, dts map[string]bool, prev string, f *fn) (kind elapsedKind, smallThen, smallElse bool) {
	then, els := s.then, s.els
	cond, neg := s.e, false
	for cond.kind == eNot {
		cond, neg = cond.l, !neg
	}
	if neg { // not (a and b): the branches swap and the condition reads positively
		then, els = els, then
	}
	// role of a comparison in the condition: alone, a top-level conjunct or
	// disjunct (after De Morgan when negated), or deeper.
	const (
		alone = iota
		conj
		disj
		deeper
	)
	type bound struct {
		large bool // the comparison, as the condition reads it, holds when the elapsed time is large
		role  int
	}
	var bounds []bound
	var find func(e *expr, role int, depth int)
	find = func(e *expr, role int, depth int) {
		if e == nil {
			return
		}
		switch e.kind {
		case eAnd, eOr:
			r := conj
			if (e.kind == eOr) != neg {
				r = disj
			}
			if depth > 0 && r != role {
				r = deeper
			}
			find(e.l, r, depth+1)
			find(e.r, r, depth+1)
			return
		case eCompare:
			if !uses(e) || isZero(e.l) || isZero(e.r) || e.op == "==" || e.op == "!=" {
				return // dt < 0, dt <= 0: backward-jump checks, not about a large value
			}
			var large bool
			switch {
			case uses(e.l) && !uses(e.r):
				large = e.op == ">" || e.op == ">="
			case uses(e.r) && !uses(e.l):
				large = e.op == "<" || e.op == "<="
			default:
				return
			}
			bounds = append(bounds, bound{large: large != neg, role: role})
		}
	}
	find(cond, alone, 0)
	if len(bounds) == 0 {
		return elapsedUnused, false, false
	}
	kind = elapsedUnknown
	// small marks a branch (of the condition as it reads, then or else)
	// that runs only while the elapsed time is small.
	small := func(effThen bool) {
		if effThen != neg {
			smallThen = true
		} else {
			smallElse = true
		}
	}
	for _, b := range bounds {
		// largeBr runs only when the elapsed time is large, smallBr only
		// when it is small; nil when the condition does not say.
		var largeBr, smallBr []*stmt
		switch {
		case b.large && b.role != conj && b.role != deeper:
			largeBr, smallBr = then, els
			small(false)
		case b.large && b.role == conj:
			// if dt > T and flag: the watchdog's branch, taken only when
			// the flag allows it too
			if c.harmlessBranch(then, prev, f, false) {
				kind = min(kind, elapsedHarmless)
			}
			continue
		case !b.large && b.role != disj && b.role != deeper:
			smallBr = then
			small(true)
			if b.role == alone {
				largeBr = els
			}
		case !b.large && b.role == disj:
			largeBr = els
		default:
			continue
		}
		switch {
		case smallBr != nil && exits(smallBr):
			kind = min(kind, elapsedHarmless) // a throttle: too soon, leave
		case largeBr != nil && (exits(largeBr) && c.harmlessBranch(largeBr, prev, f, true) || c.reassigns(largeBr, dts, f)):
			return elapsedGuarded, smallThen, smallElse // a large dt is skipped or replaced
		case largeBr != nil && c.moves(largeBr, prev, f):
			// A throttle: once the period is over it acts and moves the
			// baseline; a large first interval lets the first action
			// through at once.
			kind = min(kind, elapsedHarmless)
		case largeBr != nil && c.harmlessBranch(largeBr, prev, f, false):
			kind = min(kind, elapsedHarmless) // a watchdog whose expiry only resets state
		case smallBr != nil:
			kind = min(kind, elapsedUnused) // the work is done only while small
		}
	}
	return kind, smallThen, smallElse
}

// reassigns reports whether a branch assigns one of the elapsed-time
// locals (dt = nominal).
func (c *checker) reassigns(branch []*stmt, dts map[string]bool, f *fn) bool {
	found := false
	eachStmt(branch, func(s *stmt) {
		if s.kind == sAssign && dts[c.d.path(s.target, f)] {
			found = true
		}
	})
	return found
}

// moves reports whether a branch assigns the baseline.
func (c *checker) moves(branch []*stmt, prev string, f *fn) bool {
	found := false
	eachStmt(branch, func(s *stmt) {
		if s.kind == sAssign && c.d.path(s.target, f) == prev {
			found = true
		}
	})
	return found
}

// harmlessBranch reports whether every statement of a branch only resets
// state: assigns a constant, an empty or default-constructed value, or the
// current time, to a local or to a member that the method moving the
// baseline sets with it or whose initial value it is; counts; logs;
// publishes; resets or clears a member; leaves (without a value, or with a
// constant when exitOK). Such a timeout firing once at startup, when
// nothing has arrived yet, changes nothing a user sees.
func (c *checker) harmlessBranch(branch []*stmt, prev string, f *fn, exitOK bool) bool {
	if len(branch) == 0 {
		return false
	}
	m, _ := strings.CutPrefix(prev, "self.")
	var paired map[string]bool
	if f.cls != nil {
		paired = c.paired(f.cls, m)
	}
	ok := true
	var walk func(stmts []*stmt)
	walk = func(stmts []*stmt) {
		for _, s := range stmts {
			if !ok {
				return
			}
			switch s.kind {
			case sExit:
				if s.e != nil && !exitOK && !(s.n != nil && (s.n.kind == "continue_statement" || s.n.kind == "break_statement")) {
					ok = false
				}
			case sAssign:
				p := c.d.rootPath(s.target, f)
				switch {
				case p == prev, paired[p], s.value == nil:
				case s.value.kind == eBinary && (s.value.op == "+" || s.value.op == "-") && s.value.r.kind == eNumber &&
					c.d.path(s.value.l, f) == p:
					// a counter: blocked += 1
				case !strings.HasPrefix(p, "self."):
					// a local, or a field of one: the stop command being built
				case c.resetValue(s.value, f) && c.initialValue(p, s.value, f):
				default:
					if c.d.facts(s.value, f)&fNow == 0 {
						ok = false
					}
				}
			case sIf:
				walk(s.then)
				walk(s.els)
			case sBlock:
				walk(s.body)
			default:
				if !c.harmlessCall(s.e) {
					ok = false
				}
			}
		}
	}
	walk(branch)
	return ok
}

// resetValue reports whether v is a constant, an empty container, a
// default-constructed value or the current time.
func (c *checker) resetValue(v *expr, f *fn) bool {
	switch v.kind {
	case eNumber, eString, eChrono:
		return true
	case eName:
		switch v.name {
		case "True", "False", "None", "true", "false", "nullptr", "NULL":
			return true
		}
		return isConstName(v.name)
	case eCall:
		if len(v.args) == 0 && len(v.kwargs) == 0 {
			return true // Twist(), set(), {}
		}
		return c.d.facts(v, f)&fNow != 0
	case eOther:
		if v.n != nil {
			switch v.n.kind {
			case "list", "dictionary", "set", "tuple", "initializer_list", "unary_expression", "unary_operator":
				for _, s := range v.subs {
					if !c.resetValue(s, f) {
						return false
					}
				}
				return true
			}
		}
	}
	return false
}

// initialValue reports whether member p is given value v somewhere in a
// constructor or initialiser too (or v is the zero of a counter): setting
// it back is a reset.
func (c *checker) initialValue(p string, v *expr, f *fn) bool {
	m, ok := strings.CutPrefix(p, "self.")
	if !ok || f.cls == nil {
		return false
	}
	want := strings.Join(strings.Fields(v.text()), "")
	if fl := f.cls.fields[m]; fl != nil {
		if fl.init == nil || strings.Join(strings.Fields(fl.init.text()), "") == want ||
			strings.Join(strings.Fields(fl.init.text()), "") == "{"+want+"}" {
			return true
		}
	}
	for _, a := range c.d.memberVals[f.cls][m] {
		if (a.f.ctor || isInitMethod(a.f.name)) && strings.Join(strings.Fields(a.value.text()), "") == want {
			return true
		}
	}
	return isZero(v)
}

// harmlessCall reports whether an expression statement only logs,
// publishes, or resets or clears something.
func (c *checker) harmlessCall(e *expr) bool {
	if e == nil {
		return true
	}
	if e.kind == eOther && e.n != nil && (e.n.kind == "update_expression" || e.n.kind == "augmented_assignment") {
		return true // a counter
	}
	if e.kind != eCall {
		return false
	}
	if isLogCall(e) {
		return true
	}
	if e.recv != nil && e.recv.kind == eAttr {
		switch e.recv.name {
		case "publish", "reset", "clear", "zero", "setZero", "fill", "cancel":
			return true
		}
	}
	return false
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
