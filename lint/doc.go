// Package lint finds the ROS 2 time pitfalls of the simclock specification
// (R2..R30) in rclpy and rclcpp source code, before they run.
//
// # Checks
//
// See [Rules]. In short: now() - Duration without the R27 guard (and the
// "== 0 or < W" guard that lets the boundary tick through), the same window
// computed in a Node constructor (R26), SYSTEM_TIME baselines from Time() or
// rclcpp::Time() mixed with ROS time (R3, R5, R6, R30), baselines taken from
// now() in a constructor and later used as now() - prev (R29), tf2 lookups at
// a time that may be 0 (R28, always info), rclpy Time/Duration with positional arguments
// (R2, R7), a message's nanosec or sec set to a Time's whole nanosecond
// count (R8) and misspellings of use_sim_time (R16), found by similarity, in
// code, YAML parameter and launch files, XML launch files and the
// name:=value arguments of launch files and shell scripts.
//
// Findings can be silenced with a comment on the same line, or alone on the
// line before: "# simclock: ignore[R27]", "// simclock: ignore[R27,R28]", or
// "simclock: ignore" for every rule.
//
// # How
//
// Each file is parsed into a concrete syntax tree, copied into Go memory
// (tree.go), and lowered by a per-language front end (python.go, cpp.go)
// into a small common form: functions with their class, assignments,
// if-statements, early exits and expressions (ir.go). A flow-insensitive
// data-flow pass (facts.go) then works out, for every local, every
// self./member attribute and (in Python) every record field stored through
// a constructor keyword or a dict key, whether its value came from a node
// clock's now(), a SYSTEM_TIME Time(), Time.from_msg(), a Duration, an
// unguarded window subtraction, or now() in a constructor. The checks
// (analyze.go) read those facts and the conditions that hold at each
// expression: enclosing ifs, earlier "if c: return" exits (elif chains
// included) and the left side of && and ||.
//
// Flow-insensitivity over-approximates; these rules keep it precise on
// real code (the development corpus of lint/corpus/dev.tsv is the test
// bed; scripts/lint-corpus measures it):
//   - A default-constructed rclcpp::Time member that nothing assigns is
//     SYSTEM_TIME 0. One that only methods assign (not a constructor or an
//     initialiser such as on_configure, onInit, reset) is "unset": reported
//     only where it is read as a last_*/prev_* baseline, or read before the
//     same function assigns it, with no state guard holding and no caller
//     that sets it before the call (message_filters#175, mavros#1734).
//   - A baseline is taken as set when the same function assigns it from ROS
//     time earlier, or when a condition holding at the use reads state: a
//     member a method assigns (a flag, a counter, a has-data pointer) or a
//     method's answer ("if (!cmd_ || now() - cmd_time_ > 1s)",
//     "if (!isDataReady()) return;"). Configuration set once is not state.
//   - A check anywhere in the function (an if or a loop condition) that
//     reads the baseline counts as handling it; a comparison or
//     subtraction of it with ROS time does not (checksBaseline): it
//     throws as the reported site does.
//   - Guards may be written in a helper that returns the comparison
//     ("if (!clock_started(now, W)) return;") or as a difference
//     ("now.nanoseconds - W.nanoseconds <= 0").
//   - Arguments carry their clock type into the class's own methods (not
//     into non-const reference out-parameters); two parameters are never
//     reported against each other, as which callers' values meet is unknown.
//   - Lifecycle order: an unconditional assignment in on_configure or
//     on_activate (init/on_init before them) comes before update() and the
//     callbacks, also under a preprocessor #if; a local flag guard counts
//     the flag's sets in lambdas of the function that declares it.
//   - A local's initial value (rclcpp::Time t;, rclpy t = Time()) is not
//     what a read sees when another assignment always precedes the read
//     (afterLocalSet): a copy assignment copies the clock type.
//   - A default member initialiser written "= v" reads as "{v}" (cppFront
//     field): t_ = now() is now(), not a default-constructed SYSTEM_TIME.
//   - A member that is SYSTEM_TIME only by its initialiser
//     ({0, 0, RCL_SYSTEM_TIME}, = rclcpp::Clock().now()) loses that value
//     when every constructor (or, if none mentions it, a lifecycle
//     transition before the callbacks) assigns it unconditionally before
//     any read of it (overwrittenBeforeRead): the assigned values' clock
//     type is its own.
//
// # Context
//
// Test code (gtest, pytest, launch_testing, unittest; by directory, file
// name or the framework it includes) runs on wall time unless it turns
// use_sim_time on, so the sim-time startup rules R26, R27 and R29 skip it
// (context.go). An explicit Time(), rclcpp::Time(0) or tf2::TimePointZero
// in a tf2 lookup is the intended "latest" idiom and is not R28. A
// throttle or rate limiter that only compares the elapsed time with a
// minimum is not R29: a large first interval lets one event through.
// Neither is a watchdog whose expiry only resets state (clears what the
// baseline's setter sets, stops, publishes, logs), nor an elapsed time only
// ever compared alongside (and) a flag set with the baseline, nor a dt
// bounded from above: before the first command, none acts on the
// constructor's baseline.
//
// R29 follows what runs before the first /clock (startup.go): a Node's
// constructor, and the constructors of what it, a plugin's initialiser or
// main builds, followed across a package's files; an object built later
// (a behaviour tree's element, in a tick) takes the current time. A
// constructor baseline is reported when no assignment on the way to the
// subtraction moves it (a method called first, an action server's
// accepted-handler), always at info (round 8: measured on code nobody
// here had read, its failing findings were false; whether the first dt
// matters needs a reader), saying whether the dt goes into arithmetic
// (integrals, rates) or the elapsed time is a timeout or a freshness
// answer whose effect the linter cannot judge. In C++ on Humble
// and Jazzy a negative window is stored silently, so R26 and R27 are info
// there, and nothing where the result is only compared or kept as a
// baseline that is only compared or subtracted from.
//
// A window in the result callback of an action goal the node sent (rclpy
// add_done_callback on the future of get_result_async(), rclcpp
// SendGoalOptions::result_callback or the callback of
// async_get_result(goal_handle, callback)), or in a method only such a callback
// reaches, runs once the goal has ended, long after the first /clock: R27
// reports it at info. So is a window (below now(), not a message's stamp)
// in a service server's or action server's callback (create_service,
// rclcpp_action::create_server, rclpy ActionServer) or a method only such
// callbacks reach: it runs on request, after the first /clock. An R16 misspelling in a Python launch file that
// passes Node or ComposableNode arguments launch_ros removed before Humble
// (node_executable, node_plugin, node_name, node_namespace) is info too: on the linted distribution the
// launch fails before any parameter is set. R16 accepts "/use_sim_time", ROS 1's
// global parameter name, in ROS 1 files and reports it where a ROS 2 node
// gets it as written (ROS 2 has no global parameters): a dict key in a Python
// launch file importing launch_ros, a key under ros__parameters, a <param> of
// a ROS 2 XML <node exec=...> or <composable_node>, a launch.yaml node's
// param, and the name that launch_ros' SetParameter, a ROS 2 XML
// <set_parameter> or a launch.yaml set_parameter gives every node in its
// scope; not beside a correct use_sim_time (for set_parameter: a
// set_parameter of use_sim_time anywhere in the same file).
//
// What now() - W below 0 does depends on the distribution ([Config]
// RosDistro, --ros-distro; distro.go): rclpy raises ValueError; rclcpp
// throws from 28.2 (Kilted, Rolling; ros2/rclcpp#2510) and silently gives
// a negative Time before (Humble, Jazzy), where a C++ window whose result
// is only compared is harmless and not reported.
//
// # Limits
//
// The analysis is per function plus class members; it follows calls only
// into the same class's methods (argument clock types, guard helpers,
// callers that set a member first): a baseline a constructor stores
// through a method it calls (init_variables()) counts as the
// constructor's for R29, as does one kept as a number (C++
// now().seconds(), rclpy now().nanoseconds), but a window computed in
// such a helper is not seen as being in the constructor (R26), and a
// stamp returned by a getter is unknown. C++ classes merge by simple name within
// a package (the nearest directory with a package.xml). The linter cannot
// know whether a node runs with use_sim_time, so outside test code R27
// also fires on code that only ever sees wall time, where the window is
// harmless in practice.
package lint
