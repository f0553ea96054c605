package cli

// simclock doctor as a launch test's gate, run as docs/doctor.md's
// launch_testing example runs it, against Fast DDS and Cyclone DDS nodes
// on loopback. Nothing here times anything.

import (
	"context"
	"github.com/simclock/simclock/internal/testdomain"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/simclock/simclock/internal/fastpeer"
	"github.com/simclock/simclock/internal/report/reporttest"
)

var domainDoctorGate = testdomain.ID(126)

// gateExample returns the simclock command line of docs/doctor.md's
// launch_testing example (its cmd = [...] list), after checking that the
// example is Python that parses.
func gateExample(t *testing.T) []string {
	t.Helper()
	doc, err := os.ReadFile("../../docs/doctor.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```python\n# test/test_graph_time.py")
	if !ok {
		t.Fatal("docs/doctor.md has no launch_testing example")
	}
	code, _, _ := strings.Cut("# test/test_graph_time.py"+rest, "```")
	if py, err := exec.LookPath("python3"); err == nil {
		cmd := exec.Command(py, "-c", "import ast, sys; ast.parse(sys.stdin.read())")
		cmd.Stdin = strings.NewReader(code)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("the launch_testing example does not parse: %v\n%s", err, out)
		}
	}
	m := regexp.MustCompile(`(?s)cmd = \[(.*?)\]`).FindStringSubmatch(code)
	if m == nil {
		t.Fatal("the example has no cmd = [...]")
	}
	var args []string
	for _, q := range regexp.MustCompile(`'([^']*)'`).FindAllStringSubmatch(m[1], -1) {
		args = append(args, q[1])
	}
	if len(args) < 3 || args[0] != "simclock" || args[1] != "doctor" {
		t.Fatalf("the example runs %q", args)
	}
	return args[1:]
}

// The gate of docs/doctor.md's launch test, on a simulation that is up:
// exit 0 and a JUnit file colcon test-result reads, each expectation a
// passing test case. Then a node on wall time joins, and the same gate
// fails, saying why, in the exit status and in the file.
func TestDoctorGate(t *testing.T) {
	requireDDSCLI(t)
	bin := buildSimclock(t, t.TempDir())
	args := gateExample(t)
	d := domainDoctorGate
	ctx, cancel := context.WithTimeout(context.Background(), 3*hang)
	defer cancel()
	sim := fastpeer.Start(ctx, t, d, fastpeer.WithNodes(
		fastpeer.Node{Name: "/sim/gazebo", Clock: &fastpeer.ClockPublisher{Start: 1000 * time.Second, Step: 10 * time.Millisecond, Rate: 100}},
		fastpeer.Node{Name: "/robot/imu_driver", UseSimTime: true, Imu: &fastpeer.ImuPublisher{Topic: "imu", Rate: 50}},
	))
	startTestNode(t, d, "planner", "SIMCLOCK_TEST_NS=/robot", "SIMCLOCK_TEST_SIM_TIME=1", "SIMCLOCK_TEST_TOPIC=/robot/temperature")
	// As launch_testing runs it: in the package's build directory.
	work := t.TempDir()
	gate := func() (int, string, []byte) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = work
		cmd.Env = ddsEnv(t, d)
		out, err := cmd.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		xunit, err := os.ReadFile(filepath.Join(work, "test_results", "my_robot", "simclock_doctor.xunit.xml"))
		if err != nil {
			t.Fatalf("no result file: %v\nstdout:\n%s", err, out)
		}
		return code, string(out), xunit
	}

	code, out, xunit := gate()
	if code != ExitOK {
		t.Fatalf("the gate failed on a healthy simulation: exit %d\n%s", code, out)
	}
	if err := sim.CheckLoopback(); err != nil {
		t.Error(err)
	}
	got := reporttest.ValidateJUnit(t, xunit)
	for _, want := range []string{"expect_sim_time (/robot/*)", "expect_sim_stamps (/robot/imu)", "expect_clock_rate (/clock)"} {
		if !slices.Contains(got.Cases, want) {
			t.Errorf("no passing test case %q in %q", want, got.Cases)
		}
	}
	if got.Failures != 0 || got.Errors != 0 || !strings.Contains(string(xunit), `<testsuite name="my_robot.simclock_doctor"`) {
		t.Errorf("JUnit of a passing gate: %+v\n%s", got, xunit)
	}
	for _, want := range []string{"sim_time=/robot/*", "yes", "clock_rate=50..200"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}

	// A driver without use_sim_time joins the robot.
	legacy := fastpeer.Start(ctx, t, d, fastpeer.WithNodes(
		fastpeer.Node{Name: "/robot/legacy_driver", Imu: &fastpeer.ImuPublisher{Topic: "range", Stamp: fastpeer.StampWall, Rate: 20}}))
	code, out, xunit = gate()
	if code != ExitFailure {
		t.Fatalf("the gate passed with /robot/legacy_driver on wall time: exit %d\n%s", code, out)
	}
	if err := legacy.CheckLoopback(); err != nil {
		t.Error(err)
	}
	got = reporttest.ValidateJUnit(t, xunit)
	for _, want := range []string{"expect_sim_time (/robot/legacy_driver /clock)", "node_not_on_sim_time (/robot/legacy_driver /clock)",
		"expect_sim_stamps (/robot/imu)", "expect_clock_rate (/clock)"} {
		if !slices.Contains(got.Cases, want) {
			t.Errorf("no test case %q in %q", want, got.Cases)
		}
	}
	if got.Failures < 2 || !strings.Contains(string(xunit), "--expect sim_time=/robot/*: /robot/legacy_driver is not on sim time") {
		t.Errorf("JUnit of the failing gate: %+v\n%s", got, xunit)
	}
	if !strings.Contains(out, "error expect_sim_time: --expect sim_time=/robot/*: /robot/legacy_driver is not on sim time") {
		t.Errorf("the report does not say why:\n%s", out)
	}
}
