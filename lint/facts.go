package lint

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// fact is a set of things the data-flow pass knows about a value.
type fact uint16

const (
	fNow      fact = 1 << iota // ROS_TIME from a node clock's now()
	fROS                       // other ROS_TIME time: from_msg, explicit ROS clock type
	fSystem                    // SYSTEM_TIME: Time(), rclcpp::Time(), a system Clock().now()
	fDuration                  // a Duration (rclpy, rclcpp or std::chrono)
	fAgo                       // now() - Duration without a correct R27 guard: may be <= 0
	fCtorNow                   // now() read in a Node constructor: 0 before the first /clock
	fROSClock                  // a clock whose now() is ROS_TIME (node.get_clock())
	fSysClock                  // a clock whose now() is SYSTEM_TIME (Clock(), rclcpp::Clock())
	fZero                      // may be the zero time: Time(), rclcpp::Time(0), a default-constructed member
	// fUnset marks a default-constructed rclcpp::Time member that no
	// constructor sets: SYSTEM_TIME 0 until its first assignment, which
	// gives it another clock type (message_filters#175, mavros#1734).
	fUnset
	// fDetachedClock marks a clock of ROS_TIME type built standalone
	// (rclcpp::Clock(RCL_ROS_TIME), rclpy's Clock(clock_type=ROS_TIME),
	// ROSClock()) and attached to no TimeSource in its file: it reads system
	// time even with use_sim_time, so its now() is ROS_TIME that is never 0
	// and never a sim-time baseline (nebula's liveness monitor).
	fDetachedClock
)

// fTime is any time point.
const fTime = fNow | fROS | fSystem

// dataflow holds the facts of locals and class members. It is flow-
// insensitive: a variable's facts are the union over every assignment, which
// is what the checks want (a member set to Time() in the constructor and to
// now() in a callback may hold either when a later callback reads it).
type dataflow struct {
	units    []*unit
	classes  []*class
	locals   map[*fn]map[string]fact
	declared map[*fn]map[string]bool // C++ and Python locals, params included
	// localTypes holds the declared C++ type of each local and parameter,
	// so that a later plain assignment (t = msg.header.stamp) is read as
	// a conversion to that type.
	localTypes map[*fn]map[string]string
	members    map[*class]map[string]fact
	// assigns lists the values assigned to each local or member, for
	// alias detection and fixes.
	localVals  map[*fn]map[string][]*expr
	memberVals map[*class]map[string][]memberAssign
	// elemVals lists the values stored in each member container
	// (push_back and the like), keyed by member name.
	elemVals map[*class]map[string][]memberAssign
	// fields maps a Python record field name (a keyword argument of a
	// constructor, a dict key, an attribute of something other than self)
	// to SYSTEM_TIME when a Time() is stored under it anywhere in the file:
	// the rosbridge-style cache of entries stamped with Time(). fieldVals
	// holds those Time() constructions, for fixes.
	fields    map[*unit]map[string]fact
	fieldVals map[*unit]map[string][]*expr
	// agoLevel records the R27 guard level of each now() - Duration
	// subtraction; fAgo is dropped where the guard is correct.
	agoLevel map[*expr]int
	// startup holds the classes built before the first /clock, and
	// ctorReach per class the methods its constructors run (startup.go).
	startup   map[*class]bool
	ctorReach map[*class]map[*fn]bool
	byName    map[string][]*class
	insts     map[*fn][]instSite
	// retDepth bounds returnFacts' descent into getters calling getters.
	retDepth int
	// flows are the calls that carry arguments into parameters.
	flows []argFlow
	inits map[initKey]*fn
	// firstSet holds, per class, the members whose SYSTEM_TIME value is
	// only their initial one (default-constructed, or a zero Time that a
	// constructor stores) and that methods set later; later holds the
	// facts of those later assignments. A read that an assignment in the
	// same function always precedes sees only the later facts.
	firstSet map[*class]map[string]bool
	later    map[*class]map[string]fact
	// localInit holds, per function, the statements that give its locals
	// their initial value: a C++ declaration (rclcpp::Time t; is SYSTEM_TIME
	// 0), the first assignment of a Python local. localLater holds the
	// facts of every other assignment of the local. A read that such an
	// assignment always precedes sees only those (afterLocalSet): a copy
	// assignment carries the clock type of what it copies.
	localInit  map[*fn]map[*stmt]bool
	localLater map[*fn]map[string]fact
	// setOutside holds, per class, the members another class assigns
	// (odom_.current_scan_time = msg->header.stamp): their reads may all
	// come after it.
	setOutside map[*class]map[string]bool
}

// elemSuffix names the elements of a member container in members
// ("syncs_[]"): the clock types of the times stored in it.
const elemSuffix = "[]"

// elementStore returns the member container a C++ statement stores a value
// in (syncs_.push_back(t), this->syncs_.emplace_back(t)) and the value.
func (d *dataflow) elementStore(e *expr, f *fn) (string, *expr) {
	if e == nil || e.kind != eCall || len(e.args) != 1 || f.u.lang != langCPP || e.recv == nil || e.recv.kind != eAttr {
		return "", nil
	}
	switch e.recv.name {
	case "push_back", "push_front", "emplace_back", "emplace_front", "push":
	default:
		return "", nil
	}
	m, ok := strings.CutPrefix(d.path(e.recv.recv, f), "self.")
	if !ok {
		return "", nil
	}
	return m, e.args[0]
}

// elementFacts returns the clock types of an element read from a member
// container (syncs_[i], syncs_.back(), syncs_.at(i)); ok is false when e is
// no such read.
func (d *dataflow) elementFacts(e *expr, f *fn) (fact, bool) {
	if f == nil || f.cls == nil || f.u.lang != langCPP {
		return 0, false
	}
	var container *expr
	switch {
	case e.kind == eOther && e.n != nil && e.n.kind == "subscript_expression" && len(e.subs) > 0:
		container = e.subs[0]
	case e.kind == eCall && e.recv != nil && e.recv.kind == eAttr:
		switch e.recv.name {
		case "back", "front", "at", "top":
			container = e.recv.recv
		}
	}
	if container == nil {
		return 0, false
	}
	m, ok := strings.CutPrefix(d.path(container, f), "self.")
	if !ok {
		return 0, false
	}
	ft, ok := d.members[f.cls][m+elemSuffix]
	return ft, ok
}

type memberAssign struct {
	value *expr
	f     *fn
}

func newDataflow(units []*unit, classes []*class) *dataflow {
	d := &dataflow{units: units, classes: classes, agoLevel: map[*expr]int{}, insts: map[*fn][]instSite{}}
	d.declared = map[*fn]map[string]bool{}
	d.localTypes = map[*fn]map[string]string{}
	d.localInit = map[*fn]map[*stmt]bool{}
	for _, u := range units {
		for _, f := range u.fns {
			decl := map[string]bool{}
			types := map[string]string{}
			for p, typ := range f.params {
				decl[p] = true
				types[p] = typ
			}
			init := map[*stmt]bool{}
			eachStmt(f.body, func(s *stmt) {
				if s.kind == sAssign && s.target != nil && s.target.kind == eName &&
					(s.decl || u.lang == langPython) {
					if s.decl || !decl[s.target.name] {
						init[s] = true
					}
					decl[s.target.name] = true
					if s.decl && s.typ != "" {
						types[s.target.name] = s.typ
					}
				}
			})
			d.declared[f] = decl
			d.localTypes[f] = types
			d.localInit[f] = init
		}
	}
	d.findStartup()
	return d
}

