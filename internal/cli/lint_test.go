//go:build cgo

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs simclock in-process and returns stdout, stderr and the exit code.
func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return runSimclock(t, args...)
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	checkGolden(t, filepath.Join("testdata", "lint", name), got)
}

func TestLintGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"text.golden", []string{"lint", "testdata/lint/pkg"}},
		{"json.golden", []string{"lint", "--format", "json", "testdata/lint/pkg"}},
		{"sarif.golden", []string{"lint", "--format", "sarif", "testdata/lint/pkg"}},
		{"rules.golden", []string{"lint", "--rules", "R29,r27", "testdata/lint/pkg"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tc.args...)
			if code != ExitFailure {
				t.Errorf("exit %d, want %d (findings); stderr: %s", code, ExitFailure, errOut)
			}
			golden(t, tc.name, out)
		})
	}
}

func TestLintText(t *testing.T) {
	out, errOut, _ := runCLI(t, "lint", "testdata/lint/pkg")
	// Compiler-style first lines, each followed by why and fix.
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines)%3 != 0 {
		t.Fatalf("want finding/why/fix triples, got %d lines", len(lines))
	}
	for i := 0; i < len(lines); i += 3 {
		if !strings.HasPrefix(lines[i], "testdata/lint/pkg/") || strings.Count(lines[i], ":") < 4 {
			t.Errorf("line %q is not file:line:col: rule: message", lines[i])
		}
		if !strings.HasPrefix(lines[i+1], "    why: ") || !strings.HasPrefix(lines[i+2], "    fix: ") {
			t.Errorf("finding %q lacks why/fix lines", lines[i])
		}
	}
	if !strings.Contains(out, "window.cpp:8:14: R26:") || !strings.Contains(out, "tracker.py:24:15: R29:") {
		t.Errorf("missing expected findings:\n%s", out)
	}
	// The R5 on window.cpp line 13 carries a suppression comment.
	if strings.Contains(out, "window.cpp:13:") {
		t.Errorf("suppressed finding reported:\n%s", out)
	}
	if !strings.Contains(errOut, "9 finding(s), 0 fixed, in 2 file(s)") {
		t.Errorf("stderr summary = %q", errOut)
	}
}

func TestLintJSONLines(t *testing.T) {
	out, _, _ := runCLI(t, "lint", "--format", "json", "testdata/lint/pkg")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	kinds := map[string]int{}
	for i, line := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		kind, _ := m["kind"].(string)
		kinds[kind]++
		if !strings.HasPrefix(line, `{"kind":"`) {
			t.Errorf("line %d does not start with kind: %s", i+1, line)
		}
		if i == 0 && kind != "env" {
			t.Errorf("first line kind %q, want env", kind)
		}
		if kind == "finding" {
			for _, k := range []string{"file", "line", "col", "rule", "level", "message", "why", "fix", "fixable"} {
				if _, ok := m[k]; !ok {
					t.Errorf("finding lacks %q: %s", k, line)
				}
			}
		}
	}
	if kinds["env"] != 1 || kinds["summary"] != 1 || kinds["finding"] != 9 {
		t.Errorf("kinds = %v, want 1 env, 9 findings, 1 summary", kinds)
	}
}

func TestLintSARIF(t *testing.T) {
	out, _, _ := runCLI(t, "lint", "--format", "sarif", "testdata/lint/pkg")
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID string `json:"id"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				Fixes []json.RawMessage `json:"fixes"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "simclock" {
		t.Fatalf("bad SARIF envelope: %+v", log)
	}
	run := log.Runs[0]
	if len(run.Results) != 9 {
		t.Fatalf("%d results, want 9", len(run.Results))
	}
	fixes := 0
	for _, r := range run.Results {
		if run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("ruleIndex %d does not point at %s", r.RuleIndex, r.RuleID)
		}
		loc := r.Locations[0].PhysicalLocation
		if !strings.HasPrefix(loc.ArtifactLocation.URI, "testdata/lint/pkg/") || loc.Region.StartLine < 1 || loc.Region.StartColumn < 1 {
			t.Errorf("bad location %+v", loc)
		}
		fixes += len(r.Fixes)
	}
	// R5 (Time() baseline), R2, R6 (rclcpp::Time(5, 0)); not R16, a
	// declaration that must not be renamed to use_sim_time.
	if fixes != 3 {
		t.Errorf("%d results carry fixes, want 3", fixes)
	}
}

