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

// runSimclockEnv runs simclock in-process with an empty environment and
// returns stdout, stderr and the exit code. tty says whether stderr
// claims to be a terminal (progress output).
func runSimclockEnv(t *testing.T, tty bool, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Main(context.Background(), args, &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut,
		StderrIsTTY: tty, Getenv: func(string) string { return "" }})
	return out.String(), errOut.String(), code
}

// runSimclock is runSimclockEnv without a terminal.
func runSimclock(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return runSimclockEnv(t, false, args...)
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