// eachStmt calls f on every statement, nested ones included.
func eachStmt(stmts []*stmt, f func(*stmt)) {
	for _, s := range stmts {
		f(s)
		eachStmt(s.then, f)
		eachStmt(s.els, f)
		eachStmt(s.body, f)
	}
}

// solve computes the facts of every local and member, iterating to a fixed
// point (three rounds suffice for the chains seen in practice; the cap
// keeps pathological files linear).
func (d *dataflow) solve() {
	d.locals = map[*fn]map[string]fact{}
	d.members = map[*class]map[string]fact{}
	d.localVals = map[*fn]map[string][]*expr{}
	d.memberVals = map[*class]map[string][]memberAssign{}
	d.elemVals = map[*class]map[string][]memberAssign{}
	d.firstSet = map[*class]map[string]bool{}
	d.later = map[*class]map[string]fact{}
	d.localLater = map[*fn]map[string]fact{}
	for _, c := range d.classes {
		d.members[c] = map[string]fact{}
		d.memberVals[c] = map[string][]memberAssign{}
		d.elemVals[c] = map[string][]memberAssign{}
		d.later[c] = map[string]fact{}
	}
	for _, u := range d.units {
		for _, f := range u.fns {
			d.locals[f] = map[string]fact{}
			d.localVals[f] = map[string][]*expr{}
			d.localLater[f] = map[string]fact{}
			for p, typ := range f.params {
				d.locals[f][p] = typeFacts(typ)
			}
			eachStmt(f.body, func(s *stmt) {
				if s.kind == sExpr && f.cls != nil {
					if m, v := d.elementStore(s.e, f); m != "" {
						d.elemVals[f.cls][m] = append(d.elemVals[f.cls][m], memberAssign{v, f})
					}
				}
				if s.kind != sAssign || s.target == nil || s.value == nil {
					return
				}
				p := d.path(s.target, f)
				if m, ok := strings.CutPrefix(p, "self."); ok && f.cls != nil {
					d.memberVals[f.cls][m] = append(d.memberVals[f.cls][m], memberAssign{s.value, f})
				} else if p != "" {
					d.localVals[f][p] = append(d.localVals[f][p], s.value)
				}
			})
		}
	}
	d.setOutside = d.membersSetOutside()
	for _, c := range d.classes {
		for name, fl := range c.fields {
			// A default-constructed rclcpp::Time member is 0 ns SYSTEM_TIME.
			// A member that is never assigned keeps that fact. One that a
			// constructor sets has the type of that value. One that only
			// other methods set is unset until then (fUnset): the checks
			// report it only where it is read before its first assignment,
			// with no guard (behind a flag or a state, it is usually set).
			// rclcpp::Time t_{}; and t_{0} are default-constructed too.
			dflt := fl.init == nil || isTimeType(fl.typ) && zeroSystemTime(fl.init)
			switch {
			case dflt && isTimeType(fl.typ) && len(d.memberVals[c][name]) == 0 && !d.setOutside[c][name]:
				d.members[c][name] = fSystem | fZero
			case dflt && isTimeType(fl.typ) && !d.setInCtor(c, name):
				d.members[c][name] = fUnset | fZero
			case dflt && fl.typ == "rclcpp.Clock":
				d.members[c][name] = fSysClock // rclcpp::Clock's default clock type is RCL_SYSTEM_TIME
			case dflt:
				d.members[c][name] = typeFacts(fl.typ)
			}
		}
	}
	for _, c := range d.classes {
		d.firstSet[c] = d.initialOnlyMembers(c)
	}
	d.solveFields()
	flows := d.collectArgFlows()
	d.flows = flows
	for range 3 {
		changed := false
		for _, c := range d.classes {
			for name, fl := range c.fields {
				if fl.init != nil && !(isTimeType(fl.typ) && zeroSystemTime(fl.init)) {
					// A default member initialiser runs in every constructor.
					init := d.initFn(c, fl.file)
					ft := d.valueFacts(fl.typ, fl.init, init)
					if isTimeType(fl.typ) && ft&fSystem != 0 && d.overwrittenBeforeRead(c, name) {
						// A SYSTEM_TIME initialiser ({0, 0, RCL_SYSTEM_TIME},
						// = rclcpp::Clock().now()) that every constructor
						// overwrites before any read is never what a read sees.
						continue
					}
					if ft&fNow != 0 && d.startup[c] && !backDated(fl.init) {
						ft |= fCtorNow
					}
					changed = d.addMember(c, name, ft) || changed
				}
			}
			for name, vals := range d.memberVals[c] {
				for _, v := range vals {
					typ := ""
					if fl := c.fields[name]; fl != nil {
						typ = fl.typ
					}
					ft := d.valueFacts(typ, v.value, v.f)
					if ft&fNow != 0 && d.startup[c] && d.reach(c)[v.f] && !backDated(v.value) {
						ft |= fCtorNow
					}
					if !v.f.ctor && !isInitMethod(v.f.name) {
						d.later[c][name] |= ft
					}
					changed = d.addMember(c, name, ft) || changed
				}
			}
			for name, vals := range d.elemVals[c] {
				for _, v := range vals {
					// Only the clock type: an element is no baseline.
					ft := d.facts(v.value, v.f)
					if ft&fNow != 0 {
						ft |= fROS
					}
					changed = d.addMember(c, name+elemSuffix, ft&(fROS|fSystem)) || changed
				}
			}
		}
		for _, u := range d.units {
			for _, f := range u.fns {
				eachStmt(f.body, func(s *stmt) {
					if s.kind != sAssign || s.target == nil {
						return
					}
					p := d.path(s.target, f)
					if p == "" || strings.HasPrefix(p, "self.") {
						return
					}
					typ := s.typ
					if typ == "" && !s.decl {
						typ = d.localTypes[f][p]
					}
					var ft fact
					switch {
					case s.value != nil:
						ft = d.valueFacts(typ, s.value, f)
					case isTimeType(typ):
						ft = fSystem | fZero
					case typ == "rclcpp.Clock":
						ft = fSysClock
					default:
						ft = typeFacts(typ)
					}
					if !d.localInit[f][s] {
						d.localLater[f][p] |= ft
					}
					if old := d.locals[f][p]; old|ft != old {
						d.locals[f][p] = old | ft
						changed = true
					}
				})
			}
		}
		changed = d.propagateArgs(flows) || changed
		if !changed {
			break
		}
	}
}

func (d *dataflow) addMember(c *class, name string, ft fact) bool {
	old := d.members[c][name]
	d.members[c][name] = old | ft
	return old|ft != old
}

// valueFacts is the facts of value assigned to something of declared type
// typ (C++; "" when unknown or auto).
func (d *dataflow) valueFacts(typ string, value *expr, f *fn) fact {
	ft := d.facts(value, f)
	if tf := typeFacts(typ); tf != 0 && ft&tf == 0 {
		ft |= tf
	}
	// A header stamp converted to rclcpp::Time by assignment or
	// initialisation takes the message constructor: RCL_ROS_TIME.
	if isTimeType(typ) && ft&fTime == 0 && value.kind != eCall && mentionsStamp(value.text()) {
		ft |= fROS
	}
	return ft
}

