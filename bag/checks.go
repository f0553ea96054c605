package bag

import (
	"strings"

	"github.com/simclock/simclock/rules"
)

// Checks describes every kind of finding Inspect reports: its code,
// severity, the rules it enforces, what it says and how to fix it.
// Adding a finding is one entry here plus its detector; docs/rules.md
// lists every code (a test checks it). Findings about Time fields that
// are not stamps are reported one level lower (warning for error).
var Checks = []rules.Check{
	{Code: CodeReadError, Severity: rules.Error,
		Title: "the file is truncated or corrupt: the report covers what came before",
		Fix:   "re-copy the bag; for a recording cut short, the report of what was read stands"},
	{Code: CodeDamagedChunk, Severity: rules.Error,
		Title: "a chunk whose CRC or lz4 checksum does not match, or that does not decode: its messages are skipped",
		Fix:   "re-copy the bag from its source; the damaged chunks' messages are lost"},
	{Code: CodeDamagedSummary, Severity: rules.Error,
		Title: "an MCAP summary section that fails its CRC or disagrees with the data: the file is read from its data section",
		Fix:   "re-copy the bag; mcap recover rewrites the summary from the data"},
	{Code: CodeMetadata, Severity: rules.Error,
		Title: "metadata.yaml disagrees with the storage files (a listed file missing, other message counts)",
		Fix:   "find the missing file, or run ros2 bag reindex DIR to rewrite metadata.yaml from the files"},
	{Code: CodeNoMetadata, Severity: rules.Info,
		Title: "a bag directory without metadata.yaml: its storage files are read in split order",
		Fix:   "run ros2 bag reindex DIR to rebuild metadata.yaml"},
	{Code: CodeClockBackward, Severity: rules.Error, Rules: []rules.ID{rules.R14, rules.R22},
		Title: "/clock goes back (looped or restarted recording)",
		Fix:   "record one run per bag; nodes must handle the time jump (reset timers and filters)"},
	{Code: CodeClockType, Severity: rules.Error, Rules: []rules.ID{rules.R9},
		Title: "/clock carries another type than rosgraph_msgs/msg/Clock",
		Fix:   "publish rosgraph_msgs/msg/Clock on /clock"},
	{Code: CodeClockWindow, Severity: rules.Error, Rules: []rules.ID{rules.R25, rules.R27},
		Title: "/clock values at or below the window W: now − W is negative or zero",
		Fix:   "guard now() − W until now() > W, or start the simulation after W"},
	{Code: CodeZeroStamp, Severity: rules.Error, Rules: []rules.ID{rules.R10, rules.R29},
		Title: "Time fields equal to 0: uninitialised time",
		Fix:   "stamp messages from now() only once the clock is valid (after the first /clock)"},
	{Code: CodeTimeBase, Severity: rules.Error, Rules: []rules.ID{rules.R3, rules.R30},
		Title: "stamps on another time base than the bag's clock (wall stamps in a sim-time bag, or the reverse)",
		Fix:   "set use_sim_time the same on every node, the recorder included"},
	{Code: CodeWindowNegative, Severity: rules.Error, Rules: []rules.ID{rules.R4, rules.R27},
		Title: "stamp − W is negative: rclpy raises",
		Fix:   "guard stamp − W until the stamp exceeds W"},
	{Code: CodeWindowZero, Severity: rules.Error, Rules: []rules.ID{rules.R25, rules.R27, rules.R28},
		Title: "stamp − W is exactly 0: tf2 reads time 0 as latest",
		Fix:   "guard stamp − W until the stamp exceeds W"},
	{Code: CodeClockGap, Severity: rules.Warning,
		Title: "/clock gaps: no message for more than N periods of log time",
		Fix:   "check the simulator and the recorder for hangs or dropped /clock (QoS, CPU load)"},
	{Code: CodeClockStall, Severity: rules.Warning,
		Title: "/clock pauses: the value stands still for more than N periods",
		Fix:   "expect sim timers to stop while paused; nodes must not treat it as a fault"},
	{Code: CodeClockJump, Severity: rules.Warning, Rules: []rules.ID{rules.R22, rules.R23},
		Title: "/clock jumps forward by more than 10 steps per period",
		Fix:   "due timers fire at once after a jump; make callbacks robust to large dt"},
	{Code: CodeClockPublishers, Severity: rules.Warning, Rules: []rules.ID{rules.R18},
		Title: "/clock had several publishers when recorded",
		Fix:   "run one /clock publisher (one simulator, no bag play --clock beside it)"},
	{Code: CodeBeforeFirstClock, Severity: rules.Warning, Rules: []rules.ID{rules.R16, rules.R26},
		Title: "messages recorded before the first /clock: their nodes saw now() == 0",
		Fix:   "start publishing after the first /clock, or wait for a valid clock"},
	{Code: CodeFutureStamp, Severity: rules.Warning,
		Title: "stamps ahead of the reference by more than the future tolerance",
		Fix:   "check clock sync between hosts, or stamps computed ahead of time"},
	{Code: CodeNonMonotonic, Severity: rules.Warning,
		Title: "stamps going backwards within a topic",
		Fix:   "check for several publishers with different clocks, or a reset clock"},
	{Code: CodeNotNormalized, Severity: rules.Warning, Rules: []rules.ID{rules.R8},
		Title: "a Time with nanosec ≥ 10⁹",
		Fix:   "build Time values through a normalising constructor"},
	{Code: CodeUnknownSchema, Severity: rules.Warning,
		Title: "a topic whose type has no definition in the bag nor among the shipped ones: not analysed",
		Fix:   "record with a rosbag2 that stores definitions (Iron or later, or MCAP)"},
	{Code: CodeDecodeError, Severity: rules.Warning,
		Title: "messages that do not decode with their schema",
		Fix:   "check that the recorded definition matches the publisher's type"},
	{Code: CodeNoClock, Severity: rules.Info, Rules: []rules.ID{rules.R16},
		Title: "the bag has no /clock: stamps are compared with log time",
		Fix:   "record /clock with the bag when nodes run on sim time"},
}

var checksByCode = func() map[string]rules.Check {
	m := make(map[string]rules.Check, len(Checks))
	for _, c := range Checks {
		m[c.Code] = c
	}
	return m
}()

// checkOf returns the table entry of a code; every code has one (a test
// checks it).
func checkOf(code string) rules.Check { return checksByCode[code] }

// ruleList formats rule IDs as the JSON "rule" field: "R10,R29".
func ruleList(ids []rules.ID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = id.String()
	}
	return strings.Join(s, ",")
}

// as returns f with severity sev and the rules of its code.
func (f Finding) as(sev Severity) Finding {
	f.Severity = sev
	f.Rule = ruleList(checkOf(f.Code).Rules)
	return f
}

// newFinding fills a finding's severity and rules from Checks.
func newFinding(f Finding) Finding { return f.as(checkOf(f.Code).Severity) }
