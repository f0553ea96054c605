//go:build cgo

package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/simclock/simclock/internal/report/reporttest"
)

// runLintStdin runs simclock with src on standard input.
func runLintStdin(t *testing.T, src string, args ...string) (string, string, int) {
	t.Helper()
	r := newTestRun(t)
	r.stdin.WriteString(src)
	return r.run(args...)
}

// writeTree writes files (name: contents) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLintJUnitGolden(t *testing.T) {
	out, errOut, code := runSimclock(t, "lint", "--format", "junit", "testdata/lint/pkg")
	if code != ExitFailure || errOut != "" {
		t.Errorf("exit %d, stderr %q: want 1 and nothing", code, errOut)
	}
	c := reporttest.ValidateJUnit(t, []byte(out))
	// The two C++ windows are info on Jazzy, and R29 always is: passing test cases.
	if c.Tests != 9 || c.Failures != 5 {
		t.Errorf("%+v, want 9 tests, 5 failures", c)
	}
	golden(t, "junit.golden", junitTime.ReplaceAllString(out, ` time="T"`))

	// --xunit-file writes the same beside the text, its suite named as
	// ament names a result file's; info findings pass; a clean run is one
	// passing case.
	file := filepath.Join(t.TempDir(), "results", "my_pkg", "simclock_lint.xunit.xml")
	out, _, code = runSimclock(t, "lint", "--fail-on", "error", "--xunit-file", file, "testdata/lint/pkg")
	data, err := os.ReadFile(file)
	if err != nil || code != ExitFailure || !strings.Contains(out, "error: R16:") {
		t.Fatalf("--xunit-file: exit %d, %v\n%s", code, err, out)
	}
	if c := reporttest.ValidateJUnit(t, data); c.Tests != 9 || c.Failures != 4 || !bytes.Contains(data, []byte(`<testsuite name="my_pkg.simclock_lint"`)) {
		t.Errorf("--fail-on error: %+v, want 4 failures (the errors) of 9\n%s", c, data)
	}
	_, _, code = runSimclock(t, "lint", "--xunit-file", file, "testdata/lint/clean")
	data, _ = os.ReadFile(file)
	if c := reporttest.ValidateJUnit(t, data); code != ExitOK || c.Tests != 1 || c.Failures != 0 || c.Cases[0] != "simclock_lint" {
		t.Errorf("clean: exit %d, %+v", code, c)
	}
}

