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
// a time that may be 0 (R28), rclpy Time/Duration with positional arguments
// (R2, R7) and misspellings of use_sim_time (R16), found by similarity, in
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
// Flow-insensitivity over-approximates; three rules keep it precise on real
// code (navigation2 was the test bed): a default-constructed rclcpp::Time
// member counts as SYSTEM_TIME only when nothing ever assigns it; a baseline
// is taken as set when the same function assigns it from ROS time earlier,
// or when a condition holding at the use reads a member assigned together
// with the baseline ("if (!cmd_ || now() - cmd_time_ > 1s)"); and a check
// anywhere in the function that reads the baseline counts as handling it.
//
// # Parser choice
//
// The linter needs real parsers for two languages people actually write
// ROS 2 nodes in, and must not choke on the unfinished or macro-heavy code
// found in real packages. tree-sitter (github.com/tree-sitter/go-tree-sitter
// with the official tree-sitter-python and tree-sitter-cpp grammars) gives
// both from one API: the grammars are maintained upstream, parse Python 3
// and C++20 including lambdas, templates and chrono literals, and recover
// from syntax errors locally instead of failing the file, which matters for
// C++ that is only valid after the preprocessor. The alternatives were
// worse: go/parser-style hand-written parsers for two languages are months
// of work; shelling out to CPython's ast module covers only Python and needs
// an interpreter; libclang needs the package's compile flags and include
// paths (a colcon build) to produce any tree at all. The cost is cgo: the
// grammars are C. That cgo is confined to parse_cgo.go and tswalk_cgo.go; a
// build without cgo compiles parse_nocgo.go, where every entry point returns
// [ErrNoParser]. The tree is copied out of C once per file by a single C
// function (tswalk_cgo.go) rather than one cgo call per node, and
// tree-sitter allocates with libc directly instead of through the binding's
// Go callbacks; together that halved the time per file. The analysis itself
// makes no cgo calls.
//
// # Limits
//
// The analysis is per function plus class members; it does not follow
// calls (a window computed in a helper called from __init__ is not seen as
// being in the constructor). C++ classes merge by simple name within a
// package (the nearest directory with a package.xml). Values are classified
// by construction syntax, so a clock or time passed in as a parameter is
// unknown and never reported. The linter cannot know whether a node runs
// with use_sim_time, so R27 also fires on code that only ever sees wall
// time, where the window is harmless in practice.
package lint
