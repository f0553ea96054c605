package cli

import (
	"bytes"
	"context"
	"flag"
	"os"
	"runtime"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

// Every command must leave no goroutine behind.
func TestMain(m *testing.M) {
	if os.Getenv(testNodeEnv) != "" {
		os.Exit(testNodeMain())
	}
	goleak.VerifyTestMain(m)
}

// update rewrites every golden file a test compares against:
// go test ./internal/cli -update
var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// A testRun runs simclock in-process, as gh's iostreams.Test lets a test
// run a gh command: standard input, output and error are buffers, no
// stream is a terminal, the environment is empty. A test sets what else
// its run needs on the Env (StderrIsTTY, Virtual, OnExecutor...) before
// run; it is the one way every test here runs a command.
type testRun struct {
	*Env
	stdin, stdout, stderr *bytes.Buffer
	// ctx is the run's context; interrupt cancels it, as SIGINT or
	// SIGTERM does in cmd/simclock.
	ctx       context.Context
	interrupt context.CancelFunc
	// after are called when the run ends (peers a test attached).
	after []func()
}

// newTestRun returns a run with empty standard input, no terminal and an
// empty environment.
func newTestRun(t testing.TB) *testRun {
	r := &testRun{stdin: new(bytes.Buffer), stdout: new(bytes.Buffer), stderr: new(bytes.Buffer)}
	r.Env = &Env{Stdin: r.stdin, Stdout: r.stdout, Stderr: r.stderr, Getenv: func(string) string { return "" }}
	r.ctx, r.interrupt = context.WithCancel(t.Context())
	return r
}

// setenv makes the run's environment the name=value pairs kv.
func (r *testRun) setenv(kv ...string) {
	vars := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		vars[kv[i]] = kv[i+1]
	}
	r.Getenv = func(k string) string { return vars[k] }
}

// run runs simclock with args and returns what it wrote to standard
// output and error, and its exit code.
func (r *testRun) run(args ...string) (stdout, stderr string, code int) {
	code = Main(r.ctx, args, r.Env)
	for _, f := range r.after {
		f()
	}
	r.after = nil
	return r.stdout.String(), r.stderr.String(), code
}

// runSimclock runs simclock with args in a new testRun.
func runSimclock(t testing.TB, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return newTestRun(t).run(args...)
}

// checkGolden compares got with the file at path, or rewrites the file
// with -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	// The env line names the Go toolchain: goldens survive an upgrade.
	got = strings.ReplaceAll(got, `"go":"`+runtime.Version()+`"`, `"go":"GOVERSION"`)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/cli -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test ./internal/cli -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
