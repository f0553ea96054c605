package lint

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/simclock/simclock/rules"
)

// Config selects what a run checks.
type Config struct {
	// Rules lists the rules to report; empty means every rule.
	Rules []rules.ID
	// Workers bounds parallel parsing; 0 means GOMAXPROCS.
	Workers int
	// RosDistro is the ROS 2 distribution the code targets (see Distros):
	// what a negative time does in rclcpp depends on it. "" means
	// DefaultDistro.
	RosDistro string
}

// Result is the outcome of a run.
type Result struct {
	Findings []Finding
	// Files is the number of source files analysed.
	Files int
	// ParseErrors lists files that tree-sitter could only partly parse; they
	// are still analysed, so their findings may be incomplete.
	ParseErrors []string
}

// Failed reports whether any finding is a warning or an error that has not
// been fixed. Info findings alone do not fail a run.
func (r *Result) Failed() bool {
	for _, f := range r.Findings {
		if f.Severity.Fails() && !f.Fixed {
			return true
		}
	}
	return false
}

// source is one file to analyse.
type source struct {
	path string
	src  []byte
}

// skipDirs are directories a walk never enters: colcon output and VCS data.
var skipDirs = map[string]bool{"build": true, "install": true, "log": true, "node_modules": true, "__pycache__": true}

