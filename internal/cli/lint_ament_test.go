//go:build cgo

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/simclock/simclock/internal/report/reporttest"
)

// amentCMake returns the ```cmake blocks of docs/ament.md, in order: the
// ament_add_test lines, the ament_lint_auto lines and the hook file.
func amentCMake(t *testing.T) []string {
	t.Helper()
	doc, err := os.ReadFile("../../docs/ament.md")
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	for _, part := range strings.Split(string(doc), "```cmake\n")[1:] {
		block, _, ok := strings.Cut(part, "```")
		if !ok {
			t.Fatal("docs/ament.md: an unclosed cmake block")
		}
		blocks = append(blocks, block)
	}
	if len(blocks) != 3 {
		t.Fatalf("docs/ament.md has %d cmake blocks, want 3 (ament_add_test, ament_lint_auto, the hook)", len(blocks))
	}
	return blocks
}

// The command docs/ament.md gives ament_add_test, run as CTest runs it (in
// the package's source directory), writes a result file that the JUnit
// schema, colcon test-result and run_test.py read as the run: one test
// case per finding, failing for the warnings and errors (the two C++
// windows are info on Jazzy and pass), in a suite named after the package
// and the test.
func TestAmentDocCommand(t *testing.T) {
	m := regexp.MustCompile(`COMMAND "\$\{SIMCLOCK\}" (.*)`).FindStringSubmatch(amentCMake(t)[0])
	if m == nil {
		t.Fatal(`docs/ament.md: no COMMAND "${SIMCLOCK}" line`)
	}
	result := filepath.Join(t.TempDir(), "test_results", "my_pkg", "simclock_lint.xunit.xml")
	var args []string
	for _, f := range strings.Fields(m[1]) {
		args = append(args, strings.ReplaceAll(strings.Trim(f, `"`), "${_simclock_result}", result))
	}
	t.Chdir("testdata/lint/pkg")
	out, errOut, code := runSimclock(t, args...)
	if code != ExitFailure || !strings.Contains(out, "warning: R27:") {
		t.Errorf("simclock %s: exit %d, want 1 and the text findings\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	data, err := os.ReadFile(result)
	if err != nil {
		t.Fatal(err)
	}
	c := reporttest.ValidateJUnit(t, data)
	if c.Tests != 9 || c.Failures != 5 || c.Errors != 0 || !strings.Contains(string(data), `<testsuite name="my_pkg.simclock_lint"`) ||
		!strings.HasPrefix(c.Cases[0], "R16 (my_pkg/tracker.py:10:32)") {
		t.Errorf("result file: %+v\n%s", c, data)
	}
}

// The CMake lines of docs/ament.md, as written, in real packages built and
// tested by colcon with ament_cmake and ament_lint_auto (Debian's
// packages): colcon test-result counts simclock's result files as they
// say, a finding fails the package's tests, and a clean package (with its
// one dirty file in AMENT_LINT_AUTO_FILE_EXCLUDE) passes.
func TestAmentColcon(t *testing.T) {
	if testing.Short() {
		t.Skip("builds simclock and two ROS packages with colcon")
	}
	// Debian's colcon, not another python3 first on the PATH (pyenv).
	const python = "/usr/bin/python3"
	check := exec.Command(python, "-c", "import colcon_core, colcon_cmake, colcon_ros, colcon_test_result")
	_, cmakeErr := exec.LookPath("cmake")
	_, lintAutoErr := os.Stat("/usr/share/ament_lint_auto/cmake/ament_lint_autoConfig.cmake")
	if err := check.Run(); err != nil || cmakeErr != nil || lintAutoErr != nil {
		msg := "needs cmake, make, ament-cmake, ament-lint and colcon (apt-get install cmake make ament-cmake ament-lint python3-colcon-core python3-colcon-cmake python3-colcon-ros python3-colcon-test-result)"
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and this test %s: %v %v %v", msg, err, cmakeErr, lintAutoErr)
		}
		t.Skip(msg)
	}
	blocks := amentCMake(t)
	bin := t.TempDir()
	buildSimclock(t, bin)
	ws := t.TempDir()
	tracker, err := os.ReadFile("testdata/lint/pkg/my_pkg/tracker.py")
	if err != nil {
		t.Fatal(err)
	}
	pkg := func(name, testDepend, cmake string, files map[string]string) {
		dir := filepath.Join(ws, "src", name)
		files["package.xml"] = `<?xml version="1.0"?>
<package format="3">
  <name>` + name + `</name>
  <version>0.0.1</version>
  <description>simclock lint under colcon test</description>
  <maintainer email="maintainer@example.com">maintainer</maintainer>
  <license>Apache-2.0</license>
  <buildtool_depend>ament_cmake</buildtool_depend>
  <test_depend>` + testDepend + `</test_depend>
  <export><build_type>ament_cmake</build_type></export>
</package>
`
		files["CMakeLists.txt"] = "cmake_minimum_required(VERSION 3.16)\nproject(" + name + " NONE)\nfind_package(ament_cmake REQUIRED)\n" +
			cmake + "ament_package()\n"
		for f, src := range files {
			p := filepath.Join(dir, filepath.FromSlash(f))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	pkg("linted_pkg", "ament_cmake_test", blocks[0], map[string]string{"linted_pkg/tracker.py": string(tracker)})
	pkg("clean_pkg", "ament_lint_auto", "set(AMENT_LINT_AUTO_FILE_EXCLUDE test/fixture.py)\n"+blocks[1], map[string]string{
		"cmake/simclock_lint_hook.cmake": blocks[2],
		"clean_pkg/node.py":              "from rclpy.node import Node\n\n\nclass N(Node):\n    pass\n",
		"test/fixture.py":                string(tracker),
	})
	colcon := func(args ...string) (string, error) {
		t.Helper()
		cmd := exec.CommandContext(t.Context(), python, append([]string{"-m", "colcon"}, args...)...)
		cmd.Dir = ws
		cmd.Env = append(os.Environ(), "PATH="+bin+":/usr/bin:/bin", "COLCON_HOME="+filepath.Join(ws, ".colcon"))
		out, err := cmd.CombinedOutput() // test and test-result exit 1 on failures: the output says
		return string(out), err
	}
	// The build's exit status and both install trees say it built: the
	// "Summary: 2 packages finished" line comes from colcon-output, which a
	// machine without Debian's Recommends does not have.
	if out, err := colcon("build"); err != nil {
		t.Fatalf("colcon build: %v\n%s", err, out)
	}
	for _, pkg := range []string{"linted_pkg", "clean_pkg"} {
		if _, err := os.Stat(filepath.Join(ws, "install", pkg, "share", pkg, "package.xml")); err != nil {
			t.Fatalf("colcon build did not install %s: %v", pkg, err)
		}
	}
	colcon("test")
	out, _ := colcon("test-result", "--all")
	for _, want := range []string{
		"build/linted_pkg/test_results/linted_pkg/simclock_lint.xunit.xml: 6 tests, 0 errors, 4 failures, 0 skipped",
		"build/clean_pkg/test_results/clean_pkg/simclock_lint.xunit.xml: 1 test, 0 errors, 0 failures, 0 skipped",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("colcon test-result lacks %q:\n%s", want, out)
		}
	}
	// CTest's own record: the linted package's test failed, the clean one's passed.
	for pkg, want := range map[string]string{"linted_pkg": "1 failure", "clean_pkg": "0 failures"} {
		if !regexp.MustCompile(`build/` + pkg + `/Testing/\S+/Test.xml: 1 test, 0 errors, ` + want).MatchString(out) {
			t.Errorf("%s's CTest record is not %s:\n%s", pkg, want, out)
		}
	}
	for _, pkg := range []string{"linted_pkg", "clean_pkg"} {
		data, err := os.ReadFile(filepath.Join(ws, "build", pkg, "test_results", pkg, "simclock_lint.xunit.xml"))
		if err != nil {
			t.Fatal(err)
		}
		reporttest.ValidateJUnit(t, data)
	}
}
