package doctor

import (
	"fmt"
	"strings"

	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/rules"
)

// CodeClockPartition: a clock reader shares no DDS partition with the writers of its topic.
const CodeClockPartition rules.Code = "clock_partition_mismatch"

func init() {
	detectors.Register(rules.Detector[*analysis]{
		Check: rules.Check{Code: CodeClockPartition, Severity: rules.Error, Rules: []rules.ID{rules.R16},
			Title: "a /clock reader shares no DDS partition with the /clock writers, so its node's time stays 0",
			Fix:   "remove the partition from the reader's (or writer's) DDS configuration, such as a Fast DDS XML profile for the topic: ROS 2 puts every endpoint in the default partition"},
		Detect: clockPartitionMismatch,
	})
}

// clockPartitionMismatch: a reader of a published clock topic that only
// its partitions keep from every writer: it is on the topic with a
// compatible QoS and hears nothing.
func clockPartitionMismatch(a *analysis) []rules.Finding {
	var out []rules.Finding
	for _, u := range a.unmatchedClockReaders() {
		if !u.onlyPartitions {
			continue
		}
		topic := rosTopicOr(u.r.DDSTopic)
		out = append(out, finding(a.who(u.r), topic,
			fmt.Sprintf("the %s reader of %s is in %s and matches no %s writer: %s; it hears no sample, its sim time stays 0",
				topic, a.who(u.r), graph.PartitionsString(u.r.Partitions), topic, strings.Join(u.why, ", "))))
	}
	return out
}
