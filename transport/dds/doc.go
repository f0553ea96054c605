// Package dds is simclock's Cyclone DDS transport: it speaks ROS 2's wire
// conventions so that ROS 2 nodes (rclcpp, rclpy, ros2 bag, Gazebo's
// bridge) and simclock exchange /clock and any other topic (R9).
//
//   - Topics: ROS "/clock" is DDS "rt/clock".
//   - Types: "rosgraph_msgs/msg/Clock" is "rosgraph_msgs::msg::dds_::Clock_".
//   - Payloads: opaque XCDR1 bytes with their encapsulation header, as
//     rmw_cyclonedds sends them; readers and writers offer XCDR1 only.
//   - QoS: KEEP_LAST depth, reliability and durability as asked;
//     endpoints of known types carry USER_DATA "typehash=RIHS01_...;" as
//     Jazzy does, so graph tools see a proper type hash.
//   - Environment: ROS_DOMAIN_ID, ROS_AUTOMATIC_DISCOVERY_RANGE,
//     ROS_STATIC_PEERS, ROS_LOCALHOST_ONLY and CYCLONEDDS_URI, turned into
//     the same Cyclone configuration rmw_cyclonedds (Jazzy) builds; see
//     ConfigFromEnv.
//
// # Loading Cyclone DDS
//
// libddsc is loaded at run time by the internal ddsc package (cgo for the
// C callback tables, dlopen for the library; its doc explains why). Open
// on a machine without libddsc, or in a CGO_ENABLED=0 build, returns an
// error wrapping ErrNoDDS that says what to install.
//
// # Malformed samples
//
// The transport never judges the body of a payload: every sample Cyclone
// accepts is delivered with its bytes exactly as received, including
// payloads too short for their type and encapsulations other than plain
// CDR (parameter-list CDR, XCDR2), which Cyclone's own typed readers
// would validate and drop silently. The consumer decodes
// (timemsg.DecodeClock returns a *cdr.DecodeError) and counts; simclock
// monitor reports them as "malformed". Samples whose first four bytes are
// not an encapsulation header at all never reach any DDS reader: Cyclone
// discards the whole RTPS packet ("malformed packet" in its log), so
// Publish refuses to send them (ErrInvalidPayload).
//
// # Delivery
//
// Each Subscription is a DDS reader whose history (KEEP_LAST depth) is
// the queue of the transport contract: a new sample on a full queue drops
// the oldest. One goroutine per subscription waits on a DDS waitset and
// signals Notify; Close wakes it with a guard condition and waits for it.
//
// Several transports in one process may share a domain; the Cyclone
// configuration of a domain is fixed by the first transport that opens it.
package dds
