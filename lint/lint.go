package lint

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
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
	// Exclude lists what not to lint below each path: a file or directory
	// a pattern matches is skipped (a path named itself is always linted).
	Exclude []Pattern
	// Ignore lists rules not to report in the files a pattern covers (a
	// config file's per_file_ignores).
	Ignore []PathRules
	// Strict reports suppression comments that name no rule or silence no
	// finding as warnings instead of info.
	Strict bool
}

// PathRules are rules not reported in the files a pattern covers.
type PathRules struct {
	Pattern Pattern
	Rules   []rules.ID
}

// Result is the outcome of a run.
type Result struct {
	Findings []Finding
	// Files is the number of source files analysed, Checked their paths.
	Files   int
	Checked []string
	// ParseErrors lists the files that did not parse cleanly, by path.
	ParseErrors []ParseError
	// Skipped lists the paths that were not linted: what could not be read
	// (see Unreadable), and paths named that hold no source code.
	Skipped []Skip
}

// ParseError is a file that did not parse cleanly.
type ParseError struct {
	File string `json:"file"`
	// Line is where the first error is, 1-based; 0 when unknown.
	Line    int    `json:"line"`
	Message string `json:"message"`
	// Recovered is set when the parser recovered and the file was analysed
	// around the error (tree-sitter, typically at an unexpanded macro).
	// Otherwise nothing after the error was analysed (a YAML or XML file
	// that is not well formed).
	Recovered bool `json:"recovered"`
	// SyntaxError is set when the file is not valid code: a Python file
	// the parser rejects (mid-edit, Python 2, not Python). C++ that
	// tree-sitter cannot fully parse is usually valid code it cannot
	// expand (a macro) and is not marked.
	SyntaxError bool `json:"syntax_error"`
}

// Failures returns the parse errors that were not recovered from: files
// the linter could not analyse past some point.
func (r *Result) Failures() []ParseError {
	var out []ParseError
	for _, p := range r.ParseErrors {
		if !p.Recovered {
			out = append(out, p)
		}
	}
	return out
}

// SyntaxErrors returns the files that are not valid code (ParseError's
// SyntaxError).
func (r *Result) SyntaxErrors() []ParseError {
	var out []ParseError
	for _, p := range r.ParseErrors {
		if p.SyntaxError {
			out = append(out, p)
		}
	}
	return out
}

// Failed reports whether any finding that has not been fixed fails the
// run under failOn (by default a warning or an error; info findings alone
// do not fail a run).
func (r *Result) Failed(failOn rules.FailOn) bool {
	for _, f := range r.Findings {
		if failOn.Fails(f.Severity) && !f.Fixed {
			return true
		}
	}
	return false
}

// source is one file to analyse.
type source struct {
	path string
	src  []byte
	// size is the file's size when stat says it (stat, for src nil):
	// groupSources stats each file once, for scheduling, and load reads
	// the size from here.
	size int64
	stat bool
}

// Run lints the files under paths (see Files). C++ classes are merged
// across the files of one package (the nearest directory with a
// package.xml), so give a package's headers and sources together.
//
// Files are read and parsed by a pool of Config.Workers goroutines, one
// job per file, package after package; the worker that parses a package's
// last file analyses the package, and its trees are released. Memory grows
// with the largest packages in flight, not with the run.
func Run(ctx context.Context, paths []string, cfg Config) (*Result, error) {
	if !haveParser {
		return nil, ErrNoParser
	}
	files, skipped, err := walk(paths, cfg.Exclude)
	if err != nil {
		return nil, err
	}
	srcs := make([]source, len(files))
	for i, f := range files {
		srcs[i] = source{path: f}
	}
	res, err := analyze(ctx, srcs, cfg)
	if err != nil {
		return nil, err
	}
	res.Skipped = append(skipped, res.Skipped...)
	slices.SortStableFunc(res.Skipped, func(a, b Skip) int { return cmp.Compare(a.File, b.File) })
	return res, nil
}

// Source lints one file's contents (standard input, an editor's buffer);
// name picks the language by extension, as for a file named on the command
// line (an unknown one is read as Python), and is used in findings.
func Source(name string, src []byte, cfg Config) (*Result, error) {
	if src == nil {
		src = []byte{}
	}
	return analyze(context.Background(), []source{{path: name, src: src}}, cfg)
}

// MaxFileSize bounds the files Run reads: a larger file (generated tables,
// amalgamated sources) is reported as not parsed instead of holding its
// whole syntax tree in memory. Hand-written ROS 2 code is far smaller: the
// largest file in 29 public repositories is 705 kB, a sine table.
const MaxFileSize = 8 << 20

// run holds what every group of a run shares.
type run struct {
	enabled map[rules.ID]bool
	distro  string
	ignore  []PathRules
	strict  bool
	simTime bool // a launch or parameter file of the run turns use_sim_time on (simtime.go)
}

