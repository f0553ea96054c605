package lint

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/simclock/simclock/rules"
)

func init() {
	register(Rule{
		ID:       rules.R27,
		Name:     "unguarded-window",
		Summary:  "now() - Duration without a guard that skips now <= W",
		Severity: rules.Warning,
		Fix:      "skip the computation while now <= W",
		Help: "Under sim time now() is 0 until the first /clock and then counts from the simulator's start, so now() - W is " +
			"negative on every tick before W (rclpy raises ValueError, rclcpp on Humble and Jazzy gives a negative Time) and " +
			"exactly 0 on the tick at W, which tf2 reads as 'latest'. Skip the computation while now <= W; a guard on " +
			"now == 0 or now < W alone lets ticks through.",
		SimTimeOnly: true,
		detector:    detector{expr: detectR27},
	})
}

// unguardedWindow reports whether e is now() - Duration whose guard does
// not exclude now <= W (R26 and R27 share it).
func (c *checker) unguardedWindow(e *expr, f *fn) bool {
	return e.kind == eBinary && e.op == "-" && c.isWindowSub(e, f) && c.d.agoLevel[e] != guardSafe && !c.harmlessWindow(e, f)
}

// harmlessWindow reports whether a window subtraction going negative does
// no harm on the chosen distribution: in C++ on a distribution whose
// rclcpp stores a negative Time silently (Humble, Jazzy), when the result
// is only compared. rclpy raises on every distribution, and rclcpp 28.2+
// throws before any comparison runs.
func (c *checker) harmlessWindow(e *expr, f *fn) bool {
	return c.silentNegative(f) && (c.comparedOnly[e] || c.storedBaseline(e, f))
}

// silentNegative reports whether a negative Time in f is stored silently:
// C++ on a distribution whose rclcpp predates 28.2. What harm it does then
// depends on where it goes (tf2, a message), which the linter cannot
// follow, so windows there are reported at info.
func (c *checker) silentNegative(f *fn) bool {
	return f.u.lang == langCPP && !rclcppThrowsOnNegative(c.distro)
}

// storedBaseline reports whether window subtraction site is stored in a
// member that the class only ever compares or subtracts a time from
// (last_command_ = now() - period, so that the first command goes out at
// once): a negative Time does both correctly.
func (c *checker) storedBaseline(site *expr, f *fn) bool {
	if f.cls == nil {
		return false
	}
	p := ""
	eachStmt(f.body, func(s *stmt) {
		if s.kind == sAssign && s.value == site {
			p = c.d.path(s.target, f)
		}
	})
	if !strings.HasPrefix(p, "self.") {
		return false
	}
	ok := true
	for _, g := range f.cls.fns {
		var scan func(e *expr, parent *expr)
		scan = func(e *expr, parent *expr) {
			if e == nil || !ok {
				return
			}
			if (e.kind == eName || e.kind == eAttr) && c.d.path(e, g) == p {
				switch {
				case parent != nil && parent.kind == eCompare:
				case parent != nil && parent.kind == eBinary && parent.op == "-" && parent.r == e && c.d.facts(parent.l, g)&fTime != 0:
				default:
					ok = false
				}
				return
			}
			eachChild(e, func(ch *expr) { scan(ch, e) })
		}
		eachStmt(g.body, func(s *stmt) {
			if s.kind == sAssign && c.d.path(s.target, g) == p {
				scan(s.value, nil)
				return
			}
			scan(s.e, nil)
			scan(s.value, nil)
		})
	}
	return ok
}

// windowFix is the fix of R26 and R27 in the file's language.
func windowFix(u *unit) string {
	return fixText(u,
		"skip while now <= W: `if now.nanoseconds <= window.nanoseconds: return` before subtracting (or simclock guard.Ago)",
		"skip while now <= W: `if (now.nanoseconds() <= window.nanoseconds()) return;` before subtracting (or simclock guard.Ago)")
}

