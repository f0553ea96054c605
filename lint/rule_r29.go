package lint

import (
	"fmt"
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
	c.report(u, e, rules.R29, msg,
		"A baseline stored before the first /clock is 0, so the first dt is the whole first /clock value (e.g. 125 s instead of 0.5 s): "+
			"it is positive, passes a dt < 0 check, and inflates integrals or deflates finite-difference rates (R29).",
		"skip the update when prev <= 0 or now <= 0, then treat dt < 0 as a backward jump, and always move the baseline to now (or use simclock guard.DtTracker)",
		nil)
}
