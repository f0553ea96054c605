package cli

// The exit-code contract of every command: 0 clean, 1 findings or failed
// checks, 2 usage (unknown command or flag, bad value, NaN, Inf, a stop
// before a start, the same file twice), with suggestions for typos.

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// leaves returns the path of every runnable command under c.
func commandPaths(c *cobra.Command, prefix []string) (leaves, groups [][]string) {
	for _, sub := range c.Commands() {
		if sub.Hidden || sub.Name() == "help" || sub.Name() == "completion" {
			continue
		}
		path := append(append([]string{}, prefix...), sub.Name())
		if sub.HasSubCommands() {
			groups = append(groups, path)
			l, g := commandPaths(sub, path)
			leaves, groups = append(leaves, l...), append(groups, g...)
		} else {
			leaves = append(leaves, path)
		}
	}
	return leaves, groups
}

func TestExitCodeContract(t *testing.T) {
	leaves, groups := commandPaths(NewRoot(&Env{}), nil)
	if len(leaves) < 10 {
		t.Fatalf("only %d commands found: %v", len(leaves), leaves)
	}
	type tc struct {
		args []string
		code int
		want string // in stderr
	}
	var cases []tc
	for _, path := range leaves {
		cases = append(cases,
			tc{append(path, "--no-such-flag"), ExitUsage, "unknown flag: --no-such-flag"},
			tc{append(path, "--help"), ExitOK, ""},
		)
	}
	for _, path := range append([][]string{{}}, groups...) {
		typo := "xyzzy"
		cases = append(cases, tc{append(path, typo), ExitUsage, `unknown command "xyzzy"`})
	}
	hazards := "testdata/bag/hazards.mcap"
	clean := "testdata/lint/clean"
	cases = append(cases,
		// typos get suggestions
		tc{[]string{"experiment", "startpu"}, ExitUsage, "did you mean startup?"},
		tc{[]string{"monitr"}, ExitUsage, "did you mean monitor?"},
		tc{[]string{"bag", "inspct", hazards}, ExitUsage, "did you mean inspect?"},
		// bad values, NaN, Inf, negative times
		tc{[]string{"pub", "--period", "NaN"}, ExitUsage, "--period"},
		tc{[]string{"pub", "--period", "-1"}, ExitUsage, "must not be negative"},
		tc{[]string{"pub", "--period", "0"}, ExitUsage, "must be positive"},
		tc{[]string{"pub", "--rtf", "Inf"}, ExitUsage, "--rtf"},
		tc{[]string{"pub", "--rtf", "NaN"}, ExitUsage, "--rtf"},
		tc{[]string{"pub", "--drop", "1"}, ExitUsage, "--drop"},
		tc{[]string{"pub", "--start", "-3"}, ExitUsage, "must not be negative"},
		tc{[]string{"pub", "--start", "2147483648"}, ExitUsage, "largest time a Clock message carries"},
		tc{[]string{"pub", "--step", "1ms", "--rtf", "2"}, ExitUsage, "--step and --rtf"},
		tc{[]string{"pub", "--jump-to", "5"}, ExitUsage, "--jump-to and --jump-at"},
		tc{[]string{"pub", "--resume-after", "1"}, ExitUsage, "--resume-after needs --pause-at"},
		tc{[]string{"pub", "--loop"}, ExitUsage, "--loop needs --until"},
		tc{[]string{"pub", "/a", "/b"}, ExitUsage, "at most one topic"},
		tc{[]string{"pub", "/a", "--topic", "/b"}, ExitUsage, "the topic is given twice"},
		// topic names ROS 2 rejects are usage errors, not DDS errors
		tc{[]string{"pub", "bad topic!"}, ExitUsage, `topic name "bad topic!": invalid ROS name`},
		tc{[]string{"pub", "--topic", ""}, ExitUsage, "empty"},
		tc{[]string{"pub", "/clock/"}, ExitUsage, "ends with /"},
		tc{[]string{"monitor", "~clock"}, ExitUsage, "invalid ROS name"},
		tc{[]string{"monitor", "/1clock"}, ExitUsage, "starts with a digit"},
		tc{[]string{"monitor", "--ros-args", "-r", "/clock:=/sim//clock"}, ExitUsage, "empty token"},
		// ros2 topic's QoS flags
		tc{[]string{"monitor", "--qos-reliability", "sometimes"}, ExitUsage, "want reliable, best_effort"},
		tc{[]string{"monitor", "--qos-durability", "forever"}, ExitUsage, "want volatile, transient_local"},
		tc{[]string{"monitor", "--qos-depth", "0"}, ExitUsage, "--qos-depth 0"},
		tc{[]string{"monitor", "--qos-profile", "best_available"}, ExitUsage, "want action_status_default, clock"},
		tc{[]string{"predict", "1", "2"}, ExitUsage, "simclock predict takes no arguments"},
		tc{[]string{"experiment", "startup", "x"}, ExitUsage, "takes no arguments"},
		tc{[]string{"experiment", "clocktypes", "x"}, ExitUsage, "takes no arguments"},
		tc{[]string{"experiment", "dtspike", "x"}, ExitUsage, "takes no arguments"},
		tc{[]string{"doctor", "x"}, ExitUsage, "takes no arguments"},
		tc{[]string{"completion", "bash", "x"}, ExitUsage, ""},
		tc{[]string{"pub", "--format", "xml"}, ExitUsage, "--format"},
		tc{[]string{"pub", "--transport", "carrier-pigeon"}, ExitUsage, "--transport"},
		// a stop before a start, a pause or jump before the start
		tc{[]string{"pub", "--start", "10", "--until", "5"}, ExitUsage, "before it starts"},
		tc{[]string{"pub", "--start", "10", "--until", "10"}, ExitUsage, "before it starts"},
		tc{[]string{"pub", "--start", "10", "--pause-at", "5"}, ExitUsage, "--pause-at 5 is before --start 10"},
		tc{[]string{"pub", "--start", "10", "--jump-at", "5", "--jump-to", "20"}, ExitUsage, "--jump-at 5 is before"},
		tc{[]string{"monitor", "--interval", "0"}, ExitUsage, "--interval"},
		tc{[]string{"monitor", "--duration", "NaN"}, ExitUsage, "--duration"},
		tc{[]string{"monitor", "--duration", "-1s"}, ExitUsage, "must not be negative"},
		tc{[]string{"monitor", "--periods", "0"}, ExitUsage, "--periods"},
		tc{[]string{"monitor", "--expect-rtf", "fast"}, ExitUsage, "--expect-rtf"},
		tc{[]string{"monitor", "--expect-rtf", "NaN"}, ExitUsage, "--expect-rtf"},
		tc{[]string{"monitor", "/a", "/b"}, ExitUsage, "at most one topic"},
		tc{[]string{"experiment", "startup", "--start", "NaN"}, ExitUsage, "--start"},
		tc{[]string{"experiment", "startup", "--windows", "0.5,Inf"}, ExitUsage, "--windows"},
		tc{[]string{"experiment", "startup", "--clock-step", "0"}, ExitUsage, "must be positive"},
		tc{[]string{"predict", "--start", "-1"}, ExitUsage, "must not be negative"},
		tc{[]string{"predict", "--hz", "NaN"}, ExitUsage, "NaN"},
		tc{[]string{"experiment", "dtspike", "--speed", "NaN"}, ExitUsage, "--speed"},
		tc{[]string{"experiment", "dtspike", "--speed", "Inf"}, ExitUsage, "--speed"},
		tc{[]string{"experiment", "startup", "--timer-hz", "NaN"}, ExitUsage, "NaN"},
		tc{[]string{"bag", "inspect", "--gap-periods", "NaN", hazards}, ExitUsage, "--gap-periods"},
		tc{[]string{"bag", "clock", "--hz", "Inf", hazards}, ExitUsage, "hz"},
		tc{[]string{"bag", "clock", "--clock-hz", "Inf", hazards}, ExitUsage, "--clock-hz +Inf"},
		tc{[]string{"predict", "--duration", "Inf"}, ExitUsage, "--duration"},
		tc{[]string{"bag", "inspect"}, ExitUsage, "no FILE"},
		tc{[]string{"bag", "inspect", "--window", "NaN", hazards}, ExitUsage, "--window"},
		tc{[]string{"bag", "inspect", hazards, hazards}, ExitUsage, "given twice"},
		tc{[]string{"bag", "inspect", hazards, "./" + hazards}, ExitUsage, "given twice"},
		tc{[]string{"bag", "clock", hazards, hazards}, ExitUsage, "given twice"},
		tc{[]string{"bag", "clock", "--rate", "NaN", hazards}, ExitUsage, "--rate"},
		tc{[]string{"bag", "clock", "-r", "0", hazards}, ExitUsage, "--rate 0"},
		tc{[]string{"bag", "clock", "-r", "1e30", hazards}, ExitUsage, "--rate 1e+30: must be in (0, 1e6]"},
		tc{[]string{"bag", "clock", "--clock", "0", hazards}, ExitUsage, "--clock 0"},
		tc{[]string{"bag", "clock", "--clock-topics", "bad topic", hazards}, ExitUsage, "--clock-topics"},
		tc{[]string{"bag", "clock", "--clock-topics", "/a", "--clock-topics-all", hazards}, ExitUsage, "give one"},
		tc{[]string{"bag", "clock", "--playback-until-sec", "1", "--playback-until-nsec", "1", hazards}, ExitUsage, "give one"},
		tc{[]string{"bag", "clock", "--playback-until-sec", "NaN", hazards}, ExitUsage, "--playback-until-sec"},
		tc{[]string{"bag", "clock", "--playback-until-nsec", "-5", hazards}, ExitUsage, "--playback-until-nsec"},
		tc{[]string{"bag", "clock", "--playback-duration", "-1", hazards}, ExitUsage, "must not be negative"},
		tc{[]string{"bag", "clock", "--rate", "Inf", hazards}, ExitUsage, "--rate"},
		tc{[]string{"lint", "--format", "xml", "."}, ExitUsage, "--format"},
		tc{[]string{"lint", "--ros-distro", "", clean}, ExitUsage, "--ros-distro: empty (want one of humble, jazzy"},
		tc{[]string{"lint", "--format", "sarif", "--root", "/nonexistent", clean}, ExitUsage, "--root: stat /nonexistent: no such file"},
		tc{[]string{"lint", "--format", "junit", "--root", ".", clean}, ExitUsage, "--root only applies to --format sarif"},
		tc{[]string{"lint", "--config", "/nonexistent.yaml", clean}, ExitUsage, "--config: stat /nonexistent.yaml"},
		tc{[]string{"lint", "--config", "testdata/lint/pkg/src/window.cpp", clean}, ExitUsage, "config file testdata/lint/pkg/src/window.cpp"},
		tc{[]string{"lint", "-", clean}, ExitUsage, "- (standard input) must be the only PATH"},
		tc{[]string{"lint", "--fix", "-"}, ExitUsage, "--fix cannot rewrite standard input"},
		tc{[]string{"lint", "--stdin-filename", "x.py", clean}, ExitUsage, "--stdin-filename only applies to PATH -"},
		tc{[]string{"lint", "--exclude", "a/[b", clean}, ExitUsage, `--exclude: bad pattern "a/[b"`},
		tc{[]string{"lint", "--rules", "unguarded-windw", clean}, ExitUsage, `--rules: unknown rule "unguarded-windw"`},
		tc{[]string{"lint", "--format", "junit", "--rules", "unguarded-window", "--exclude", "x", clean}, ExitOK, ""},
		tc{[]string{"lint", "--format", "junit", "testdata/lint/nope"}, ExitUsage, "no such file"},
		tc{[]string{"doctor", "--duration", "NaN"}, ExitUsage, "--duration"},
		tc{[]string{"doctor", "--tolerance", "0"}, ExitUsage, "must be positive"},
		tc{[]string{"doctor", "--interval", "-1"}, ExitUsage, "must not be negative"},
		// help for a command that does not exist
		tc{[]string{"help", "nosuch"}, ExitUsage, `unknown command "nosuch" for "simclock"`},
		tc{[]string{"help", "bag", "nosuch"}, ExitUsage, `unknown command "nosuch" for "simclock bag"`},
		tc{[]string{"help", "bag", "clock"}, ExitOK, ""},
		// numbers past what they set, and Go's parse errors in words
		tc{[]string{"pub", "--rtf", "1e30", "--transport", "inproc"}, ExitUsage, "past the largest time a Clock message carries"},
		tc{[]string{"predict", "--start", "2147483648"}, ExitUsage, "past the largest time a Clock message carries"},
		tc{[]string{"predict", "--duration", "1000000000"}, ExitUsage, "a run of 1000000000 s at 10 Hz is more than"},
		tc{[]string{"experiment", "startup", "--timer-hz", "abc"}, ExitUsage, `"abc": want a rate in Hz`},
		tc{[]string{"experiment", "startup", "--clock-every", "1e6"}, ExitUsage, `invalid argument "1e6" for "--clock-every" flag: want a whole number`},
		tc{[]string{"pub", "--seed", "-1"}, ExitUsage, "want a whole number, 0 or more"},
		tc{[]string{"bag", "clock", "--hz", "10", "--clock-hz", "20", hazards}, ExitUsage, "give one"},
		// clean runs and findings
		tc{[]string{"predict"}, ExitOK, ""},
		tc{[]string{"bag", "inspect", hazards}, ExitFailure, ""},
	)
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			_, stderr, code := runSimclock(t, c.args...)
			if strings.Contains(stderr, "strconv.") {
				t.Errorf("Go's parse error reaches the user: %q", stderr)
			}
			if code != c.code || !strings.Contains(stderr, c.want) {
				t.Errorf("simclock %s: exit %d, stderr %q; want %d and %q", strings.Join(c.args, " "), code, stderr, c.code, c.want)
			}
			if code == ExitUsage && !strings.Contains(stderr, "--help' for usage") {
				t.Errorf("usage error without a hint: %q", stderr)
			}
		})
	}
}

