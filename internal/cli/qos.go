package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/transport"
)

// qosFlags are ros2 topic echo/hz's --qos-profile, --qos-reliability,
// --qos-durability and --qos-depth, for a subscription: the profile
// first, then each policy given on its own.
type qosFlags struct {
	profile, reliability, durability string
	depth                            int
}

// qosProfiles are the presets of ros2 topic's --qos-profile (rclpy's
// QoSPresetProfiles short keys) that a subscription here can take, plus
// "clock", the QoS of a node's time source (rclcpp's ClockQoS). The
// system defaults are Cyclone DDS's for a reader: best effort, volatile.
var qosProfiles = map[string]transport.QoS{
	"clock":                 {Depth: 1, Reliability: transport.BestEffort, Durability: transport.Volatile},
	"sensor_data":           {Depth: 5, Reliability: transport.BestEffort, Durability: transport.Volatile},
	"system_default":        {Depth: 1, Reliability: transport.BestEffort, Durability: transport.Volatile},
	"services_default":      {Depth: 10, Reliability: transport.Reliable, Durability: transport.Volatile},
	"parameters":            {Depth: 1000, Reliability: transport.Reliable, Durability: transport.Volatile},
	"parameter_events":      {Depth: 1000, Reliability: transport.Reliable, Durability: transport.Volatile},
	"action_status_default": {Depth: 1, Reliability: transport.Reliable, Durability: transport.TransientLocal},
}

func (q *qosFlags) add(f *pflag.FlagSet, what string) {
	addEnumFlag(f, &q.profile, "qos-profile", "clock", "QoS profile to "+what+" with (clock: BEST_EFFORT VOLATILE depth 1, as a node's time source)",
		sortedKeys(qosProfiles)...)
	addEnumFlag(f, &q.reliability, "qos-reliability", "", "overrides the profile's; reliable is what a node's own /clock subscription with default QoS asks for",
		"reliable", "best_effort", "system_default")
	addEnumFlag(f, &q.durability, "qos-durability", "", "overrides the profile's", "volatile", "transient_local", "system_default")
	f.IntVar(&q.depth, "qos-depth", 0, "history depth, keep last N (overrides the profile's)")
}

// resolve returns the QoS asked for, starting from def when no profile
// was named: usage errors name the choices.
func (q *qosFlags) resolve(f *pflag.FlagSet, def transport.QoS) (transport.QoS, error) {
	qos := def
	if f.Changed("qos-profile") {
		p, ok := qosProfiles[q.profile]
		if !ok {
			return qos, flagErrorf("--qos-profile %q: want one of %s", q.profile, strings.Join(sortedKeys(qosProfiles), ", "))
		}
		qos = p
	}
	switch strings.ToLower(q.reliability) {
	case "":
	case "reliable":
		qos.Reliability = transport.Reliable
	case "best_effort", "system_default":
		qos.Reliability = transport.BestEffort
	default:
		return qos, flagErrorf("--qos-reliability %q: want reliable, best_effort or system_default", q.reliability)
	}
	switch strings.ToLower(q.durability) {
	case "":
	case "volatile", "system_default":
		qos.Durability = transport.Volatile
	case "transient_local":
		qos.Durability = transport.TransientLocal
	default:
		return qos, flagErrorf("--qos-durability %q: want volatile, transient_local or system_default", q.durability)
	}
	if f.Changed("qos-depth") {
		if q.depth <= 0 {
			return qos, flagErrorf("--qos-depth %d: want a positive number", q.depth)
		}
		qos.Depth = q.depth
	}
	return qos, nil
}

// qosString is the compact form used in output, kinds spelt as ros2 topic
// info -v prints them: "BEST_EFFORT VOLATILE depth 1".
func qosString(q transport.QoS) string {
	return fmt.Sprintf("%v %v depth %d", q.Reliability, q.Durability, max(q.Depth, 1))
}

// graphQoS is q as graph's matching rules see a reader.
func graphQoS(q transport.QoS) graph.QoS {
	g := graph.DefaultReaderQoS
	g.Reliability, g.Durability = q.Reliability, q.Durability
	return g
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
