package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/simclock/simclock/bag"
	"github.com/simclock/simclock/internal/report/reporttest"
	"github.com/simclock/simclock/rules"
)

const (
	hazardsBag = "testdata/bag/hazards.mcap" // written by simclock/bag TestWriteCLITestdata
	realBags   = "../../../shared/bags/rosbag2"
)

func bagGolden(t *testing.T, name, got string) {
	t.Helper()
	checkGolden(t, filepath.Join("testdata", "bag", name+".golden"), got)
}

func TestBagInspectGolden(t *testing.T) {
	cases := []struct {
		name     string
		args     []string
		code     int
		needReal bool
	}{
		// The planted hazards: loop (R14), pause, zero stamps before /clock (R10, R26), system-time stamps (R3).
		{"hazards_text", []string{"bag", "inspect", hazardsBag}, 1, false},
		{"hazards_json", []string{"bag", "inspect", "--format", "json", "--examples", "1", hazardsBag}, 1, false},
		{"hazards_window", []string{"bag", "inspect", "--window", "101s", "--fail-on", "never", "--examples", "1", hazardsBag}, 0, false},
		{"talker_text", []string{"bag", "inspect", realBags + "/talker.mcap"}, 0, true},
		{"multiple_files_json", []string{"bag", "inspect", "--format", "json", "--decode-all",
			realBags + "/multiple_files_0.mcap", realBags + "/multiple_files_1.mcap", realBags + "/multiple_files_2.mcap"}, 0, true},
		{"services_text", []string{"bag", "inspect", realBags + "/topics_and_services.mcap"}, 0, true},
		// A Humble-style sqlite3 bag directory: no definitions stored, the shipped ones used.
		{"sqlite3_dir_text", []string{"bag", "inspect", "testdata/bag/sqlite3"}, 1, false},
		// One flipped bit in a chunk with a CRC: damage with its byte offset, never a hazard.
		{"damaged_text", []string{"bag", "inspect", "testdata/bag/damaged.mcap"}, 1, false},
		{"damaged_nocrc_text", []string{"bag", "inspect", "--no-crc", "--fail-on", "never", "testdata/bag/damaged.mcap"}, 0, false},
		// A real rosbag2 sqlite3 directory, checked against its metadata.yaml.
		{"real_sqlite3_dir_json", []string{"bag", "inspect", "--format", "json", realBags + "-dirs/sqlite3-rewriter_b"}, 1, true}, // unknown_schema warnings
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.needReal {
				if _, err := os.Stat(realBags); err != nil {
					t.Skipf("real bags not available: %v", err)
				}
			}
			out, errOut, code := runSimclock(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tc.code, errOut)
			}
			damaged := tc.name == "damaged_text" && strings.Contains(errOut, "bag has damaged chunks: 1 chunks skipped, 91 messages")
			if errOut != "" && !damaged {
				t.Errorf("stderr not empty without a TTY: %q", errOut)
			}
			bagGolden(t, tc.name, out)
		})
	}
}