// assignFacts is the facts of the value assignment s stores into path p,
// read as a conversion to p's declared type.
func (d *dataflow) assignFacts(s *stmt, p string, f *fn) fact {
	typ := s.typ
	if typ == "" {
		if m, ok := strings.CutPrefix(p, "self."); ok && f.cls != nil {
			if fl := f.cls.fields[m]; fl != nil {
				typ = fl.typ
			}
		} else {
			typ = d.localTypes[f][p]
		}
	}
	return d.valueFacts(typ, s.value, f)
}

// mentionsStamp reports whether source text reads a message header's
// stamp (msg->header.stamp, header.stamp): a builtin_interfaces Time,
// which rclcpp::Time converts with RCL_ROS_TIME. A bare .stamp may be an
// rclcpp::Time of any clock type already.
func mentionsStamp(t string) bool {
	return strings.Contains(strings.ToLower(t), "header")
}

// setInCtor reports whether a constructor of c, or a method that
// initialises the object (on_configure, onInit, initialize, reset,
// activate...), assigns member name.
func (d *dataflow) setInCtor(c *class, name string) bool {
	for _, v := range d.memberVals[c][name] {
		if v.f.ctor || isInitMethod(v.f.name) {
			return true
		}
	}
	return false
}

// zeroSystemTime reports whether a C++ initialiser constructs the zero
// SYSTEM_TIME rclcpp::Time a default constructor gives: {}, {0}, (0, 0).
func zeroSystemTime(init *expr) bool {
	return init.kind == eCall && zeroTime(init) && !strings.Contains(init.text(), "RCL_")
}

// overwrittenBeforeRead reports whether member name of c, SYSTEM_TIME only
// by its initialiser ({0, 0, RCL_SYSTEM_TIME}, = rclcpp::Clock().now()), is
// assigned before anything can read it, as setInCtor takes a
// default-constructed member to be: every constructor
// assigns it unconditionally (not under an if, loop, switch, try or in a
// lambda) with no read of it, nor a call of a method of c that reads it,
// before that assignment; or, when no constructor mentions it, a lifecycle
// transition before update() and the callbacks (init/on_init, on_configure,
// on_activate) assigns it unconditionally, no earlier transition reads it
// and that one reads it only after the assignment. The initialiser's
// SYSTEM_TIME is then never what a read sees; the assigned values give the
// member its facts (a SYSTEM_TIME value keeps it SYSTEM_TIME). A thread or
// callback started before the assignment is not followed: it usually waits
// for data first.
func (d *dataflow) overwrittenBeforeRead(c *class, name string) bool {
	ctors, mentioned := 0, false
	for _, g := range c.fns {
		if !g.ctor || g.outer != nil || g.n == nil || g.n.child("body") == nil {
			continue
		}
		ctors++
		at := firstUnconditionalAssign(g, name, true)
		if at == nil {
			if memberRefBefore(g, name, nil, c) {
				mentioned = true
			}
			continue
		}
		if memberRefBefore(g, name, at, c) {
			return false
		}
		mentioned = true
		ctors--
	}
	if mentioned {
		// Assigned by every constructor (none left unmatched) and read
		// by none before.
		return ctors == 0
	}
	stage := -1
	var first *fn
	for _, g := range c.fns {
		if g.outer != nil || g.n == nil || g.ctor {
			continue
		}
		st := transitionStage(g.name)
		if st < 0 || st > 2 {
			continue
		}
		if at := firstUnconditionalAssign(g, name, true); at != nil && (stage < 0 || st < stage) {
			stage, first = st, g
		}
	}
	if first == nil {
		return false
	}
	for _, g := range c.fns {
		if g.outer != nil || g.n == nil || g.ctor {
			continue
		}
		st := transitionStage(g.name)
		if st < 0 || st > stage {
			continue
		}
		var at *node
		if g == first {
			at = firstUnconditionalAssign(g, name, true)
		}
		if memberRefBefore(g, name, at, c) {
			return false
		}
	}
	return true
}

// memberText is the member a C++ expression names: x_ or this->x_.
func memberText(g *fn, n *node) string {
	return strings.TrimPrefix(strings.TrimSpace(g.u.text(n)), "this->")
}

// memberRefBefore reports whether g's body mentions member m, or calls a
// method of c whose body mentions it, before the assignment at (anywhere
// but at's left side when at is nil or in at's value).
func memberRefBefore(g *fn, m string, at *node, c *class) bool {
	body := g.n.child("body")
	if body == nil {
		return false
	}
	var left *node
	if at != nil {
		left = at.child("left")
	}
	ref := false
	var walk func(n *node)
	walk = func(n *node) {
		if ref || n == left || at != nil && n.start >= at.end {
			return
		}
		switch n.kind {
		case "identifier", "field_expression":
			if memberText(g, n) == m {
				ref = true
				return
			}
		case "call_expression":
			if fnn := n.child("function"); fnn != nil {
				callee := memberText(g, fnn)
				for _, h := range c.fns {
					if h != g && h.name == callee && h.n != nil && memberRefBefore(h, m, nil, &class{}) {
						ref = true
						return
					}
				}
			}
		}
		for _, ch := range n.children {
			walk(ch)
		}
	}
	walk(body)
	return ref
}

// initFn returns a stand-in constructor of class c in file u, in which
// its default member initialisers are evaluated.
func (d *dataflow) initFn(c *class, u *unit) *fn {
	key := initKey{c, u}
	if f, ok := d.inits[key]; ok {
		return f
	}
	if d.inits == nil {
		d.inits = map[initKey]*fn{}
	}
	f := &fn{name: c.name, cls: c, ctor: true, u: u, params: map[string]string{}}
	d.inits[key] = f
	d.locals[f] = map[string]fact{}
	return f
}

type initKey struct {
	c *class
	u *unit
}

// backDated reports whether a baseline is stored already in the past,
// now() - W: the author wants it expired from the start ("start timed out"),
// and under sim time it is expired just the same.
func backDated(v *expr) bool {
	return v != nil && v.kind == eBinary && v.op == "-"
}

// stateMember reports whether a method other than a constructor or an
// initialiser assigns member name: it holds state, not configuration.
func (d *dataflow) stateMember(c *class, name string) bool {
	for _, v := range d.memberVals[c][name] {
		if !v.f.ctor && !isInitMethod(v.f.name) {
			return true
		}
	}
	return false
}

