//go:build cgo

package lint

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/simclock/simclock/rules"
)

func TestMisspeltSimTime(t *testing.T) {
	misspelt := []string{
		"use_sim_tme", "use-sim-time", "useSimTime", "UseSimTime", "use_simulated_time",
		"use_simulation_time", "use_simulator_time", "use_sim_times", "use_sime_time", "usesimtime",
		"use_simtime", " use_sim_time", "use_sim_time ", "use_sim__time", "use_sim_time_", "use_sim_tiem",
		"use_sim_tim", "use_Sim_Time", "use-sim_time", "us_sim_time", "use_sim_timer",
	}
	for _, name := range misspelt {
		if !misspeltSimTime(name) {
			t.Errorf("misspeltSimTime(%q) = false, want true", name)
		}
	}
	different := []string{
		"use_sim_time", "sim_time", "use_sim", "use_simulator", "use_msg_time", "sim_time_s",
		"USE_SIM_TIME", ".use_sim_time", "ns.use_sim_time", "is_sim_time", "use_sim_true",
		"set_use_sim_time", "use_system_time", "use_ros_time", "Use sim time", "use_sim_time:=true",
		"", "use", "日本語_sim_time", "use_sim_time_offset", "declare_use_sim_time_cmd",
	}
	for _, name := range different {
		if misspeltSimTime(name) {
			t.Errorf("misspeltSimTime(%q) = true, want false", name)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "abc", 0}, {"abc", "acb", 1}, {"abc", "ab", 1}, {"abc", "abcd", 1},
		{"abc", "axc", 1}, {"usesimtime", "simtime", 3}, {"kitten", "sitting", 3},
	} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestR16Fix applies --fix to the R16 corpus and checks that every file
// still parses (python3 -m py_compile, g++ -fsyntax-only against the stub
// headers in testdata/stubs, YAML, XML, bash -n), that no fix declares
// use_sim_time, and that what remains is exactly the findings with no
// mechanical fix: declarations, a duplicate key and launch arguments.
func TestR16Fix(t *testing.T) {
	data, err := os.ReadFile("testdata/corpus/r16_spellings.txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	extract(t, parseArchive(data), dir)
	checkParses(t, dir)
	_, n := lintAndFix(t, dir, Config{Rules: []rules.ID{rules.R16}})
	if n == 0 {
		t.Fatal("nothing fixed")
	}
	checkParses(t, dir)
	files, _ := Files([]string{dir})
	for _, f := range files {
		src, _ := os.ReadFile(f)
		for _, bad := range []string{`declare_parameter('use_sim_time'`, `declare_parameter("use_sim_time"`,
			`declare_parameter<bool>("use_sim_time"`, `declared(this, "use_sim_time"`} {
			if bytes.Contains(src, []byte(bad)) {
				t.Errorf("%s: a fix declares use_sim_time: %s", f, bad)
			}
		}
	}
	after, err := Run(t.Context(), []string{dir}, Config{Rules: []rules.ID{rules.R16}})
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, f := range after.Findings {
		if len(f.Edits) > 0 {
			t.Errorf("fixable finding left after --fix: %+v", f)
		}
		rel, _ := filepath.Rel(dir, f.File)
		left = append(left, filepath.ToSlash(rel)+" "+f.Severity.String()+" "+strings.Fields(f.Message)[0])
	}
	want := []string{
		"pkg/config/params.yaml error parameter",   // useSimTime beside use_sim_time
		"pkg/launch/sim.launch.py info launch",     // DeclareLaunchArgument
		"pkg/launch/sim.launch.py info launch",     // LaunchConfiguration with a default
		"pkg/launch/sim.launch.py error parameter", // the key beside use_sim_time
		"pkg/launch/sim.launch.yaml info launch",
		"pkg/pkg/sim_node.py error declared",
		"pkg/src/sim.cpp error declared",
		"pkg/src/sim.cpp error declared",
	}
	if strings.Join(left, "\n") != strings.Join(want, "\n") {
		t.Errorf("left after --fix:\n%s\nwant:\n%s", strings.Join(left, "\n"), strings.Join(want, "\n"))
	}
}

// checkParses runs each file under dir through a parser for its kind.
func checkParses(t *testing.T, dir string) {
	t.Helper()
	files, err := Files([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	stubs, err := filepath.Abs("testdata/stubs")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		switch langOf(f) {
		case langPython:
			runTool(t, "python3", "-m", "py_compile", f)
		case langCPP:
			runTool(t, "g++", "-std=c++17", "-fsyntax-only", "-I", stubs, f)
		case langShell:
			runTool(t, "bash", "-n", f)
		case langYAML:
			dec := yaml.NewDecoder(bytes.NewReader(src))
			for {
				var v any
				if err := dec.Decode(&v); errors.Is(err, io.EOF) {
					break
				} else if err != nil {
					t.Errorf("%s: %v", f, err)
					break
				}
			}
		case langXML:
			dec := xml.NewDecoder(bytes.NewReader(src))
			for {
				if _, err := dec.Token(); errors.Is(err, io.EOF) {
					break
				} else if err != nil {
					t.Errorf("%s: %v", f, err)
					break
				}
			}
		}
	}
}

// runTool runs a compiler or interpreter, skipping the test when it is not
// installed.
func runTool(t *testing.T, name string, args ...string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s not installed", name)
	}
	out, err := exec.CommandContext(t.Context(), name, args...).CombinedOutput()
	if err != nil {
		t.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// TestR16RemovedNodeArgumentSaysWhy: a misspelling in a launch file that
// passes a Node argument launch_ros removed before Humble is info, and the
// message names the argument, the removal and the linted distribution.
func TestR16RemovedNodeArgumentSaysWhy(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "package.xml"), "<package format=\"3\"><name>bringup</name></package>\n")
	writeFile(t, filepath.Join(dir, "launch", "bringup.launch.py"), `from launch import LaunchDescription
from launch_ros.actions import Node


def generate_launch_description():
    return LaunchDescription([
        Node(package='robot_state_publisher', node_executable='robot_state_publisher',
             parameters=[{' use_sim_time': True}]),
    ])
`)
	for _, distro := range []string{"humble", "kilted"} {
		res, err := Run(t.Context(), []string{dir}, Config{RosDistro: distro})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Findings) != 1 || res.Findings[0].Rule() != rules.R16 {
			t.Fatalf("%s: want one R16 finding, got %+v", distro, res.Findings)
		}
		f := res.Findings[0]
		want := "passes node_executable to a launch_ros Node, an argument removed before Humble"
		if f.Severity != rules.Info || !strings.Contains(f.Message, want) || !strings.Contains(f.Message, "on "+distroTitle(distro)+" the launch fails") {
			t.Errorf("%s: got %s %q, want info saying %q and naming the distribution", distro, f.Severity, f.Message, want)
		}
	}
}