// TestBagInspectSARIF: the findings of a bag as SARIF 2.1.0, each result
// in the bag and at its topic and Time field; a truncated bag is an
// unsuccessful run that says why.
func TestBagInspectSARIF(t *testing.T) {
	out, errOut, code := runSimclock(t, "bag", "inspect", "--format", "sarif", "--root", "testdata", hazardsBag)
	if code != ExitFailure || errOut != "" {
		t.Errorf("exit %d, stderr %q; want 1 (findings)", code, errOut)
	}
	reporttest.ValidateSARIF(t, []byte(out))
	// Artifact URIs are relative to --root; it is an absolute path, and
	// the golden holds a stand-in.
	root, _ := filepath.Abs("testdata")
	out = strings.ReplaceAll(out, "file://"+filepath.ToSlash(root)+"/", "file:///ROOT/")
	bagGolden(t, "hazards_sarif", sarifGolden(t, out, bag.Checks(), func(c rules.Check) string { return string(c.Code) }))

	data, err := os.ReadFile(hazardsBag)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut_0.mcap")
	if err := os.WriteFile(cut, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code = runSimclock(t, "bag", "inspect", "--format", "sarif", cut)
	if code != ExitFailure {
		t.Errorf("truncated bag: exit %d, want 1", code)
	}
	reporttest.ValidateSARIF(t, []byte(out))
	if !strings.Contains(out, `"executionSuccessful": false`) || !strings.Contains(out, "could not be read to its end") ||
		!strings.Contains(out, `"ruleId": "read_error"`) {
		t.Errorf("truncated bag: the run does not say it is partial:\n%s", out)
	}
}

// bag inspect --format junit writes JUnit XML as lint's does: a test case
// per finding named by its code, bag, topic and field, a failure when it
// reaches --fail-on, the files read in the suite's output; a truncated bag
// is a test case in error, whatever --fail-on says.
func TestBagInspectJUnit(t *testing.T) {
	out, errOut, code := runSimclock(t, "bag", "inspect", "--format", "junit", hazardsBag)
	if code != ExitFailure || errOut != "" {
		t.Errorf("exit %d, stderr %q; want 1 (findings)", code, errOut)
	}
	if c := reporttest.ValidateJUnit(t, []byte(out)); c.Tests != 6 || c.Failures != 6 || c.Errors != 0 {
		t.Errorf("%+v, want 6 failing test cases", c)
	}
	bagGolden(t, "hazards_junit", junitTime.ReplaceAllString(out, ` time="0.000"`))
	for _, tc := range []struct {
		failOn         string
		failures, code int
	}{{"error", 3, ExitFailure}, {"never", 0, ExitOK}} {
		out, _, code := runSimclock(t, "bag", "inspect", "--format", "junit", "--fail-on", tc.failOn, hazardsBag)
		if c := reporttest.ValidateJUnit(t, []byte(out)); code != tc.code || c.Tests != 6 || c.Failures != tc.failures {
			t.Errorf("--fail-on %s: exit %d, %+v; want exit %d, %d failures of 6", tc.failOn, code, c, tc.code, tc.failures)
		}
	}
	data, err := os.ReadFile(hazardsBag)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut_0.mcap")
	if err := os.WriteFile(cut, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code = runSimclock(t, "bag", "inspect", "--format", "junit", "--fail-on", "never", cut)
	if c := reporttest.ValidateJUnit(t, []byte(out)); code != ExitFailure || c.Errors != 1 || c.Failures != 0 ||
		!strings.Contains(out, "could not be read to its end") {
		t.Errorf("truncated bag: exit %d, %+v; want 1 and a test case in error\n%s", code, c, out)
	}
}

// junitTime is the suite's time, measured on this machine: masked in
// goldens.
var junitTime = regexp.MustCompile(` time="[0-9.]+"`)

// TestBagInspectJSONSchema checks every line is one object with a kind,
// env first and summary last.
func TestBagInspectJSONSchema(t *testing.T) {
	out, _, _ := runSimclock(t, "bag", "inspect", "--format", "json", hazardsBag)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var kinds []string
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		k, _ := m["kind"].(string)
		kinds = append(kinds, k)
	}
	if kinds[0] != "env" || kinds[len(kinds)-1] != "summary" || kinds[1] != "file" || kinds[2] != "clock" {
		t.Errorf("kinds %v", kinds)
	}
}

func TestBagInspectTruncated(t *testing.T) {
	data, err := os.ReadFile(hazardsBag)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "cut.mcap")
	if err := os.WriteFile(p, data[:len(data)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runSimclock(t, "bag", "inspect", p)
	if code != ExitFailure {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(errOut, "at byte") || !strings.Contains(errOut, "truncated") {
		t.Errorf("stderr %q lacks the offset", errOut)
	}
	// The partial report comes first: the /clock read before the cut.
	if !strings.Contains(out, "/clock:") || !strings.Contains(out, "read_error") || !strings.Contains(out, "could not be read to its end") {
		t.Errorf("partial report missing:\n%s", out)
	}
}

func TestBagInspectPlots(t *testing.T) {
	dir := t.TempDir()
	svg, html := filepath.Join(dir, "t.svg"), filepath.Join(dir, "t.html")
	_, errOut, code := runSimclock(t, "bag", "inspect", "--plot", svg, "--html", html, hazardsBag)
	if code != ExitFailure {
		t.Errorf("exit %d, want 1 (errors found); stderr %s", code, errOut)
	}
	for _, p := range []string{svg, html} {
		b, err := os.ReadFile(p)
		if err != nil || !bytes.Contains(b, []byte("<svg")) || !bytes.Contains(b, []byte("#d62728")) {
			t.Errorf("%s: %v, %d bytes, want an SVG with hazard markers", p, err, len(b))
		}
	}
}

func TestBagInspectProgress(t *testing.T) {
	r := newTestRun(t)
	r.StderrIsTTY = true
	_, errOut, _ := r.run("bag", "inspect", hazardsBag)
	if !strings.Contains(errOut, "100%") || !strings.HasSuffix(errOut, "\r\033[K") {
		t.Errorf("progress on a TTY: %q", errOut)
	}
}

func TestBagUsage(t *testing.T) {
	for _, args := range [][]string{
		{"bag", "inspect"},
		{"bag", "inspect", "--format", "xml", hazardsBag},
		{"bag", "inspect", "--fail-on", "sometimes", hazardsBag},
		{"bag", "inspect", "--window", "-1s", hazardsBag},
		{"bag", "inspect", "--gap-periods", "0", hazardsBag},
		{"bag", "clock"},
		{"bag", "clock", "--rate", "0", hazardsBag},
		{"bag", "clock", "--hz", "-1", hazardsBag},
	} {
		_, errOut, code := runSimclock(t, args...)
		if code != ExitUsage || !strings.Contains(errOut, "usage") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a usage hint", args, code, errOut)
		}
	}
	// What cannot be a bag is refused at once, before anything is opened
	// (a named pipe would block the open until a writer came), with
	// nothing on stdout: a missing file, a FIFO, a shell pipe, a device,
	// standard input.
	fifo := filepath.Join(t.TempDir(), "fifo.mcap")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{"no/such/file.mcap", "no/such/file.mcap: no such file or directory"},
		{fifo, "a named pipe (FIFO), not a regular file"},
		{"/dev/zero", "a character device, not a regular file"},
		{"-", "standard input is not read"},
	} {
		for _, cmd := range [][]string{{"bag", "inspect"}, {"bag", "clock", "--transport", "inproc"}} {
			out, errOut, code := runSimclock(t, append(cmd, c.path)...)
			if code != ExitUsage || out != "" || !strings.Contains(errOut, c.want) {
				t.Errorf("%v %s: exit %d, stderr %q, stdout %q; want exit 2, %q and no stdout", cmd, c.path, code, errOut, out, c.want)
			}
		}
	}
	dir := t.TempDir() // a bag directory whose storage file is a FIFO
	if err := syscall.Mkfifo(filepath.Join(dir, "run_0.mcap"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runSimclock(t, "bag", "inspect", dir)
	if code != ExitUsage || out != "" || !strings.Contains(errOut, "run_0.mcap: a named pipe") {
		t.Errorf("directory holding a FIFO: exit %d, stderr %q, stdout %q", code, errOut, out)
	}
	_, errOut, code = runSimclock(t, "bag", "inspect", hazardsBag, hazardsBag)
	if code != ExitUsage || !strings.Contains(errOut, "given twice") {
		t.Errorf("same file twice: exit %d, stderr %q", code, errOut)
	}
	_, errOut, code = runSimclock(t, "bag", "inspect", "testdata/bag", hazardsBag)
	if code != ExitUsage || !strings.Contains(errOut, "give the directory alone") {
		t.Errorf("directory and file: exit %d, stderr %q", code, errOut)
	}
}

func TestBagInspectFlags(t *testing.T) {
	var got *bagInspectOptions
	cmd := newBagInspectCmd(&Env{}, func(_ context.Context, o *bagInspectOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"--window", "2s", "--gap-periods", "3", "--format", "json", "--svg", "t.svg", "a.mcap", "b.mcap"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.window != 2*time.Second || got.periods != 3 || got.format != "json" || len(got.files) != 2 || got.failOn != rules.FailOnWarning || got.svg != "t.svg" {
		t.Errorf("options %+v", got)
	}
}

// bag inspect's --periods is monitor's (one name and type for
// clockstream.Config.Periods); --gap-periods, its old name, still works
// and rounds as it did.
func TestBagInspectPeriods(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
		err  string
	}{
		{nil, 5, ""},
		{[]string{"--periods", "3"}, 3, ""},
		{[]string{"--gap-periods", "3"}, 3, ""},
		{[]string{"--gap-periods", "2.6"}, 3, ""},
		{[]string{"--gap-periods", "0.2"}, 1, ""},
		{[]string{"--periods", "0"}, 0, "--periods 0"},
		{[]string{"--periods", "2.5"}, 0, "invalid argument"},
		{[]string{"--gap-periods", "3", "--periods", "3"}, 0, "give one"},
	} {
		var got *bagInspectOptions
		cmd := newBagInspectCmd(&Env{}, func(_ context.Context, o *bagInspectOptions) error { got = o; return nil })
		cmd.SetArgs(append(tc.args, "a.mcap"))
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		err := cmd.Execute()
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%v: %v, want an error with %q", tc.args, err, tc.err)
		case tc.err == "" && (err != nil || got.periods != tc.want):
			t.Errorf("%v: %v, periods %d, want %d", tc.args, err, got.periods, tc.want)
		}
	}
}

// An interrupted looping bag clock ends with its summary, like pub (the
// full output is the bag_clock golden, in virtual time).
func TestBagClockLoopInterrupted(t *testing.T) {
	out, errOut, code := virtualRun(t, nil, 2500*time.Millisecond).run("bag", "clock", "--transport", "inproc", "--rate", "4", "--hz", "10", "--loop", hazardsBag)
	if code != ExitOK || !strings.Contains(out, "summary") || !strings.Contains(out, "start,loop") {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
}

// An unwritable --svg path loses nothing: the report is printed first.
func TestBagInspectPlotUnwritable(t *testing.T) {
	out, errOut, code := runSimclock(t, "bag", "inspect", "--svg", filepath.Join(t.TempDir(), "no", "dir", "t.svg"), hazardsBag)
	if code != ExitFailure || !strings.Contains(out, "findings:") || !strings.Contains(errOut, "t.svg") {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
}

// bag clock takes rosbag2 play's options: --start-offset moves the first
// value into the bag, --delay holds the first message back, and a bag
// directory (here sqlite3) plays like its files.
func TestBagClockPlayOptions(t *testing.T) {
	out, errOut, code := virtualRun(t, nil, 0).run("bag", "clock", "--transport", "inproc", "--clock-hz", "10",
		"--start-offset", "5", "--delay", "2", "testdata/bag/sqlite3")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	lines := strings.Split(out, "\n")
	// The sqlite3 bag spans 1763999998.000 → 1764000003.990 s of log time.
	if !strings.HasPrefix(lines[1], "starting at 1764000003.000000000 s (--start-offset 5)") {
		t.Errorf("second line %q: want the timeline from start + 5 s", lines[1])
	}
	// With --delay 2 the first progress second sends nothing.
	if !strings.Contains(out, "    1.000  progress      0") || !strings.Contains(out, "summary      11") {
		t.Errorf("output:\n%s", out)
	}
	_, errOut, code = virtualRun(t, nil, 0).run("bag", "clock", "--transport", "inproc", "--start-offset", "60", hazardsBag)
	if code != ExitUsage || !strings.Contains(errOut, "--start-offset") {
		t.Errorf("offset past the end: exit %d, stderr %q", code, errOut)
	}
}

// A folder of several recordings (here rosbag2's own test bags side by
// side, without metadata.yaml) is reported one recording after the other,
// each on its own; bag clock, which plays one timeline, refuses it.
func TestBagInspectSeveralRecordings(t *testing.T) {
	if _, err := os.Stat(realBags); err != nil {
		t.Skip("shared/bags not available")
	}
	out, errOut, code := runSimclock(t, "bag", "inspect", "--format", "json", realBags)
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var names []string
	summaries := 0
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var v struct {
			Kind, Name string
			Recordings int
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatal(err)
		}
		switch v.Kind {
		case "recording":
			names = append(names, v.Name)
		case "summary":
			summaries++
		}
	}
	want := []string{"cdr_test", "multiple_files", "only_services", "talker", "test_bag_for_seek", "topics_and_services"}
	if strings.Join(names, ",") != strings.Join(want, ",") || summaries != len(want) {
		t.Errorf("recordings %v, %d summaries; want %v", names, summaries, want)
	}
	text, _, _ := runSimclock(t, "bag", "inspect", realBags)
	if !strings.Contains(text, "== recording multiple_files (2 of 6, 3 files) ==") || strings.Contains(text, "clock_backward") {
		t.Errorf("text:\n%s", text)
	}
	_, errOut, code = virtualRun(t, nil, 0).run("bag", "clock", "--transport", "inproc", realBags)
	if code != ExitUsage || !strings.Contains(errOut, "holds 6 recordings") {
		t.Errorf("bag clock: exit %d, stderr %q", code, errOut)
	}
}
