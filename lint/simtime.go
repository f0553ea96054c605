package lint

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/simclock/simclock/rules"
)

// Whether code runs on sim time at all. The linter cannot know how a node
// is launched, but a package that never turns use_sim_time on (a hardware
// driver, a controller launched on wall time) has no sim-time path: its
// now() is the system time, never 0, so the hazards of a clock that starts
// at 0 (R26..R29) cannot happen in it. Round 4's evaluation found every
// false failing finding in such code, judged by other packages' launch
// files or by a "use_sim_time: false". So one notion, used by every
// sim-time-only rule: a package runs on sim time when one of its own files
// (its launch, parameter and shell files, its sources; the nearest
// package.xml marks the package, a nested package is another one) sets
// use_sim_time to true or to a launch argument or parameter, or reads it
// (a node that asks whether it runs on sim time). A mention in a comment,
// or one that sets it to false, is not evidence. A file outside any
// package is judged by the launch and parameter files linted with it that
// are outside any package too.
// Without evidence the rules report at info, saying why.

// simTimeMarker is the parameter's name.
var simTimeMarker = []byte("use_sim_time")

// noSimTime is what a finding without evidence of sim time says.
const noSimTime = "; info: nothing in its package turns use_sim_time on (to true or a launch argument), so it may never run on sim time"

// setsSimTime reports whether src, a file in language l, turns
// use_sim_time on: a mention outside a comment whose value is not false.
func setsSimTime(src []byte, l lang) bool {
	for at := 0; ; {
		i := bytes.Index(src[at:], simTimeMarker)
		if i < 0 {
			return false
		}
		i += at
		at = i + len(simTimeMarker)
		if i > 0 && isIdentByte(src[i-1]) || at < len(src) && isIdentByte(src[at]) {
			continue // use_sim_time_, kuse_sim_time: another name
		}
		if inComment(src, i, l) {
			continue
		}
		if simTimeValueOn(src[at:], l) {
			return true
		}
	}
}

// inComment reports whether offset i of src is inside a comment: after a
// '#' on its line (Python, YAML, shell), after "//" on its line or inside
// "/* */" (C++), inside "<!-- -->" (XML). Quotes on the line are
// respected for '#' and "//"; it is a heuristic, good for the mentions of
// one parameter name.
func inComment(src []byte, i int, l lang) bool {
	lineStart := bytes.LastIndexByte(src[:i], '\n') + 1
	line := src[lineStart:i]
	var quote byte
	for k := 0; k < len(line); k++ {
		b := line[k]
		switch {
		case quote != 0:
			if b == quote {
				quote = 0
			}
		case b == '"' || b == '\'':
			quote = b
		case b == '#' && (l == langPython || l == langYAML || l == langShell):
			return true
		case b == '/' && k+1 < len(line) && line[k+1] == '/' && l == langCPP:
			return true
		}
	}
	switch l {
	case langCPP:
		return bytes.LastIndex(src[:i], []byte("/*")) > bytes.LastIndex(src[:i], []byte("*/"))
	case langXML:
		return bytes.LastIndex(src[:i], []byte("<!--")) > bytes.LastIndex(src[:i], []byte("-->"))
	}
	return false
}

// simTimeValueOn reports whether the text after a use_sim_time mention
// leaves it on. "use_sim_time: x", "use_sim_time:=x", "'use_sim_time': x"
// and "use_sim_time = x" take x; otherwise (an argument list, an XML
// element, "param set n use_sim_time x") the first true or false literal
// of the rest of the statement decides, and none (a launch argument, a
// parameter read) counts as on.
func simTimeValueOn(rest []byte, l lang) bool {
	k := 0
	for k < len(rest) && (rest[k] == '"' || rest[k] == '\'' || rest[k] == ' ' || rest[k] == '\t') {
		k++
	}
	if k < len(rest) && (rest[k] == ':' || rest[k] == '=') {
		for k < len(rest) && strings.IndexByte(":= \t\"'", rest[k]) >= 0 {
			k++
		}
		j := k
		for j < len(rest) && (isIdentByte(rest[j]) || rest[j] == '$' || rest[j] == '(') {
			j++
		}
		switch strings.ToLower(string(rest[k:j])) {
		case "", "false", "0", "no", "off":
			return false // "use_sim_time:" opening a mapping is no value either
		}
		return true
	}
	end := min(len(rest), 200)
	stop := ")>;}]"
	if l == langYAML || l == langShell {
		stop += "\n"
	}
	if j := bytes.IndexAny(rest[:end], stop); j >= 0 {
		end = j
	}
	for _, w := range bytes.FieldsFunc(rest[:end], func(r rune) bool { return r > 127 || !isIdentByte(byte(r)) }) {
		switch strings.ToLower(string(w)) {
		case "false":
			return false
		case "true":
			return true
		}
	}
	return true
}

// launchesSimTime reports whether any launch, parameter or shell file among
// srcs that is itself outside any package turns use_sim_time on: the
// evidence for the files outside any package (a package's launch files
// speak for its own nodes only).
func launchesSimTime(srcs []source) bool {
	roots := pkgRoots{}
	for _, s := range srcs {
		if !isLaunchOrParams(s.path) || fileExists(filepath.Join(roots.of(filepath.Dir(s.path)), "package.xml")) {
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
		if setsSimTime(src, langOf(s.path)) {
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

// unitsSetSimTime reports whether any of a package's linted files turns
// use_sim_time on.
func unitsSetSimTime(units []*unit) bool {
	for _, u := range units {
		if setsSimTime(u.src, u.lang) {
			return true
		}
	}
	return false
}

// runsOnSimTime is the evidence for a group of files: its package's own
// files, linted or on disk; for files outside any package, the run's
// launch and parameter files.
func runsOnSimTime(root string, units []*unit, run bool) bool {
	if root == "" || !fileExists(filepath.Join(root, "package.xml")) {
		return run || unitsSetSimTime(units)
	}
	return unitsSetSimTime(units) || packageSetsSimTime(root)
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

// packageSetsSimTime reports whether any source, launch or parameter file
// of the package at root (holding package.xml) turns use_sim_time on.
// Hidden directories are skipped, as the linter skips them, and so are
// nested packages: their files are theirs.
func packageSetsSimTime(root string) bool {
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
			if path != root && (strings.HasPrefix(e.Name(), ".") || fileExists(filepath.Join(path, "package.xml"))) {
				return filepath.SkipDir
			}
			return nil
		}
		l := langOf(path)
		if l == langNone || !e.Type().IsRegular() {
			return nil
		}
		files++
		if info, err := e.Info(); err != nil || info.Size() > pkgScanBytes {
			return nil
		}
		if b, err := os.ReadFile(path); err == nil && setsSimTime(b, l) {
			found = true
		}
		return nil
	})
	return found
}

// reportSimTimeOnly reports a hazard that exists only on sim time: as its rule
// says when the package runs on sim time, at info with the reason when
// nothing in it turns use_sim_time on.
func (c *checker) reportSimTimeOnly(u *unit, e *expr, rule rules.ID, msg, why, fix string, edits []Edit) *Finding {
	if c.simTime {
		return c.report(u, e, rule, msg, why, fix, edits)
	}
	fd := c.report(u, e, rule, msg+noSimTime, why, fix, edits)
	if fd != nil {
		fd.Severity = rules.Info
	}
	return fd
}