// isInitMethod reports whether a method name says it initialises state
// before the object's callbacks run: lifecycle transitions and plugin
// initialisers.
func isInitMethod(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"init", "configure", "activate", "reset", "setup", "start"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// isTimeType reports whether a normalised C++ type is rclcpp::Time.
func isTimeType(typ string) bool { return typ == "rclcpp.Time" }

// typeFacts maps a declared type to facts.
func typeFacts(typ string) fact {
	switch typ {
	case "rclcpp.Duration", "rclpy.duration.Duration", "Duration", "builtin_interfaces.msg.Duration":
		if typ == "builtin_interfaces.msg.Duration" {
			return 0
		}
		return fDuration
	case "rclcpp.Clock.SharedPtr", "rclcpp.Clock":
		return 0
	}
	if isChronoDuration(typ) {
		return fDuration
	}
	return 0
}

// isChronoDuration reports whether a normalised name is a std::chrono
// duration type or constructor.
func isChronoDuration(q string) bool {
	q = strings.TrimPrefix(q, "std.")
	rest, ok := strings.CutPrefix(q, "chrono.")
	if !ok {
		return false
	}
	if i := strings.IndexByte(rest, '<'); i >= 0 {
		rest = rest[:i]
	}
	switch rest {
	case "nanoseconds", "microseconds", "milliseconds", "seconds", "minutes", "hours", "duration", "duration_cast":
		return true
	}
	return false
}

// path names an lvalue: "x" for a local, "self.x" for a member (Python
// self.x, C++ this->x or a bare member name), "" otherwise.
func (d *dataflow) path(e *expr, f *fn) string {
	if e == nil {
		return ""
	}
	switch e.kind {
	case eName:
		if e.name == "self" {
			return "self"
		}
		if f == nil || f.u.lang == langPython || f.cls == nil || strings.Contains(e.name, ".") {
			return e.name
		}
		for g := f; g != nil; g = g.outer {
			if d.declared[g][e.name] {
				return e.name
			}
		}
		return "self." + e.name
	case eAttr:
		rp := d.path(e.recv, f)
		if rp == "" {
			return ""
		}
		return rp + "." + e.name
	}
	return ""
}

// rootPath is the path of e, or for an element access (speeds_[LEFT],
// self.cmd[0]) the path of the container it indexes.
func (d *dataflow) rootPath(e *expr, f *fn) string {
	for e != nil && e.kind == eOther && e.n != nil && len(e.subs) > 0 &&
		(e.n.kind == "subscript_expression" || e.n.kind == "subscript") {
		e = e.subs[0]
	}
	return d.path(e, f)
}

// lookup returns the facts of a path.
func (d *dataflow) lookup(p string, f *fn) fact {
	if p == "" || f == nil {
		return 0
	}
	if m, ok := strings.CutPrefix(p, "self."); ok {
		// A field of a member (state_.last, self.odom.stamp) is tracked
		// like a member of its own.
		if f.cls == nil {
			return 0
		}
		ft := d.members[f.cls][m]
		if strings.Contains(m, "header.") && ft&fTime != 0 {
			// A message's header stamp holds no clock type: read back, it
			// converts to rclcpp::Time as RCL_ROS_TIME whatever was stored.
			ft = ft&^(fSystem|fUnset) | fROS
		}
		return ft
	}
	for g := f; g != nil; g = g.outer {
		if ft, ok := d.locals[g][p]; ok {
			return ft
		}
	}
	return 0
}

// facts evaluates what an expression's value is known to be.
func (d *dataflow) facts(e *expr, f *fn) fact {
	if e == nil {
		return 0
	}
	if ft, ok := d.elementFacts(e, f); ok {
		return ft
	}
	switch e.kind {
	case eName:
		p := d.path(e, f)
		return d.afterFirstSet(d.lookup(p, f), e, p, f)
	case eAttr:
		p := d.path(e, f)
		if ft := d.lookup(p, f); ft != 0 || strings.HasPrefix(p, "self.") {
			return d.afterFirstSet(ft, e, p, f)
		}
		if f != nil && f.u.lang == langPython {
			// now().nanoseconds as an int is still the current ROS time
			// (a Duration's nanoseconds is no time point), as C++'s
			// now().seconds() is in callFacts.
			if e.name == "nanoseconds" && e.recv != nil {
				if rf := d.facts(e.recv, f); rf&fNow != 0 && rf&fDuration == 0 {
					return fNow
				}
			}
			return d.fields[f.u][e.name]
		}
		return 0
	case eCall:
		return d.callFacts(e, f)
	case eChrono:
		return fDuration
	case eCond:
		var ft fact
		for i, s := range e.subs {
			if i < 2 {
				ft |= d.facts(s, f)
			}
		}
		return ft
	case eBinary:
		l, r := d.facts(e.l, f), d.facts(e.r, f)
		switch e.op {
		case "-":
			if l&fTime != 0 && r&fDuration != 0 && r&fTime == 0 {
				res := l & fTime
				if l&fNow != 0 {
					if lvl, ok := d.agoLevel[e]; !ok || lvl < guardSafe {
						res |= fAgo
					}
				}
				return res
			}
			if l&fTime != 0 && r&fTime != 0 || l&fDuration != 0 && r&fDuration != 0 {
				return fDuration
			}
		case "+":
			if l&fTime != 0 && r&fDuration != 0 {
				return l & fTime
			}
			if r&fTime != 0 && l&fDuration != 0 {
				return r & fTime
			}
			if l&r&fDuration != 0 {
				return fDuration
			}
		case "*", "/":
			if (l|r)&fDuration != 0 && (l|r)&fTime == 0 {
				return fDuration
			}
		}
	}
	return 0
}

// qual returns the qualified name a callee refers to: Python resolves
// imports (Time -> rclpy.time.Time), C++ names are already normalised.
func (d *dataflow) qual(e *expr, f *fn) string {
	if e == nil {
		return ""
	}
	switch e.kind {
	case eName:
		if f != nil && f.u.lang == langPython {
			if q, ok := f.u.imports[e.name]; ok {
				return q
			}
		}
		return e.name
	case eAttr:
		if f == nil || f.u.lang != langPython {
			return ""
		}
		r := d.qual(e.recv, f)
		if r == "" || r == "self" {
			return ""
		}
		return r + "." + e.name
	}
	return ""
}

// pyAliases maps the names under which rclpy exports its time classes to
// their canonical module path.
var pyAliases = map[string]string{
	"rclpy.time.Time":         "rclpy.time.Time",
	"rclpy.time.Duration":     "rclpy.duration.Duration",
	"rclpy.duration.Duration": "rclpy.duration.Duration",
	"rclpy.clock.Clock":       "rclpy.clock.Clock",
	"rclpy.clock.ROSClock":    "rclpy.clock.ROSClock",
	"rclpy.clock.Time":        "rclpy.time.Time",
	"rclpy.Time":              "rclpy.time.Time",
}

// canon maps a qualified name to the canonical rclpy/rclcpp name, "" when
// it is not one the checks know.
func canon(q string, l lang) string {
	if l == langPython {
		if c, ok := pyAliases[q]; ok {
			return c
		}
		if b, ok := strings.CutSuffix(q, ".from_msg"); ok {
			if c := pyAliases[b]; c != "" {
				return c + ".from_msg"
			}
		}
		return ""
	}
	return q
}

func (d *dataflow) callFacts(e *expr, f *fn) fact {
	callee := e.recv
	if callee == nil || f == nil {
		return 0
	}
	l := f.u.lang
	if q := canon(d.qual(callee, f), l); q != "" {
		switch {
		case q == "rclpy.time.Time":
			ft := clockTypeFacts(d.clockArg(e, 2), fSystem, fROS, fSystem)
			if zeroTime(e) {
				ft |= fZero
			}
			return ft
		case q == "rclpy.time.Time.from_msg":
			return clockTypeFacts(d.clockArg(e, 1), fROS, fROS, fSystem)
		case q == "rclpy.duration.Duration", q == "rclpy.duration.Duration.from_msg":
			return fDuration
		case q == "rclpy.clock.Clock":
			return d.standaloneClock(clockTypeFacts(d.clockArg(e, 0), fSysClock, fROSClock, fSysClock), f)
		case q == "rclpy.clock.ROSClock":
			return d.standaloneClock(fROSClock, f)
		case q == "rclcpp.Time":
			ft := d.cppTimeCtor(e, f)
			if zeroTime(e) {
				ft |= fZero
			}
			return ft
		case q == "rclcpp.Time.max":
			// Time::max(rcl_clock_type_t clock_type = RCL_SYSTEM_TIME)
			return clockTypeFacts(d.cppClockArg(e), fSystem, fROS, fSystem)
		case q == "rclcpp.Duration" || strings.HasPrefix(q, "rclcpp.Duration.from_") || q == "rclcpp.Duration.max":
			return fDuration
		case isChronoDuration(q), q == "tf2.durationFromSec", q == "tf2_ros.fromMsg<rclcpp.Duration>":
			return fDuration
		case l == langCPP && strings.Contains(q, "TimeStamp<") && strings.HasSuffix(q, ".value"):
			// message_filters::message_traits::TimeStamp<M>::value(msg):
			// the header stamp as rclcpp::Time, RCL_ROS_TIME.
			return fROS
		case q == "rclcpp.Clock" || q == "std.make_shared<rclcpp.Clock>" || q == "rclcpp.Clock.make_shared":
			return d.standaloneClock(clockTypeFacts(d.cppClockArg(e), fSysClock, fROSClock, fSysClock), f)
		case l == langCPP && q == "get_clock" && f.cls != nil:
			return fROSClock
		case l == langCPP && q == "now" && f.cls != nil:
			return fNow
		}
	}
	if g := d.sameClassMethod(e, f); g != nil {
		return d.returnFacts(g)
	}
	if callee.kind != eAttr {
		return 0
	}
	// A getter of another class of the group, called on a member or local
	// of that class (monitor_->getLastUpdateTime(), self.monitor.stamp()).
	if cls := d.classOf(callee.recv, f); cls != nil {
		for _, g := range cls.fns {
			if g.name == callee.name && !g.ctor && g.outer == nil {
				return d.returnFacts(g)
			}
		}
	}
	switch callee.name {
	case "get_clock":
		return fROSClock
	case "seconds", "nanoseconds":
		// now().seconds() as a double is still the current ROS time: a
		// baseline stored that way in a constructor is 0 under sim time
		// just the same (raspimouse's heading integrator). Only C++: rclpy's
		// Time.nanoseconds is an attribute, and a Duration's seconds()
		// is no time point.
		if l == langCPP {
			if rf := d.facts(callee.recv, f); rf&fNow != 0 && rf&fDuration == 0 {
				return fNow
			}
		}
		return 0
	case "now":
		recv := callee.recv
		if recv.kind == eCall && recv.recv != nil && (recv.recv.kind == eAttr || recv.recv.kind == eName) &&
			strings.HasSuffix(recv.recv.name, "get_clock") {
			return fNow
		}
		rf := d.facts(recv, f)
		switch {
		case rf&fROSClock != 0:
			return fNow
		case rf&fDetachedClock != 0:
			return fROS
		case rf&fSysClock != 0:
			return fSystem
		}
		if l == langCPP {
			if recv.kind == eName && recv.name == "self" {
				return fNow
			}
			// get_node()->now(), as ros2_control controllers write it.
			if recv.kind == eCall && recv.recv != nil && (recv.recv.kind == eAttr || recv.recv.kind == eName) &&
				strings.HasSuffix(recv.recv.name, "get_node") {
				return fNow
			}
			if p := d.path(recv, f); p != "" {
				last := strings.ToLower(p[strings.LastIndexByte(p, '.')+1:])
				if strings.Contains(last, "node") {
					return fNow
				}
			}
		}
	}
	return 0
}

// standaloneClock turns the facts of a ROS_TIME clock built by the code
// itself into fDetachedClock unless its file attaches a clock to a
// TimeSource (attachClock, attach_clock): only a node's TimeSource follows
// /clock.
func (d *dataflow) standaloneClock(ft fact, f *fn) fact {
	if ft != fROSClock {
		return ft
	}
	if src := f.u.src; bytes.Contains(src, []byte("attachClock")) || bytes.Contains(src, []byte("attach_clock")) {
		return ft
	}
	return fDetachedClock
}

// sameClassMethod returns the method of f's class that call calls
// (method(), this->method(), self.method()), or nil.
func (d *dataflow) sameClassMethod(call *expr, f *fn) *fn {
	if f.cls == nil || call.recv == nil {
		return nil
	}
	name := ""
	switch r := call.recv; {
	case r.kind == eName && f.u.lang == langCPP:
		name = r.name
	case r.kind == eAttr && r.recv != nil && r.recv.kind == eName && r.recv.name == "self":
		name = r.name
	}
	if name == "" {
		return nil
	}
	for _, g := range f.cls.fns {
		if g.name == name && !g.ctor && g.outer == nil {
			return g
		}
	}
	return nil
}

// returnFacts is what a method's return statements give, so that a getter
// (self._now(), getLastUpdateTime()) keeps the clock type of what it
// returns. Helpers calling helpers are followed two levels deep.
func (d *dataflow) returnFacts(g *fn) fact {
	if d.retDepth >= 2 {
		return 0
	}
	d.retDepth++
	defer func() { d.retDepth-- }()
	var ft fact
	eachStmt(g.body, func(s *stmt) {
		if s.kind == sExit && s.e != nil && s.n != nil && s.n.kind == "return_statement" {
			ft |= d.facts(s.e, g)
		}
	})
	return ft &^ fAgo
}

// clockArg returns the clock_type argument of an rclpy call: the keyword,
// or the positional argument at index pos.
func (d *dataflow) clockArg(e *expr, pos int) *expr {
	for _, kw := range e.kwargs {
		if kw.name == "clock_type" {
			return kw.value
		}
	}
	if pos < len(e.args) {
		return e.args[pos]
	}
	return nil
}

func (d *dataflow) cppClockArg(e *expr) *expr {
	if len(e.args) > 0 {
		return e.args[0]
	}
	return nil
}

// clockTypeFacts maps a clock-type argument to facts: none when absent,
// ros or system by the constant's name, 0 when it is a variable.
func clockTypeFacts(arg *expr, none, ros, system fact) fact {
	if arg == nil {
		return none
	}
	t := arg.text()
	switch {
	case strings.Contains(t, "ROS_TIME"):
		return ros
	case strings.Contains(t, "SYSTEM_TIME"):
		return system
	}
	return 0
}

// cppTimeCtor classifies an rclcpp::Time construction by the overload it
// selects (rclcpp/time.hpp):
//
//	Time()                                   SYSTEM_TIME 0
//	Time(int64_t ns, rcl_clock_type_t = RCL_SYSTEM_TIME)
//	Time(int32_t s, uint32_t ns, rcl_clock_type_t = RCL_SYSTEM_TIME)
//	Time(const builtin_interfaces::msg::Time &, rcl_clock_type_t = RCL_ROS_TIME)
//	Time(const Time &)
//
// A lone clock type converts to int64_t and selects the nanoseconds form:
// rclcpp::Time(get_clock()->get_clock_type()) is 1 ns of SYSTEM_TIME, not
// "unset on the node's clock" (novatel_gps_driver's last_sync_). A lone
// argument of unknown type gets no clock type.
func (d *dataflow) cppTimeCtor(e *expr, f *fn) fact {
	switch n := len(e.args); n {
	case 0:
		return fSystem
	case 1:
		a := e.args[0]
		if ft := d.facts(a, f); ft&fTime != 0 {
			return ft & fTime // a copy
		}
		switch {
		case a.kind == eNumber, d.isInteger(a, f), d.isClockType(a, f) != clockNone:
			return fSystem
		case d.isStampMsg(a, f, 0):
			return fROS
		}
	case 2, 3:
		switch d.isClockType(e.args[n-1], f) {
		case clockROS:
			return fROS
		case clockSystem:
			return fSystem
		case clockNone:
			if n == 2 && d.facts(e.args[0], f)&fTime == 0 && !d.isStampMsg(e.args[0], f, 0) {
				return fSystem // (seconds, nanoseconds)
			}
		}
	}
	return 0
}

// A clock type an expression names.
type clockKind int

const (
	clockNone    clockKind = iota // not a clock type
	clockUnknown                  // an rcl_clock_type_t whose value is not known
	clockROS
	clockSystem
	clockSteady
)

// isClockType reports whether a C++ expression is an rcl_clock_type_t, and
// which: a constant (RCL_ROS_TIME), a get_clock_type() call (the node's
// clock is RCL_ROS_TIME), a cast to it, or a local, parameter or member
// declared with that type.
func (d *dataflow) isClockType(e *expr, f *fn) clockKind {
	t := strings.TrimSpace(e.text())
	t = t[strings.LastIndex(t, ":")+1:]
	switch t {
	case "RCL_ROS_TIME":
		return clockROS
	case "RCL_SYSTEM_TIME":
		return clockSystem
	case "RCL_STEADY_TIME":
		return clockSteady
	case "RCL_CLOCK_UNINITIALIZED":
		return clockUnknown
	}
	switch e.kind {
	case eCall:
		if e.recv == nil {
			return clockNone
		}
		n := e.recv.name
		if strings.Contains(n, "static_cast<rcl_clock_type_t>") {
			return clockUnknown
		}
		if n = n[strings.LastIndexByte(n, '.')+1:]; n != "get_clock_type" {
			return clockNone
		}
		// get_clock()->get_clock_type(), node->get_clock()->...: a node's
		// clock is RCL_ROS_TIME.
		if r := e.recv.recv; r != nil && r.kind == eCall && r.recv != nil && strings.HasSuffix(r.recv.name, "get_clock") {
			return clockROS
		}
		return clockUnknown
	case eName, eAttr:
		if strings.TrimPrefix(d.declType(e, f), "const") == "rcl_clock_type_t" {
			return clockUnknown
		}
	}
	return clockNone
}

// declType returns the declared, normalised type of a local, parameter or
// member of f's class ("" when unknown).
func (d *dataflow) declType(e *expr, f *fn) string {
	if f == nil {
		return ""
	}
	if e.kind == eName {
		for g := f; g != nil; g = g.outer {
			if t, ok := d.localTypes[g][e.name]; ok {
				return t
			}
		}
	}
	if m, ok := strings.CutPrefix(d.path(e, f), "self."); ok && f.cls != nil {
		if fl := f.cls.fields[m]; fl != nil {
			return fl.typ
		}
	}
	if e.kind == eName && f.cls != nil {
		if fl := f.cls.fields[e.name]; fl != nil {
			return fl.typ
		}
	}
	return ""
}

// isStampMsg reports whether a C++ expression is a builtin_interfaces
// Time message: a .stamp field (msg->header.stamp), something declared as
// one, or a local of no declared type assigned only such values.
func (d *dataflow) isStampMsg(e *expr, f *fn, depth int) bool {
	if depth > 3 || f == nil {
		return false
	}
	switch t := d.declType(e, f); {
	case t == "builtin_interfaces.msg.Time":
		return true
	case t != "" && t != "auto":
		return false
	}
	switch e.kind {
	case eAttr:
		return e.name == "stamp"
	case eName:
		for g := f; g != nil; g = g.outer {
			if vals, ok := d.localVals[g][e.name]; ok {
				if len(vals) == 0 {
					return false
				}
				for _, v := range vals {
					if !d.isStampMsg(v, g, depth+1) {
						return false
					}
				}
				return true
			}
		}
	}
	return false
}

// stampOnly reports whether e, read as a value of declared type typ ("" when
// unknown), is a message's header stamp on every assignment the data flow
// sees: a value naming a header that converts to a ROS time
// (msg->header.stamp, rclcpp::Time(msg->header.stamp),
// Time.from_msg(msg.header.stamp)); a member with no initialiser that every
// constructor and method assigns only such values and no other class
// assigns; or a local assigned only such members or values. The zero time a
// default-constructed member holds before its first message is then no
// sentinel of the code's own: R27 takes the member for a message stamp, as
// a local (round 18: a localizer's timestamp_odom_, set from each
// odometry's stamp, minus 3 s).
func (d *dataflow) stampOnly(typ string, e *expr, f *fn, depth int) bool {
	if e == nil || f == nil || depth > 3 {
		return false
	}
	if e.kind == eName || e.kind == eAttr {
		p := d.path(e, f)
		if m, ok := strings.CutPrefix(p, "self."); ok {
			c := f.cls
			if c == nil || strings.Contains(m, ".") || len(d.memberVals[c][m]) == 0 || d.setOutside[c][m] {
				return false
			}
			ftyp := ""
			if fl := c.fields[m]; fl != nil {
				if fl.init != nil {
					return false
				}
				ftyp = fl.typ
			}
			for _, v := range d.memberVals[c][m] {
				if !d.stampOnly(ftyp, v.value, v.f, depth+1) {
					return false
				}
			}
			return true
		}
		for g := f; g != nil; g = g.outer {
			if vals, ok := d.localVals[g][p]; ok {
				for _, v := range vals {
					if !d.stampOnly(d.localTypes[g][p], v, g, depth+1) {
						return false
					}
				}
				return len(vals) > 0
			}
		}
	}
	ft := d.valueFacts(typ, e, f)
	return ft&fROS != 0 && ft&(fNow|fSystem|fZero|fUnset|fAgo|fDuration) == 0 && mentionsStamp(e.text())
}

// isInteger reports whether a C++ expression is a count of nanoseconds
// rather than a message: a local or parameter of an integer type, an
// integer cast, a nanoseconds() call, arithmetic on such values.
func (d *dataflow) isInteger(e *expr, f *fn) bool {
	switch e.kind {
	case eNumber:
		return true
	case eName:
		if f == nil {
			return false
		}
		for g := f; g != nil; g = g.outer {
			if t, ok := d.localTypes[g][e.name]; ok {
				return isIntegerType(t)
			}
		}
		if f.cls != nil {
			if fl := f.cls.fields[e.name]; fl != nil {
				return isIntegerType(fl.typ)
			}
		}
	case eCall:
		if e.recv == nil {
			return false
		}
		n := e.recv.name
		if i := strings.IndexByte(n, '<'); i >= 0 {
			return strings.HasSuffix(n[:i], "static_cast") && isIntegerType(n[i+1:len(n)-1])
		}
		n = n[strings.LastIndexByte(n, '.')+1:]
		return n == "nanoseconds" || n == "RCL_S_TO_NS" || n == "RCL_MS_TO_NS" || n == "RCL_US_TO_NS" || n == "RCUTILS_S_TO_NS"
	case eBinary:
		return d.isInteger(e.l, f) && d.isInteger(e.r, f)
	}
	return false
}

// isIntegerType reports whether a normalised C++ type (spaces removed:
// "unsignedlonglong") is an integer.
func isIntegerType(t string) bool {
	t = strings.TrimPrefix(strings.TrimPrefix(t, "const"), "std.")
	switch t {
	case "":
		return false
	case "int64_t", "uint64_t", "int32_t", "uint32_t", "int16_t", "uint16_t", "size_t", "ssize_t",
		"intmax_t", "uintmax_t", "ptrdiff_t", "rcl_time_point_value_t", "rcutils_time_point_value_t":
		return true
	}
	// unsigned, long long, unsigned long long int, signed short...
	for _, w := range []string{"unsigned", "signed", "short", "long", "int"} {
		for strings.HasPrefix(t, w) {
			t = t[len(w):]
		}
	}
	return t == ""
}

// classOf returns the class of the group that a receiver expression holds:
// a member or local declared as that class, a pointer or shared pointer to
// it, or (Python) assigned a construction of it.
func (d *dataflow) classOf(e *expr, f *fn) *class {
	if e == nil || f == nil {
		return nil
	}
	p := d.path(e, f)
	if p == "" || p == "self" {
		return nil
	}
	typ := ""
	if m, ok := strings.CutPrefix(p, "self."); ok {
		if f.cls == nil {
			return nil
		}
		if fl := f.cls.fields[m]; fl != nil {
			typ = fl.typ
		} else if f.u.lang == langPython {
			for _, v := range d.memberVals[f.cls][m] {
				if cs := d.constructed(v.value, v.f); len(cs) == 1 {
					return cs[0]
				}
			}
		}
	} else {
		for g := f; g != nil && typ == ""; g = g.outer {
			typ = d.localTypes[g][p]
		}
	}
	if typ == "" {
		return nil
	}
	// std::shared_ptr<X>, std::unique_ptr<X>, X::SharedPtr, X::Ptr, X*
	for _, w := range []string{"shared_ptr<", "unique_ptr<", "weak_ptr<"} {
		if i := strings.Index(typ, w); i >= 0 {
			typ = firstTemplateArg(typ[i+len(w)-1:])
		}
	}
	typ = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(typ, ".SharedPtr"), ".Ptr"), ".ConstSharedPtr")
	if cs := d.classesByName()[simpleTypeName(typ)]; len(cs) == 1 && cs[0].lang == f.u.lang {
		return cs[0]
	}
	return nil
}

