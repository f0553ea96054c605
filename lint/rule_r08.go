package lint

import (
	"fmt"
	"strings"

	"github.com/simclock/simclock/rules"
)

func init() {
	register(Rule{
		ID:       rules.R8,
		Name:     "stamp-nanosec-whole-count",
		Summary:  "a Time message's nanosec (or sec) set to a Time's whole nanosecond count",
		Severity: rules.Error,
		Fix:      "stamp = t.to_msg() (rclpy) or stamp = t (rclcpp), or nanosec = ns % 1000000000",
		Help: "builtin_interfaces/Time is {int32 sec, uint32 nanosec} with nanosec the fraction below 10⁹. " +
			"stamp.nanosec = now.nanoseconds (rclpy) or stamp.set__nanosec(now().nanoseconds()) (rclcpp) stores the whole " +
			"count since the epoch, truncated to 32 bits: every stamp is wrong. Write stamp = now.to_msg() (rclpy) or " +
			"stamp = now() (rclcpp), or split the count yourself: sec = ns / 1000000000, nanosec = ns % 1000000000. " +
			"There is no --fix: the right repair replaces both fields from one reading of the clock, and the linter does not pair the statements.",
		detector: detector{expr: detectWholeCount},
	})
}

// detectWholeCount is the detector of R8: a sec or nanosec field of a Time
// message given a Time's whole nanosecond count, by assignment (stamp.nanosec
// = ...), by rclcpp's set__nanosec(...) or, in Python, by a message
// constructor's keyword (Time(sec=..., nanosec=...)). Only the count itself,
// through int(), a cast or a functional-style conversion, is reported: any
// arithmetic (%, -, /, fmod) may make it the fraction.
func detectWholeCount(c *checker, e *expr, f *fn, _ []cond) {
	if c.once(f, "R8 assignments") {
		eachStmt(f.body, func(s *stmt) {
			if s.kind != sAssign || s.target == nil || s.target.kind != eAttr || s.value == nil {
				return
			}
			if field := s.target.name; field == "sec" || field == "nanosec" {
				c.reportWholeCount(f, &expr{kind: eOther, n: s.n}, field, s.value)
			}
		})
	}
	if e.kind != eCall {
		return
	}
	if e.recv != nil && e.recv.kind == eAttr && len(e.args) == 1 {
		if field, ok := strings.CutPrefix(e.recv.name, "set__"); ok && (field == "sec" || field == "nanosec") {
			c.reportWholeCount(f, e, field, e.args[0])
		}
	}
	if f.u.lang == langPython && timeMsgCallee(e.recv) {
		for _, k := range e.kwargs {
			if k.name == "sec" || k.name == "nanosec" {
				c.reportWholeCount(f, k.value, k.name, k.value)
			}
		}
	}
}

// timeMsgCallee reports whether a Python callee names a Time or Duration
// message type (Time, TimeMsg, builtin_interfaces.msg.Time): the classes
// whose sec and nanosec keywords are the message's fields.
func timeMsgCallee(callee *expr) bool {
	if callee == nil || callee.kind != eName && callee.kind != eAttr {
		return false
	}
	return strings.Contains(callee.name, "Time") || strings.Contains(callee.name, "Duration")
}

// reportWholeCount reports at site when value is a Time's whole nanosecond
// count stored in field (sec or nanosec).
func (c *checker) reportWholeCount(f *fn, site *expr, field string, value *expr) {
	count := wholeCount(c, unwrapConversion(value), f)
	if count == nil {
		return
	}
	u := f.u
	site.u = u
	limit := "uint32 nanosec"
	if field == "sec" {
		limit = "int32 sec"
	}
	c.report(u, site, rules.R8,
		fmt.Sprintf("%s is set to the whole nanosecond count %s, not its fraction below 10⁹: every stamp is wrong", field, shorten(count.text())),
		fmt.Sprintf("builtin_interfaces/Time is {int32 sec, uint32 nanosec}, nanosec < 10⁹ (R8): a Time's nanoseconds is the count since the epoch (or since the simulation started), which the %s truncates or wraps.", limit),
		fixText(u, "use stamp = t.to_msg(), or sec = ns // 1000000000 and nanosec = ns % 1000000000 from one reading",
			"assign the rclcpp::Time itself (stamp = t), or sec = ns / 1000000000 and nanosec = ns % 1000000000 from one reading"),
		nil)
}

