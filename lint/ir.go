package lint

// The front ends (python.go, cpp.go) lower both languages into this small
// intermediate form, so the data-flow pass and the checks in analyze.go are
// written once. It keeps only what the checks need: functions and the class
// they belong to, assignments, conditions, early exits and expressions.

// exprKind classifies an expression.
type exprKind uint8

const (
	eOther   exprKind = iota // anything else; subs holds its subexpressions
	eName                    // identifier or qualified name (rclcpp.Time); "self" for self/this
	eAttr                    // recv.name (Python attribute, C++ field access)
	eCall                    // recv(args..., kw=...)
	eBinary                  // l op r, arithmetic
	eCompare                 // l op r, one comparison (Python chains are split)
	eAnd                     // l and r
	eOr                      // l or r
	eNot                     // not l
	eNumber                  // numeric literal
	eString                  // string literal; name holds its content
	eChrono                  // C++ chrono literal such as 100ms
	eCond                    // conditional expression; subs are the branches
)

// expr is one expression.
type expr struct {
	kind   exprKind
	n      *node  // syntax node, for positions and text
	name   string // eName, eAttr: the name; eString: content; eCall of a template: template args
	op     string // eBinary, eCompare
	recv   *expr  // eAttr: object; eCall: callee
	l, r   *expr  // eBinary, eCompare, eAnd, eOr; eNot uses l
	args   []*expr
	kwargs []kwarg
	splat  bool // eCall: *args or **kwargs present
	subs   []*expr
	// content is the string_content node of an eString, for fixes.
	content *node
	// argList is the argument list node of an eCall, for fixes.
	argList *node
	// role says what an eString is; the front ends of YAML, XML and shell
	// files set it, Python and C++ literals are roleCode.
	role strRole
	// ros2Param marks a parameter name that a ROS 2 node receives as
	// written: a key under ros__parameters, a <param> or launch.yaml param
	// of a launch_ros node (R16's "/use_sim_time").
	ros2Param bool
	// scopeParam marks a parameter name that a launch file's
	// set_parameter (Python SetParameter) gives every node in its scope
	// (R16's "/use_sim_time").
	scopeParam bool
	// beside marks a parameter name given in a scope that also gives
	// use_sim_time itself (besideSimTime): a YAML mapping, a launch.yaml
	// node's param list, a ROS 2 XML node's <param>s, a Python dict, a
	// launch file's set_parameter names.
	beside bool
	u      *unit
}

// strRole is what a string expression stands for.
type strRole uint8

const (
	roleCode      strRole = iota // a Python or C++ string literal: its context is in the syntax tree
	roleParamName                // a parameter name: a YAML parameter file key, <param name=...>
	roleDupName                  // a parameter name in a mapping that also has use_sim_time
	roleLaunchArg                // a launch argument's name: <arg name=...>, launch.yaml arg
	roleText                     // a value or command line that may hold name:=value arguments
)

// bindUnit points every expression of u at u, so expr.text works.
func bindUnit(u *unit) {
	var bind func(e *expr)
	bind = func(e *expr) {
		if e == nil || e.u == u {
			return
		}
		e.u = u
		bind(e.recv)
		bind(e.l)
		bind(e.r)
		for _, a := range e.args {
			bind(a)
		}
		for _, k := range e.kwargs {
			bind(k.value)
		}
		for _, s := range e.subs {
			bind(s)
		}
	}
	for _, f := range u.fns {
		eachStmt(f.body, func(s *stmt) {
			bind(s.e)
			bind(s.target)
			bind(s.value)
		})
	}
	for _, c := range u.classes {
		for _, fl := range c.fields {
			if fl.file == u {
				bind(fl.init)
			}
		}
	}
	for _, e := range u.strings {
		bind(e)
	}
}

// pyImport is a top-level Python import statement: the first module it
// names and the byte range of its lines.
type pyImport struct {
	module     string
	from       bool
	start, end int
}

// kwarg is a Python keyword argument.
type kwarg struct {
	name  string
	value *expr
}

// stmtKind classifies a statement.
type stmtKind uint8

const (
	sExpr   stmtKind = iota // e is evaluated
	sAssign                 // target = value (value may be nil for a C++ declaration)
	sIf                     // if e { then } else { els }
	sExit                   // return, raise, throw, continue, break; e is the returned value
	sBlock                  // loop, try, with, switch: body runs, maybe more than once
)

// stmt is one statement.
type stmt struct {
	kind   stmtKind
	n      *node
	e      *expr
	target *expr
	typ    string // C++ declared type, normalised (rclcpp.Time); "" when none or auto
	value  *expr
	decl   bool // C++ declaration of a local
	then   []*stmt
	els    []*stmt
	body   []*stmt
}

// class is a class (or struct) definition. In C++ the methods of one class
// may be spread over a header and source files; classes are merged by name.
type class struct {
	name   string
	isNode bool // derives from rclpy/rclcpp Node or LifecycleNode
	// bases are the simple names of the base classes, so that a class
	// deriving from a Node subclass of the same package is a node too.
	bases []string
	// baseTypes are the base classes' normalised names (rclcpp.Node).
	baseTypes []string
	lang      lang
	fields    map[string]*field
	fns       []*fn // every function whose class this is, lambdas included
}

// field is a C++ data member declaration.
type field struct {
	name string
	typ  string
	init *expr // default member initializer, nil when none
	n    *node // the declarator, for fixes
	decl *node // the whole declaration
	file *unit
}

// fn is a function, method or lambda body.
type fn struct {
	name   string
	cls    *class
	ctor   bool
	outer  *fn // enclosing function of a lambda or nested def
	params map[string]string
	// paramOrder lists the parameter names in order (Python's self
	// included), to map a call's arguments to them.
	paramOrder []string
	// outParams are C++ parameters passed by non-const reference: what a
	// caller passes there is overwritten, so its facts do not flow in.
	outParams map[string]bool
	body      []*stmt
	n         *node
	u         *unit
}

// unit is one parsed source file.
type unit struct {
	path string
	lang lang
	src  []byte
	// disk is set when src was read from the file at path by this run
	// (not handed in by Source): the file on disk is src.
	disk    bool
	root    *node
	fns     []*fn
	classes []*class
	// imports maps a Python name bound by an import to its qualified name.
	imports map[string]string
	// lastImportEnd is the byte offset after the last top-level import line.
	lastImportEnd int
	// topImports are the top-level import statements, in file order, for
	// placing an added import where ament_flake8's import order wants it.
	topImports []pyImport
	comments   []*node
	strings    []*expr
	// lines holds the byte offset of each line's start, built on demand.
	lines []int
}

func (u *unit) text(n *node) string {
	if n == nil {
		return ""
	}
	return string(u.src[n.start:n.end])
}