// text is the source text of e ("" for synthetic nodes).
func (e *expr) text() string {
	if e == nil || e.n == nil || e.u == nil {
		return ""
	}
	return string(e.u.src[e.n.start:e.n.end])
}

// zeroTime reports whether a Time construction has only literal zeros or
// clock-type constants as arguments: Time(), rclcpp::Time(0, 0, RCL_ROS_TIME).
func zeroTime(e *expr) bool {
	for _, a := range e.args {
		if !isZero(a) && !strings.Contains(a.text(), "_TIME") {
			return false
		}
	}
	for _, k := range e.kwargs {
		if k.name != "clock_type" && !isZero(k.value) {
			return false
		}
	}
	return true
}

// isZero reports whether e is a literal zero.
func isZero(e *expr) bool {
	if e == nil || e.kind != eNumber {
		return false
	}
	t := strings.TrimRight(strings.ToLower(e.text()), "ful")
	v, err := strconv.ParseFloat(t, 64)
	return err == nil && v == 0
}

// solveFields fills d.fields from every Python file.
func (d *dataflow) solveFields() {
	d.fields = map[*unit]map[string]fact{}
	d.fieldVals = map[*unit]map[string][]*expr{}
	for _, u := range d.units {
		if u.lang != langPython {
			continue
		}
		fm := map[string]fact{}
		vals := map[string][]*expr{}
		store := func(name string, v *expr, f *fn) {
			if name == "" || v == nil || v.kind != eCall || d.callFacts(v, f)&fSystem == 0 {
				return
			}
			fm[name] |= fSystem
			vals[name] = append(vals[name], v)
		}
		for _, f := range u.fns {
			visitFn(f, func(e *expr, _ []cond) {
				switch {
				case e.kind == eCall && e.recv != nil:
					callee := e.recv.name
					if e.recv.kind != eName && e.recv.kind != eAttr || callee == "" || callee[0] < 'A' || callee[0] > 'Z' {
						return
					}
					for _, kw := range e.kwargs {
						store(kw.name, kw.value, f)
					}
				case e.kind == eOther && e.n != nil && e.n.kind == "pair" && len(e.subs) == 2:
					store(e.name, e.subs[1], f)
				}
			})
			eachStmt(f.body, func(s *stmt) {
				if s.kind == sAssign && s.target != nil && s.target.kind == eAttr &&
					!strings.HasPrefix(d.path(s.target, f), "self.") {
					store(s.target.name, s.value, f)
				}
			})
		}
		d.fields[u] = fm
		d.fieldVals[u] = vals
	}
}