// Files lists the Python and C++ sources, YAML parameter files and XML
// launch files under paths, sorted. A path that names a file is taken
// whatever its extension (unknown extensions are read as Python).
func Files(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			out = append(out, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				name := d.Name()
				if path != p && (strings.HasPrefix(name, ".") || skipDirs[name]) {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() && langOf(path) != langNone {
				out = append(out, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// Run lints the Python and C++ files under paths. C++ classes are merged
// across the files of one run, so give a package's headers and sources
// together.
func Run(ctx context.Context, paths []string, cfg Config) (*Result, error) {
	if !haveParser {
		return nil, ErrNoParser
	}
	files, err := Files(paths)
	if err != nil {
		return nil, err
	}
	srcs := make([]source, len(files))
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		srcs[i] = source{f, b}
	}
	return analyze(ctx, srcs, cfg)
}

// Source lints one file's contents; name picks the language by extension
// and is used in findings.
func Source(name string, src []byte, cfg Config) (*Result, error) {
	if langOf(name) == langNone {
		return nil, fmt.Errorf("lint %s: not a Python, C++, YAML or XML launch file", name)
	}
	return analyze(context.Background(), []source{{name, src}}, cfg)
}

func analyze(ctx context.Context, srcs []source, cfg Config) (*Result, error) {
	if !haveParser {
		return nil, ErrNoParser
	}
	distro, err := ParseDistro(cfg.RosDistro)
	if err != nil {
		return nil, err
	}
	enabled := map[rules.ID]bool{}
	ids := cfg.Rules
	if len(ids) == 0 {
		for _, r := range Rules {
			ids = append(ids, r.ID)
		}
	}
	for _, id := range ids {
		r, ok := RuleByID(id)
		if !ok {
			return nil, fmt.Errorf("%w %q", ErrUnknownRule, id.String())
		}
		enabled[r.ID] = true
	}
	units := make([]*unit, len(srcs))
	errs := make([]error, len(srcs))
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(workers, max(len(srcs), 1)) {
		wg.Go(func() {
			for i := range next {
				s := srcs[i]
				l := langOf(s.path)
				if l == langNone {
					l = langPython
				}
				if l == langYAML || l == langXML {
					units[i] = &unit{path: s.path, lang: l, src: s.src}
					continue
				}
				in := s.src
				if l == langCPP {
					in = blankVisibilityMacros(in)
				}
				root, hasErr, err := parse(l, in)
				if err != nil {
					errs[i] = fmt.Errorf("lint %s: %w", s.path, err)
					continue
				}
				units[i] = &unit{path: s.path, lang: l, src: s.src, root: root, hasErr: hasErr}
			}
		})
	}
feed:
	for i := range srcs {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	// Lower in file order, so C++ classes merge deterministically.
	ct := &classTable{byName: map[string]*class{}, roots: map[string]string{}}
	var classes []*class
	res := &Result{Files: len(units)}
	for _, u := range units {
		switch u.lang {
		case langPython:
			collectComments(u)
			lowerPython(u)
		case langCPP:
			collectComments(u)
			ct.scope = ct.packageRoot(filepath.Dir(u.path))
			lowerCPP(u, ct)
		case langYAML, langXML:
			if err := lowerConfig(u); err != nil {
				// A file that is not valid YAML/XML is reported like a C++
				// file tree-sitter could only partly parse.
				res.ParseErrors = append(res.ParseErrors, u.path)
			}
		}
		bindUnit(u)
		u.root = nil // the tree is no longer needed; let it go
		if u.lang == langPython {
			classes = append(classes, u.classes...)
		}
		if u.hasErr {
			res.ParseErrors = append(res.ParseErrors, u.path)
		}
	}
	classes = append(classes, ct.order...)
	for _, u := range units {
		for _, f := range u.fns {
			if f.cls != nil {
				f.cls.fns = append(f.cls.fns, f)
			}
		}
	}
	d := newDataflow(units, classes)
	d.solve()
	c := &checker{d: d, enabled: enabled, distro: distro, ifConds: map[*fn][]*expr{}, pairs: map[pairKey]map[string]bool{},
		seen: map[seenKey]bool{}, comparedOnly: map[*expr]bool{}}
	c.guardPass(units)
	d.solve()
	for _, u := range units {
		before := len(c.findings)
		c.check(u)
		c.findings = append(c.findings[:before], u.unsuppressed(c.findings[before:])...)
	}
	res.Findings = c.findings
	sortFindings(res.Findings)
	return res, nil
}

// classTable merges C++ classes by name across the files of one package in
// a run, so a method defined in src/x.cpp sees the members declared in
// include/pkg/x.hpp.
type classTable struct {
	byName map[string]*class
	order  []*class          // every class, in creation order
	roots  map[string]string // directory -> package root, cached
	scope  string            // package root of the file being lowered
}

func (t *classTable) get(name string) *class {
	key := t.scope + "\x00" + name
	c := t.byName[key]
	if c == nil {
		c = &class{name: name, fields: map[string]*field{}}
		t.byName[key] = c
		t.order = append(t.order, c)
	}
	return c
}

// packageRoot returns the nearest directory at or above dir holding a
// package.xml (a ROS 2 package), or dir itself when there is none.
func (t *classTable) packageRoot(dir string) string {
	if r, ok := t.roots[dir]; ok {
		return r
	}
	root := dir
	if _, err := os.Stat(filepath.Join(dir, "package.xml")); err != nil {
		if parent := filepath.Dir(dir); parent != dir {
			if r := t.packageRoot(parent); r != parent || fileExists(filepath.Join(parent, "package.xml")) {
				root = r
			}
		}
	}
	t.roots[dir] = root
	return root
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// collectComments records every comment node of u, wherever the grammar
// attaches it, for suppression.
func collectComments(u *unit) {
	var walk func(n *node)
	walk = func(n *node) {
		if n.kind == "comment" {
			u.comments = append(u.comments, n)
		}
		for _, c := range n.children {
			walk(c)
		}
	}
	walk(u.root)
}

// Fix applies the edits of findings to their files on disk and marks them
// Fixed. It returns the number of findings fixed.
func Fix(res *Result) (int, error) {
	byFile := map[string][]int{}
	for i, f := range res.Findings {
		if len(f.Edits) > 0 {
			byFile[f.File] = append(byFile[f.File], i)
		}
	}
	names := make([]string, 0, len(byFile))
	for name := range byFile {
		names = append(names, name)
	}
	slices.Sort(names)
	n := 0
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			return n, err
		}
		var edits []Edit
		for _, i := range byFile[name] {
			edits = append(edits, res.Findings[i].Edits...)
		}
		out, err := ApplyEdits(src, edits)
		if err != nil {
			return n, fmt.Errorf("fix %s: %w", name, err)
		}
		info, err := os.Stat(name)
		if err != nil {
			return n, err
		}
		if err := os.WriteFile(name, out, info.Mode().Perm()); err != nil {
			return n, err
		}
		for _, i := range byFile[name] {
			res.Findings[i].Fixed = true
			n++
		}
	}
	return n, nil
}

// finding builds a Finding at node n.
func (u *unit) finding(n *node, r Rule, msg, why, fix string, edits []Edit) Finding {
	f := Finding{File: u.path, Rule: r.ID, Severity: r.Severity, Message: msg, Why: why, Fix: fix, Edits: edits}
	if n != nil {
		f.Line, f.Col = u.position(n.start)
		f.EndLine, f.EndCol = u.position(n.end)
	}
	return f
}

// position converts a byte offset to a 1-based line and code-point column.
func (u *unit) position(off int) (line, col int) {
	off = min(off, len(u.src))
	line = 1 + bytes.Count(u.src[:off], []byte{'\n'})
	start := bytes.LastIndexByte(u.src[:off], '\n') + 1
	return line, 1 + utf8.RuneCount(u.src[start:off])
}

// unsuppressed drops findings silenced by a "simclock: ignore" comment on
// the same line, or alone on the line before.
func (u *unit) unsuppressed(fs []Finding) []Finding {
	if len(fs) == 0 {
		return fs
	}
	type sup struct {
		all   bool
		rules map[rules.ID]bool
	}
	byLine := map[int]*sup{}
	for _, c := range u.comments {
		text := u.text(c)
		i := strings.Index(text, "simclock:")
		if i < 0 {
			continue
		}
		rest := strings.TrimSpace(text[i+len("simclock:"):])
		rest, ok := strings.CutPrefix(rest, "ignore")
		if !ok {
			continue
		}
		s := &sup{rules: map[rules.ID]bool{}}
		if inner, ok := strings.CutPrefix(rest, "["); ok {
			if j := strings.IndexByte(inner, ']'); j >= 0 {
				for id := range strings.SplitSeq(inner[:j], ",") {
					if id, err := rules.Parse(id); err == nil {
						s.rules[id] = true
					}
				}
			}
		} else {
			s.all = true
		}
		line, _ := u.position(c.start)
		byLine[line] = s
		// A comment alone on its line covers the next line too.
		start := bytes.LastIndexByte(u.src[:c.start], '\n') + 1
		if len(bytes.TrimSpace(u.src[start:c.start])) == 0 {
			if _, taken := byLine[line+1]; !taken {
				byLine[line+1] = s
			}
		}
	}
	out := fs[:0]
	for _, f := range fs {
		if s := byLine[f.Line]; s != nil && (s.all || s.rules[f.Rule]) {
			continue
		}
		out = append(out, f)
	}
	return out
}
