package lint

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Whether code can run on sim time at all. The linter cannot know how a
// node is launched, but a tree that never mentions use_sim_time (a
// hardware driver linted alone) has no sim-time path: its now() is the
// system time, never 0, and a window below it (R27) never goes negative.
// So R27 fails a run only with evidence that the code may run on sim time:
// a launch, parameter or shell file of the run mentions use_sim_time (a
// system's launch tree sets it for every node, as autoware's global
// parameters do), or a file of the code's own package does (its node
// declares or reads it, its launch or parameter files set it), whether
// linted or not: a file linted alone (pre-commit passes files one by one)
// is judged by its package on disk. Without it, R27 is reported at info.

// simTimeMarker is what a file mentions when it sets or reads sim time.
var simTimeMarker = []byte("use_sim_time")

// launchesSimTime reports whether any launch, parameter or shell file among
// srcs mentions use_sim_time. Those files are small; they are read here
// once more than the analysis reads them.
func launchesSimTime(srcs []source) bool {
	for _, s := range srcs {
		if !isLaunchOrParams(s.path) {
			continue
		}
		src := s.src
		if src == nil {
			if info, err := os.Stat(s.path); err != nil || !info.Mode().IsRegular() || info.Size() > MaxFileSize {
				continue
			}
			b, err := os.ReadFile(s.path)
			if err != nil {
				continue // load reports it
			}
			src = b
		}
		if bytes.Contains(src, simTimeMarker) {
			return true
		}
	}
	return false
}

// isLaunchOrParams reports whether a linted file configures how nodes run:
// YAML parameters, XML launch files, shell scripts, and Python launch files
// (*.launch.py, or a .py file in a launch directory).
func isLaunchOrParams(path string) bool {
	switch langOf(path) {
	case langYAML, langXML, langShell:
		return true
	case langPython:
		slash := filepath.ToSlash(path)
		return strings.HasSuffix(strings.ToLower(slash), "launch.py") || strings.Contains(slash, "/launch/")
	}
	return false
}

// mentionsSimTime reports whether any of a package's files mentions
// use_sim_time.
func mentionsSimTime(units []*unit) bool {
	for _, u := range units {
		if bytes.Contains(u.src, simTimeMarker) {
			return true
		}
	}
	return false
}

// diagnosticOnly reports whether f runs only as a diagnostic_updater task,
// or only from such tasks: a C++ function taking a DiagnosticStatusWrapper,
// a Python method handed to an updater's add(), a lambda inside one, or a
// method of the class that only such functions call. The updater's timer
// runs on the node's clock and ticks first at its period (1 s by default),
// so under sim time a task never runs at now == 0.
func (c *checker) diagnosticOnly(f *fn) bool {
	return c.diagnosticOnlyFrom(f, map[*fn]bool{})
}

func (c *checker) diagnosticOnlyFrom(f *fn, seen map[*fn]bool) bool {
	for g := f; g != nil; g = g.outer {
		if c.isDiagnosticTask(g) {
			return true
		}
	}
	if f.cls == nil || f.outer != nil || f.ctor || f.name == "" || seen[f] {
		return false
	}
	seen[f] = true
	refs := 0
	for _, g := range f.cls.fns {
		if g == f {
			continue
		}
		referred := false
		eachStmt(g.body, func(s *stmt) {
			for _, e := range []*expr{s.e, s.value} {
				walkExpr(e, func(x *expr) {
					if c.refersTo(x, f) {
						referred = true
					}
				})
			}
		})
		if !referred {
			continue
		}
		refs++
		if !c.diagnosticOnlyFrom(g, seen) {
			return false
		}
	}
	return refs > 0
}

// isDiagnosticTask reports whether f itself is a diagnostic_updater task.
func (c *checker) isDiagnosticTask(f *fn) bool {
	for _, t := range f.params {
		if strings.Contains(t, "DiagnosticStatusWrapper") {
			return true
		}
	}
	if f.u.lang != langPython || f.cls == nil || f.name == "" {
		return false
	}
	// updater.add('name', self.check), self.diag_updater.add(...)
	found := false
	for _, g := range f.cls.fns {
		eachStmt(g.body, func(s *stmt) {
			for _, e := range []*expr{s.e, s.value} {
				walkExpr(e, func(call *expr) {
					if found || call.kind != eCall || call.recv == nil || call.recv.kind != eAttr || call.recv.name != "add" {
						return
					}
					recv := strings.ToLower(c.d.path(call.recv.recv, g))
					if !strings.Contains(recv, "updater") && !strings.Contains(recv, "diag") {
						return
					}
					for _, a := range call.args {
						if c.refersTo(a, f) {
							found = true
						}
					}
				})
			}
		})
	}
	return found
}

// Bounds of the package scan: a ROS package's launch, parameter and
// source files are few and small; a vendored tree is cut short.
const (
	pkgScanFiles = 4000
	pkgScanBytes = 1 << 20
)

// packageMentionsSimTime reports whether any source, launch or parameter
// file under root, a package root holding package.xml, mentions
// use_sim_time. Hidden directories are skipped, as the linter skips them.
func packageMentionsSimTime(root string) bool {
	if root == "" || !fileExists(filepath.Join(root, "package.xml")) {
		return false
	}
	found, files := false, 0
	_ = filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		switch {
		case found || files >= pkgScanFiles:
			return filepath.SkipAll
		case err != nil:
			return nil // unreadable: no evidence
		}
		if e.IsDir() {
			if path != root && strings.HasPrefix(e.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if l := langOf(path); l == langNone || !e.Type().IsRegular() {
			return nil
		}
		files++
		if info, err := e.Info(); err != nil || info.Size() > pkgScanBytes {
			return nil
		}
		if b, err := os.ReadFile(path); err == nil && bytes.Contains(b, simTimeMarker) {
			found = true
		}
		return nil
	})
	return found
}