// argFlow is a call from one method of a class to another: the facts of
// args flow into the callee's params.
type argFlow struct {
	from   *fn
	to     *fn
	call   *expr
	args   []*expr
	params []string
}

// collectArgFlows lists the calls through which propagateArgs moves facts:
// a class's methods calling each other, and any code of the group
// constructing a class (a clock handed to a helper's constructor), with as
// many arguments as the callee has parameters.
func (d *dataflow) collectArgFlows() []argFlow {
	var out []argFlow
	for _, u := range d.units {
		for _, f := range u.fns {
			for _, site := range d.instantiations(f) {
				if site.call == nil || len(site.call.args) == 0 {
					continue
				}
				for _, g := range site.cls.fns {
					if !g.ctor {
						continue
					}
					params := g.paramOrder
					if g.u.lang == langPython && len(params) > 0 && params[0] == "self" {
						params = params[1:]
					}
					if len(params) == len(site.call.args) {
						out = append(out, argFlow{from: f, to: g, call: site.call, args: site.call.args, params: params})
					}
				}
			}
			if f.cls == nil {
				continue
			}
			eachStmt(f.body, func(s *stmt) {
				for _, e := range []*expr{s.e, s.value} {
					walkExpr(e, func(call *expr) {
						if call.kind != eCall || call.recv == nil || len(call.args) == 0 {
							return
						}
						name := ""
						switch r := call.recv; {
						case r.kind == eName && u.lang == langCPP:
							name = r.name
						case r.kind == eAttr && r.recv != nil && r.recv.kind == eName && r.recv.name == "self":
							name = r.name
						default:
							return
						}
						for _, g := range f.cls.fns {
							if g.name != name || g == f {
								continue
							}
							params := g.paramOrder
							if g.u.lang == langPython && len(params) > 0 && params[0] == "self" {
								params = params[1:]
							}
							if len(params) != len(call.args) {
								continue // another overload, or defaults in play
							}
							out = append(out, argFlow{from: f, to: g, call: call, args: call.args, params: params})
						}
					})
				}
			})
		}
	}
	return out
}