// A run that linted nothing says so and fails, as ament's linters do
// ("No files found", exit 1), in every format; so does a path named that
// is not source (a recording, a device), which is not parsed as Python.
func TestLintNoFiles(t *testing.T) {
	empty := t.TempDir()
	mcap := filepath.Join(t.TempDir(), "good.mcap")
	if err := os.WriteFile(mcap, []byte("\x89MCAP0\r\n\x01\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, note string
	}{
		{empty, ""},
		{os.DevNull, os.DevNull + ": not a regular file (a character device): nothing to lint"},
		{mcap, mcap + ": a binary file, not source code: not linted (a rosbag2 recording: simclock bag inspect reads it)"},
	} {
		out, errOut, code := runSimclock(t, "lint", tc.path)
		if code != ExitFailure || out != "" || !strings.Contains(errOut, "simclock lint: no files found to lint in "+tc.path) ||
			!strings.Contains(errOut, tc.note) || strings.Contains(errOut, "parse") {
			t.Errorf("lint %s: exit %d\nstdout %q\nstderr %s", tc.path, code, out, errOut)
		}
		out, _, _ = runSimclock(t, "lint", "--format", "json", tc.path)
		if !strings.Contains(out, `"files":0,`) || !strings.Contains(out, `"failed":true`) {
			t.Errorf("lint --format json %s:\n%s", tc.path, out)
		}
		out, _, _ = runSimclock(t, "lint", "--format", "junit", tc.path)
		if c := reporttest.ValidateJUnit(t, []byte(out)); c.Errors != 1 || !strings.Contains(out, "no files found") {
			t.Errorf("lint --format junit %s: %+v\n%s", tc.path, c, out)
		}
		out, _, _ = runSimclock(t, "lint", "--format", "sarif", tc.path)
		reporttest.ValidateSARIF(t, []byte(out))
		if inv := parseSARIF(t, out).Runs[0].Invocations[0]; inv.ExecutionSuccessful {
			t.Errorf("lint --format sarif %s: the run is successful", tc.path)
		}
	}
}

// One unreadable subdirectory does not end the scan: the findings of the
// readable files are kept, the unreadable path is named, and the run
// fails. File modes bind only a user without root's override, so the
// built binary runs as user nobody.
func TestLintUnreadable(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir, err := os.MkdirTemp("", "simclock-unreadable-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := buildSimclock(t, dir)
	tracker, err := os.ReadFile("testdata/lint/pkg/my_pkg/tracker.py")
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "src")
	writeTree(t, src, map[string]string{"a/tracker.py": string(tracker), "secret/x.py": "", "z/tracker.py": string(tracker)})
	if err := os.Chmod(filepath.Join(src, "secret"), 0); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, string, int) {
		cmd := exec.CommandContext(t.Context(), bin, args...)
		if os.Geteuid() == 0 {
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		}
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errOut.String(), code
	}
	out, errOut, code := run("lint", src)
	if code != ExitFailure || strings.Count(out, "warning: R27:") != 2 ||
		!strings.Contains(errOut, filepath.Join(src, "secret")+": could not read: permission denied") ||
		!strings.Contains(errOut, "1 path(s) could not be read: the rest was linted, and the run fails") {
		t.Errorf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	// Findings below --fail-on do not hide it.
	if _, _, code := run("lint", "--fail-on", "never", src); code != ExitFailure {
		t.Errorf("--fail-on never: exit %d, want 1", code)
	}
	out, _, _ = run("lint", "--format", "junit", src)
	if c := reporttest.ValidateJUnit(t, []byte(out)); c.Errors != 1 || c.Failures != 8 {
		t.Errorf("junit: %+v", c)
	}
	out, _, _ = run("lint", "--format", "json", src)
	if !strings.Contains(out, `{"kind":"skipped","file":"`+filepath.Join(src, "secret")+`","reason":"could not read: permission denied","unreadable":true}`) ||
		!strings.Contains(out, `"unreadable":1}`) {
		t.Errorf("json:\n%s", out)
	}
}

// Settings come from the flags, then the config file found from the paths
// up, then the defaults.
func TestLintConfigFile(t *testing.T) {
	tracker, err := os.ReadFile("testdata/lint/pkg/my_pkg/tracker.py")
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{
		"src/pkg/.simclock.yaml": `lint:
  ignore: [use-sim-time-spelling]
  exclude: [vendor]
  per_file_ignores:
    "test/**": [R2]
`,
		"src/pkg/my_pkg/tracker.py": string(tracker),
		"src/pkg/vendor/tracker.py": string(tracker),
		"src/pkg/test/tracker.py":   string(tracker),
		"src/other/pyproject.toml":  "[tool.simclock.lint]\nrules = [\"R2\"]\nros_distro = \"kilted\"\n",
		"src/other/tracker.py":      string(tracker),
		"src/other/sub/bad.py":      "",
		"src/bad/.simclock.yaml":    "lint:\n  rule: [R2]\n",
		"src/bad/x.py":              "",
	})
	pkg := filepath.Join(ws, "src/pkg")
	out, _, code := runSimclock(t, "lint", "--format", "json", pkg)
	if code != ExitFailure || !strings.Contains(out, `"config":"`+filepath.Join(pkg, ".simclock.yaml")+`"`) {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if strings.Contains(out, "/vendor/") || strings.Contains(out, `"rules":["R16"]`) ||
		strings.Count(out, `"rules":["R2"]`) != 1 || strings.Count(out, `"rules":["R5"]`) != 2 || !strings.Contains(out, `"files":2,`) {
		t.Errorf("the config file's exclude, ignore and per_file_ignores do not hold:\n%s", out)
	}
	// Flags win: --rules replaces rules and ignore, --exclude exclude;
	// per_file_ignores stand.
	t.Chdir(pkg)
	out, _, _ = runSimclock(t, "lint", "--format", "json", "--rules", "R16,time-positional-args", "--exclude", "my_pkg", ".")
	if !strings.Contains(out, "vendor/tracker.py") || strings.Contains(out, "my_pkg/tracker.py") ||
		strings.Count(out, `"rules":["R16"]`) != 2 || strings.Count(out, `"rules":["R2"]`) != 1 {
		t.Errorf("flags do not override the file:\n%s", out)
	}
	// pyproject.toml's [tool.simclock.lint], found from a file's directory.
	other := filepath.Join(ws, "src/other")
	out, _, _ = runSimclock(t, "lint", "--format", "json", filepath.Join(other, "tracker.py"))
	if !strings.Contains(out, `"rules":["R2"],"fix"`) || strings.Count(out, `"kind":"finding"`) != 1 {
		t.Errorf("pyproject.toml:\n%s", out)
	}
	// --config names the file; a mistake in one is a usage error naming
	// file and key; paths under two config files must be told which.
	if out, _, _ := runSimclock(t, "lint", "--format", "json", "--config", filepath.Join(other, "pyproject.toml"), filepath.Join(pkg, "my_pkg")); strings.Count(out, `"kind":"finding"`) != 1 {
		t.Errorf("--config:\n%s", out)
	}
	_, errOut, code := runSimclock(t, "lint", filepath.Join(ws, "src/bad"))
	if code != ExitUsage || !strings.Contains(errOut, filepath.Join(ws, "src/bad/.simclock.yaml")+": line 2: field rule not found") {
		t.Errorf("a bad config file: exit %d, %s", code, errOut)
	}
	_, errOut, code = runSimclock(t, "lint", pkg, other)
	if code != ExitUsage || !strings.Contains(errOut, "different config files") {
		t.Errorf("two config files: exit %d, %s", code, errOut)
	}
}

// lint - reads standard input: as Python, or as --stdin-filename says,
// with that name in the findings and the config file found from it.
func TestLintStdin(t *testing.T) {
	tracker, err := os.ReadFile("testdata/lint/pkg/my_pkg/tracker.py")
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runLintStdin(t, string(tracker), "lint", "-")
	if code != ExitFailure || !strings.Contains(out, "-:21:17: warning: R27:") || !strings.Contains(errOut, "in 1 file(s)") {
		t.Errorf("lint -: exit %d\n%s%s", code, out, errOut)
	}
	window, err := os.ReadFile("testdata/lint/pkg/src/window.cpp")
	if err != nil {
		t.Fatal(err)
	}
	out, _, code = runLintStdin(t, string(window), "lint", "--stdin-filename", "src/window.cpp", "-")
	if code != ExitFailure || !strings.Contains(out, "src/window.cpp:28:12: error: R6:") {
		t.Errorf("--stdin-filename src/window.cpp: exit %d\n%s", code, out)
	}
	out, _, code = runLintStdin(t, "x = 1\n", "lint", "--format", "json", "-")
	if code != ExitOK || !strings.Contains(out, `"files":1,"findings":0`) {
		t.Errorf("clean standard input: exit %d\n%s", code, out)
	}
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{".simclock.yaml": "lint:\n  rules: [R2]\n"})
	out, _, _ = runLintStdin(t, string(tracker), "lint", "--format", "json", "--stdin-filename", filepath.Join(dir, "node.py"), "-")
	if strings.Count(out, `"kind":"finding"`) != 1 || !strings.Contains(out, `"file":"`+filepath.Join(dir, "node.py")+`"`) {
		t.Errorf("config file from --stdin-filename:\n%s", out)
	}
}

