// Package rules names the ROS 2 time rules R1..R30 that simclock implements
// and that its findings cite, and the one severity vocabulary every tool
// uses.
//
// The rules themselves are written out in docs/rules.md: each with its
// statement, what upstream (rcl, rclpy, rclcpp) does, and what simclock does.
// An ID's URL points into that file, so a lint finding, a bag report or a
// doctor finding can always be looked up. A test keeps this package and the
// document in step.
package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// ID is a rule number, R1..R30. The zero ID is not a rule.
type ID int

// The rules, by number. Their one-line summaries are in [ID.Summary] and
// their full text in docs/rules.md.
const (
	R1 ID = iota + 1
	R2
	R3
	R4
	R5
	R6
	R7
	R8
	R9
	R10
	R11
	R12
	R13
	R14
	R15
	R16
	R17
	R18
	R19
	R20
	R21
	R22
	R23
	R24
	R25
	R26
	R27
	R28
	R29
	R30
)

// DocPath is where the rules are written out, relative to the repository root.
const DocPath = "docs/rules.md"

// Home is the project's home, the base of every rule's URL.
const Home = "https://github.com/simclock/simclock"

var summaries = [...]string{
	R1:  "A Time is nanoseconds plus a clock type (ROS, SYSTEM, STEADY); a Duration is signed nanoseconds with no clock type.",
	R2:  "Time(seconds, nanoseconds) adds the two parts; negative inputs or totals are errors, and so is a total past int64.",
	R3:  "rclpy's default clock type depends on how a Time is built: Time() is SYSTEM_TIME, Time.from_msg() and node clocks are ROS_TIME.",
	R4:  "Time ± Duration keeps the clock type; a negative result is an error, exactly 0 is valid, past int64 is overflow.",
	R5:  "Time − Time is a Duration and may be negative, but fails when the clock types differ.",
	R6:  "Comparing Times of different clock types fails, even when both are 0 ns.",
	R7:  "Duration(seconds, nanoseconds) adds the two parts; negative is allowed; outside int64 is overflow.",
	R8:  "builtin_interfaces Time/Duration split nanoseconds with floor division; seconds outside int32 cannot be encoded.",
	R9:  "/clock is rosgraph_msgs/Clock on DDS topic rt/clock: a 4-byte CDR header then int32 sec, uint32 nanosec.",
	R10: "The ROS clock reads system time until the sim-time override is enabled, then the last /clock value, which is 0 until one arrives.",
	R11: "A clock has started once it reads more than 0; waiting for that is bounded on the steady clock and cancellable.",
	R12: "Jump callbacks carry a threshold (clock change, minimum forward, minimum backward); invalid thresholds are rejected.",
	R13: "Enabling or disabling the override fires clock-change callbacks (activated, deactivated) before and after the switch.",
	R14: "Setting the override fires jump callbacks only when the jump reaches a callback's forward or backward threshold.",
	R15: "Sleeping on the ROS clock follows ROS time, wakes on /clock, and ends early when the time source changes or the context ends.",
	R16: "use_sim_time (default false) makes a node subscribe to /clock with depth 1, best effort, and drive its clocks from it.",
	R17: "A clock attached while sim time is on gets the last /clock at once; turning use_sim_time off returns it to system time.",
	R18: "A graph has one /clock publisher; several are a fault.",
	R19: "A new timer's first deadline is now + period on its clock (the node's ROS clock by default).",
	R20: "A timer is ready when it is not cancelled and now ≥ its next deadline.",
	R21: "Calling a timer moves its deadline by whole periods past now: missed periods are skipped, never replayed.",
	R22: "ROS-clock timers follow jumps: a forward jump past the deadline wakes the timer once, a backward jump resets it.",
	R23: "A sim timer created at time 0 waits for /clock; a first /clock at S > 0 fires it once at now = S.",
	R24: "reset() re-arms a timer one period from now; cancel() stops it until reset.",
	R25: "A sim timer at f Hz from 0 with a window W raises on ceil(W·f) − 1 ticks and yields time 0 on tick W·f when that is whole.",
	R26: "Code that does not wait for sim time (constructors, wall timers, early callbacks) sees now() = 0 whatever the simulator's start.",
	R27: "The window guard that works skips while now ≤ W; 'now == 0 or now < W' lets the boundary tick through with time 0.",
	R28: "tf2 reads a lookup at time 0 as 'latest': a boundary tick or an unset stamp silently gets the newest transform.",
	R29: "A baseline stored before the first /clock is 0, so the first dt is the whole first /clock value; guard prev ≤ 0 and now ≤ 0.",
	R30: "Time(seconds=1.5) is 1500000000 ns; from_msg of its message is ROS_TIME, so comparing it with the SYSTEM_TIME original fails.",
}

// All lists every rule in number order.
var All = func() []ID {
	ids := make([]ID, 0, len(summaries)-1)
	for i := R1; i <= R30; i++ {
		ids = append(ids, i)
	}
	return ids
}()

// Valid reports whether id names a rule.
func (id ID) Valid() bool { return id >= R1 && id <= R30 }

// String returns the rule's name as findings print it: "R27".
func (id ID) String() string { return "R" + strconv.Itoa(int(id)) }

// Summary returns the rule in one line, or "" for an ID that is not a rule.
func (id ID) Summary() string {
	if !id.Valid() {
		return ""
	}
	return summaries[id]
}

// Anchor is the rule's heading anchor in docs/rules.md: "r27".
func (id ID) Anchor() string { return "r" + strconv.Itoa(int(id)) }

// URL is where the rule is written out: docs/rules.md#r27 under [Home].
func (id ID) URL() string { return Home + "/blob/main/" + DocPath + "#" + id.Anchor() }

// MarshalText writes the rule as "R27", so JSON output carries rule names.
func (id ID) MarshalText() ([]byte, error) {
	if !id.Valid() {
		return nil, fmt.Errorf("rules: %d is not a rule number", int(id))
	}
	return []byte(id.String()), nil
}

// UnmarshalText reads "R27" (or "r27").
func (id *ID) UnmarshalText(b []byte) error {
	p, err := Parse(string(b))
	if err != nil {
		return err
	}
	*id = p
	return nil
}

// Parse reads a rule name, "R27" or "r27".
func Parse(s string) (ID, error) {
	t := strings.TrimSpace(s)
	if len(t) < 2 || (t[0] != 'R' && t[0] != 'r') {
		return 0, fmt.Errorf("rules: %q is not a rule name (want R1..R30)", s)
	}
	n, err := strconv.Atoi(t[1:])
	if err != nil || !ID(n).Valid() {
		return 0, fmt.Errorf("rules: %q is not a rule name (want R1..R30)", s)
	}
	return ID(n), nil
}
