package lint

import (
	"fmt"

	"github.com/simclock/simclock/rules"
)

func init() {
	register(Rule{
		ID:       rules.R28,
		Name:     "lookup-time-zero",
		Summary:  "tf2 lookup at a time that may be 0 (now() - W, an unset stamp, now() before the clock started): tf2 reads 0 as latest",
		Severity: rules.Info,
		Fix:      "guard the window so that the lookup time is > 0, or pass the data's stamp",
		Help: "tf2 treats a lookup at time 0 as 'latest available'. A lookup time computed as now() - W is exactly 0 on the " +
			"tick at W under sim time, so the lookup silently returns the newest transform instead of the one W ago: " +
			"guard the window (R27). A stored stamp that starts as Time() and is set by a callback, or now() read in a " +
			"constructor, is 0 until then. An explicit Time(), rclcpp::Time(0) or tf2::TimePointZero asks for the latest " +
			"transform on purpose and is not reported.",
		detector: detector{expr: detectR28},
	})
}

// lookupMethods are the tf2 buffer methods whose third argument is a time.
var lookupMethods = map[string]bool{
	"lookup_transform": true, "lookupTransform": true, "can_transform": true, "canTransform": true,
	"wait_for_transform_async": true, "lookup_transform_async": true, "waitForTransform": true,
}

// detectR28 reports a tf2 lookup at a time that may be 0.
func detectR28(c *checker, e *expr, f *fn, conds []cond) {
	if e.kind != eCall || e.recv == nil || e.recv.kind != eAttr || !lookupMethods[e.recv.name] {
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
		c.reportR28(u, t,
			fmt.Sprintf("lookup time %s comes from now() - W and may be exactly 0, which tf2 treats as 'latest available'", shorten(t.text())),
			"tf2 treats a lookup at time 0 as 'latest' (R28): on the boundary tick now == W the lookup silently returns the newest transform instead of the one W ago.",
			"guard the window so that the lookup time is > 0: skip while now <= W (R27)")
		return
	}
	// An explicit Time(), rclcpp::Time(0) or tf2::TimePointZero is the
	// intended "latest available" idiom and is not reported. A stored
	// stamp that starts as Time() and is set by a callback, or a now()
	// taken in a constructor, may still be 0 when the lookup runs.
	if t.kind != eName && t.kind != eAttr {
		return
	}
	p := c.d.path(t, f)
	if p == "" {
		return
	}
	var why string
	switch {
	case ft&fZero != 0 && ft&(fROS|fNow) != 0:
		if ft&fUnset != 0 && !baselineName(p) {
			// A default-constructed member set by another method: usually
			// set earlier in the same action (a state the analysis cannot
			// follow), unless it names the last value seen.
			return
		}
		why = fmt.Sprintf("%s starts as the zero time and is set later from a stamp or now()", shorten(t.text()))
	case ft&fCtorNow != 0 && !f.ctor:
		why = fmt.Sprintf("%s is now() read in the constructor, 0 before the first /clock", shorten(t.text()))
	default:
		return
	}
	set := map[string]bool{p: true}
	for _, ce := range c.allIfConds(f) {
		if c.mentions(ce, set, f, false) {
			return // the code checks the stamp before using it
		}
	}
	for _, cd := range conds {
		if c.readsMember(cd.e, f) {
			return // a state guard: if (!has_data_) return;
		}
	}
	if c.stateGuarded(t, p, f, conds) || c.setBeforeCalls(f, p) {
		return
	}
	c.reportR28(u, t,
		fmt.Sprintf("lookup time %s may still be 0, which tf2 treats as 'latest available': %s", shorten(t.text()), why),
		"tf2 treats a lookup at time 0 as 'latest' (R28): until the stamp is set, the lookup silently returns the newest transform instead of the one at the stamp.",
		"skip the lookup until the stamp is set (check it against 0, or a has-data flag set with it)")
}

// reportR28 reports at info, saying why: on sim time that R28 never fails
// a run, else (as R26-R29 do) that nothing puts the package on sim time.
func (c *checker) reportR28(u *unit, t *expr, msg, why, fix string) {
	if c.onSimTime(u) {
		msg += r28Info
	} else {
		msg += c.noSimTimeReason(u)
	}
	c.reportInfo(u, t, rules.R28, msg, why, fix, nil)
}

// r28Info says why an R28 finding is info: on the development set (663
// repositories, read by hand) every one of its 11 findings was false (the
// lookup time is 0 on one tick only, and "latest" is then a harmless
// answer), and the window that may land on 0 fails the run as R27 where it
// can also throw (lint/corpus/README.md, round 10).
const r28Info = "; info: R28 never fails a run (all its findings on public code were false; the window itself is R27's)"