func analyze(ctx context.Context, srcs []source, cfg Config) (*Result, error) {
	if !haveParser {
		return nil, ErrNoParser
	}
	distro, err := ParseDistro(cfg.RosDistro)
	if err != nil {
		return nil, err
	}
	r := &run{enabled: map[rules.ID]bool{}, distro: distro, ignore: cfg.Ignore, strict: cfg.Strict, simTime: launchesSimTime(srcs)}
	ids := cfg.Rules
	if len(ids) == 0 {
		for _, rule := range Rules {
			ids = append(ids, rule.ID)
		}
	}
	for _, id := range ids {
		rule, ok := RuleByID(id)
		if !ok {
			return nil, fmt.Errorf("%w \"%s\"", ErrUnknownRule, id.String())
		}
		r.enabled[rule.ID] = true
	}
	groups := groupSources(srcs)
	// Largest groups first, so that no worker is left with a big package
	// at the end while the others idle.
	order := make([]int, len(groups))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(groups[b].size, groups[a].size) })
	// Files are read and parsed in parallel, one job per file, so that a
	// package much larger than the others (rclcpp, moveit_core) does not
	// leave the other workers idle; the worker that parses a group's last
	// file then analyses the group. Jobs go out group by group, so only
	// about one group per worker is in memory at a time.
	states := make([]groupState, len(groups))
	for i := range states {
		states[i].units = make([]*unit, len(groups[i].srcs))
		states[i].errs = make([]fileError, len(groups[i].srcs))
		states[i].pending.Store(int32(len(groups[i].srcs)))
	}
	results := make([]groupResult, len(groups))
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	next := make(chan fileJob)
	for range min(workers, max(len(srcs), 1)) {
		wg.Go(func() {
			ps := newParserSet()
			defer ps.close()
			for j := range next {
				st := &states[j.group]
				st.units[j.file], st.errs[j.file] = r.load(groups[j.group].srcs[j.file], ps)
				if st.pending.Add(-1) == 0 {
					results[j.group] = r.group(groups[j.group], st.units, st.errs)
					*st = groupState{} // let the trees go
				}
			}
		})
	}
feed:
	for _, g := range order {
		for i := range groups[g].srcs {
			select {
			case next <- fileJob{g, i}:
			case <-ctx.Done():
				break feed
			}
		}
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := &Result{Files: len(srcs)}
	for _, g := range results {
		if g.err != nil {
			return nil, g.err
		}
		res.Findings = append(res.Findings, g.findings...)
		res.ParseErrors = append(res.ParseErrors, g.parseErrors...)
		res.Skipped = append(res.Skipped, g.skipped...)
	}
	skipped := map[string]bool{}
	for _, sk := range res.Skipped {
		skipped[sk.File] = true
	}
	for _, src := range srcs {
		if !skipped[src.path] {
			res.Checked = append(res.Checked, src.path)
		}
	}
	slices.Sort(res.Checked)
	res.Files = len(res.Checked)
	sortFindings(res.Findings)
	slices.SortFunc(res.ParseErrors, func(a, b ParseError) int { return cmp.Compare(a.File, b.File) })
	return res, nil
}

// group is files analysed together: the C++ and Python files of one package
// (C++ classes merge across headers and sources, and a class is seen being
// built by another file's constructor), or any other file alone.
type group struct {
	root string   // the package root of C++ files
	srcs []source // in path order
	size int64    // bytes, for scheduling
}

// groupResult is what analysing a group produced.
type groupResult struct {
	findings    []Finding
	parseErrors []ParseError
	skipped     []Skip
	err         error
}

// groupSources splits srcs into groups, in the order of their first file.
func groupSources(srcs []source) []group {
	var groups []group
	byRoot := map[string]int{}
	roots := pkgRoots{}
	for _, s := range srcs {
		size := int64(len(s.src))
		if s.src == nil {
			if info, err := os.Stat(s.path); err == nil {
				size = info.Size()
				s.size, s.stat = size, true
			}
		}
		if l := langOf(s.path); l != langCPP && l != langPython {
			groups = append(groups, group{srcs: []source{s}, size: size})
			continue
		}
		root := roots.of(filepath.Dir(s.path))
		i, ok := byRoot[root]
		if !ok {
			i = len(groups)
			byRoot[root] = i
			groups = append(groups, group{root: root})
		}
		groups[i].srcs = append(groups[i].srcs, s)
		groups[i].size += size
	}
	return groups
}

// fileJob names one file of one group.
type fileJob struct{ group, file int }

// groupState holds a group's parsed files until the last one is in.
type groupState struct {
	units   []*unit
	errs    []fileError
	pending atomic.Int32
}