func TestLintExitCodes(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"clean", []string{"lint", "testdata/lint/clean"}, ExitOK},
		{"clean json", []string{"lint", "--format", "json", "testdata/lint/clean"}, ExitOK},
		{"findings", []string{"lint", "testdata/lint/pkg"}, ExitFailure},
		{"rule with no findings", []string{"lint", "--rules", "R7", "testdata/lint/pkg"}, ExitOK},
		{"no path", []string{"lint"}, ExitUsage},
		{"bad format", []string{"lint", "--format", "xml", "testdata/lint/pkg"}, ExitUsage},
		{"bad rule", []string{"lint", "--rules", "R99", "testdata/lint/pkg"}, ExitUsage},
		{"missing path", []string{"lint", "testdata/lint/nope"}, ExitUsage},
		{"unknown flag", []string{"lint", "--fixx", "testdata/lint/pkg"}, ExitUsage},
		{"bad distro", []string{"lint", "--ros-distro", "foxy", "testdata/lint/pkg"}, ExitUsage},
		{"kilted", []string{"lint", "--ros-distro", "kilted", "testdata/lint/pkg"}, ExitFailure},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tc.args...)
			if code != tc.want {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.want, out, errOut)
			}
			if tc.want == ExitOK && strings.Contains(tc.args[len(tc.args)-1], "clean") && tc.args[1] != "--format" && out != "" {
				t.Errorf("clean run printed %q", out)
			}
		})
	}
}

// TestLintFix copies the package, fixes it, and checks the rewritten files
// against goldens, that the fixed findings are gone, and that the ones
// needing judgment (guards) remain.
func TestLintFix(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/lint/pkg")); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "lint", "--fix", dir)
	if code != ExitFailure {
		t.Errorf("exit %d, want 1 (unfixable findings remain); stderr %s", code, errOut)
	}
	// declare_parameter('use_simulated_time') is not renamed: that would
	// declare use_sim_time, which rclpy has declared already.
	if n := strings.Count(out, "(fixed)"); n != 3 {
		t.Errorf("%d findings marked fixed, want 3:\n%s", n, out)
	}
	if !strings.Contains(errOut, "9 finding(s), 3 fixed") {
		t.Errorf("stderr summary %q", errOut)
	}
	for _, name := range []string{"my_pkg/tracker.py", "src/window.cpp"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "fixed_"+filepath.Base(name)+".golden", string(got))
	}
	// A second run finds nothing left to fix.
	out, _, _ = runCLI(t, "lint", "--format", "json", dir)
	if strings.Contains(out, `"fixable":true`) {
		t.Errorf("fixable findings after --fix:\n%s", out)
	}
	for _, rule := range []string{`"rule":"R2"`, `"rule":"R5"`, `"rule":"R6"`} {
		if strings.Contains(out, rule) {
			t.Errorf("%s still reported after --fix", rule)
		}
	}
	if !strings.Contains(out, `"rule":"R16"`) {
		t.Errorf("the misspelt declaration is no longer reported:\n%s", out)
	}
	if !strings.Contains(out, `"parse_errors":0`) {
		t.Errorf("fixed files no longer parse cleanly:\n%s", out)
	}
}

// TestLintDistroWording checks that --ros-distro words what a negative
// rclcpp::Time does: silent before rclcpp 28.2 (Humble, Jazzy), thrown
// from 28.2 (Kilted, Rolling).
func TestLintDistroWording(t *testing.T) {
	for distro, want := range map[string]string{
		"humble":  "rclcpp on Humble (before 28.2) silently gives a negative Time",
		"jazzy":   "rclcpp on Jazzy (before 28.2) silently gives a negative Time",
		"kilted":  "rclcpp on Kilted (28.2 and later) throws std::runtime_error",
		"rolling": "rclcpp on Rolling (28.2 and later) throws std::runtime_error",
	} {
		out, errOut, code := runCLI(t, "lint", "--rules", "R27", "--ros-distro", distro, "testdata/lint/pkg/src")
		if code != ExitFailure || !strings.Contains(out, want) {
			t.Errorf("--ros-distro %s: exit %d, output lacks %q:\n%s%s", distro, code, want, out, errOut)
		}
	}
}