// propagateArgs gives the parameters of a class's methods the facts of the
// arguments the class's own code passes them (process(now(), stamp)), so a
// time handed to a helper keeps its clock type. Only times, durations and
// clocks flow, never into a non-const reference (an out-parameter). It
// reports whether anything changed.
func (d *dataflow) propagateArgs(flows []argFlow) bool {
	changed := false
	for _, fl := range flows {
		for i, a := range fl.args {
			p := fl.params[i]
			if fl.to.outParams[p] {
				continue
			}
			ft := d.valueFacts(fl.to.params[p], a, fl.from) & (fTime | fDuration | fROSClock | fSysClock | fDetachedClock)
			if old := d.locals[fl.to][p]; old|ft != old {
				d.locals[fl.to][p] = old | ft
				changed = true
			}
		}
	}
	return changed
}

// walkExpr calls visit on e and every expression inside it.
func walkExpr(e *expr, visit func(*expr)) {
	if e == nil {
		return
	}
	visit(e)
	eachChild(e, func(c *expr) { walkExpr(c, visit) })
}

// eachChild calls f on each direct subexpression of e (nil ones included).
func eachChild(e *expr, f func(*expr)) {
	f(e.recv)
	f(e.l)
	f(e.r)
	for _, a := range e.args {
		f(a)
	}
	for _, k := range e.kwargs {
		f(k.value)
	}
	for _, sub := range e.subs {
		f(sub)
	}
}

