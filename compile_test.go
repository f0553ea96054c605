package simclock_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mixcheckName is the file the overlay adds to package simclock. It never
// exists on disk: go build -overlay reads it from a temporary file.
const mixcheckName = "zz_mixcheck.go"

// buildWithOverlay type-checks package simclock plus src as mixcheckName
// and returns the go command's output and error.
func buildWithOverlay(t *testing.T, src string) (string, error) {
	t.Helper()
	dir, err := os.Getwd() // the package directory: the repository root
	if err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, mixcheckName)
	if _, err := os.Stat(target); err == nil {
		t.Fatalf("%s exists; the overlay must add a new file", target)
	}
	tmp := t.TempDir()
	srcPath := filepath.Join(tmp, mixcheckName) // errors name this path
	if err := os.WriteFile(srcPath, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	overlay, err := json.Marshal(map[string]any{"Replace": map[string]string{target: srcPath}})
	if err != nil {
		t.Fatal(err)
	}
	overlayPath := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(overlayPath, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	gobin := filepath.Join(strings.TrimSpace(string(goroot)), "bin", "go")
	// -gcflags=-e: report every error, not the first ten.
	cmd := exec.Command(gobin, "build", "-gcflags=-e", "-overlay="+overlayPath, ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// Summary R5, R6 and R15: rclpy raises TypeError at run time when ROS and
// SYSTEM times meet; simclock's typed API refuses to compile it. Each bad
// line must fail with a type error naming the other kind's Time type.
func TestMixingClockKindsDoesNotCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	// Line numbers matter: each case's line is checked for its error.
	bad := []struct {
		rule, name, code, want string
	}{
		{"R5", "sub_ROS_minus_System", "var _ = Time[ROS]{}.Sub(Time[System]{})", "Time[System]"},
		{"R6", "before_ROS_System", "var _ = Time[ROS]{}.Before(Time[System]{})", "Time[System]"},
		{"R6", "equal_Steady_ROS", "var _ = Time[Steady]{}.Equal(Time[ROS]{})", "Time[ROS]"},
		{"R6", "compare_System_Steady", "var _ = Time[System]{}.Compare(Time[Steady]{})", "Time[Steady]"},
		{"R6", "operator_ROS_System", "var _ = Time[ROS]{} == Time[System]{}", "Time[System]"},
		{"R6", "time_vs_duration", "var _ = Time[ROS]{}.Before(time.Second)", "time.Duration"},
		{"R15", "ros_clock_sleep_until_system_time", "var _ = (&ROSClock{}).SleepUntil(context.TODO(), Time[System]{})", "Time[System]"},
		{"R10", "system_clock_is_not_a_ROS_clock", "var _ Clock[ROS] = SystemClock{}", "SystemClock"},
		// rclpy:rclpy/test/test_time.py test_time_operators / test_time_comparators
		{"R4", "time_plus_time_PT-026", "var _, _ = Time[ROS]{}.Add(Time[ROS]{})", "time.Duration"},
		{"R4", "duration_minus_time_PT-027", "var _ = time.Second - Time[ROS]{}", "Time[ROS]"},
		{"R6", "time_equals_int_PT-031", "var _ = Time[ROS]{} == 1", "Time[ROS]"},
		{"R5", "typed_minus_dynamic", "var _, _ = Time[ROS]{}.Any().Sub(Time[ROS]{})", "AnyTime"},
	}
	var src strings.Builder
	src.WriteString("package simclock\n\nimport (\n\t\"context\"\n\t\"time\"\n)\n\nvar _ = context.TODO\nvar _ = time.Second\n\n")
	header := strings.Count(src.String(), "\n")
	for _, b := range bad {
		src.WriteString(b.code + "\n")
	}
	out, err := buildWithOverlay(t, src.String())
	if err == nil {
		t.Fatalf("mixing clock kinds compiled:\n%s", src.String())
	}
	errLine := regexp.MustCompile(regexp.QuoteMeta(mixcheckName) + `:(\d+):\d+: (.*)`)
	byLine := map[string]string{}
	for _, m := range errLine.FindAllStringSubmatch(out, -1) {
		byLine[m[1]] += m[2] + "\n"
	}
	for i, b := range bad {
		t.Run(b.rule+"/"+b.name, func(t *testing.T) {
			msg := byLine[fmt.Sprint(header+i+1)]
			if msg == "" {
				t.Fatalf("no error for %q; go build said:\n%s", b.code, out)
			}
			if !strings.Contains(msg, b.want) {
				t.Errorf("error for %q does not mention %s:\n%s", b.code, b.want, msg)
			}
		})
	}
}

// The control: the same operations with matching kinds compile, so the
// failures above are about the kinds and not the harness.
func TestMatchingClockKindsCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	src := `package simclock

import "context"

var (
	_ = Time[ROS]{}.Sub(Time[ROS]{})
	_ = Time[System]{}.Before(Time[System]{})
	_ = Time[Steady]{}.Equal(Time[Steady]{})
	_ = Time[ROS]{} == Time[ROS]{}
	_ = (&ROSClock{}).SleepUntil(context.TODO(), Time[ROS]{})
	_ Clock[ROS] = (*ROSClock)(nil)
	_ Clock[System] = SystemClock{}
	_ Clock[Steady] = SteadyClock{}
)
`
	if out, err := buildWithOverlay(t, src); err != nil {
		t.Fatalf("matching kinds do not compile: %v\n%s", err, out)
	}
}
