// Package graph is the view of a live ROS 2 graph that tools such as
// simclock doctor work from: DDS participants, the ROS nodes each one
// hosts (from the ros_discovery_info topic every ROS 2 participant
// publishes), every reader and writer with its topic, type, type hash and
// QoS (from the DDS builtin topics DCPSPublication and DCPSSubscription),
// and which readers match which writers under the DDS QoS rules.
//
// The package holds values and rules only; it opens no sockets. A
// transport feeds a Graph with what it discovers (transport/dds does it
// with Cyclone DDS's builtin-topic readers, see dds.Transport.WatchGraph),
// and readers take consistent Snapshots.
//
// It also carries the wire format of ros_discovery_info
// (rmw_dds_common/msg/ParticipantEntitiesInfo, Jazzy: 16-byte GIDs) so
// that a participant can announce its own nodes exactly as rmw_cyclonedds
// does.
package graph
