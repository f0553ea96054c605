package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --svg and --plot together write both files; a damaged chunk is drawn
// where it was skipped.
func TestBagPlotsBothFilesAndDamage(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.svg"), filepath.Join(dir, "b.svg")
	_, errOut, code := runSimclock(t, "bag", "inspect", "--svg", a, "--plot", b, "testdata/bag/damaged.mcap")
	if code != ExitFailure {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, p := range []string{a, b} {
		svg, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("--svg %s --plot %s: %v", a, b, err)
		}
		if !strings.Contains(string(svg), "damaged chunk: messages skipped") {
			t.Errorf("%s does not show the skipped chunk", p)
		}
	}
}

// A Unix-epoch start plots with readable labels: counted from a base the
// axis title names, seconds with a space, no exponent.
func TestStartupPlotEpochLabels(t *testing.T) {
	p := filepath.Join(t.TempDir(), "e.svg")
	if _, errOut, code := runSimclock(t, "experiment", "startup", "--start", "1700000000", "--windows", "1", "--timer-hz", "10", "--plot", p); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	svg := string(b)
	for _, want := range []string{"S = 1700000000 s, W = 1 s: first /clock after 0.520 s", "now() seen, from 1699999999 s", ">+0 s<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("plot lacks %q", want)
		}
	}
	if strings.Contains(svg, "e+09") {
		t.Error("an exponent in the labels")
	}
}