// fileError is what loading a file can go wrong with: a parse error to
// report, a file not linted (unreadable, or binary), or an error that
// ends the run.
type fileError struct {
	parse *ParseError
	skip  *Skip
	err   error
}

// load reads and parses one file. It returns a nil unit for a file that
// is not analysed (too large, or an error).
func (r *run) load(s source, ps *parserSet) (*unit, fileError) {
	src := s.src
	if src == nil {
		if !s.stat {
			if info, err := os.Stat(s.path); err == nil {
				s.size, s.stat = info.Size(), true
			}
		}
		if s.stat && s.size > MaxFileSize {
			return nil, fileError{parse: &ParseError{File: s.path,
				Message: fmt.Sprintf("%d bytes, larger than %d: not analysed (generated code?)", s.size, MaxFileSize)}}
		}
		b, err := os.ReadFile(s.path)
		if err != nil {
			return nil, fileError{skip: &Skip{File: s.path, Reason: "could not read: " + reason(err), Unreadable: true}}
		}
		src = b
	}
	l := langOf(s.path)
	if l == langNone {
		// A file named on the command line whatever its extension: read
		// as Python, unless it is not text at all (a recording).
		if binary(src) {
			skip := binarySkip(s.path)
			return nil, fileError{skip: &skip}
		}
		l = langPython
	}
	u := &unit{path: s.path, lang: l, src: src, disk: s.src == nil}
	if l != langPython && l != langCPP {
		return u, fileError{}
	}
	in := src
	if l == langCPP {
		in = blankVisibilityMacros(in)
	}
	root, errAt, err := ps.parse(l, in)
	if err != nil {
		return nil, fileError{err: fmt.Errorf("lint %s: %w", s.path, err)}
	}
	u.root = root
	if errAt >= 0 {
		line, _ := u.position(errAt)
		// What usually breaks the parse differs: in C++ a macro the
		// parser cannot expand; in Python a file mid-edit, one that is
		// not Python (no extension is read as Python), or Python 2 the
		// grammar does not take (most of it, print statements included,
		// it does).
		if l == langPython {
			return u, fileError{parse: &ParseError{File: s.path, Line: line, SyntaxError: true, Recovered: true,
				Message: "syntax error (a file mid-edit, Python 2, or not Python); analysed around it"}}
		}
		return u, fileError{parse: &ParseError{File: s.path, Line: line, Recovered: true,
			Message: "code the parser does not know (usually a macro it cannot expand); analysed around it"}}
	}
	return u, fileError{}
}

