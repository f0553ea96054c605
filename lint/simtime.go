package lint

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
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
// sim-time-only rule (docs/rules.md, R27): a package runs on sim time when
// (a) one of its own files (its launch, parameter and shell files, its
// sources; the nearest package.xml marks the package, a nested package is
// another one) sets use_sim_time to true, or a launch or parameter file
// sets it to a launch argument the file does not leave false by default;
// or, for one file, its node reads use_sim_time. A mention in a comment,
// one that sets it to false, a launch argument defaulting to false
// (round 5's evaluation: fake nodes launched on wall time) and another
// package's launch files, even one that starts this package's node, are
// no evidence (round 6 measured that last one on the development set: it
// added a false failing finding and no real one). A file outside any package is judged by the launch and
// parameter files linted with it that are outside any package too.
// Without evidence the rules report at info, saying why.

// simTimeMarker is the parameter's name.
var simTimeMarker = []byte("use_sim_time")

// noSimTime is what a finding without evidence of sim time says.
const noSimTime = "; info: nothing in its package turns use_sim_time on (to true, or to a launch argument not false by default), so it may never run on sim time"

// setsSimTime reports whether src, the file at path, turns use_sim_time
// on for its package: a mention outside a comment that sets it to true,
// or, in a launch, parameter or shell file, to a launch argument this
// file does not leave false by default. A node's source that reads the
// parameter is evidence for that node only (readsSimTime).
func setsSimTime(src []byte, path string) bool {
	return simTimeMentions(src, path, false)
}

// noSimTimeDefault is what a finding says in a node that reads
// use_sim_time itself but declares it false by default.
const noSimTimeDefault = "; info: its node reads use_sim_time but declares it false by default, and nothing in its package turns it on, so it may never run on sim time"

// readsSimTime reports whether a node's source (not a launch file) asks
// for use_sim_time: the node expects to run on sim time. One that
// declares or reads it with a default of false
// (declare_parameter('use_sim_time', False), get_parameter_or(...,
// false)) expects wall time unless told otherwise: no evidence.
func readsSimTime(src []byte, path string) bool {
	return !isLaunchOrParams(path) && simTimeMentions(src, path, true) && !defaultsSimTimeOff(src, path)
}

// simTimeDefaultCalls are the calls whose second argument is the
// parameter's default.
var simTimeDefaultCalls = [][]byte{[]byte("declare_parameter"), []byte("get_parameter_or")}

// defaultsSimTimeOff reports whether a node's source declares or reads
// use_sim_time with a literal default of false.
func defaultsSimTimeOff(src []byte, path string) bool {
	if isLaunchOrParams(path) {
		return false
	}
	l := langOf(path)
	for at := 0; ; {
		i := bytes.Index(src[at:], simTimeMarker)
		if i < 0 {
			return false
		}
		i += at
		at = i + len(simTimeMarker)
		if i > 0 && isIdentByte(src[i-1]) || at < len(src) && isIdentByte(src[at]) || inComment(src, i, l) {
			continue
		}
		// declare_parameter('use_sim_time', False),
		// declare_parameter<bool>("use_sim_time", false): the call's
		// name, a template argument, "(" and a quote before the name.
		before := bytes.TrimRight(src[max(0, i-40):i], "\"' \t\n(")
		if j := bytes.LastIndexByte(before, '<'); j >= 0 && bytes.HasSuffix(before, []byte(">")) {
			before = before[:j]
		}
		call := false
		for _, name := range simTimeDefaultCalls {
			call = call || bytes.HasSuffix(before, name)
		}
		if call && simTimeValue(src[at:], l) == simOff && defaultArg(src[at:]) {
			return true
		}
	}
}

// defaultArg reports whether the text after a quoted parameter name goes
// on to a second argument (", False)"), not closing the call.
func defaultArg(rest []byte) bool {
	rest = bytes.TrimLeft(rest, "\"' \t")
	return len(rest) > 0 && rest[0] == ','
}