// The config file's ros_distro wins over $ROS_DISTRO, and --ros-distro
// over both.
func TestLintDistroPrecedence(t *testing.T) {
	dir := t.TempDir()
	window, err := os.ReadFile("testdata/lint/pkg/src/window.cpp")
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, dir, map[string]string{".simclock.yaml": "lint:\n  ros_distro: kilted\n", "window.cpp": string(window)})
	run := func(args ...string) string {
		r := newTestRun(t)
		r.setenv("ROS_DISTRO", "humble")
		out, errOut, _ := r.run(args...)
		return out + errOut
	}
	if out := run("lint", "--rules", "R27", dir); !strings.Contains(out, "rclcpp on Kilted") {
		t.Errorf("the config file's ros_distro does not win over $ROS_DISTRO:\n%s", out)
	}
	if out := run("lint", "--rules", "R27", "--ros-distro", "jazzy", dir); !strings.Contains(out, "rclcpp on Jazzy") {
		t.Errorf("--ros-distro does not win:\n%s", out)
	}
	if out := run("lint", "--rules", "R27", "--config", filepath.Join(dir, "window.cpp.yaml"), dir); !strings.Contains(out, "--config") {
		t.Errorf("a missing --config:\n%s", out)
	}
	writeTree(t, dir, map[string]string{".simclock.yaml": "lint:\n  rules: [R27]\n"})
	if out := run("lint", dir); !strings.Contains(out, "rclcpp on Humble") {
		t.Errorf("$ROS_DISTRO does not win over the default:\n%s", out)
	}
}