// group analyses the loaded files of g (loaded[i] is g.srcs[i], nil when
// it was not loaded). Nothing of it outlives the call but the findings.
func (r *run) group(g group, loaded []*unit, errs []fileError) (out groupResult) {
	units := make([]*unit, 0, len(loaded))
	for i, u := range loaded {
		if e := errs[i]; e.err != nil {
			out.err = e.err
			return out
		} else if e.parse != nil {
			out.parseErrors = append(out.parseErrors, *e.parse)
		} else if e.skip != nil {
			out.skipped = append(out.skipped, *e.skip)
		}
		if u != nil {
			units = append(units, u)
		}
	}
	// Lower in file order, so C++ classes merge deterministically.
	ct := &classTable{byName: map[string]*class{}, scope: g.root}
	var classes []*class
	for _, u := range units {
		switch u.lang {
		case langPython:
			collectComments(u)
			lowerPython(u)
		case langCPP:
			collectComments(u)
			lowerCPP(u, ct)
		case langYAML, langXML, langShell:
			if err := lowerConfig(u); err != nil {
				out.parseErrors = append(out.parseErrors, configParseError(u, err))
			}
		}
		bindUnit(u)
		u.root = nil // the tree is no longer needed; let it go
		if u.lang == langPython {
			classes = append(classes, u.classes...)
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
	c := &checker{d: d, enabled: r.enabled, distro: r.distro, simTime: runsOnSimTime(g.root, units, r.simTime), root: g.root,
		ifConds: map[*fn][]*expr{}, pairs: map[pairKey]map[string]bool{},
		seen: map[seenKey]bool{}, comparedOnly: map[*expr]bool{}}
	c.guardPass(units)
	d.solve()
	unclean := map[string]bool{}
	for _, p := range out.parseErrors {
		unclean[p.File] = true
	}
	for _, u := range units {
		before := len(c.findings)
		c.check(u)
		enabled := r.enabledIn(u.path)
		kept := c.findings[before:]
		kept = slices.DeleteFunc(kept, func(f Finding) bool { return !enabled(f.Rule()) })
		c.findings = append(c.findings[:before], u.suppress(kept, enabled, !unclean[u.path], r.strict)...)
	}
	out.findings = c.findings
	return out
}

// classTable merges C++ classes by name across the files of one package in
// a run, so a method defined in src/x.cpp sees the members declared in
// include/pkg/x.hpp. A class defined in a source file is that file's own
// (local): two executables each defining a Controller, or a copy kept in
// deprecated/, do not share member facts.
type classTable struct {
	byName map[string]*class
	order  []*class // every class, in creation order
	scope  string   // package root of the files being lowered
}

func (t *classTable) get(name string) *class {
	return t.keyed(t.scope+"\x00"+name, name)
}

// local is the class name defined in the source file path.
func (t *classTable) local(path, name string) *class {
	return t.keyed(t.localKey(path, name), name)
}

// localKey is the key of the class name defined in the source file path.
func (t *classTable) localKey(path, name string) string {
	return t.scope + "\x00" + path + "\x00" + name
}

// of is the class a method X::m defined in path belongs to: the file's own
// X when the file defines one (above the method, as C++ requires), else
// the package's.
func (t *classTable) of(path, name string) *class {
	if c := t.byName[t.localKey(path, name)]; c != nil {
		return c
	}
	return t.get(name)
}

func (t *classTable) keyed(key, name string) *class {
	c := t.byName[key]
	if c == nil {
		c = &class{name: name, lang: langCPP, fields: map[string]*field{}}
		t.byName[key] = c
		t.order = append(t.order, c)
	}
	return c
}

// pkgRoots caches the package root of directories.
type pkgRoots map[string]string

// of returns the nearest directory at or above dir holding a package.xml
// (a ROS 2 package), or dir itself when there is none.
func (t pkgRoots) of(dir string) string {
	if r, ok := t[dir]; ok {
		return r
	}
	root := dir
	if _, err := os.Stat(filepath.Join(dir, "package.xml")); err != nil {
		if parent := filepath.Dir(dir); parent != dir {
			if r := t.of(parent); r != parent || fileExists(filepath.Join(parent, "package.xml")) {
				root = r
			}
		}
	}
	t[dir] = root
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

// finding builds a Finding at node n. Its edits are dropped when they would
// lengthen a line past what ament's linters accept (fitsLineLimit): the
// finding and its fix text stand, the fix is not applied.
func (u *unit) finding(n *node, r Rule, msg, why, fix string, edits []Edit) Finding {
	if !fitsLineLimit(u.src, edits, lineLimit(u.lang)) {
		edits = nil
	}
	f := Finding{Finding: rules.Finding{Code: rules.Code(r.Name), Severity: r.Severity, Rules: rules.IDs{r.ID},
		Subject: rules.Subject{File: u.path}, Message: msg, Why: why, Fix: fix}, Edits: edits}
	if n != nil {
		f.Line, f.Col = u.position(n.start)
		f.EndLine, f.EndCol = u.position(n.end)
	}
	return f
}

// lineLimit is the longest line the linters `colcon test` runs accept in a
// file of language l, 0 where none applies: ament_cpplint's default of 100
// columns, and the 99 of ament_flake8's configuration.
func lineLimit(l lang) int {
	switch l {
	case langCPP:
		return 100
	case langPython:
		return 99
	}
	return 0
}

// fitsLineLimit reports whether src with edits applied has no more lines
// longer than limit than src has. A fix that makes ament_cpplint,
// ament_uncrustify or ament_flake8 fail is not one a user can merge, and
// breaking the line as uncrustify would is its job, not ours.
func fitsLineLimit(src []byte, edits []Edit, limit int) bool {
	if limit == 0 || len(edits) == 0 {
		return true
	}
	out, err := ApplyEdits(src, edits)
	if err != nil {
		return false
	}
	return longLines(out, limit) <= longLines(src, limit)
}

// longLines counts the lines of src longer than limit code points.
func longLines(src []byte, limit int) int {
	n := 0
	for line := range bytes.Lines(src) {
		if utf8.RuneCount(bytes.TrimRight(line, "\r\n")) > limit {
			n++
		}
	}
	return n
}

// position converts a byte offset to a 1-based line and code-point column.
func (u *unit) position(off int) (line, col int) {
	off = min(off, len(u.src))
	line = 1 + bytes.Count(u.src[:off], []byte{'\n'})
	start := bytes.LastIndexByte(u.src[:off], '\n') + 1
	return line, 1 + utf8.RuneCount(u.src[start:off])
}

// enabledIn returns whether a rule is reported in the file at path: it is
// enabled for the run and no per-file ignore covering the file names it.
func (r *run) enabledIn(path string) func(rules.ID) bool {
	off := map[rules.ID]bool{}
	for _, pr := range r.ignore {
		if pr.Pattern.Covers(path) {
			for _, id := range pr.Rules {
				off[id] = true
			}
		}
	}
	return func(id rules.ID) bool { return r.enabled[id] && !off[id] }
}
