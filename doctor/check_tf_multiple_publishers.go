package doctor

import (
	"fmt"
	"slices"
	"strings"

	"github.com/simclock/simclock/rules"
)

// CodeTFMultiplePublishers: two nodes publish the same parent→child
// transform.
const CodeTFMultiplePublishers rules.Code = "tf_multiple_publishers"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeTFMultiplePublishers, Severity: rules.Warning,
			Title: "more than one node publishes the same parent→child transform",
			Fix: "let one node own each transform: turn off the duplicate broadcaster (publish_tf: false in the " +
				"localization or odometry node that should not publish it)"},
		Detect: tfMultiplePublishers,
	})
}

// tfMultiplePublishers: per parent→child pair, the nodes (or
// participants) publishing it, on any tf topic.
func tfMultiplePublishers(a *analysis) []rules.Finding {
	type pair struct{ parent, child string }
	who := map[pair][]string{}
	topic := map[pair]string{}
	var order []pair
	for _, t := range a.tf {
		p := pair{t.Parent, t.Child}
		if _, ok := who[p]; !ok {
			order = append(order, p)
			topic[p] = t.Topic
		}
		desc := t.Publisher + " (" + t.Topic + ")"
		if !slices.ContainsFunc(who[p], func(s string) bool { return strings.HasPrefix(s, t.Publisher+" (") }) {
			who[p] = append(who[p], desc)
		}
	}
	var out []rules.Finding
	for _, p := range order {
		names := who[p]
		if len(names) < 2 {
			continue
		}
		first, _, _ := strings.Cut(names[0], " (")
		out = append(out, finding(first, topic[p], fmt.Sprintf(
			"%d nodes publish the transform %s→%s: %s; listeners get both, interleaved: the tree follows whichever "+
				"arrived last, and when their stamps differ by more than the buffer one is dropped as TF_OLD_DATA",
			len(names), p.parent, p.child, strings.Join(names, ", "))))
	}
	return out
}
