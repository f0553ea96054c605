package simclock_test

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// The architecture, tested: which packages may import what. The rules
// follow the layout in the README.
func TestArchitecture(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	cmd := exec.Command("go", "list", "-json", "./...")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	type pkg struct {
		ImportPath string
		Imports    []string
		Deps       []string
		CgoFiles   []string
		Standard   bool
	}
	var pkgs []pkg
	dec := json.NewDecoder(out)
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	isStd := func(path string) bool {
		return !strings.Contains(strings.Split(path, "/")[0], ".") && !strings.HasPrefix(path, "simclock")
	}
	for _, p := range pkgs {
		switch p.ImportPath {
		case "github.com/simclock/simclock", "github.com/simclock/simclock/cdr", "github.com/simclock/simclock/transport",
			"github.com/simclock/simclock/internal/units":
			// The core and the leaf packages import only the standard library.
			for _, imp := range p.Deps {
				if !isStd(imp) {
					t.Errorf("%s depends on %s; it may use only the standard library", p.ImportPath, imp)
				}
			}
		}
		if p.ImportPath == "github.com/simclock/simclock/graph" {
			// The graph view is values and rules: a transport feeds it.
			for _, imp := range p.Deps {
				if !isStd(imp) && imp != "github.com/simclock/simclock/cdr" && imp != "github.com/simclock/simclock/transport" {
					t.Errorf("graph depends on %s; it may use only the standard library, cdr and transport's QoS kinds", imp)
				}
			}
		}
		for _, imp := range p.Imports {
			if imp == "github.com/simclock/simclock/transport/dds" && !strings.HasPrefix(p.ImportPath, "github.com/simclock/simclock/internal/cli") && !strings.HasPrefix(p.ImportPath, "github.com/simclock/simclock/transport/dds") {
				t.Errorf("%s imports the dds transport; only the CLI wires it in", p.ImportPath)
			}
			if strings.HasPrefix(imp, "github.com/foxglove/mcap") && p.ImportPath != "github.com/simclock/simclock/bag" && p.ImportPath != "github.com/simclock/simclock/ros2msg" {
				t.Errorf("%s imports mcap; only bag and ros2msg may", p.ImportPath)
			}
			if strings.HasPrefix(imp, "modernc.org/sqlite") && p.ImportPath != "github.com/simclock/simclock/bag" {
				t.Errorf("%s imports modernc.org/sqlite; only bag (its sqlite3 storage) may", p.ImportPath)
			}
			if strings.HasPrefix(imp, "github.com/tree-sitter") && !strings.HasPrefix(p.ImportPath, "github.com/simclock/simclock/lint") {
				t.Errorf("%s imports tree-sitter; only lint may", p.ImportPath)
			}
		}
		if len(p.CgoFiles) > 0 && p.ImportPath != "github.com/simclock/simclock/transport/dds/internal/ddsc" && !strings.HasPrefix(p.ImportPath, "github.com/simclock/simclock/lint") {
			t.Errorf("%s has cgo files %v; C stays in transport/dds/internal/ddsc (and lint's parser)", p.ImportPath, p.CgoFiles)
		}
		switch p.ImportPath {
		case "github.com/simclock/simclock/experiment", "github.com/simclock/simclock/node", "github.com/simclock/simclock/timesource", "github.com/simclock/simclock/executor", "github.com/simclock/simclock/timer", "github.com/simclock/simclock/guard",
			"github.com/simclock/simclock/clockstream":
			for _, imp := range p.Deps {
				if strings.HasPrefix(imp, "github.com/simclock/simclock/transport/dds") || strings.HasPrefix(imp, "github.com/simclock/simclock/internal/cli") {
					t.Errorf("%s depends on %s; the runtime never imports a real transport or the CLI", p.ImportPath, imp)
				}
			}
		}
	}
	// One /clock model: the analyser, the schedule and the player live in
	// clockstream, and the tools use it rather than a second copy.
	users := map[string]bool{}
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			if imp == "github.com/simclock/simclock/clockstream" {
				users[p.ImportPath] = true
			}
		}
	}
	for _, want := range []string{"github.com/simclock/simclock/internal/cli", "github.com/simclock/simclock/experiment"} {
		if !users[want] {
			t.Errorf("%s does not use clockstream: a second /clock producer or analyser?", want)
		}
	}
	if len(pkgs) < 10 {
		t.Errorf("go list found only %d packages", len(pkgs))
	}
}
