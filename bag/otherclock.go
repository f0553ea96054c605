package bag

import (
	"strings"

	"github.com/simclock/simclock/ros2msg"
)

// An otherClock is a Time field that by design does not carry the graph's
// clock (the ROS clock that /clock drives), wherever its type is nested.
// Its values are counted and shown, and checked for what a Time is in any
// clock (not_normalized), but never judged against /clock or the log time
// nor for going backwards: time_base_mismatch, future_stamp,
// non_monotonic_stamp, zero_stamp and the window checks would only be
// noise there. docs/rules.md lists them.
type otherClock struct {
	// Field is the field in the type that declares it, as
	// ros2msg.TimeField.Owner names it: "sensor_msgs/TimeReference.time_ref".
	Field string
	// Clock says which clock it carries, for the report: "system",
	// "external".
	Clock string
	// Why is the upstream reason, cited.
	Why string
}

// otherClocks are the Time fields of the common interfaces that carry
// another clock than the graph's.
var otherClocks = []otherClock{
	{Field: "rcl_interfaces/Log.stamp", Clock: "system",
		Why: "rcutils_log stamps every log message with rcutils_system_time_now, whatever use_sim_time " +
			"(ros2/rcutils src/logging.c), and every node publishes /rosout: its stamps are many nodes' system clocks"},
	{Field: "sensor_msgs/TimeReference.time_ref", Clock: "external",
		Why: "the time of an external source not synchronised with the system clock (a GPS receiver, a device clock), " +
			"measured at header.stamp (sensor_msgs/msg/TimeReference.msg)"},
	{Field: "nav2_msgs/BehaviorTreeStatusChange.timestamp", Clock: "system",
		Why: "the behavior tree's own event time, \"typically wall clock time\" (nav2_msgs/msg/BehaviorTreeStatusChange.msg)"},
}

// otherClockOf returns the entry of a Time field that carries another
// clock than the graph's, or nil.
func otherClockOf(owner string) *otherClock {
	for i := range otherClocks {
		if otherClocks[i].Field == owner {
			return &otherClocks[i]
		}
	}
	return nil
}

// staticTransforms stands for every Time field of a topic of static
// transforms (isStaticTF): tf2 keeps a static transform for all time,
// whatever its stamp, and a latched transform reaches a recorder that
// subscribes hours after it was sent. Its stamps are shown, never judged,
// as simclock doctor never judges a static broadcaster's.
var staticTransforms = otherClock{Field: "tf2_msgs/TFMessage (static)", Clock: "static",
	Why: "tf2's BufferCore stores a static transform in a TimeCacheStatic, which answers every lookup whatever " +
		"the time (ros2/geometry2 tf2/src/static_cache.cpp); StaticTransformBroadcaster publishes transient local, " +
		"so the recorder receives transforms sent long before it started"}

// isStaticTF reports whether a channel carries static transforms: its
// type is tf2_msgs/msg/TFMessage and every publisher offered it transient
// local (StaticTransformBroadcaster's QoS), or, where the recorder kept no
// QoS (metadata before version 4), the topic is named tf_static.
func isStaticTF(ch *channel) bool {
	if ros2msg.Canonical(ch.Type) != "tf2_msgs/TFMessage" {
		return false
	}
	profiles, err := ParseQoSProfiles(ch.OfferedQoS)
	if err != nil || len(profiles) == 0 {
		return ch.Topic == "tf_static" || strings.HasSuffix(ch.Topic, "/tf_static")
	}
	for _, p := range profiles {
		if p.Durability != "transient_local" {
			return false
		}
	}
	return true
}