// simTimeMentions scans src's use_sim_time mentions for a setting to true
// (or, in launch files, a launch argument that may be true), or, with
// reads, for a non-literal one in a source file.
func simTimeMentions(src []byte, path string, reads bool) bool {
	return simTimeMentionsIn(src, path, reads, 0, len(src))
}

// simTimeMentionsIn is simTimeMentions for the mentions that start in
// src[from:to] (one Node(...) of a launch file), read in the whole file.
func simTimeMentionsIn(src []byte, path string, reads bool, from, to int) bool {
	l := langOf(path)
	launch := isLaunchOrParams(path)
	for at := from; ; {
		i := bytes.Index(src[at:to], simTimeMarker)
		if i < 0 {
			return false
		}
		i += at
		at = i + len(simTimeMarker)
		if i > 0 && isIdentByte(src[i-1]) || at < len(src) && isIdentByte(src[at]) {
			continue // use_sim_time_, kuse_sim_time: another name
		}
		if inComment(src, i, l) || isValueSide(src[:i]) {
			continue
		}
		switch simTimeValue(src[at:], l) {
		case simOn:
			if !reads {
				return true
			}
		case simArg:
			if reads || launch && !argDefaultsOff(src, argName(src, src[at:]), l) {
				return true
			}
		}
	}
}

// What a use_sim_time mention sets it to.
type simSetting int

const (
	simOff simSetting = iota // false
	simOn                    // true
	simArg                   // a launch argument, a variable, a parameter read
)

// argName returns the launch argument a non-literal use_sim_time value
// names: LaunchConfiguration('x'), $(var x), $(arg x), or a variable
// that holds LaunchConfiguration('x'); "use_sim_time" when it says none.
func argName(src, rest []byte) string {
	end := min(len(rest), 200)
	if j := bytes.IndexAny(rest[:end], "\n,}]>"); j >= 0 {
		end = j
	}
	val := rest[:end]
	if m := launchConfigRe.FindSubmatch(val); m != nil {
		return string(m[1])
	}
	if m := substArgRe.FindSubmatch(val); m != nil {
		return string(m[1])
	}
	if m := bareValueRe.FindSubmatch(val); m != nil {
		v := string(m[1])
		switch strings.ToLower(v) {
		case "true", "false", "value", "name", "launchconfiguration":
			return "use_sim_time"
		}
		def := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(v) + `\s*=\s*LaunchConfiguration\(\s*['"]([\w]+)['"]`)
		if m := def.FindSubmatch(src); m != nil {
			return string(m[1])
		}
	}
	return "use_sim_time"
}

var (
	launchConfigRe = regexp.MustCompile(`LaunchConfiguration\(\s*['"](\w+)['"]`)
	substArgRe     = regexp.MustCompile(`\$\((?:var|arg)\s+(\w+)\)`)
	bareValueRe    = regexp.MustCompile(`^['"]?\s*[:=,]?\s*(?:value\s*=\s*)?([A-Za-z_]\w*)\s*[,)}\]]?`)
)

