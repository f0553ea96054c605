package doctor

import (
	"fmt"

	"github.com/simclock/simclock/rules"
)

// CodeClockTopicUnpublished: a time source reads a clock topic nobody publishes while another is published.
const CodeClockTopicUnpublished rules.Code = "clock_topic_unpublished"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeClockTopicUnpublished, Severity: rules.Error, Rules: []rules.ID{rules.R16},
			Title: "a node's time source reads a clock topic nobody publishes, while another clock topic is published",
			Fix:   "remap the node's clock to the published topic (--ros-args -r /clock:=/robot1/clock, or the reverse), or bridge or relay the published clock to the topic the node reads"},
		Detect: clockTopicUnpublished,
	})
}

// clockTopicUnpublished: a reader of a clock topic nobody publishes while
// another clock topic is published: a remapping that points the wrong
// way (the node reads /robot1/clock, the simulator publishes /clock).
func clockTopicUnpublished(a *analysis) []rules.Finding {
	if len(a.clockWriters) == 0 {
		return nil // noClockPublisher
	}
	var out []rules.Finding
	seen := map[string]bool{}
	for _, r := range a.clockReaders {
		if len(a.writersOn(r.DDSTopic)) > 0 {
			continue
		}
		who, topic := a.who(r), rosTopicOr(r.DDSTopic)
		if seen[who+"\x00"+topic] {
			continue
		}
		seen[who+"\x00"+topic] = true
		out = append(out, finding(who, topic,
			fmt.Sprintf("the time source of %s reads %s, which nobody publishes, while %s: its sim time stays 0, its ROS timers never fire",
				who, topic, a.publishedClocks())))
	}
	return out
}