// 1.5, 1.5s and 1500ms mean the same everywhere.
func TestSecondsMeanTheSame(t *testing.T) {
	var envs []string
	for _, v := range []string{"1.5", "1.5s", "1500ms"} {
		out, errOut, code := virtualRun(t, nil, 0).run("pub", "--transport", "inproc", "--format", "json", "--period", v, "--duration", v)
		if code != ExitOK {
			t.Fatalf("--period %s: exit %d, %s", v, code, errOut)
		}
		env, _, _ := strings.Cut(out, "\n")
		if !strings.Contains(env, `"period_ns":1500000000`) {
			t.Errorf("--period %s: %s", v, env)
		}
		envs = append(envs, out)
	}
	if envs[0] != envs[1] || envs[1] != envs[2] {
		t.Errorf("different runs:\n%s\n%s\n%s", envs[0], envs[1], envs[2])
	}
}

// Every JSON line of every command starts with "kind".
func TestJSONKindFirstEverywhere(t *testing.T) {
	for _, args := range [][]string{
		{"experiment", "startup", "--format", "json"},
		{"experiment", "clocktypes", "--format", "json"},
		{"experiment", "dtspike", "--format", "json"},
		{"predict", "--format", "json"},
		{"bag", "inspect", "--format", "json", "testdata/bag/hazards.mcap"},
		{"lint", "--format", "json", "testdata/lint/pkg"},
	} {
		out, _, _ := runSimclock(t, args...)
		for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if !strings.HasPrefix(line, `{"kind":"`) {
				t.Errorf("simclock %s, line %d: %.80s", strings.Join(args, " "), i+1, line)
			}
		}
	}
}

// The help of every command prints its defaults as a user types them
// (--timer-hz's was "float64Slice (default [10.000000,20.000000])").
func TestHelpDefaultsReadable(t *testing.T) {
	leaves, groups := commandPaths(NewRoot(&Env{}), nil)
	for _, path := range append(append([][]string{{}}, groups...), leaves...) {
		out, _, _ := runSimclock(t, append(path, "--help")...)
		for _, bad := range []string{"float64Slice", "Slice (default [", ".000000"} {
			if strings.Contains(out, bad) {
				t.Errorf("simclock %s --help shows %q", strings.Join(path, " "), bad)
			}
		}
	}
}

// A CYCLONEDDS_URI naming a missing file is said in words before Cyclone
// DDS would print its raw log line.
func TestMissingCycloneConfig(t *testing.T) {
	r := newTestRun(t)
	r.setenv("CYCLONEDDS_URI", "file:///nonexistent/cyclonedds.xml")
	_, errOut, code := r.run("monitor", "--duration", "1")
	if code != ExitFailure || !strings.Contains(errOut, "CYCLONEDDS_URI names file:///nonexistent/cyclonedds.xml, which cannot be read") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