// argDefaultsOff reports whether the file declares launch argument name
// and every default it gives it is false: the argument then leaves
// use_sim_time off unless a launch that includes this one passes true
// (which is evidence of its own, in that file). An argument declared
// without a default, or not declared here, is passed in from outside and
// counts as on.
func argDefaultsOff(src []byte, name string, l lang) bool {
	q := regexp.QuoteMeta(name)
	var res []*regexp.Regexp
	switch l {
	case langPython:
		res = []*regexp.Regexp{
			regexp.MustCompile(`DeclareLaunchArgument\(\s*(?:name\s*=\s*)?['"]` + q + `['"][^)]*?default_value\s*=\s*['"]?(\w+)`),
			regexp.MustCompile(`LaunchConfiguration\(\s*['"]` + q + `['"]\s*,\s*default\s*=\s*['"]?(\w+)`),
		}
	case langXML:
		res = []*regexp.Regexp{
			regexp.MustCompile(`<arg\s[^>]*name\s*=\s*"` + q + `"[^>]*default\s*=\s*"([^"]*)"`),
			regexp.MustCompile(`<arg\s[^>]*default\s*=\s*"([^"]*)"[^>]*name\s*=\s*"` + q + `"`),
		}
	case langYAML:
		res = []*regexp.Regexp{
			regexp.MustCompile(`name:\s*['"]?` + q + `['"]?\s*,\s*default:\s*['"]?(\w+)`),
		}
	default:
		return false
	}
	found := false
	for _, re := range res {
		for _, m := range re.FindAllSubmatch(src, -1) {
			switch strings.ToLower(string(m[1])) {
			case "false", "0", "no", "off":
				found = true
			default:
				return false // a default of true, or of another argument
			}
		}
	}
	return found
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

// simTimeValue says what the text after a use_sim_time mention sets it
// to. "use_sim_time: x", "use_sim_time:=x", "'use_sim_time': x"
// and "use_sim_time = x" take x; otherwise (an argument list, an XML
// element, "param set n use_sim_time x") the first true or false literal
// of the rest of the statement decides, and none is a launch argument or
// a parameter read (simArg).
func simTimeValue(rest []byte, l lang) simSetting {
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
			return simOff // "use_sim_time:" opening a mapping is no value either
		case "true", "1", "yes", "on":
			return simOn
		}
		return simArg
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
			return simOff
		case "true":
			return simOn
		}
	}
	return simArg
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
		if setsSimTime(src, s.path) {
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
		if setsSimTime(u.src, u.path) {
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
	if unitsSetSimTime(units) {
		return true
	}
	// None of the linted files does: the package walk need not read
	// again those it holds as they are on disk.
	read := map[string]bool{}
	for _, u := range units {
		if u.disk {
			read[u.path] = true
		}
	}
	return packageSetsSimTime(root, read)
}

// diagnosticOnly reports whether f runs only as a diagnostic_updater task,
// or only from such tasks: a C++ function taking a DiagnosticStatusWrapper,
// a Python method handed to an updater's add(), a lambda inside one, or a
// method of the class that only such functions call. The updater's timer
// runs on the node's clock and ticks first at its period (1 s by default),
// so under sim time a task never runs at now == 0.
func (c *checker) diagnosticOnly(f *fn) bool {
	return c.onlyReachedFrom(f, c.isDiagnosticTask, map[*fn]bool{})
}

// requestOnly reports whether f runs only on request: as the callback of a
// service or action server the class creates, or only from such callbacks
// (onlyReachedFrom). A client calls them once the system is up, after the
// first /clock (round 19: a move service subtracting 0.5 s from now()).
func (c *checker) requestOnly(f *fn) bool {
	return c.onlyReachedFrom(f, c.isRequestCallback, map[*fn]bool{})
}

// isRequestCallback reports whether g is handed to a service or action
// server (isServerName) by a method of its class, and every other
// reference to g in the class is from a function that itself runs only on
// request: a method also registered as a timer's or subscription's
// callback, or called from the constructor, is not one.
func (c *checker) isRequestCallback(g *fn) bool {
	return c.requestCallback(g, map[*fn]int{})
}

// requestCallback is isRequestCallback; state remembers each function's
// answer, 1 while its other references are being followed (one reached
// again on the way is not a request callback), 2 yes, 3 no.
func (c *checker) requestCallback(g *fn, state map[*fn]int) bool {
	if state[g] != 0 {
		return state[g] == 2
	}
	state[g] = 1
	ok := false
	if reg, others := c.handedTo(g, isServerName); reg {
		ok = true
		for _, h := range others {
			if !c.onlyReachedFrom(h, func(r *fn) bool { return c.requestCallback(r, state) }, map[*fn]bool{}) {
				ok = false
				break
			}
		}
	}
	state[g] = 3
	if ok {
		state[g] = 2
	}
	return ok
}

// handedTo reports whether g is handed to a call whose callee isName
// accepts, by a function of g's class or a free function of g's file (a
// main() or setup function given the node and the object): as an argument
// (self.cb, std::bind(&C::cb, this, _1), std::bind(&C::cb, obj, _1), a
// keyword argument) or as a lambda written in the call; and lists the
// other functions that refer to g outside such calls (a lambda has none:
// it is only where it is written). A free function handed on by name is
// not followed.
func (c *checker) handedTo(g *fn, isName func(string) bool) (bool, []*fn) {
	if g.cls == nil && g.outer == nil {
		return false, nil
	}
	var fns []*fn
	if g.cls != nil {
		fns = g.cls.fns
	}
	if g.u != nil {
		for _, h := range g.u.fns {
			if h.cls == nil && h.outer == nil {
				fns = append(fns, h)
			}
		}
	}
	reg := false
	var others []*fn
	for _, h := range fns {
		if h == g {
			continue
		}
		other := false
		inCall := map[*expr]bool{}
		eachStmt(h.body, func(s *stmt) {
			for _, e := range []*expr{s.e, s.value} {
				walkExpr(e, func(call *expr) {
					if call.kind != eCall || call.recv == nil || !isName(call.recv.name) {
						return
					}
					if g.outer != nil && g.n != nil && call.n != nil && g.n.start >= call.n.start && g.n.end <= call.n.end {
						reg = true // a lambda written in the call
					}
					args := slices.Clone(call.args)
					for _, k := range call.kwargs {
						args = append(args, k.value)
					}
					for _, a := range args {
						walkExpr(a, func(x *expr) {
							inCall[x] = true
							// A free function names a method qualified
							// (&C::cb): a bare cb there is not the method.
							if g.outer == nil && g.name != "" && c.refersTo(x, g) && (h.cls != nil || x.name != g.name) {
								reg = true
							}
						})
					}
				})
			}
		})
		if g.outer != nil || g.name == "" {
			continue
		}
		eachStmt(h.body, func(s *stmt) {
			for _, e := range []*expr{s.e, s.value} {
				walkExpr(e, func(x *expr) {
					if !inCall[x] && c.refersTo(x, g) {
						other = true
					}
				})
			}
		})
		if other {
			others = append(others, h)
		}
	}
	return reg, others
}

// isServerName reports whether a callee creates a service or action
// server, or registers one of an action server's callbacks: rclcpp's and
// rclpy's create_service, rclcpp_action::create_server, rclpy's
// ActionServer and its register_*_callback methods; Navigation2's
// SimpleActionServer (nav2_util:: or nav2::, or an alias named
// ActionServer), constructed (new, std::make_unique, std::make_shared) or
// by create_action_server of Kilted's nav2::LifecycleNode, runs its
// execute callback when a goal arrives.
func isServerName(n string) bool {
	base, targ := n, ""
	if i := strings.IndexByte(n, '<'); i >= 0 {
		base, targ = n[:i], strings.TrimSuffix(n[i+1:], ">")
	}
	base = base[strings.LastIndexAny(base, ".:")+1:]
	switch base {
	case "create_service", "create_server", "ActionServer", "SimpleActionServer", "create_action_server",
		"register_goal_callback", "register_cancel_callback", "register_handle_accepted_callback", "register_execute_callback":
		return true
	case "make_unique", "make_shared":
		return targ != "" && isServerName(strings.TrimSpace(targ))
	}
	return false
}

// isSubscriptionName reports whether a callee creates a subscription:
// create_subscription, a message_filters Subscriber, subscribe.
func isSubscriptionName(n string) bool {
	if i := strings.IndexByte(n, '<'); i >= 0 {
		n = n[:i]
	}
	n = n[strings.LastIndexByte(n, '.')+1:]
	return n == "create_subscription" || n == "Subscriber" || n == "subscribe"
}

// onlyReachedFrom reports whether f runs only as a function that root
// accepts, or only from such functions: f or a function enclosing it (a
// lambda's) is one, or f is a method whose class refers to it only from
// functions that are (so only they can call it or hand it on).
func (c *checker) onlyReachedFrom(f *fn, root func(*fn) bool, seen map[*fn]bool) bool {
	for g := f; g != nil; g = g.outer {
		if root(g) {
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
		if !c.onlyReachedFrom(g, root, seen) {
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

// notPackageDir reports whether a directory met walking the package at
// root holds none of its files: a hidden directory (the linter skips them)
// or a nested package (its own package.xml: its files are its own). Every
// walk over a package's files skips these.
func notPackageDir(root, path string, e fs.DirEntry) bool {
	return path != root && (strings.HasPrefix(e.Name(), ".") || fileExists(filepath.Join(path, "package.xml")))
}

// packageSetsSimTime reports whether any source, launch or parameter file
// of the package at root (holding package.xml) turns use_sim_time on.
// Directories that are not the package's are skipped (notPackageDir).
// The files in known are counted but not read: the caller has read them
// and they do not.
func packageSetsSimTime(root string, known map[string]bool) bool {
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
			if notPackageDir(root, path, e) {
				return filepath.SkipDir
			}
			return nil
		}
		l := langOf(path)
		if l == langNone || !e.Type().IsRegular() {
			return nil
		}
		files++
		if known[path] {
			return nil
		}
		if info, err := e.Info(); err != nil || info.Size() > pkgScanBytes {
			return nil
		}
		if b, err := os.ReadFile(path); err == nil && setsSimTime(b, path) {
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
	if c.onSimTime(u) {
		return c.report(u, e, rule, msg, why, fix, edits)
	}
	return c.reportInfo(u, e, rule, msg+c.noSimTimeReason(u), why, fix, edits)
}

// onSimTime is the evidence for a finding in unit u: its package's (or
// run's) launch, parameter and source files, unless the package's launches
// start u's node only on wall time (simtime_node.go), or u itself reading
// use_sim_time.
func (c *checker) onSimTime(u *unit) bool {
	return c.simTime && !c.wallNode(u) || readsSimTime(u.src, u.path)
}

// noSimTimeReason says why a finding in u has no evidence of sim time.
func (c *checker) noSimTimeReason(u *unit) string {
	if c.simTime && c.wallNode(u) {
		return noSimTimeNode
	}
	if simTimeMentions(u.src, u.path, true) && defaultsSimTimeOff(u.src, u.path) {
		return noSimTimeDefault
	}
	return noSimTime
}

// wallNode reports (once per file) whether u's package launches u's node
// only on wall time.
func (c *checker) wallNode(u *unit) bool {
	if got, ok := c.wallNodes[u]; ok {
		return got
	}
	if c.wallNodes == nil {
		c.wallNodes = map[*unit]bool{}
	}
	w := nodeOnWallTime(c.root, u.path)
	c.wallNodes[u] = w
	return w
}

// isValueSide reports whether a mention that follows before is a value,
// not the parameter being set: 'use_sim_time': use_sim_time (a launch
// file's variable), x = use_sim_time. "name: use_sim_time" and
// name='use_sim_time' name the parameter.
func isValueSide(before []byte) bool {
	k := len(before)
	for k > 0 && (before[k-1] == ' ' || before[k-1] == '\t' || before[k-1] == '"' || before[k-1] == '\'') {
		k--
	}
	if k == 0 || before[k-1] != ':' && before[k-1] != '=' {
		return false
	}
	if k >= 2 && strings.IndexByte("=!<>:", before[k-2]) >= 0 {
		return false // ==, :=, a comparison
	}
	j := k - 1
	for j > 0 && (before[j-1] == ' ' || before[j-1] == '\t') {
		j--
	}
	w := j
	for w > 0 && isIdentByte(before[w-1]) {
		w--
	}
	return string(before[w:j]) != "name"
}
