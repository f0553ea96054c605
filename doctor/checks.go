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
	CodeNothingDiscovered      = "nothing_discovered"
	CodeClockPartition         = "clock_partition_mismatch"
	CodeClockTopicUnpublished  = "clock_topic_unpublished"
	CodeClockStopped           = "clock_stopped"
	CodeClockGap               = "clock_gap"
	CodeClockStall             = "clock_stall"
	CodeClockBackward          = "clock_backward"
	CodeClockJumpForward       = "clock_jump_forward"
	CodeClockMalformed         = "clock_malformed"
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
	{Code: CodeNothingDiscovered, Severity: rules.Error,
		Title: "no DDS participant was discovered: doctor is alone on its domain, so it cannot say anything about the graph",
		Fix:   "run doctor with the graph's ROS_DOMAIN_ID; make ROS_AUTOMATIC_DISCOVERY_RANGE (and ROS_STATIC_PEERS) reach the graph's hosts; check that CYCLONEDDS_URI does not restrict doctor to another network interface than the graph's"},
	{Code: CodeClockPartition, Severity: rules.Error, Rules: []rules.ID{rules.R16},
		Title: "a /clock reader shares no DDS partition with the /clock writers, so its node's time stays 0",
		Fix:   "remove the partition from the reader's (or writer's) DDS configuration, such as a Fast DDS XML profile for the topic: ROS 2 puts every endpoint in the default partition"},
	{Code: CodeClockTopicUnpublished, Severity: rules.Error, Rules: []rules.ID{rules.R16},
		Title: "a node's time source reads a clock topic nobody publishes, while another clock topic is published",
		Fix:   "remap the node's clock to the published topic (--ros-args -r /clock:=/robot1/clock, or the reverse), or bridge or relay the published clock to the topic the node reads"},
	{Code: CodeClockStopped, Severity: rules.Error, Rules: []rules.ID{rules.R16},
		Title: "a /clock writer stopped publishing during the audit: sim time stands still for every node on it",
		Fix:   "check the simulator or bag player: it crashed, hung or was stopped; nodes on sim time wait (timers do not fire) until /clock comes back"},
	{Code: CodeClockGap, Severity: rules.Warning, Rules: []rules.ID{rules.R22},
		Title: "/clock went silent during the audit, then resumed: nodes on sim time froze meanwhile",
		Fix:   "check the simulator's load and its real-time factor: a simulator that cannot keep up publishes /clock in bursts"},
	{Code: CodeClockStall, Severity: rules.Warning,
		Title: "/clock kept coming but its value stood still (a paused simulator or bag player): sim time did not advance",
		Fix:   "unpause the simulator or ros2 bag play if that was not meant; nodes on sim time do nothing while it is paused"},
	{Code: CodeClockBackward, Severity: rules.Error, Rules: []rules.ID{rules.R14, rules.R22},
		Title: "/clock went back in time during the audit (a looped or restarted simulation or recording)",
		Fix:   "nodes see time jump back: tf2 buffers are cleared (\"Detected jump back in time\"), timers reset; restart the graph's nodes after a simulation reset, or do not loop playback"},
	{Code: CodeClockJumpForward, Severity: rules.Warning, Rules: []rules.ID{rules.R22, rules.R23},
		Title: "/clock jumped forward during the audit, beyond its usual step",
		Fix:   "a jump fires every timer that fell due at once; check the simulator (a seek, a reset, a stall it caught up on)"},
	{Code: CodeClockMalformed, Severity: rules.Error, Rules: []rules.ID{rules.R8, rules.R9},
		Title: "a /clock writer sends messages that are not a valid rosgraph_msgs/msg/Clock (they do not decode, or carry nanosec ≥ 1e9)",
		Fix:   "publish rosgraph_msgs/msg/Clock serialized as rmw does (CDR, sec then nanosec below 1e9); a valid Clock type name over another layout is dropped or misread by every node"},
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
