// Package ros2msg parses ROS 2 message definitions in the "ros2msg"
// schema encoding that rosbag2 writes into MCAP files, and decodes CDR
// payloads of those types dynamically.
//
// # Schema text
//
// A ros2msg schema is the root type's .msg text followed, for each type it
// depends on, by a line of '=' characters, a line "MSG: pkg/Type" and that
// type's text. Parse understands builtin types (bool, byte, char, int8 ...
// uint64, float32, float64, string, wstring), fixed arrays T[N], bounded
// T[<=N] and unbounded T[] sequences, bounded strings string<=N, constants
// (TYPE NAME=value), default values, nested types by "pkg/Type" or by a
// name in the same package, and the Header shorthand for std_msgs/Header.
// Types a schema uses but does not define are taken from a small built-in
// set (builtin_interfaces/Time and Duration, std_msgs/Header,
// rosgraph_msgs/Clock, service_msgs/ServiceEventInfo), then from the
// shipped definitions.
//
// # Shipped definitions
//
// The package embeds the Jazzy .msg files of the common interface packages
// (std_msgs, sensor_msgs, geometry_msgs, nav_msgs, tf2_msgs,
// visualization_msgs, diagnostic_msgs, control_msgs, vision_msgs,
// nav2_msgs, rcl_interfaces, action_msgs and more; interfaces/README.md
// lists them with their sources and licences). ParseShipped parses one of
// them for a recording or a graph that names a type without defining it:
// rosbag2 sqlite3 bags before Iron, and DDS discovery, which carries only a
// type name and hash. A recorded definition always wins, and a type that
// is neither recorded nor shipped is ErrUnknownType: never a guessed layout. Service event
// schemas written as .srv text, as Iron-era rosbag2 does, are expanded to
// the Event type rosidl generates.
//
// # Decoding
//
// Schema.Times finds every builtin_interfaces/Time in a payload (with its
// field path, and whether it is a std_msgs/Header stamp), decoding only as
// far as the last field that can hold one and allocating nothing.
// Schema.Decode decodes a whole payload into a Value. Both follow XCDR1
// (package cdr): alignment counted from after the 4-byte encapsulation
// header, at most 8. wstring follows rmw_cyclonedds: a uint32 count of
// UTF-16 code units, then the units, with no terminator.
//
// Neither parser nor decoder panics on bad input: schema problems are
// *SyntaxError values (type, line, text) and payload problems are
// *cdr.DecodeError values (offset, field path).
package ros2msg
