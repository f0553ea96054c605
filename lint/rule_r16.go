package lint

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/simclock/simclock/rules"
)

func init() {
	register(Rule{
		ID:       rules.R16,
		Name:     "use-sim-time-spelling",
		Summary:  "misspelt use_sim_time parameter name (code, YAML parameter and launch files, XML launch files, -p arguments)",
		Severity: rules.Error,
		Fixable:  true,
		Fix:      "write use_sim_time",
		Help: "Only the parameter named exactly use_sim_time switches a node to /clock; any other spelling " +
			"(use_sim_tme, use-sim-time, useSimTime, use_simulated_time) sets an unrelated parameter that " +
			"nothing reads, so the node silently stamps with wall time. Write use_sim_time. Never declare it: " +
			"rclpy and rclcpp declare use_sim_time themselves, and declare_parameter('use_sim_time') raises " +
			"ParameterAlreadyDeclaredException; set it from the launch file or with set_parameters.",
		detector: detector{str: detectR16},
	})
}

// simTime is the one parameter name that turns sim time on.
const simTime = "use_sim_time"

// Misspellings are recognised by similarity rather than from a list. A
// name is a misspelt use_sim_time when, split into words at "_", "-" and
// camelCase boundaries and lower-cased,
//   - its words join to "usesimtime" (use-sim-time, useSimTime, use_simtime,
//     " use_sim_time", use_sim_time_), or
//   - the joined words are one edit (insertion, deletion, substitution or
//     transposition of adjacent letters) from "usesimtime" (use_sim_tme,
//     use_sime_time, use_sim_times), or
//   - they read "use" + a word for simulation + a word one edit from "time"
//     (use_simulated_time, use_simulation_time, use_simulator_tim).
//
// Names in capitals (USE_SIM_TIME) are environment variables, not
// parameters. The threshold keeps real parameters apart: DWB's sim_time
// (forward simulation horizon), nav2's use_simulator, use_sim, sim_time_s
// and use_msg_time are two or more edits away.

// simWords are the words people write for "sim".
var simWords = []string{"sim", "simu", "simul", "simulated", "simulation", "simulator"}

// misspeltSimTime reports whether name is a misspelling of use_sim_time.
func misspeltSimTime(name string) bool {
	if name == simTime || len(name) < 8 || len(name) > 40 {
		return false
	}
	trimmed := strings.TrimSpace(name)
	if trimmed == simTime {
		return true // " use_sim_time": a different parameter name
	}
	// ROS 1 and launch files name the global parameter "/use_sim_time".
	if rest, ok := strings.CutPrefix(trimmed, "/"); ok {
		if rest == simTime {
			return false
		}
		trimmed = rest
	}
	hasLower := false
	for _, r := range trimmed {
		switch {
		case r >= 'a' && r <= 'z':
			hasLower = true
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
		default:
			// Not a parameter name (spaces, punctuation, non-ASCII), or a
			// namespaced one (".use_sim_time", "ns.use_sim_time"): a
			// different parameter whatever its last part says.
			return false
		}
	}
	if !hasLower {
		return false
	}
	words := splitWords(trimmed)
	joined := strings.Join(words, "")
	if joined == "usesimtime" || editDistance(joined, "usesimtime") <= 1 {
		return true
	}
	for _, w := range simWords {
		if rest, ok := strings.CutPrefix(joined, "use"+w); ok && editDistance(rest, "time") <= 1 && len(rest) >= 3 {
			return true
		}
	}
	return false
}

