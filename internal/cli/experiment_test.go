package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// scrub removes what legitimately differs between runs: wall-clock
// durations and the Go version.
var scrubbers = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`"elapsed_wall_ns":[0-9]+`), `"elapsed_wall_ns":X`},
	{regexp.MustCompile(`"go":"[^"]*"`), `"go":"X"`},
	{regexp.MustCompile(`inproc, [0-9.]+ s\)`), `inproc, X s)`},
}

func scrub(s string) string {
	for _, sc := range scrubbers {
		s = sc.re.ReplaceAllString(s, sc.with)
	}
	return s
}

func experimentGolden(t *testing.T, name, got string) {
	t.Helper()
	checkGolden(t, filepath.Join("testdata", "experiment", name), got)
}

func TestExperimentGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"startup.golden", []string{"experiment", "startup"}},
		{"startup_json.golden", []string{"experiment", "startup", "--format", "json"}},
		{"startup_sparse.golden", []string{"experiment", "startup", "--start", "0,0.25", "--windows", "0.25,1", "--timer-hz", "30", "--clock-every", "4", "--format", "json"}},
		{"clocktypes.golden", []string{"experiment", "clocktypes"}},
		{"clocktypes_json.golden", []string{"experiment", "clocktypes", "--format", "json"}},
		{"dtspike.golden", []string{"experiment", "dtspike"}},
		{"dtspike_json.golden", []string{"experiment", "dtspike", "--format", "json"}},
		{"startup_epoch.golden", []string{"experiment", "startup", "--start", "1700000000.005", "--windows", "0.25", "--timer-hz", "10"}},
		{"predict.golden", []string{"predict", "--start", "0.5", "--window", "1", "--hz", "20"}},
		{"predict_sparse_json.golden", []string{"predict", "--start", "0", "--window", "0.25", "--hz", "30", "--clock-every", "4", "--format", "json"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runSimclock(t, tc.args...)
			if code != ExitOK {
				t.Fatalf("exit %d; stderr: %s", code, errOut)
			}
			experimentGolden(t, tc.name, scrub(out))
		})
	}
}

// The JSON output follows its documented schema (README): kinds in order, and the
// scenario fields by name.
func TestExperimentStartupJSONSchema(t *testing.T) {
	out, _, code := runSimclock(t, "experiment", "startup", "--format", "json", "--runs", "2")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var kinds []string
	for _, line := range lines {
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatalf("not JSON: %q: %v", line, err)
		}
		kinds = append(kinds, obj["kind"].(string))
		switch obj["kind"] {
		case "env":
			for _, k := range []string{"version", "mode", "transport", "go"} {
				if _, ok := obj[k]; !ok {
					t.Errorf("env line lacks %q", k)
				}
			}
		case "scenario":
			for _, k := range []string{"S_ns", "ctor", "wall_timer", "sim_timers", "windows", "pre_clock_wall_ns", "measured_rtf", "off_grid_callbacks"} {
				if _, ok := obj[k]; !ok {
					t.Errorf("scenario line lacks %q", k)
				}
			}
			w := obj["windows"].([]any)[0].(map[string]any)
			for _, k := range []string{"W_ns", "hz", "exceptions", "zeros", "positives", "first_positive_now_ns", "predicted_exceptions", "predicted_zeros", "guard_le", "guard_eq0_or_lt"} {
				if _, ok := w[k]; !ok {
					t.Errorf("window lacks %q", k)
				}
			}
		case "summary":
			if obj["all_predictions_matched"] != true || obj["runs_identical"] != true || obj["scenarios"] != 4.0 {
				t.Errorf("summary: %v", obj)
			}
		}
	}
	want := "env scenario scenario scenario scenario history_time_zero summary"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("kinds %q, want %q", got, want)
	}
}

// Two virtual runs print byte-identical JSON except the timestamps.
func TestExperimentStartupDeterministic(t *testing.T) {
	a, _, _ := runSimclock(t, "experiment", "startup", "--format", "json")
	b, _, _ := runSimclock(t, "experiment", "startup", "--format", "json")
	if scrub(a) != scrub(b) {
		t.Fatalf("two runs differ:\n%s\n%s", a, b)
	}
}

func TestExperimentBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"experiment", "startup", "--start", "abc"},
		{"experiment", "startup", "--mode", "later"},
		{"experiment", "startup", "--clock-every", "0"},
		{"experiment", "startup", "--format", "xml"},
		{"experiment", "startup", "--transport", "carrier-pigeon"},
		{"experiment", "startup", "--runs", "0"},
		{"predict", "--hz", "0"},
		{"predict", "--hz", "1e9"},
		{"experiment", "startup", "--clock-step", "1ns"},
		{"experiment", "dtspike", "--ticks", "0"},
		{"experiment", "dtspike", "--period", "-1"},
		{"predict", "--window", "-1"},
	} {
		_, errOut, code := runSimclock(t, args...)
		if code != ExitUsage {
			t.Errorf("%v: exit %d, want %d; stderr %s", args, code, ExitUsage, errOut)
		}
		if errOut == "" {
			t.Errorf("%v: no error message", args)
		}
	}
}

// startupPlot runs experiment startup with args and --plot, and returns
// the SVG.
func startupPlot(t *testing.T, args ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "startup.svg")
	_, errOut, code := runSimclock(t, append(append([]string{"experiment", "startup"}, args...), "--plot", path)...)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	svg, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(svg)
}

func TestExperimentPlot(t *testing.T) {
	s := startupPlot(t)
	if !strings.HasPrefix(s, "<svg") || strings.Count(s, "S = ") != 12 || !strings.Contains(s, "W = 1 s") || !strings.Contains(s, "#d22") {
		t.Errorf("plot lacks panels (4 scenarios × 3 windows), window lines or failing ticks:\n%.500s", s)
	}
}

// --windows 0.25 colours the ticks by now() − 0.25 s: at S = 0 and 10 Hz
// the tick at 0.1 s raises and the one at 0.3 s is a real instant, which
// the 1 s constructor window would have coloured red.
func TestExperimentPlotColoursByTheWindowsAskedFor(t *testing.T) {
	s := startupPlot(t, "--start", "0", "--windows", "0.25")
	if strings.Count(s, "S = ") != 1 || !strings.Contains(s, "W = 0.25 s") || strings.Contains(s, "W = 1 s") {
		t.Errorf("want one panel for W = 0.25 s:\n%.800s", s)
	}
	for _, want := range []string{"now 0.1 s, now − 0.25 s: error", "now 0.3 s, now − 0.25 s: positive"} {
		if !strings.Contains(s, want) {
			t.Errorf("no tick %q in the plot", want)
		}
	}
}

// An unwritable --plot path loses nothing: the table is printed, then
// the error, exit 1.
func TestExperimentPlotUnwritable(t *testing.T) {
	out, errOut, code := runSimclock(t, "experiment", "startup", "--plot", filepath.Join(t.TempDir(), "no", "such", "dir", "x.svg"))
	if code != ExitFailure || !strings.Contains(out, "Verdict:") || !strings.Contains(errOut, "--plot") {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
}
