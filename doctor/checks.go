package doctor

import "github.com/simclock/simclock/rules"

// Finding codes. They are stable: JSON output and scripts match on them.
const (
	CodeNodeNotOnSimTime       = "node_not_on_sim_time"
	CodeClockQoSMismatch       = "clock_qos_mismatch"
	CodeMultipleClockPubs      = "multiple_clock_publishers"
	CodeNoClockPublisher       = "no_clock_publisher"
	CodeWallStamps             = "wall_stamps"
	CodeZeroStamps             = "zero_stamps"
	CodeStaleStamps            = "stale_stamps"
	CodeFutureStamps           = "future_stamps"
	CodeParticipantNoEndpoints = "participant_without_endpoints"
	CodeEndpointsNotDiscovered = "endpoints_not_discovered"
)

// Checks is every kind of finding doctor reports: one entry each, with its
// detector in detectors.go. docs/rules.md documents each code.
var Checks = []rules.Check{
	{Code: CodeNodeNotOnSimTime, Severity: rules.Error, Rules: []rules.ID{rules.R16},
		Title: "a node has no /clock reader in a graph that runs on sim time, so it runs on wall time",
		Fix:   "start the node with use_sim_time true: --ros-args -p use_sim_time:=true, or parameters=[{'use_sim_time': True}] in the launch file"},
	{Code: CodeClockQoSMismatch, Severity: rules.Error, Rules: []rules.ID{rules.R16},
		Title: "a /clock reader matches no /clock writer (QoS), so its node's time stays 0",
		Fix:   "give the reader the QoS rclcpp uses for /clock (BEST_EFFORT, VOLATILE, KEEP_LAST 1), e.g. drop qos_overrides./clock.subscription.* parameters, or make the writer offer what the reader asks"},
	{Code: CodeMultipleClockPubs, Severity: rules.Warning, Rules: []rules.ID{rules.R18},
		Title: "more than one writer publishes /clock; nodes see time jump between them",
		Fix:   "keep one /clock source: do not run ros2 bag play --clock next to a simulator, and bridge /clock from one simulator only"},
	{Code: CodeNoClockPublisher, Severity: rules.Error, Rules: []rules.ID{rules.R10, rules.R16},
		Title: "nodes read /clock but nobody publishes it, so their time stays 0",
		Fix:   "start the simulator (or its /clock bridge, or ros2 bag play --clock), or set use_sim_time false on these nodes"},
	{Code: CodeWallStamps, Severity: rules.Error, Rules: []rules.ID{rules.R16, rules.R26},
		Title: "a node stamps messages with wall time while the graph runs on sim time",
		Fix:   "set use_sim_time true on the publishing node, and stamp with the node's clock (node.now(), get_clock().now()), not the system clock"},
	{Code: CodeZeroStamps, Severity: rules.Warning, Rules: []rules.ID{rules.R10, rules.R26},
		Title: "a node publishes stamps that are 0: it stamped before its first /clock, or never set the stamp",
		Fix:   "wait until the node's clock has started (time > 0) before publishing, and set header.stamp = now()"},
	{Code: CodeStaleStamps, Severity: rules.Warning,
		Title: "a node's stamps lag the current /clock beyond the tolerance",
		Fix:   "stamp with the node's clock when the data is taken; if the node replays or buffers data, check it reads the same /clock as the graph"},
	{Code: CodeFutureStamps, Severity: rules.Warning,
		Title: "a node's stamps are ahead of the current /clock beyond the tolerance",
		Fix:   "check that the node reads this graph's /clock (one /clock source, R18) and does not add offsets to its stamps"},
	{Code: CodeParticipantNoEndpoints, Severity: rules.Info,
		Title: "a DDS participant announces no readers or writers that this Cyclone DDS accepted",
		Fix:   "if it is Fast DDS outside ROS 2, disable XTypes type information (Cyclone DDS 0.10 ignores endpoints announcing it); ROS 2 nodes on rmw_fastrtps are not affected"},
	{Code: CodeEndpointsNotDiscovered, Severity: rules.Info,
		Title: "a node lists readers or writers in ros_discovery_info that this Cyclone DDS never discovered",
		Fix:   "if the node's participant is Fast DDS with XTypes type information on (a plain Fast DDS application, not rmw_fastrtps), turn off auto_fill_type_information and auto_fill_type_object: Cyclone DDS 0.10 rejects such endpoints, so nothing on the Cyclone side can hear them"},
}

// check returns the entry of Checks for code.
func check(code string) rules.Check {
	for _, c := range Checks {
		if c.Code == code {
			return c
		}
	}
	panic("doctor: no check " + code)
}
