package doctor

import (
	"fmt"
	"strings"

	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/rules"
)

// CodeClockQoSMismatch: a clock reader that matches no writer of its
// clock topic (QoS or type).
const CodeClockQoSMismatch rules.Code = "clock_qos_mismatch"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeClockQoSMismatch, Severity: rules.Error, Rules: []rules.ID{rules.R16},
			Title: "a /clock reader matches no /clock writer (QoS), so its node's time stays 0",
			Fix:   "give the reader the QoS rclcpp uses for /clock (BEST_EFFORT, VOLATILE, KEEP_LAST 1), e.g. drop qos_overrides./clock.subscription.* parameters, or make the writer offer what the reader asks"},
		Detect: clockQoSMismatch,
	})
}

// clockQoSMismatch: a reader of a published clock topic that matches none
// of its writers for QoS or type. When partitions alone keep it apart, it
// is clock_partition_mismatch instead (its fix is elsewhere).
func clockQoSMismatch(a *analysis) []rules.Finding {
	var out []rules.Finding
	for _, u := range a.unmatchedClockReaders() {
		if u.onlyPartitions {
			continue
		}
		topic := rosTopicOr(u.r.DDSTopic)
		out = append(out, finding(a.who(u.r), topic,
			fmt.Sprintf("the %s reader of %s (%s) matches no %s writer: %s; its sim time stays 0",
				topic, a.who(u.r), u.r.QoS, topic, strings.Join(u.why, ", "))))
	}
	return out
}

// An unmatchedClockReader is a reader of a published clock topic that
// matches none of its writers, and why, writer by writer.
type unmatchedClockReader struct {
	r              graph.Endpoint
	why            []string // "/sim (durability: ...; partition: ...)"
	onlyPartitions bool     // partitions alone keep it from every writer
}

func (a *analysis) unmatchedClockReaders() []unmatchedClockReader {
	var out []unmatchedClockReader
	for _, r := range a.clockReaders {
		writers := a.writersOn(r.DDSTopic)
		if len(writers) == 0 || len(a.snap.Matches(r)) > 0 {
			continue
		}
		u := unmatchedClockReader{r: r, onlyPartitions: true}
		for _, w := range writers {
			var parts []string
			if w.DDSType != r.DDSType {
				parts = append(parts, fmt.Sprintf("type %s, reader wants %s", w.DDSType, r.DDSType))
			}
			for _, inc := range graph.Incompatible(w.QoS, r.QoS) {
				parts = append(parts, inc.String())
			}
			if len(parts) > 0 {
				u.onlyPartitions = false
			}
			if !graph.PartitionsMatch(w.Partitions, r.Partitions) {
				parts = append(parts, fmt.Sprintf("partition: writer in %s, reader in %s",
					graph.PartitionsString(w.Partitions), graph.PartitionsString(r.Partitions)))
			}
			u.why = append(u.why, fmt.Sprintf("%s (%s)", a.who(w), strings.Join(parts, "; ")))
		}
		out = append(out, u)
	}
	return out
}
