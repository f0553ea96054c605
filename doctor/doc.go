// Package doctor audits the time of a live ROS 2 graph, passively: which
// nodes follow sim time (they read /clock), whether their /clock readers
// match a /clock writer under the DDS QoS rules, who publishes /clock and
// how fast, and on what time base each node stamps its messages.
//
// A Watcher collects, through a Source (transport/dds's Transport is
// one), the graph (package graph), the /clock writers' messages, and a
// sample of every stamped topic; Report turns what it has into a Report:
// nodes, topics, /clock writers and findings (rules.Finding, the finding
// type of every simclock tool). Each kind of finding is one file,
// check_<code>.go, holding its table entry and its detector
// (rules.Detector); Checks lists them.
//
// Stamps are read with package ros2msg from the type's definition, shipped
// for the common interface packages; a topic of any other type has stamp
// base "unknown": doctor never guesses a layout.
package doctor
