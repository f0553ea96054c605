//go:build cgo && linux

package lint

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// tree writes files (name: contents) under a new directory.
func tree(t *testing.T, dir string, files map[string]string) {
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

// rel lists paths relative to dir, with "/".
func rel(dir string, paths []string) []string {
	out := []string{}
	for _, p := range paths {
		r, _ := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(r))
	}
	return out
}

// The walk skips what colcon and ament's linters skip, and what the
// config file or --exclude excludes below a path; a path named itself is
// linted whatever the excludes say.
func TestWalkSkips(t *testing.T) {
	dir := t.TempDir()
	tree(t, dir, map[string]string{
		"pkg/a.py":                    "",
		"pkg/gen/b_pb2.py":            "",
		"pkg/test/fixtures/c.py":      "",
		"pkg/test/d.py":               "",
		"ignored/AMENT_IGNORE":        "",
		"ignored/e.py":                "",
		"colcon/COLCON_IGNORE":        "",
		"colcon/f.py":                 "",
		".hidden/g.py":                "",
		"pkg/.pre-commit-config.yaml": "",
		"build/h.py":                  "",
		"pkg/launch/x.launch.xml":     "",
		"pkg/README.md":               "",
		"pkg/deep/build_tools/i.py":   "",
	})
	name, err := NewPattern(dir, "*_pb2.py")
	if err != nil {
		t.Fatal(err)
	}
	anchored, err := NewPattern(dir, "pkg/test/fixtures/")
	if err != nil {
		t.Fatal(err)
	}
	files, skipped, err := walk([]string{dir}, []Pattern{name, anchored})
	if err != nil || len(skipped) != 0 {
		t.Fatal(err, skipped)
	}
	want := []string{"pkg/a.py", "pkg/deep/build_tools/i.py", "pkg/launch/x.launch.xml", "pkg/test/d.py"}
	if got := rel(dir, files); !slices.Equal(got, want) {
		t.Errorf("files %v, want %v", got, want)
	}
	// Named, an excluded file is linted; below a named directory, the
	// excludes hold.
	files, _, _ = walk([]string{filepath.Join(dir, "pkg/gen/b_pb2.py"), filepath.Join(dir, "pkg/test")}, []Pattern{name, anchored})
	if got := rel(dir, files); !slices.Equal(got, []string{"pkg/gen/b_pb2.py", "pkg/test/d.py"}) {
		t.Errorf("named paths: %v", got)
	}
	if _, err := NewPattern(dir, "a/[b"); err == nil {
		t.Error("a bad glob was accepted")
	}
}

// A file named on the command line that is not source code is not parsed
// as Python: a binary file (a recording) and a device are named as
// skipped, and nothing is linted.
func TestNamedNotSource(t *testing.T) {
	dir := t.TempDir()
	mcap := filepath.Join(dir, "good.mcap")
	if err := os.WriteFile(mcap, []byte("\x89MCAP0\r\n\x00\x01\x02 not python"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "my_node")
	if err := os.WriteFile(script, []byte("#!/usr/bin/env python3\nfrom rclpy.time import Time\nTime(1, 2)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Run(t.Context(), []string{mcap, os.DevNull, script}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Files != 1 || !slices.Equal(res.Checked, []string{script}) || len(res.Findings) != 1 || len(res.ParseErrors) != 0 {
		t.Errorf("files %d %v, findings %v, parse errors %v: want the script alone, linted", res.Files, res.Checked, res.Findings, res.ParseErrors)
	}
	if len(res.Skipped) != 2 || len(res.Unreadable()) != 0 {
		t.Fatalf("skipped %+v", res.Skipped)
	}
	for _, s := range res.Skipped {
		switch s.File {
		case mcap:
			if !strings.Contains(s.Reason, "binary") || !strings.Contains(s.Reason, "simclock bag inspect") {
				t.Errorf("good.mcap: %q", s.Reason)
			}
		case os.DevNull:
			if !strings.Contains(s.Reason, "character device") {
				t.Errorf("/dev/null: %q", s.Reason)
			}
		default:
			t.Errorf("skipped %+v", s)
		}
	}
}

// A directory or a file that cannot be read is named and the rest is
// linted: one unreadable subdirectory does not end the run.
func TestRunUnreadable(t *testing.T) {
	if !asUnprivileged(t) {
		return
	}
	dir := t.TempDir()
	tree(t, dir, map[string]string{
		"a/node.py":   "from rclpy.time import Time\nTime(1, 2)\n",
		"secret/x.py": "",
		"b/shut.py":   "",
		"z/node.py":   "from rclpy.time import Time\nTime(3, 4)\n",
	})
	for _, p := range []string{filepath.Join(dir, "secret"), filepath.Join(dir, "b", "shut.py")} {
		if err := os.Chmod(p, 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(p, 0o755) })
	}
	res, err := Run(t.Context(), []string{dir}, Config{})
	if err != nil {
		t.Fatalf("the run ended: %v", err)
	}
	if len(res.Findings) != 2 || res.Files != 2 {
		t.Errorf("%d findings in %d files, want 2 in 2", len(res.Findings), res.Files)
	}
	un := res.Unreadable()
	if len(un) != 2 || un[0].File != filepath.Join(dir, "b", "shut.py") || un[1].File != filepath.Join(dir, "secret") ||
		!strings.Contains(un[0].Reason, "permission denied") {
		t.Errorf("unreadable %+v", un)
	}
}

// asUnprivileged reports whether the test runs as a user that file modes
// apply to. Run as root (as CI is), which reads every file whatever its
// mode, it runs the test again as user nobody and reports false: the
// caller returns, and the child's verdict is the test's.
func asUnprivileged(t *testing.T) bool {
	t.Helper()
	if os.Geteuid() != 0 {
		return true
	}
	if os.Getenv("SIMCLOCK_TEST_UNPRIVILEGED") != "" {
		t.Fatal("still root after dropping to nobody")
	}
	// A copy of the test binary nobody can run, in a directory nobody can
	// enter (t.TempDir's parent is root's alone).
	dir, err := os.MkdirTemp("", "simclock-unprivileged-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "test")
	copyFile(t, self, bin)
	cmd := exec.CommandContext(t.Context(), bin, "-test.run=^"+t.Name()+"$", "-test.v")
	cmd.Dir = dir
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil || os.Chown(tmp, 65534, 65534) != nil {
		t.Fatal("a temporary directory for nobody:", err)
	}
	cmd.Env = append(os.Environ(), "SIMCLOCK_TEST_UNPRIVILEGED=1", "TMPDIR="+tmp)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
	return false
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