// unwrapConversion strips the conversions that keep a value's number:
// Python int(x), C++ static_cast<T>(x), (T)x and T(x) for an integer T.
func unwrapConversion(e *expr) *expr {
	for e != nil {
		switch {
		case e.kind == eCall && len(e.args) == 1 && integerConversion(calleeName(e.recv)):
			e = e.args[0]
		case e.kind == eOther && e.n != nil && e.n.kind == "cast_expression":
			v := e.n.child("value")
			var inner *expr
			for _, s := range e.subs {
				if s.n == v {
					inner = s
				}
			}
			if inner == nil {
				return e
			}
			e = inner
		default:
			return e
		}
	}
	return e
}

// calleeName is the name of a callee: an identifier, a template or, in
// C++, a primitive type (uint32_t(x)).
func calleeName(callee *expr) string {
	switch {
	case callee == nil:
		return ""
	case callee.kind == eName:
		return callee.name
	case callee.n != nil && callee.n.kind == "primitive_type" && callee.u != nil:
		return callee.text()
	}
	return ""
}

// integerConversion reports whether a callee name converts to an integer:
// int (Python, and numpy's names imported bare), static_cast<...>, or a C++
// integer type used as a function (isIntegerType: the fixed-width types,
// size_t, rcl_time_point_value_t, int, long, unsigned...).
func integerConversion(name string) bool {
	if strings.HasPrefix(name, "static_cast<") {
		return true
	}
	switch strings.TrimPrefix(name, "std.") {
	case "int", "uint32", "int32", "int64", "uint64":
		return true
	}
	return isIntegerType(name)
}

// wholeCount returns e when it reads a Time's whole nanosecond count:
// rclpy's t.nanoseconds or rclcpp's t.nanoseconds() of a value the data
// flow knows as a time point (not a Duration).
func wholeCount(c *checker, e *expr, f *fn) *expr {
	if e == nil {
		return nil
	}
	if e.kind == eName {
		// A count kept in a local first (ns = now.nanoseconds; const int64_t
		// ns = now().nanoseconds();): followed through that one assignment.
		if def := onlyLocalDef(e, f); def != nil {
			if v := unwrapConversion(def.value); v == nil || v.kind != eName {
				return wholeCount(c, v, f)
			}
		}
		return nil
	}
	var t *expr
	switch {
	case f.u.lang == langPython && e.kind == eAttr && e.name == "nanoseconds":
		t = e.recv
	case f.u.lang == langCPP && e.kind == eCall && len(e.args) == 0 && e.recv != nil && e.recv.kind == eAttr && e.recv.name == "nanoseconds":
		t = e.recv.recv
	default:
		return nil
	}
	if ft := c.d.facts(t, f); ft&fTime != 0 && ft&fDuration == 0 {
		return e
	}
	return nil
}

// onlyLocalDef returns the one statement of f that sets the local named by
// e, before e: a C++ declaration with a value, or a Python assignment; nil
// when there is none, more than one (an assignment in a branch or a loop,
// an augmented one such as ns %= 1000000000) or the name may be anything
// else (a C++ member, a parameter).
func onlyLocalDef(e *expr, f *fn) *stmt {
	if f == nil || e.n == nil {
		return nil
	}
	var def *stmt
	n := 0
	eachStmt(f.body, func(s *stmt) {
		switch s.kind {
		case sAssign:
			if s.target != nil && s.target.kind == eName && s.target.name == e.name {
				def = s
				n++
			}
		case sExpr:
			// ns %= ..., ns *= ...: lowered as expressions, they change it.
			if s.n != nil && (s.n.kind == "augmented_assignment" || s.n.kind == "assignment_expression") {
				if l := s.n.child("left"); l != nil && f.u.text(l) == e.name {
					n++
				}
			}
		}
	})
	if n != 1 || def == nil || def.value == nil || def.n == nil || def.n.end > e.n.start {
		return nil
	}
	if f.u.lang == langCPP && !def.decl {
		return nil
	}
	return def
}
