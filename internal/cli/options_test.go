package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/doctor"
	"github.com/simclock/simclock/experiment"
	"github.com/simclock/simclock/internal/report"
	"github.com/simclock/simclock/node"
	"github.com/simclock/simclock/rules"
	"github.com/simclock/simclock/transport"
)

// parseOptions runs the command newCmd builds, with args, as far as its
// run function: flags and arguments are parsed and checked, the options
// captured (gh's runF). Nothing runs.
func parseOptions[O any](t *testing.T, env *Env, newCmd func(*Env, func(context.Context, *O) error) *cobra.Command, args ...string) *O {
	t.Helper()
	var got *O
	cmd := newCmd(env, func(_ context.Context, o *O) error { got = o; return nil })
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	if got == nil {
		t.Fatalf("%v: the run function was not called", args)
	}
	return got
}

// Every command parses a representative command line into its options,
// without running: what each flag sets, and what the command settles
// before running (defaults, names resolved as a node's, flags that go
// together, values derived from several flags).
func TestCommandOptions(t *testing.T) {
	remap, _, err := node.ParseROSArgs([]string{"--ros-args", "-r", "/clock:=/sim/clock"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path string // the command's path, simclock ...
		test func(t *testing.T, env *Env)
	}{
		{"simclock predict", func(t *testing.T, env *Env) {
			o := parseOptions(t, env, newPredictCmd, "--start", "0.5", "--window", "250ms", "--hz", "30", "--clock-every", "4", "--format", "json")
			want := experiment.PredictInput{Start: 500 * time.Millisecond, Window: 250 * time.Millisecond, Hz: 30,
				ClockStep: 40 * time.Millisecond, Duration: 2500 * time.Millisecond}
			if o.env != env || o.input != want || o.format != formatJSON {
				t.Errorf("input %+v, format %q, want %+v, json", o.input, o.format, want)
			}
		}},
		{"simclock pub", func(t *testing.T, env *Env) {
			o := parseOptions(t, env, newPubCmd, "sim/clock", "--namespace", "/robot", "--start", "100", "--rtf", "2",
				"--period", "20ms", "--until", "160", "--loop", "--best-effort", "--seed", "7", "--format", "json")
			want := clockstream.ScheduleConfig{Start: 100 * time.Second, Period: 20 * time.Millisecond, Step: 40 * time.Millisecond,
				HasUntil: true, Until: 160 * time.Second, Loop: true, Seed: 7}
			if o.env != env || o.topic != "/robot/sim/clock" || o.schedule != want || !o.bestEffort || o.format != formatJSON || o.transport != transportDDS {
				t.Errorf("topic %q, schedule %+v, best effort %v, format %q, transport %q", o.topic, o.schedule, o.bestEffort, o.format, o.transport)
			}
		}},
		{"simclock monitor", func(t *testing.T, env *Env) {
			o := parseOptions(t, env, newMonitorCmd, "sim_clock", "--namespace", "/r", "--expect-rtf", "2±5%", "--fail-on-backward",
				"--qos-reliability", "reliable", "--interval", "500ms", "--periods", "3", "--transport", "inproc")
			want := transport.QoS{Depth: 1000, Reliability: transport.Reliable, Durability: transport.Volatile}
			if o.env != env || o.topic != "/r/sim_clock" || o.qos != want || o.rtfWant != 2 || o.rtfTol != 0.1 || !o.failOnBackward ||
				o.interval != 500*time.Millisecond || o.periods != 3 || o.transport != transportInproc || o.allowNoClock {
				t.Errorf("options %+v", *o)
			}
		}},
		{"simclock bag inspect", func(t *testing.T, env *Env) {
			o := parseOptions(t, env, newBagInspectCmd, "--window", "2s", "--gap-periods", "2.6", "--format", "sarif", "--root", "/r",
				"--topics", "/a,/b", "--fail-on", "error", "a.mcap", "b.mcap")
			if o.env != env || o.window != 2*time.Second || o.periods != 3 || o.format != formatSARIF || o.root != "/r" ||
				!slices.Equal(o.topics, []string{"/a", "/b"}) || o.failOn != rules.FailOnError ||
				!slices.Equal(o.files, []string{"a.mcap", "b.mcap"}) || o.baseTol != time.Minute || o.examples != 3 {
				t.Errorf("options %+v", *o)
			}
		}},
		{"simclock bag clock", func(t *testing.T, env *Env) {
			env.ROSArgs = remap
			// ros2 bag play takes --clock-topics space-separated: /odom is
			// a topic, a.mcap the bag.
			o := parseOptions(t, env, newBagClockCmd, "-r", "2", "--clock-hz", "100", "--clock-topics", "/tf", "/odom",
				"--playback-until-sec", "1.5", "a.mcap")
			if o.env != env || o.topic != "/sim/clock" || o.rate != 2 || o.hz != 100 || !o.periodic ||
				!slices.Equal(o.clockTopics, []string{"/tf", "/odom"}) || !slices.Equal(o.files, []string{"a.mcap"}) ||
				!o.hasUntilSec || o.untilSec != 1.5 || o.hasUntilNsec || o.hasDuration || o.reliable {
				t.Errorf("options %+v", *o)
			}
		}},
		{"simclock bag info", func(t *testing.T, env *Env) {
			o := parseOptions(t, env, newBagInfoCmd, "--format", "json", "a", "b")
			if o.env != env || o.format != formatJSON || !slices.Equal(o.files, []string{"a", "b"}) {
				t.Errorf("options %+v", *o)
			}
		}},
		{"simclock experiment startup", func(t *testing.T, env *Env) {
			o := parseOptions(t, env, newStartupCmd, "--start", "0,2.5", "--windows", "1", "--timer-hz", "30", "--runs", "2",
				"--mode", "realtime", "--format", "json", "--plot", "s.svg")
			c := o.cfg
			if o.env != env || !slices.Equal(c.Starts, []time.Duration{0, 2500 * time.Millisecond}) ||
				!slices.Equal(c.Windows, []time.Duration{time.Second}) || !slices.Equal(c.TimerHz, []float64{30}) ||
				c.Mode != experiment.Realtime || o.runs != 2 || o.format != formatJSON || o.plot != "s.svg" || o.transport != transportInproc {
				t.Errorf("options %+v", *o)
			}
		}},
		{"simclock experiment clocktypes", func(t *testing.T, env *Env) {
			o := parseOptions(t, env, newClockTypesCmd, "--format", "json", "--wide")
			if *o != (clockTypesOptions{env: env, format: formatJSON, wide: true}) {
				t.Errorf("options %+v", *o)
			}
		}},
		{"simclock experiment dtspike", func(t *testing.T, env *Env) {
			o := parseOptions(t, env, newDtSpikeCmd, "--first-clock", "125", "--period", "0.1", "--speed", "2", "--ticks", "4", "--wide")
			want := experiment.DefaultDtSpike()
			want.FirstClock, want.Period, want.Speed, want.Ticks = 125*time.Second, 100*time.Millisecond, 2, 4
			if !reflect.DeepEqual(*o, dtSpikeOptions{env: env, cfg: want, format: formatText, wide: true}) {
				t.Errorf("options %+v, want config %+v", *o, want)
			}
		}},
		{"simclock experiment startup-simulator", func(t *testing.T, env *Env) {
			o := parseOptions(t, env, newStartupSimulatorCmd, "--start", "2.5", "--clock-every", "2", "--pre-clock", "0")
			c := o.cfg
			if o.env != env || o.start != 2500*time.Millisecond || !slices.Equal(c.Starts, []time.Duration{o.start}) ||
				c.Mode != experiment.Realtime || c.ClockEvery != 2 || c.PreClock != 0 {
				t.Errorf("options %+v", *o)
			}
		}},
		{"simclock doctor", func(t *testing.T, env *Env) {
			// --watch without --duration runs until interrupted.
			o := parseOptions(t, env, newDoctorCmd, "--watch", "--interval", "500ms", "--tolerance", "2s", "--format", "json",
				"--fail-on", "error", "--expect", "sim_time=/robot/*", "--expect", "clock_rate=/sim/clock:90..110", "--diagnostics")
			want := []doctor.Expectation{{Kind: doctor.ExpectSimTime, Pattern: "/robot/*"},
				{Kind: doctor.ExpectClockRate, Pattern: "/sim/clock", MinHz: 90, MaxHz: 110}}
			if o.env != env || !o.watch || o.duration != 0 || o.interval != 500*time.Millisecond || o.tolerance != 2*time.Second ||
				o.format != formatJSON || o.failOn != rules.FailOnError || !slices.Equal(o.expectations, want) || !o.diagnostics || o.xunitFile != "" {
				t.Errorf("options %+v", *o)
			}
			o = parseOptions(t, env, newDoctorCmd, "--duration", "10", "--format", "junit", "--xunit-file", "doctor.xml")
			if o.watch || o.duration != 10*time.Second || o.format != formatJUnit || o.xunitFile != "doctor.xml" || o.failOn != rules.FailOnWarning {
				t.Errorf("options %+v", *o)
			}
		}},
		{"simclock lint", func(t *testing.T, env *Env) {
			// The flags given win over the config file, which wins over
			// $ROS_DISTRO.
			dir := t.TempDir()
			file := filepath.Join(dir, ".simclock.yaml")
			if err := os.WriteFile(file, []byte("lint:\n  rules: [R27]\n  exclude: [gen]\n  ros_distro: kilted\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			env.Getenv = func(k string) string { return map[string]string{"ROS_DISTRO": "humble"}[k] }
			o := parseOptions(t, env, newLintCmd, "--rules", "R26,R28", "--format", "sarif", "--root", dir, "--strict", dir)
			c := o.cfg
			if o.env != env || o.cfgFile != file || !slices.Equal(c.Rules, []rules.ID{rules.R26, rules.R28}) || c.RosDistro != "kilted" ||
				len(c.Exclude) != 1 || !c.Strict || o.format != formatSARIF || o.stdin || !slices.Equal(o.paths, []string{dir}) ||
				o.roots == (report.Roots{}) {
				t.Errorf("options %+v", *o)
			}
		}},
		{"simclock lint -", func(t *testing.T, env *Env) {
			o := parseOptions(t, env, newLintCmd, "--stdin-filename", "pkg/node.py", "-")
			if !o.stdin || o.stdinName != "pkg/node.py" || o.cfg.RosDistro != "" || o.cfgFile != "" {
				t.Errorf("options %+v", *o)
			}
		}},
	}
	tested := map[string]bool{}
	for _, tc := range cases {
		tested[tc.path] = true
		t.Run(tc.path, func(t *testing.T) {
			r := newTestRun(t)
			tc.test(t, r.Env)
			if out := r.stdout.String() + r.stderr.String(); out != "" {
				t.Errorf("parsing wrote %q", out)
			}
		})
	}
	// Every command that runs something is in the table.
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if !c.HasSubCommands() && c.Name() != "help" && c.Parent() != nil && c.Parent().Name() != "completion" && !tested[c.CommandPath()] {
			t.Errorf("%s: not in the table", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(NewRoot(newTestRun(t).Env))
}
