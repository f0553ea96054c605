package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/simclock/simclock/internal/testdomain"
	"github.com/simclock/simclock/transport/dds"
)

// The startup experiment over real DDS: the fake simulator and the subject
// in separate processes on loopback, reproducing the virtual-mode counts.
func TestExperimentStartupOverDDS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds simclock and runs two processes over DDS")
	}
	if err := dds.Available(); err != nil {
		if os.Getenv("CI") == "" {
			t.Skipf("no Cyclone DDS here: %v", err)
		}
		t.Fatalf("CI must have Cyclone DDS: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "simclock")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/simclock/simclock/cmd/simclock").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	uri, err := filepath.Abs("../../config/cyclonedds-loopback.xml")
	if err != nil {
		t.Fatal(err)
	}
	// A deeper /clock queue keeps every message even on a loaded machine,
	// so the counts must equal virtual mode's.
	cmd := exec.Command(bin, "experiment", "startup", "--transport", "dds", "--start", "0,1", "--clock-depth", "50", "--format", "json")
	cmd.Env = append(os.Environ(), "CYCLONEDDS_URI=file://"+uri, "ROS_DOMAIN_ID="+strconv.Itoa(testdomain.ID(171)))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var scenarios []map[string]any
	var env map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatalf("not JSON: %q (stderr %s)", line, stderr.String())
		}
		switch obj["kind"] {
		case "env":
			env = obj
		case "scenario":
			scenarios = append(scenarios, obj)
		}
	}
	if env["transport"] != "dds" || len(scenarios) != 2 {
		t.Fatalf("env %v, %d scenarios; stderr %s", env, len(scenarios), stderr.String())
	}
	lost := 0.0
	for _, s := range scenarios {
		lost += s["lost_clock_messages"].(float64)
		// R26: before the first /clock the subject sees 0 whatever S.
		ctor := s["ctor"].(map[string]any)
		wall := s["wall_timer"].(map[string]any)
		calls, predicted := wall["calls_now0"].(float64), wall["predicted_calls_now0"].(float64)
		if ctor["now_ns"] != 0.0 || ctor["minus_1s"] != "error" || wall["calls_now0"] != wall["exc_now0"] {
			t.Errorf("S=%v: R26 ctor %v wall timer %v", s["S_ns"], ctor, wall)
		}
		// R26 in real time, against this run's measurement rather than the
		// machine's speed: at least one wall tick saw now() = 0, and no more
		// than the deadlines before the first /clock arrived (a loaded
		// machine skips missed periods, as rcl does, so fewer is fine).
		if calls < 1 || calls > predicted {
			t.Errorf("S=%v: %v wall calls saw now()=0, want 1..%v (the deadlines before the first /clock)", s["S_ns"], calls, predicted)
		}
		if s["pre_clock_wall_ns"].(float64) < 0.5e9 {
			t.Errorf("S=%v: first /clock after %v ns, before the 0.5 s pre-clock wait", s["S_ns"], s["pre_clock_wall_ns"])
		}
		for _, st := range s["sim_timers"].([]any) {
			if st.(map[string]any)["calls_before_first_clock"] != 0.0 {
				t.Errorf("S=%v: R23 sim timer fired before the first /clock: %v", s["S_ns"], st)
			}
		}
		// Every window matches the prediction from the /clock values this
		// run received, and the grid prediction too when none was lost.
		for _, w := range s["windows"].([]any) {
			w := w.(map[string]any)
			if w["exceptions"] != w["predicted_from_received_exceptions"] || w["zeros"] != w["predicted_from_received_zeros"] {
				t.Errorf("S=%v W=%v %v Hz: measured %v/%v, predicted from the received /clock %v/%v", s["S_ns"], w["W_ns"], w["hz"],
					w["exceptions"], w["zeros"], w["predicted_from_received_exceptions"], w["predicted_from_received_zeros"])
			}
			if s["lost_clock_messages"] == 0.0 && (w["exceptions"] != w["predicted_exceptions"] || w["zeros"] != w["predicted_zeros"]) {
				t.Errorf("S=%v W=%v %v Hz: measured %v/%v, predicted %v/%v", s["S_ns"], w["W_ns"], w["hz"], w["exceptions"], w["zeros"], w["predicted_exceptions"], w["predicted_zeros"])
			}
		}
	}
	// Exit 1 reports predictions missed because messages were lost; a
	// depth-50 queue loses none unless the machine stalls for 250 ms.
	if lost > 0 {
		t.Logf("%v /clock messages lost despite a depth-50 queue (a stalled machine)", lost)
	}
	if want := map[bool]int{true: 0, false: 1}[lost == 0]; code != want {
		t.Errorf("exit %d, want %d (lost %v); stderr %s", code, want, lost, stderr.String())
	}
}