// initialOnlyMembers returns the members of c that are SYSTEM_TIME only
// by their initial value: a Time member default-constructed or given a
// zero Time (rclcpp::Time(0, 0), rclpy's Time()) by its initialiser and by
// every constructor or initialising method that sets it, and assigned by
// some other method. Until that assignment it is the zero SYSTEM_TIME;
// after it, whatever the method stored.
func (d *dataflow) initialOnlyMembers(c *class) map[string]bool {
	out := map[string]bool{}
	for name, vals := range d.memberVals[c] {
		fl := c.fields[name]
		if fl != nil && (!isTimeType(fl.typ) || fl.init != nil && !zeroSystemTime(fl.init)) {
			continue
		}
		initial, other := fl != nil, false
		for _, v := range vals {
			if v.f.ctor || isInitMethod(v.f.name) {
				if !zeroSystemTime(v.value) {
					initial, other = false, false
					break
				}
				initial = true
			} else {
				other = true
			}
		}
		if initial && other {
			out[name] = true
		}
	}
	return out
}

// afterFirstSet narrows the facts ft of a read e of path p in f: when p
// is a member that is SYSTEM_TIME only by its initial value, and f always
// assigns it before e (earlier in a block that holds e, or in a first-call
// branch such as "if (!initialized_) { prev_ = stamp; initialized_ = true; }"),
// the read sees only what methods store.
func (d *dataflow) afterFirstSet(ft fact, e *expr, p string, f *fn) fact {
	m, ok := strings.CutPrefix(p, "self.")
	if !ok {
		return d.afterLocalSet(ft, e, p, f)
	}
	if f == nil || f.cls == nil || f.ctor || ft&(fSystem|fUnset) == 0 || !d.firstSet[f.cls][m] || e.n == nil {
		return ft
	}
	if !d.setBefore(f.body, e, p, f, nil) {
		return ft
	}
	return ft&^(fSystem|fUnset|fZero) | d.later[f.cls][m]&(fSystem|fZero)
}

// afterLocalSet narrows the facts ft of a read e of local p in f the same
// way: when an assignment other than p's declaration (C++) or first
// assignment (Python) always precedes e, the initial value is never what e
// sees. rclcpp::Time t; ... { t = stamp_; } ... now() - t reads the clock
// type of stamp_, as operator= copies it (rclpy: a name rebound to another
// Time); an assignment of unknown clock type leaves none. Assignments
// reached only on some paths (under an if, in a loop) keep the initial
// value's facts.
func (d *dataflow) afterLocalSet(ft fact, e *expr, p string, f *fn) fact {
	if f == nil || e == nil || e.n == nil || ft&fSystem == 0 || p == "" || strings.Contains(p, ".") {
		return ft
	}
	if _, param := f.params[p]; param {
		return ft
	}
	// A local of f (params are out above): declared in C++, bound in Python.
	if !d.declared[f][p] || !d.setBefore(f.body, e, p, f, d.localInit[f]) {
		return ft
	}
	return ft&^(fSystem|fZero) | d.localLater[f][p]&(fSystem|fZero)
}

// setBefore reports whether a statement of stmts (or of the blocks that
// hold e) before e assigns p on every path to e: an assignment at the top
// of such a block, both branches of an if, or a first-call branch (an if
// whose branch assigns p and a member its condition reads, the flag that
// closes it, or that leaves), or a plain block ({ lock; t = v; }, Python's
// with) that does so. Statements in skip (a local's declaration) do not count.
func (d *dataflow) setBefore(stmts []*stmt, e *expr, p string, f *fn, skip map[*stmt]bool) bool {
	for _, s := range stmts {
		if s.n == nil {
			continue
		}
		if s.n.start <= e.n.start && e.n.end <= s.n.end {
			return d.setBefore(s.then, e, p, f, skip) || d.setBefore(s.els, e, p, f, skip) || d.setBefore(s.body, e, p, f, skip)
		}
		if s.n.end > e.n.start {
			return false
		}
		if d.setIn(s, p, f, skip) {
			return true
		}
	}
	return false
}

// setIn reports whether statement s assigns p on every path through it.
func (d *dataflow) setIn(s *stmt, p string, f *fn, skip map[*stmt]bool) bool {
	switch {
	case d.assigns(s, p, f):
		return !skip[s]
	case s.kind == sIf:
		// A first-call branch closes itself for a member; a local is new
		// on every call.
		return d.assignsTop(s.then, p, f, skip) && (d.assignsTop(s.els, p, f, skip) || strings.HasPrefix(p, "self.") && d.firstCallBranch(s, f))
	case s.kind == sBlock && s.n != nil && (s.n.kind == "compound_statement" || s.n.kind == "with_statement"):
		return slices.ContainsFunc(s.body, func(t *stmt) bool { return d.setIn(t, p, f, skip) })
	}
	return false
}

// assignsTop reports whether a block assigns p in one of its own statements.
func (d *dataflow) assignsTop(stmts []*stmt, p string, f *fn, skip map[*stmt]bool) bool {
	return slices.ContainsFunc(stmts, func(s *stmt) bool { return d.assigns(s, p, f) && !skip[s] })
}

// assigns reports whether statement s stores a value in p.
func (d *dataflow) assigns(s *stmt, p string, f *fn) bool {
	return s.kind == sAssign && s.value != nil && d.path(s.target, f) == p
}

// firstCallBranch reports whether if-statement s is taken on the first
// call and closes itself: its then-branch assigns a member its condition
// reads (the flag, or the baseline tested for zero).
func (d *dataflow) firstCallBranch(s *stmt, f *fn) bool {
	read := map[string]bool{}
	walkExpr(s.e, func(x *expr) {
		if x.kind == eName || x.kind == eAttr {
			if p := d.path(x, f); strings.HasPrefix(p, "self.") {
				read[p] = true
			}
		}
	})
	for _, t := range s.then {
		if t.kind == sAssign && read[d.path(t.target, f)] {
			return true
		}
	}
	return false
}

// membersSetOutside finds the rclcpp::Time members that a function of
// another class assigns through an object of the class (the node storing a
// scan's stamp in its odometry object before calling it).
func (d *dataflow) membersSetOutside() map[*class]map[string]bool {
	out := map[*class]map[string]bool{}
	for _, u := range d.units {
		for _, f := range u.fns {
			eachStmt(f.body, func(s *stmt) {
				if s.kind != sAssign || s.value == nil || s.target == nil || s.target.kind != eAttr || s.target.recv == nil {
					return
				}
				c := d.classOf(s.target.recv, f)
				if c == nil || c == f.cls {
					return
				}
				if fl := c.fields[s.target.name]; fl != nil && isTimeType(fl.typ) {
					if out[c] == nil {
						out[c] = map[string]bool{}
					}
					out[c][s.target.name] = true
				}
			})
		}
	}
	return out
}