// splitWords splits an identifier into lower-case words at "_", "-" and
// camelCase boundaries ("useSimTime", "USESimTime").
func splitWords(s string) []string {
	var words []string
	var cur []rune
	rs := []rune(s)
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for i, r := range rs {
		switch {
		case r == '_' || r == '-':
			flush()
			continue
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) ||
			(unicode.IsUpper(rs[i-1]) && i+1 < len(rs) && unicode.IsLower(rs[i+1]))):
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// editDistance is the optimal string alignment distance between a and b
// (ASCII): insertions, deletions, substitutions and transpositions of
// adjacent characters.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 64
	}
	var rows [3][65]int
	prev2, prev, cur := &rows[0], &rows[1], &rows[2]
	for j := 0; j <= len(b); j++ {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// nameUse is how a misspelt name is used, which decides its fix.
type nameUse uint8

const (
	useNone    nameUse = iota // not a parameter name
	useRename                 // a parameter set or read: rename it
	useDeclare                // declared: renaming would declare use_sim_time, which raises
	useDup                    // a second key beside use_sim_time: remove it
	useArg                    // a launch argument's name: debatable, reported as info
	useGlobal                 // "/use_sim_time" given to a ROS 2 node, which has no global parameters
)

// globalSimTime is ROS 1's global parameter name. ROS 1 launch files and
// rosparam set it so (misspeltSimTime accepts it); a ROS 2 node has no
// global parameters: launch_ros keeps a parameter dict's key as written
// (normalize_parameter_dict) and rcl's YAML parser stores a key under
// ros__parameters verbatim (parse_key), so the node gets a parameter named
// "/use_sim_time" and its time source, which reads only use_sim_time,
// keeps wall time.
const globalSimTime = "/" + simTime

// ros2GlobalSimTime reports whether s is "/use_sim_time" given to a ROS 2
// node as a parameter name: a key under ros__parameters, a <param> or
// launch.yaml param of a launch_ros node (marked by the front ends), or a
// dict key in a Python file that imports launch_ros. A name beside a
// use_sim_time in the same mapping, node or dict is left alone: the node
// gets use_sim_time anyway.
func ros2GlobalSimTime(s *expr) bool {
	if s.name != globalSimTime {
		return false
	}
	switch s.role {
	case roleParamName:
		return (s.ros2Param || s.scopeParam) && !s.beside
	case roleCode:
		n := s.n
		if s.u.lang != langPython || n == nil || n.parent == nil || !importsLaunchROS(s.u) {
			return false
		}
		if s.scopeParam { // a SetParameter name (pyBesideSimTime)
			return !s.beside
		}
		if n.parent.kind != "pair" || n.field != "key" {
			return false
		}
		return codeNameUse(s) == useRename
	}
	return false
}

// setParameterName reports whether the Python string n is the name given
// to launch_ros' SetParameter action: SetParameter(name='...') or its
// first positional argument. SetParameter.execute appends the pair to the
// launch context's global_params, and Node._perform_substitutions passes
// each to the process as "-p name:=value" (LoadComposableNodes builds a
// Parameter message of that name); rcl's _rcl_parse_param_name_token takes
// a leading "/" into the name, so every node in the action's scope gets a
// parameter named "/use_sim_time", as a parameter dict's key would give it.
func setParameterName(u *unit, n *node) bool {
	p := n.parent
	var call *node
	switch {
	case p.kind == "keyword_argument" && n.field == "value" && u.text(p.child("name")) == "name" && p.parent != nil:
		call = p.parent.parent
	case p.kind == "argument_list" && len(p.children) > 0 && p.children[0] == n:
		call = p.parent
	}
	return call != nil && call.kind == "call" && lastName(u.text(call.child("function"))) == "SetParameter"
}

// pyBesideSimTime marks the names a Python file gives SetParameter as
// scopeParam, as the XML and YAML front ends mark set_parameter's, and
// gives besideSimTime the file's scopes: the keys of each dict, and those
// SetParameter names (the scope of a
// SetParameter, a GroupAction's actions or the launch description, is taken
// as the whole file).
func pyBesideSimTime(u *unit) {
	dicts := map[*node][]*expr{}
	var set []*expr
	for _, e := range u.strings {
		n := e.n
		switch {
		case n == nil || n.parent == nil:
		case n.parent.kind == "pair" && n.field == "key" && n.parent.parent != nil:
			dicts[n.parent.parent] = append(dicts[n.parent.parent], e)
		case setParameterName(u, n):
			e.scopeParam = true
			set = append(set, e)
		}
	}
	for _, keys := range dicts {
		besideSimTime(keys)
	}
	besideSimTime(set)
}

// importsLaunchROS reports whether a Python file imports launch_ros (a ROS
// 2 launch file; ROS 1's roslaunch API is another module).
func importsLaunchROS(u *unit) bool {
	for _, q := range u.imports {
		if q == "launch_ros" || strings.HasPrefix(q, "launch_ros.") {
			return true
		}
	}
	return false
}

// detectR16 reports misspelt use_sim_time names: parameter names in code,
// parameter and launch files, and name:=value arguments anywhere.
func detectR16(c *checker, s *expr) {
	if s.u == nil {
		return
	}
	if ros2GlobalSimTime(s) {
		c.reportSimTime(s, s.name, s.content, useGlobal)
		return
	}
	switch s.role {
	case roleCode:
		if misspeltSimTime(s.name) {
			if use := codeNameUse(s); use != useNone {
				c.reportSimTime(s, s.name, s.content, use)
			}
		}
		c.assignments(s)
	case roleParamName, roleDupName:
		if misspeltSimTime(s.name) {
			use := useRename
			if s.role == roleDupName {
				use = useDup
			}
			c.reportSimTime(s, s.name, s.content, use)
		}
	case roleLaunchArg:
		if misspeltSimTime(s.name) {
			c.reportSimTime(s, s.name, s.content, useArg)
		}
	case roleText:
		c.assignments(s)
	}
}

// assignments reports misspelt names in the name:=value arguments of a
// command line held in s (-p x:=1, --param x:=1, ros2 launch ... x:=1), and
// in "ros2 param set NODE NAME VALUE".
func (c *checker) assignments(s *expr) {
	text := s.name
	if !strings.Contains(text, ":=") && !strings.Contains(text, "param") {
		return
	}
	// Where text starts in the source, when it is there verbatim.
	base := -1
	if s.content != nil && s.content.end-s.content.start == len(text) && s.u.text(s.content) == text {
		base = s.content.start
	}
	report := func(i int, name string) {
		if !misspeltSimTime(name) {
			return
		}
		var at *node
		if base >= 0 {
			at = &node{kind: "string", start: base + i, end: base + i + len(name)}
		}
		c.reportSimTime(s, name, at, useRename)
	}
	for i := 0; ; {
		j := strings.Index(text[i:], ":=")
		if j < 0 {
			break
		}
		end := i + j
		start := end
		for start > 0 && isNameByte(text[start-1]) {
			start--
		}
		// Only a whole word: "${X:=default}" in shell is not an argument.
		if start < end && (start == 0 || strings.IndexByte(" \t'\"[(,=", text[start-1]) >= 0) {
			report(start, text[start:end])
		}
		i = end + 2
	}
	if f := wordsOf(text); len(f) >= 5 {
		for k := 0; k+4 < len(f); k++ {
			if f[k].s == "ros2" && f[k+1].s == "param" && (f[k+2].s == "set" || f[k+2].s == "get" || f[k+2].s == "describe") {
				w := f[k+4]
				name := strings.TrimLeft(w.s, `'"`)
				report(w.at+len(w.s)-len(name), strings.TrimRight(name, `'"`))
			}
		}
	}
}

// A word is a field of a command line and the byte offset it starts at.
type word struct {
	s  string
	at int
}

// isBlank is ASCII white space (a script with CRLF line ends has '\r').
func isBlank(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\v' || b == '\f' }

// wordsOf splits text at white space like strings.Fields, keeping
// where each word starts, so a finding points at the word itself and not
// at an earlier occurrence of the same text.
func wordsOf(text string) []word {
	var out []word
	for i := 0; i < len(text); {
		for i < len(text) && isBlank(text[i]) {
			i++
		}
		start := i
		for i < len(text) && !isBlank(text[i]) {
			i++
		}
		if i > start {
			out = append(out, word{text[start:i], start})
		}
	}
	return out
}

func isNameByte(b byte) bool {
	return b == '_' || b == '-' || b == '.' || b == '/' || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
}

// codeNameUse says whether a Python or C++ string literal is used as a
// parameter name, from its place in the syntax tree:
//   - an argument of a call whose name mentions "param" (declare_parameter,
//     get_parameter, rclcpp::Parameter, SetParameter(name=...),
//     append_parameter_override, ParameterEventsFilter(event, {"name"})) or
//     of a gtest equality check (EXPECT_EQ, ASSERT_STREQ...);
//   - the string after "-p" or "--param" in an argument list;
//   - a dict key or subscript (parameters=[{...}], params['name']), the
//     first of a pair ({"name", value} in C++, ('name', value) in Python:
//     parameter overrides and launch_arguments);
//   - the value of a constant named after use_sim_time
//     (USE_SIM_TIME_NAME = '...');
//   - one side of == or != (a parameter callback matching p.name);
//   - a launch argument: DeclareLaunchArgument, or LaunchConfiguration with
//     a default (without one, a misspelt name fails loudly at launch).
func codeNameUse(s *expr) nameUse {
	n := s.n
	if n == nil || n.parent == nil {
		return useNone
	}
	u := s.u
	p := n.parent
	if afterParamFlag(u, n) {
		return useRename
	}
	switch p.kind {
	case "argument_list":
		return callNameUse(u, p.parent)
	case "keyword_argument": // Python name='...'
		if n.field == "value" && u.text(p.child("name")) == "name" && p.parent != nil {
			return callNameUse(u, p.parent.parent)
		}
	case "pair": // Python dict key
		if n.field == "key" {
			if s.beside { // a key beside use_sim_time in the same dict
				return useDup
			}
			return useRename
		}
	case "subscript", "subscript_expression", "subscript_argument_list": // params['name']
		return useRename
	case "initializer_list":
		if p.parent != nil && p.parent.kind == "argument_list" { // f(event, {"name"})
			if use := callNameUse(u, p.parent.parent); use != useNone {
				return use
			}
		}
		if len(p.children) == 2 && p.children[0] == n { // {"name", value}
			return useRename
		}
	case "tuple": // ('name', value): declare_parameters, launch_arguments
		if len(p.children) == 2 && p.children[0] == n {
			if p.parent != nil && p.parent.kind == "list" && p.parent.parent != nil && p.parent.parent.kind == "argument_list" {
				if use := callNameUse(u, p.parent.parent.parent); use != useNone {
					return use
				}
			}
			return useRename
		}
	case "assignment", "init_declarator": // USE_SIM_TIME_NAME = '...'
		target := p.child("left")
		if p.kind == "init_declarator" {
			target = p.child("declarator")
		}
		if target != nil && strings.Contains(strings.Join(splitWords(u.text(target)), ""), "simtime") {
			return useRename
		}
	case "comparison_operator", "binary_expression":
		if op := p.child("operator"); p.kind == "binary_expression" && (op == nil || (u.text(op) != "==" && u.text(op) != "!=")) {
			return useNone
		}
		if p.kind == "comparison_operator" && !strings.Contains(u.text(p), "==") && !strings.Contains(u.text(p), "!=") {
			return useNone
		}
		return useRename
	}
	return useNone
}

// afterParamFlag reports whether the string n follows a "-p" or "--param"
// string in the same list of arguments: "--ros-args", "-p", "name:=1" or
// replaceOrAddArgument(args, "-p", "name", ...).
func afterParamFlag(u *unit, n *node) bool {
	p := n.parent
	for i, c := range p.children {
		if c != n {
			continue
		}
		if i == 0 {
			return false
		}
		prev := p.children[i-1]
		if prev.kind != "string" && prev.kind != "string_literal" {
			return false
		}
		t := stringText(u, prev)
		return t == "-p" || t == "--param"
	}
	return false
}

// stringText is the content of a string literal node, quotes stripped.
func stringText(u *unit, n *node) string {
	t := u.text(n)
	if i := strings.IndexAny(t, `'"`); i >= 0 && len(t) >= 2 {
		return strings.Trim(t[i:], `'"`)
	}
	return t
}

// callNameUse classifies the string arguments of call (a call, or a C++
// declaration with constructor arguments) by the called name.
func callNameUse(u *unit, call *node) nameUse {
	if call == nil {
		return useNone
	}
	var callee string
	switch call.kind {
	case "call", "call_expression":
		callee = u.text(call.child("function"))
	case "init_declarator": // rclcpp::Parameter p("name", value);
		if call.parent != nil {
			callee = u.text(call.parent.child("type"))
		}
	default:
		return useNone
	}
	name := lastName(callee)
	lower := strings.ToLower(name)
	switch {
	case name == "DeclareLaunchArgument":
		return useArg
	case name == "LaunchConfiguration" || name == "LaunchConfigAsBool":
		// Without a default an undeclared name fails at launch; with one
		// it silently takes the default.
		if args := call.child("arguments"); args != nil && strings.Contains(u.text(args), "default") {
			return useArg
		}
		return useNone
	case gtestEquality[name]:
		return useRename
	case strings.Contains(lower, "declare"):
		if strings.Contains(lower, "param") {
			return useDeclare
		}
	case strings.Contains(lower, "param"):
		return useRename
	}
	return useNone
}

// gtestEquality are the gtest checks whose arguments are compared.
var gtestEquality = map[string]bool{
	"EXPECT_EQ": true, "EXPECT_NE": true, "ASSERT_EQ": true, "ASSERT_NE": true,
	"EXPECT_STREQ": true, "EXPECT_STRNE": true, "ASSERT_STREQ": true, "ASSERT_STRNE": true,
}

// lastName is the last identifier of a callee's text, template arguments
// dropped: "this->declare_parameter<bool>" is "declare_parameter".
func lastName(callee string) string {
	callee = strings.TrimSpace(callee)
	if strings.HasSuffix(callee, ">") {
		depth := 0
		for i := len(callee) - 1; i >= 0; i-- {
			switch callee[i] {
			case '>':
				depth++
			case '<':
				depth--
			}
			if depth == 0 {
				callee = callee[:i]
				break
			}
		}
	}
	end := len(callee)
	start := end
	for start > 0 && (isNameByte(callee[start-1]) && callee[start-1] != '-' && callee[start-1] != '.' && callee[start-1] != '/') {
		start--
	}
	return callee[start:end]
}

// reportSimTime reports name, a misspelt use_sim_time in s whose bytes are
// at (nil when unknown: then there is no fix). The finding is placed at
// the string, or at the name when it is part of a longer text.
func (c *checker) reportSimTime(s *expr, name string, at *node, use nameUse) {
	where := s
	if at != nil && (s.role == roleText || s.role == roleCode && at != s.content) {
		where = &expr{kind: eString, n: at, u: s.u}
	}
	var edits []Edit
	if at != nil && at.end-at.start == len(name) && s.u.text(at) == name {
		edits = []Edit{{Start: at.start, End: at.end, New: simTime}}
	}
	msg := fmt.Sprintf("parameter name \"%s\" is not use_sim_time: the node silently keeps wall time", name)
	why := "Only the use_sim_time parameter switches a node to /clock (R16); any other spelling declares or sets an unrelated parameter and is ignored."
	fix := "write " + simTime
	if s.u.lang == langPython || s.u.lang == langCPP {
		fix = "write '" + simTime + "'"
	}
	switch use {
	case useDeclare:
		edits = nil // renaming would declare use_sim_time: ParameterAlreadyDeclaredException
		msg = fmt.Sprintf("declared parameter \"%s\" is not use_sim_time: the node silently keeps wall time", name)
		fix = fixText(s.u,
			"do not declare it: rclpy declares use_sim_time itself and declare_parameter('use_sim_time') raises ParameterAlreadyDeclaredException; "+
				"read it with get_parameter('use_sim_time'), set it in the launch file (parameters=[{'use_sim_time': True}]) or with "+
				"set_parameters([Parameter('use_sim_time', value=True)])",
			"do not declare it: rclcpp declares use_sim_time itself and declare_parameter(\"use_sim_time\") throws ParameterAlreadyDeclaredException; "+
				"read it with get_parameter(\"use_sim_time\"), set it in the launch file or with set_parameter(rclcpp::Parameter(\"use_sim_time\", true))")
	case useDup:
		edits = nil
		msg = fmt.Sprintf("parameter name \"%s\" is not use_sim_time, which is set beside it: this one is ignored", name)
		fix = "remove " + name
	case useArg:
		edits = nil // the argument's uses would have to be renamed too
		msg = fmt.Sprintf("launch argument \"%s\" looks like a misspelt use_sim_time: `use_sim_time:=true` on the command line does not set it", name)
		why = "Launch arguments may be named freely, but users pass use_sim_time:=true by habit (R16): an argument spelt otherwise is not set by it, and undeclared arguments are ignored."
		fix = "name the argument use_sim_time, here and where it is used"
	case useGlobal:
		msg = fmt.Sprintf("parameter name \"%s\" is ROS 1's global use_sim_time: ROS 2 has no global parameters, "+
			"so the node gets a parameter named \"%s\" and stays on wall time", name, name)
		why = "A ROS 2 node reads only its own use_sim_time parameter (R16); launch_ros passes a parameter name as written " +
			"and rcl's YAML parser stores it verbatim, so the leading \"/\" makes it another parameter that nothing reads."
	}
	removed := ""
	if use != useArg {
		var callee string
		if removed, callee = removedNodeArgument(s); removed != "" {
			msg += fmt.Sprintf("; info: this launch file passes %s to a launch_ros %s, an argument removed before Humble "+
				"(deprecated in Foxy, removed in launch_ros 0.12, ros2/launch_ros#190), so on %s the launch fails before any parameter is set",
				removed, callee, distroTitle(c.distro))
		}
	}
	f := c.report(s.u, where, rules.R16, msg, why, fix, edits)
	if f != nil && (use == useArg || removed != "") {
		f.Severity = rules.Info
	}
}

// removedNodeArguments are the launch_ros Node and ComposableNode arguments
// that Foxy deprecated (ros2/launch_ros#122, #140) and launch_ros 0.12
// removed before Galactic (ros2/launch_ros#190): Node(node_executable=...)
// and ComposableNode(node_plugin=...) raise TypeError on every distribution
// --ros-distro accepts (Humble and later).
var removedNodeArguments = map[string]bool{"node_executable": true, "node_plugin": true, "node_name": true, "node_namespace": true}

// removedNodeArgument returns the first removed argument that the Python
// launch file holding s passes to Node, LifecycleNode,
// ComposableNodeContainer or ComposableNode, and that callee; or "", "". The file's syntax tree is reached from
// s's node (the unit lets go of its root once lowered).
// Such a file stops at that call on the linted distributions, so a
// misspelt parameter in it never reaches a node (round 11's evaluation: a
// Dashing-era JetBot launch).
func removedNodeArgument(s *expr) (arg, callee string) {
	u := s.u
	if u.lang != langPython || s.n == nil {
		return "", ""
	}
	root := s.n
	for root.parent != nil {
		root = root.parent
	}
	var walk func(n *node)
	walk = func(n *node) {
		if arg != "" {
			return
		}
		if n.kind == "keyword_argument" && removedNodeArguments[u.text(n.child("name"))] &&
			n.parent != nil && n.parent.kind == "argument_list" && n.parent.parent != nil && n.parent.parent.kind == "call" {
			switch name := lastName(u.text(n.parent.parent.child("function"))); name {
			case "Node", "LifecycleNode", "ComposableNodeContainer", "ComposableNode":
				arg, callee = u.text(n.child("name")), name
				return
			}
		}
		for _, ch := range n.children {
			walk(ch)
		}
	}
	walk(root)
	return arg, callee
}
