//go:build cgo

package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzSource feeds arbitrary text to both front ends: the linter must not
// panic, positions must lie inside the file, and every fix must apply.
func FuzzSource(f *testing.F) {
	paths, _ := filepath.Glob("testdata/corpus/*.txtar")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range parseArchive(data).files {
			if l := langOf(file.name); l == langPython || l == langCPP {
				f.Add(l == langPython, file.data)
			}
		}
	}
	f.Add(true, []byte("x = (now - Duration(seconds=1)"))
	f.Add(false, []byte("class A : rclcpp::Node { A() : prev_(now() { x = now() - 1s; } };"))
	// A guard helper that calls itself: helperLevel must not recurse forever.
	f.Add(true, []byte("def f(now, w):\n    return f(now, w)\nclass A:\n    def g(self):\n        now = self.get_clock().now()\n        if not f(now, self.w):\n            return\n        return now - Duration(seconds=1)\n"))
	f.Fuzz(func(t *testing.T, python bool, src []byte) {
		name := "f.cpp"
		if python {
			name = "f.py"
		}
		res, err := Source(name, src, Config{})
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Count(string(src), "\n") + 1
		var edits []Edit
		for _, fd := range res.Findings {
			if fd.Line < 1 || fd.Line > lines || fd.Col < 1 || fd.EndLine < fd.Line {
				t.Fatalf("bad position %d:%d-%d:%d in %d lines", fd.Line, fd.Col, fd.EndLine, fd.EndCol, lines)
			}
			if fd.Message == "" || fd.Why == "" || fd.Fix == "" {
				t.Fatalf("finding without text: %+v", fd)
			}
			edits = append(edits, fd.Edits...)
		}
		fixed, err := ApplyEdits(src, edits)
		if err != nil {
			t.Fatalf("fixes do not apply: %v", err)
		}
		// R16 must never rename a declaration into declare_parameter of
		// use_sim_time (rclpy and rclcpp declare it themselves).
		for _, decl := range []string{"declare_parameter('use_sim_time'", `declare_parameter("use_sim_time"`} {
			if strings.Count(string(fixed), decl) > strings.Count(string(src), decl) {
				t.Fatalf("a fix declares use_sim_time:\n%s", fixed)
			}
		}
	})
}

// configKinds are the file names FuzzConfig lints its input as.
var configKinds = []string{"f.yaml", "f.launch.xml", "f.sh", "f.launch.yaml"}

// FuzzConfig does the same for YAML parameter and launch files, XML launch
// files and shell scripts: no panic, positions inside the file, fixes that
// apply, parse errors with a line inside the file, and no fix that writes
// a use_sim_time declaration.
func FuzzConfig(f *testing.F) {
	f.Add(uint8(0), []byte("a:\n  ros__parameters:\n    use_simtime: true # simclock: ignore\n"))
	f.Add(uint8(0), []byte("- {\"use_simulated_time\": 1}\n---\nb: [use_simtime]\n"))
	f.Add(uint8(1), []byte(`<launch><param name="use_simtime" value="1"/><!-- c --></launch>`))
	f.Add(uint8(1), []byte(`<node args="--ros-args -p use_sim_tme:=true -p x:=" ros_args='-p :='/>`))
	f.Add(uint8(2), []byte("ros2 param set /n use_sim_tim true\n: \"${USE_SIM_TIME:=1}\" # x:=1\nros2 run a b --ros-args -p 'useSimTime:=1'\n"))
	f.Add(uint8(3), []byte("launch:\n- node:\n    param:\n    - {name: use_sim_tme, value: true}\n    ros_args: \"-p use-sim-time:=1\"\n"))
	paths, _ := filepath.Glob("testdata/corpus/*.txtar")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range parseArchive(data).files {
			for i, k := range configKinds {
				if langOf(file.name) == langOf(k) {
					f.Add(uint8(i), file.data)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, kind uint8, src []byte) {
		name := configKinds[int(kind)%len(configKinds)]
		res, err := Source(name, src, Config{})
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Count(string(src), "\n") + 1
		var edits []Edit
		for _, fd := range res.Findings {
			if fd.Line < 1 || fd.Col < 1 || fd.Line > lines {
				t.Fatalf("bad position %+v", fd)
			}
			edits = append(edits, fd.Edits...)
		}
		for _, pe := range res.ParseErrors {
			if pe.Line < 0 || pe.Line > lines || pe.File != name {
				t.Fatalf("bad parse error %+v in %d lines", pe, lines)
			}
		}
		if _, err := ApplyEdits(src, edits); err != nil {
			t.Fatalf("fixes do not apply: %v", err)
		}
	})
}

// FuzzSimTimeName checks the similarity measure behind R16: it never
// panics, the edit distance is a symmetric distance bounded by the longer
// string, and use_sim_time itself is never a misspelling.
func FuzzSimTimeName(f *testing.F) {
	for _, s := range []string{"use_sim_time", "use_sim_tme", "useSimTime", "USE_SIM_TIME", "use_simulated_time",
		"sim_time", "", "é_sim_time", "use-sim-time ", "UseSIMTime", "use__sim__time__"} {
		f.Add(s, "use_sim_time")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		d := editDistance(a, b)
		if d != editDistance(b, a) {
			t.Fatalf("editDistance(%q, %q) = %d, not symmetric", a, b, d)
		}
		if d < 0 || (len(a) <= 64 && len(b) <= 64 && d > max(len(a), len(b))) || (a == b && d != 0) {
			t.Fatalf("editDistance(%q, %q) = %d", a, b, d)
		}
		_ = misspeltSimTime(a)
		_ = splitWords(a)
		if misspeltSimTime(simTime) {
			t.Fatal("use_sim_time is a misspelling of itself")
		}
	})
}
