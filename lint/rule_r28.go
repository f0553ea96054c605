package lint

import (
	"fmt"

	"github.com/simclock/simclock/rules"
)

func init() {
	register(Rule{
		ID:       rules.R28,
		Name:     "lookup-time-zero",
		Summary:  "tf2 lookup at a time that may be 0, or at an explicit Time(): tf2 reads 0 as latest",
		Severity: rules.Warning,
		Fix:      "guard the window so that the lookup time is > 0, or pass the data's stamp",
		Help: "tf2 treats a lookup at time 0 as 'latest available'. A lookup time computed as now() - W is exactly 0 on the " +
			"tick at W under sim time, so the lookup silently returns the newest transform instead of the one W ago: " +
			"guard the window (R27). An explicit Time() is 0 too; that is right when the newest transform is meant " +
			"and wrong when the data has a stamp.",
		detector: detector{expr: detectR28},
	})
}

// lookupMethods are the tf2 buffer methods whose third argument is a time.
var lookupMethods = map[string]bool{
	"lookup_transform": true, "lookupTransform": true, "can_transform": true, "canTransform": true,
	"wait_for_transform_async": true, "lookup_transform_async": true, "waitForTransform": true,
}

// detectR28 reports a tf2 lookup at a time that may be 0.
func detectR28(c *checker, e *expr, f *fn, _ []cond) {
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
		c.report(u, t, rules.R28,
			fmt.Sprintf("lookup time %s comes from now() - W and may be exactly 0, which tf2 treats as 'latest available'", shorten(t.text())),
			"tf2 treats a lookup at time 0 as 'latest' (R28): on the boundary tick now == W the lookup silently returns the newest transform instead of the one W ago.",
			"guard the window so that the lookup time is > 0: skip while now <= W (R27)", nil)
		return
	}
	if q := canon(c.d.qual(t.recv, f), u.lang); t.kind == eCall && (q == "rclpy.time.Time" || q == "rclcpp.Time") &&
		ft&fSystem != 0 && len(t.args) == 0 && len(t.kwargs) == 0 {
		note := c.report(u, t, rules.R28,
			fmt.Sprintf("%s as lookup time asks tf2 for the latest transform, not the one at now or at a message stamp", shorten(t.text())),
			"Time() is 0 ns and tf2 treats time 0 as 'latest available' (R28). That is right when the newest transform is meant, wrong when the data being transformed has a stamp.",
			fixText(u, "pass the data's stamp (Time.from_msg(msg.header.stamp)); if 'latest' is really meant, say so with # simclock: ignore[R28]",
				"pass the data's stamp, or tf2::TimePointZero when 'latest' is meant"),
			nil)
		if note != nil {
			note.Severity = rules.Info
		}
	}
}