// A path and source text from outside reach the terminal escaped in lint's
// text: the file's name, the source a message or fix quotes, a file that
// could not be parsed; JSON keeps them exact for its readers.
func TestLintTextEscapesNames(t *testing.T) {
	dir := t.TempDir()
	// hostile without its line break: a string literal cannot hold one
	inline := strings.ReplaceAll(hostile, "\n", "")
	src := "from rclpy.time import Time\n\n\ndef stamp():\n    return Time(0, len('" + inline + "'))\n"
	writeTree(t, dir, map[string]string{
		"node" + hostile + ".py":   src,
		"broken" + hostile + ".py": "def (:\n    '" + hostile + "\n",
	})
	out, errOut, code := runSimclock(t, "lint", dir)
	checkEscaped(t, "lint (stdout)", out)
	checkEscaped(t, "lint (stderr)", errOut)
	if code != ExitFailure || !strings.Contains(out, "node"+hostileEscaped+".py:5:12: error: R2:") ||
		!strings.Contains(out, `fix: write Time(seconds=0, nanoseconds=len('`+strings.ReplaceAll(hostileEscaped, `\n`, "")+`'))`) || !strings.Contains(errOut, "broken"+hostileEscaped+".py") {
		t.Errorf("exit %d, names not printed escaped:\n%s%s", code, out, errOut)
	}
	out, _, _ = runSimclock(t, "lint", "--format", "json", dir)
	if !strings.Contains(out, `"fix":"write Time(seconds=0, nanoseconds=len('\u001b[31mred\u001b]0;pwned\u0007`+"\u202e'))") {
		t.Errorf("JSON does not keep the excerpt exact:\n%s", out)
	}
}

// A source excerpt quoted in a finding's message is escaped once, by the
// text writer: an excerpt holding a double quote and an ESC prints as
// "Time(0, len("x\x1b"))" in text (not "Time(0, len(\"x\\x1b\"))", quoted
// by the message and escaped again), and exactly as written in JSON.
func TestLintMessageQuotesOnce(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"node.py": "from rclpy.time import Time\n\n\ndef stamp():\n    return Time(0, len(\"x\x1b\"))\n"})
	out, errOut, _ := runSimclock(t, "lint", dir)
	checkEscaped(t, "lint", out+errOut)
	if want := `R2: rclpy Time takes keyword arguments only: "Time(0, len("x\x1b"))" raises TypeError`; !strings.Contains(out, want) {
		t.Errorf("text: want %s in\n%s%s", want, out, errOut)
	}
	out, errOut, _ = runSimclock(t, "lint", "--format", "json", dir)
	want := "rclpy Time takes keyword arguments only: \"Time(0, len(\"x\x1b\"))\" raises TypeError"
	found := false
	for line := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
		var v struct{ Kind, Message string }
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if v.Kind == "finding" {
			found = true
			if v.Message != want {
				t.Errorf("json message %q, want %q", v.Message, want)
			}
		}
	}
	if !found {
		t.Errorf("no finding in\n%s%s", out, errOut)
	}
}
