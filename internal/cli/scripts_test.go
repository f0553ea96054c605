package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// scriptMachine is a PATH shim that makes this machine look like a fresh
// Debian one: dpkg knows no package, apt-get records what it is asked and
// does nothing, and id -u says root or not.
type scriptMachine struct {
	dir, aptLog string
}

func newScriptMachine(t *testing.T, root bool) *scriptMachine {
	t.Helper()
	dir := t.TempDir()
	m := &scriptMachine{dir: dir, aptLog: filepath.Join(dir, "apt.log")}
	uid := "1000"
	if root {
		uid = "0"
	}
	shims := map[string]string{
		"dpkg":    "#!/bin/sh\nexit 1\n", // no package is installed
		"apt-get": "#!/bin/sh\necho \"$@\" >> " + m.aptLog + "\nexit 0\n",
		"id":      "#!/bin/sh\nif [ \"$1\" = -u ]; then echo " + uid + "; else exec /usr/bin/id \"$@\"; fi\n",
	}
	for name, body := range shims {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// run runs bash scripts/simclock ARGS on the shimmed machine.
func (m *scriptMachine) run(t *testing.T, env []string, args ...string) (stdout, stderr string, code int, apt string) {
	t.Helper()
	cmd := exec.Command("bash", append([]string{"../../scripts/simclock"}, args...)...)
	cmd.Env = append(os.Environ(), "PATH="+m.dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmd.Env = append(cmd.Env, env...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(m.aptLog)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code, string(b)
}

// The README's first command needs only Go: on a machine without any of
// the Debian packages it installs nothing, as root or not, and runs; each
// other command asks for what it uses and nothing else (not Fast DDS,
// not fastddsgen's Java runtime).
func TestScriptInstallsOnlyWhatTheCommandUses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds simclock through go run")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	for _, root := range []bool{false, true} {
		m := newScriptMachine(t, root)
		out, errOut, code, apt := m.run(t, nil, "experiment", "startup")
		if code != 0 || !strings.Contains(out, "Verdict: every prediction matched") {
			t.Fatalf("root=%v: experiment startup exited %d:\n%s\n%s", root, code, out, errOut)
		}
		if apt != "" || strings.Contains(errOut, "apt-get") || strings.Contains(errOut, "installing") {
			t.Errorf("root=%v: experiment startup asked for packages:\napt-get %s\n%s", root, apt, errOut)
		}
	}

	for _, c := range []struct {
		args []string
		want string // the packages asked for
	}{
		{[]string{"predict", "--help"}, ""},
		{[]string{"bag", "inspect", "--help"}, ""},
		{[]string{"lint", "--help"}, "gcc"},
		{[]string{"pub", "--help"}, "cyclonedds-dev gcc"},
		{[]string{"--ros-args", "-r", "__node:=x", "--", "monitor", "--help"}, "cyclonedds-dev gcc"},
		{[]string{"bag", "clock", "--help"}, "cyclonedds-dev gcc"},
		{[]string{"experiment", "startup", "--transport", "dds", "--help"}, "cyclonedds-dev gcc"},
	} {
		name := strings.Join(c.args, " ")
		// Without root: the apt-get line, and the command still runs.
		m := newScriptMachine(t, false)
		out, errOut, code, apt := m.run(t, nil, c.args...)
		if code != 0 || !strings.Contains(out, "Usage:") {
			t.Errorf("%s (not root): exit %d, no help:\n%s", name, code, errOut)
		}
		if apt != "" {
			t.Errorf("%s (not root): ran apt-get %s", name, apt)
		}
		if line := "sudo apt-get install -y " + c.want + "\n"; c.want != "" && !strings.Contains(errOut, line) {
			t.Errorf("%s (not root): stderr lacks %q:\n%s", name, line, errOut)
		}
		if c.want == "" && errOut != "" {
			t.Errorf("%s (not root): stderr:\n%s", name, errOut)
		}
		// As root: it installs exactly those.
		m = newScriptMachine(t, true)
		_, errOut, code, apt = m.run(t, nil, c.args...)
		want := ""
		if c.want != "" {
			want = "update -qq\ninstall -y -qq " + c.want + "\n"
		}
		if code != 0 || apt != want {
			t.Errorf("%s (root): exit %d, apt-get calls %q, want %q\n%s", name, code, apt, want, errOut)
		}
	}
}

// Without a C compiler the script still runs the main job: it builds
// without cgo.
func TestScriptRunsWithoutCCompiler(t *testing.T) {
	if testing.Short() {
		t.Skip("builds simclock through go run")
	}
	m := newScriptMachine(t, false)
	out, errOut, code, apt := m.run(t, []string{"CC=/nonexistent/cc"}, "predict", "--start", "0", "--window", "1", "--hz", "10")
	if code != 0 || !strings.Contains(out, "errors 9, zeros 1") || apt != "" {
		t.Fatalf("exit %d, apt-get %q:\n%s\n%s", code, apt, out, errOut)
	}
}

// The README's install lines work today: no `go install …@latest` of a
// module that is published nowhere.
func TestReadmeInstallLinesWork(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, block := range strings.Split(string(readme), "```sh\n")[1:] {
		block, _, _ = strings.Cut(block, "```")
		for _, line := range strings.Split(block, "\n") {
			if strings.Contains(line, "go install") && strings.Contains(line, "@") {
				t.Errorf("README installs from a module proxy, where simclock is not published: %s", line)
			}
		}
	}
}

// scripts/test installs what the tests run (the README's second command on
// a fresh Debian machine). Each program a test runs, with the Debian
// package that provides it, must be in one of scripts/deps.sh's lists:
// the test tools are installed without their recommends, so a program
// that only comes as another package's recommendation (make, recommended
// by cmake; colcon's output handler) is not there on a fresh machine.
func TestDepsListsTheTestsTools(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	out, err := exec.Command("bash", "-c", `source ../../scripts/deps.sh && echo "${simclock_all_packages[*]} ${simclock_test_tools[*]}"`).Output()
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		listed[p] = true
	}
	for _, c := range []struct{ program, pkg, user string }{
		{"gcc", "gcc", "cgo: the dds transport, lint's parsers; the C peer of transport/dds"},
		{"g++", "g++", "the Fast DDS peer (internal/fastpeer), lint's compile test"},
		{"idlc, ddsperf", "cyclonedds-tools", "transport/dds's C peer and baselines"},
		{"fastddsgen", "fastddsgen", "the Fast DDS peer's /diagnostics reader"},
		{"python3 -m rosidl_adapter", "python3-rosidl", "the Fast DDS peer's /diagnostics reader"},
		{"flake8 (import order)", "python3-flake8-import-order", "lint's TestFixPassesAmentFlake8"},
		{"sqlite3", "sqlite3", "the .db3 benchmark's baseline"},
		{"xmllint", "libxml2-utils", "the JUnit schema check"},
		{"cmake", "cmake", "TestAmentColcon"},
		{"make", "make", "TestAmentColcon: colcon build's CMake generator"},
		{"python3 -m colcon", "python3-colcon-core", "TestAmentColcon"},
		{"ament_lint_auto", "ament-lint", "TestAmentColcon"},
	} {
		if !listed[c.pkg] {
			t.Errorf("scripts/deps.sh does not install %s (Debian %s), which %s runs", c.program, c.pkg, c.user)
		}
	}
}