// detectR27 reports a window subtraction outside a Node constructor (there
// it is R26) whose guard does not exclude now <= W.
func detectR27(c *checker, e *expr, f *fn, _ []cond) {
	stamp := c.isStampWindow(e, f)
	if f.ctor && f.cls != nil && f.cls.isNode && !stamp || !c.unguardedWindow(e, f) {
		return
	}
	outcome := negativeOutcome(f.u, c.distro)
	why := "Under sim time now() is 0 until the first /clock and then counts from the simulator's start, so now - W is negative for every tick " +
		"before W (" + outcome + ") and exactly 0 on the tick at W, which tf2 reads as 'latest' (R27, R28)."
	var msg string
	switch c.d.agoLevel[e] {
	case guardNone:
		msg = fmt.Sprintf("\"%s\" has no guard against now <= W", e.text())
	case guardZeroOnly:
		msg = fmt.Sprintf("\"%s\" is guarded only against now == 0: ticks with 0 < now < W still go negative", e.text())
	case guardBoundary:
		msg = fmt.Sprintf("\"%s\" is guarded with now < W (or == 0 or < W), which lets the boundary tick now == W through: the result is time 0", e.text())
	}
	if stamp {
		msg = fmt.Sprintf("\"%s\" subtracts a window from a message's stamp with no guard against stamp <= W: under sim time the stamps of the first W seconds are smaller", e.text())
		why = "Under sim time stamps count from the simulator's start, so a stamp minus W is negative for the messages of the first W seconds (" +
			outcome + ") (R4, R27)."
	}
	if c.d.agoLevel[e] != guardBoundary {
		msg += ": " + outcome
	}
	fix := windowFix(f.u)
	if stamp {
		fix = fixText(f.u, "skip while the stamp is not past W: `if stamp.nanoseconds <= window.nanoseconds: ...` before subtracting",
			"skip while the stamp is not past W: `if (stamp.nanoseconds() <= window.nanoseconds()) ...` before subtracting")
	}
	// Where the negative time cannot happen in practice, say why at info:
	// no sim-time path, or a diagnostic task whose first tick is at its
	// period (simtime.go).
	switch {
	case c.silentNegative(f):
	case !c.onSimTime(f.u):
		msg += c.noSimTimeReason(f.u)
	case c.diagnosticOnly(f):
		msg += "; info: a diagnostic_updater task, first run at its period (1 s by default) of sim time"
	case c.goalResultOnly(f):
		msg += "; info: reached only from the result callback of an action goal this node sent, which runs once the goal has ended, long after the first /clock"
	case !stamp && c.requestOnly(f):
		msg += "; info: reached only from a service or action server callback, which runs on request, after the first /clock"
	case c.unreferenced(f):
		msg += "; info: nothing in the package calls " + outermost(f).name + "()"
	default:
		c.report(f.u, e, rules.R27, msg, why, fix, nil)
		return
	}
	c.reportInfo(f.u, e, rules.R27, msg, why, fix, nil)
}

// outermost is the function f is written in: f, or the method enclosing
// its lambda or nested def.
func outermost(f *fn) *fn {
	for f.outer != nil {
		f = f.outer
	}
	return f
}

// goalResultOnly reports whether f runs only once an action goal this
// node sent has ended: as the result callback of that goal, or only from
// one (onlyReachedFrom). Round 10: a window in a Nav2 result callback, run
// when a goal sent from RViz is aborted, long after the first /clock.
func (c *checker) goalResultOnly(f *fn) bool {
	return c.onlyReachedFrom(f, c.isGoalResultCallback, map[*fn]bool{})
}

// isGoalResultCallback reports whether g itself is handed to an action
// client as a goal's result callback: in rclpy, an argument of
// add_done_callback on the future of get_result_async() (the method, a
// lambda, or a functools.partial of it); in rclcpp, the value assigned to
// a SendGoalOptions' result_callback (a lambda, std::bind of the method)
// or the second argument of rclcpp_action's async_get_result(goal_handle,
// result_callback).
func (c *checker) isGoalResultCallback(g *fn) bool {
	if g.cls == nil {
		return false
	}
	handed := func(arg *expr) bool {
		found := false
		walkExpr(arg, func(x *expr) {
			if x.n == g.n && g.name == "<lambda>" || g.name != "<lambda>" && c.refersTo(x, g) {
				found = true
			}
		})
		return found
	}
	found := false
	for _, h := range g.cls.fns {
		eachStmt(h.body, func(s *stmt) {
			if found {
				return
			}
			switch g.u.lang {
			case langPython:
				for _, e := range []*expr{s.e, s.value} {
					walkExpr(e, func(call *expr) {
						if found || call.kind != eCall || call.recv == nil || call.recv.kind != eAttr || call.recv.name != "add_done_callback" {
							return
						}
						if c.resultFuture(call.recv.recv, h) && slices.ContainsFunc(call.args, handed) {
							found = true
						}
					})
				}
			case langCPP:
				if s.kind == sAssign && s.target != nil && s.target.kind == eAttr && s.target.name == "result_callback" &&
					bytes.Contains(h.u.src, []byte("SendGoalOptions")) && handed(s.value) {
					found = true
				}
				// client->async_get_result(goal_handle, callback): the
				// callback is the goal's result callback as well.
				for _, e := range []*expr{s.e, s.value} {
					walkExpr(e, func(call *expr) {
						if found || call.kind != eCall || call.recv == nil || call.recv.kind != eAttr || call.recv.name != "async_get_result" {
							return
						}
						if len(call.args) == 2 && handed(call.args[1]) {
							found = true
						}
					})
				}
			}
		})
	}
	return found
}

// resultFuture reports whether e, in h, is the future of a goal's result:
// a get_result_async() call, or a local or member that is only ever
// assigned one.
func (c *checker) resultFuture(e *expr, h *fn) bool {
	isResultCall := func(v *expr) bool {
		return v != nil && v.kind == eCall && v.recv != nil && v.recv.kind == eAttr && v.recv.name == "get_result_async"
	}
	if isResultCall(e) {
		return true
	}
	p := c.d.path(e, h)
	if p == "" {
		return false
	}
	scope := []*fn{h}
	if strings.HasPrefix(p, "self.") {
		scope = h.cls.fns
	}
	assigned, other := false, false
	for _, g := range scope {
		eachStmt(g.body, func(s *stmt) {
			if s.kind == sAssign && c.d.path(s.target, g) == p {
				if isResultCall(s.value) {
					assigned = true
				} else {
					other = true
				}
			}
		})
	}
	return assigned && !other
}
