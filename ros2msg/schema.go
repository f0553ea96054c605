package ros2msg

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Sentinel errors. Parse and Decode wrap them with the place of the
// problem; match them with errors.Is.
var (
	// ErrSyntax reports a line of a message definition that cannot be parsed.
	ErrSyntax = errors.New("invalid message definition")
	// ErrUnknownType reports a field whose type is defined nowhere in the
	// schema text and is not one of the well-known types ros2msg embeds.
	ErrUnknownType = errors.New("unknown message type")
	// ErrRecursive reports a type that contains itself, which CDR cannot encode.
	ErrRecursive = errors.New("recursive message type")
	// ErrTrailingData reports bytes left after a full decode that are more
	// than the 0-3 bytes of padding rmw implementations append.
	ErrTrailingData = errors.New("trailing bytes after message")
)

// A SyntaxError names the type and line of a definition that failed to parse.
// It unwraps to ErrSyntax, ErrUnknownType or ErrRecursive.
type SyntaxError struct {
	Type string // the type whose definition holds the line, "pkg/Type"
	Line int    // 1-based line number in the schema text, 0 when unknown
	Text string // the offending line or type name
	Err  error
}

// Error names the type, line and problem.
func (e *SyntaxError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("ros2msg: %s line %d %q: %v", e.Type, e.Line, e.Text, e.Err)
	}
	return fmt.Sprintf("ros2msg: %s: %q: %v", e.Type, e.Text, e.Err)
}

// Unwrap returns ErrSyntax, ErrUnknownType or ErrRecursive, wrapped.
func (e *SyntaxError) Unwrap() error { return e.Err }

// Kind is the kind of a field's base type.
type Kind uint8

// The builtin kinds of the ROS 2 interface definition language, plus
// Message for nested types.
const (
	Invalid Kind = iota
	Bool
	Byte
	Char
	Int8
	Uint8
	Int16
	Uint16
	Int32
	Uint32
	Int64
	Uint64
	Float32
	Float64
	String
	WString
	Message
)

var kindNames = [...]string{
	Invalid: "invalid", Bool: "bool", Byte: "byte", Char: "char", Int8: "int8", Uint8: "uint8",
	Int16: "int16", Uint16: "uint16", Int32: "int32", Uint32: "uint32", Int64: "int64",
	Uint64: "uint64", Float32: "float32", Float64: "float64", String: "string",
	WString: "wstring", Message: "message",
}

// String returns the .msg spelling of k ("int32").
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Size returns the serialized size (and CDR alignment) of a primitive kind,
// or 0 for strings and messages.
func (k Kind) Size() int {
	switch k {
	case Bool, Byte, Char, Int8, Uint8:
		return 1
	case Int16, Uint16:
		return 2
	case Int32, Uint32, Float32:
		return 4
	case Int64, Uint64, Float64:
		return 8
	}
	return 0
}

var builtinKinds = map[string]Kind{
	"bool": Bool, "byte": Byte, "char": Char, "int8": Int8, "uint8": Uint8,
	"int16": Int16, "uint16": Uint16, "int32": Int32, "uint32": Uint32,
	"int64": Int64, "uint64": Uint64, "float32": Float32, "float64": Float64,
	"string": String, "wstring": WString,
}

// ArrayKind says whether a field is a scalar, a fixed array or a sequence.
type ArrayKind uint8

// Array kinds.
const (
	Scalar    ArrayKind = iota // T
	Fixed                      // T[N]
	Bounded                    // T[<=N]: a sequence of at most N elements
	Unbounded                  // T[]
)

// A Field is one member of a message type.
type Field struct {
	Name string
	// Kind is the kind of the base type (the element type for arrays).
	Kind Kind
	// TypeName is the base type as written for builtins ("int32") and the
	// canonical "pkg/Type" name for nested messages.
	TypeName string
	// Type is the resolved nested type when Kind is Message.
	Type *Type
	// Array, with Len: Fixed holds exactly Len elements, Bounded at most Len.
	Array ArrayKind
	Len   int
	// StringBound is N in string<=N (0 means unbounded).
	StringBound int
	// Default is the default value exactly as written, or "".
	Default string
}

// A Constant is a named constant of a message type ("uint8 INFO=20").
type Constant struct {
	Name  string
	Kind  Kind
	Value string // as written, surrounding spaces removed
}

// A Type is one message type of a schema.
type Type struct {
	// Name is the canonical "pkg/Type" name (no "/msg/" or "/srv/").
	Name      string
	Fields    []Field
	Constants []Constant

	// computed by the schema after resolution
	hasTime bool // a builtin_interfaces/Time is reachable from this type
	lastTF  int  // index of the last field through which a Time is reachable
	minSize int  // smallest serialized size, used to bound sequence lengths
}

// HasTime reports whether a builtin_interfaces/Time field is reachable
// from t (directly or through nested types and arrays).
func (t *Type) HasTime() bool { return t.hasTime }

// A Schema is a parsed ros2msg schema: the root type and every type it
// depends on, resolved.
type Schema struct {
	// Name is the schema name as the bag gives it ("std_msgs/msg/Header").
	Name  string
	Root  *Type
	Types map[string]*Type // by canonical name

	plan *planNode // nil when the root holds no Time
	// fixed lists the Times when each sits at an offset no payload
	// moves (fixedLayout), read directly by AppendTimes; nil otherwise.
	fixed *FixedLayout
}

// TimeType and HeaderType are the canonical names of the types Times
// looks for.
const (
	TimeType   = "builtin_interfaces/Time"
	HeaderType = "std_msgs/Header"
)

// wellKnown holds definitions used when a schema refers to a type it does
// not define (rosbag2 omits nothing in practice, but hand-written schemas
// and service events do). The shipped interface files (shipped.go) are
// the next fallback.
var wellKnown = map[string]string{
	"builtin_interfaces/Time":     "int32 sec\nuint32 nanosec\n",
	"builtin_interfaces/Duration": "int32 sec\nuint32 nanosec\n",
	"std_msgs/Header":             "builtin_interfaces/Time stamp\nstring frame_id\n",
	"rosgraph_msgs/Clock":         "builtin_interfaces/Time clock\n",
	"service_msgs/ServiceEventInfo": "uint8 REQUEST_SENT = 0\nuint8 REQUEST_RECEIVED = 1\n" +
		"uint8 RESPONSE_SENT = 2\nuint8 RESPONSE_RECEIVED = 3\nuint8 event_type\n" +
		"builtin_interfaces/Time stamp\nchar[16] client_gid\nint64 sequence_number\n",
}

// Canonical returns the "pkg/Type" form of a ROS type name:
// "std_msgs/msg/Header" and "std_msgs/Header" both give "std_msgs/Header".
func Canonical(name string) string {
	name = strings.TrimSpace(name)
	if i := strings.IndexByte(name, '/'); i >= 0 {
		if j := strings.LastIndexByte(name, '/'); j > i {
			return name[:i] + name[j:]
		}
	}
	return name
}

func pkgOf(canonical string) string {
	if i := strings.IndexByte(canonical, '/'); i >= 0 {
		return canonical[:i]
	}
	return ""
}

type section struct {
	name  string // canonical
	lines []string
	first int // line number of lines[0]
}

// maxFixedLen bounds T[N] so a garbage schema cannot ask for a huge array.
const maxFixedLen = 1 << 24

// Parse parses a ros2msg schema as rosbag2 stores it in MCAP: the root
// type's .msg text, then for each dependency a line of '=' characters, a
// line "MSG: pkg/Type" and that type's text. name is the schema name
// ("pkg/msg/Type"). A service event schema written as the .srv text
// ("request --- response", as Iron-era rosbag2 does) is expanded to the
// Event type rosidl generates: info, request[<=1], response[<=1].
func Parse(name string, data []byte) (*Schema, error) {
	root := Canonical(name)
	if root == "" || strings.ContainsAny(root, " \t\n") {
		return nil, &SyntaxError{Type: name, Text: name, Err: fmt.Errorf("%w: bad type name", ErrSyntax)}
	}
	sections, err := split(root, data)
	if err != nil {
		return nil, err
	}
	p := &parser{types: map[string]*Type{}, lines: map[string]*section{}}
	for _, s := range sections {
		if _, dup := p.lines[s.name]; dup {
			continue // rosbag2 repeats shared dependencies; the first wins
		}
		p.lines[s.name] = s
	}
	// A well-known type stored without its text (rosbag2 writes an empty
	// definition when it finds none) takes the built-in definition.
	if _, ok := knownDefinition(root); ok && blank(p.lines[root].lines) {
		delete(p.lines, root)
	}
	// Service events: the root text is a .srv (request, "---", response).
	if rs := p.lines[root]; rs != nil && strings.HasSuffix(root, "_Event") && hasSeparator(rs.lines) {
		base := strings.TrimSuffix(root, "_Event")
		req, resp := splitSrv(rs)
		req.name, resp.name = base+"_Request", base+"_Response"
		p.lines[req.name], p.lines[resp.name] = req, resp
		p.lines[root] = &section{name: root, lines: []string{
			"service_msgs/ServiceEventInfo info",
			req.name + "[<=1] request",
			resp.name + "[<=1] response",
		}}
	}
	t, err := p.resolve(root, 0)
	if err != nil {
		return nil, err
	}
	sc := &Schema{Name: name, Root: t, Types: p.types}
	if t.hasTime {
		budget := maxPlanNodes
		if sc.plan, err = buildPlan(t, "", "", false, &budget); err != nil {
			return nil, err
		}
		if times, end, ok := fixedLayout(sc.plan); ok && len(times) > 0 {
			sc.fixed = &FixedLayout{Times: times, End: end}
		}
	}
	return sc, nil
}

func blank(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(stripComment(l)) != "" {
			return false
		}
	}
	return true
}

func hasSeparator(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(stripComment(l)) == "---" {
			return true
		}
	}
	return false
}

func splitSrv(s *section) (req, resp *section) {
	req, resp = &section{first: s.first}, &section{}
	cur := req
	for i, l := range s.lines {
		if cur == req && strings.TrimSpace(stripComment(l)) == "---" {
			cur = resp
			resp.first = s.first + i + 1
			continue
		}
		if strings.TrimSpace(stripComment(l)) == "---" {
			break // an action's feedback: not part of a service
		}
		cur.lines = append(cur.lines, l)
	}
	return req, resp
}

func split(root string, data []byte) ([]*section, error) {
	cur := &section{name: root, first: 1}
	out := []*section{cur}
	lineNo := 0
	expectMSG := false
	for len(data) > 0 {
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		lineNo++
		l := strings.TrimRight(string(line), "\r")
		t := strings.TrimSpace(l)
		if len(t) >= 3 && strings.Trim(t, "=") == "" {
			expectMSG = true
			continue
		}
		if expectMSG {
			if t == "" {
				continue
			}
			rest, ok := strings.CutPrefix(t, "MSG:")
			if !ok {
				return nil, &SyntaxError{Type: cur.name, Line: lineNo, Text: l,
					Err: fmt.Errorf("%w: want \"MSG: pkg/Type\" after a separator line", ErrSyntax)}
			}
			name := Canonical(rest)
			if name == "" || strings.ContainsAny(name, " \t") {
				return nil, &SyntaxError{Type: cur.name, Line: lineNo, Text: l, Err: fmt.Errorf("%w: bad type name", ErrSyntax)}
			}
			cur = &section{name: name, first: lineNo + 1}
			out = append(out, cur)
			expectMSG = false
			continue
		}
		cur.lines = append(cur.lines, l)
	}
	return out, nil
}

type parser struct {
	types    map[string]*Type
	lines    map[string]*section
	visiting []string
}

// resolve parses and resolves the type called name (canonical).
func (p *parser) resolve(name string, depth int) (*Type, error) {
	if t, ok := p.types[name]; ok {
		if t == nil {
			return nil, &SyntaxError{Type: name, Text: strings.Join(p.visiting, " -> "), Err: ErrRecursive}
		}
		return t, nil
	}
	s := p.lines[name]
	if s == nil {
		def, ok := knownDefinition(name)
		if !ok {
			return nil, nil // the caller reports where it is used
		}
		s = &section{name: name, lines: strings.Split(def, "\n")}
	}
	p.types[name] = nil // in progress
	p.visiting = append(p.visiting, name)
	defer func() { p.visiting = p.visiting[:len(p.visiting)-1] }()
	t := &Type{Name: name, lastTF: -1}
	for i, raw := range s.lines {
		lineNo := 0
		if s.first > 0 {
			lineNo = s.first + i
		}
		fail := func(err error) error {
			return &SyntaxError{Type: name, Line: lineNo, Text: strings.TrimSpace(raw), Err: err}
		}
		f, c, err := parseLine(raw)
		if err != nil {
			return nil, fail(err)
		}
		if c != nil {
			t.Constants = append(t.Constants, *c)
			continue
		}
		if f == nil {
			continue
		}
		if f.Kind == Message {
			ref := f.TypeName
			var cands []string
			switch {
			case strings.Contains(ref, "/"):
				cands = []string{Canonical(ref)}
			case ref == "Header":
				cands = []string{pkgOf(name) + "/Header", HeaderType}
			default:
				cands = []string{pkgOf(name) + "/" + ref}
			}
			var nt *Type
			for _, cand := range cands {
				nt, err = p.resolve(cand, depth+1)
				if err != nil {
					return nil, err
				}
				if nt != nil {
					break
				}
			}
			if nt == nil {
				return nil, &SyntaxError{Type: name, Line: lineNo, Text: strings.TrimSpace(raw),
					Err: fmt.Errorf("%w %s", ErrUnknownType, cands[0])}
			}
			f.Type, f.TypeName = nt, nt.Name
		}
		for _, g := range t.Fields {
			if g.Name == f.Name {
				return nil, fail(fmt.Errorf("%w: duplicate field %s", ErrSyntax, f.Name))
			}
		}
		t.Fields = append(t.Fields, *f)
	}
	if name == TimeType && !isSecNsec(t) {
		return nil, &SyntaxError{Type: name, Text: name,
			Err: fmt.Errorf("%w: builtin_interfaces/Time must be int32 sec, uint32 nanosec (R8)", ErrSyntax)}
	}
	t.finish()
	p.types[name] = t
	return t, nil
}

func isSecNsec(t *Type) bool {
	f := t.Fields
	return len(f) == 2 && f[0].Kind == Int32 && f[0].Array == Scalar && f[1].Kind == Uint32 && f[1].Array == Scalar
}

func (t *Type) finish() {
	for i, f := range t.Fields {
		if f.Kind == Message && (f.TypeName == TimeType || f.Type.hasTime) {
			t.hasTime = true
			t.lastTF = i
		}
	}
	if len(t.Fields) == 0 {
		t.minSize = 1 // rosidl adds "uint8 structure_needs_at_least_one_member"
		return
	}
	for _, f := range t.Fields {
		var m int
		switch {
		case f.Array == Bounded || f.Array == Unbounded:
			m = 4
		case f.Kind == String || f.Kind == WString:
			m = 4
		case f.Kind == Message:
			m = f.Type.minSize
		default:
			m = f.Kind.Size()
		}
		if f.Array == Fixed {
			m *= f.Len
		}
		t.minSize += m
		if t.minSize > 1<<30 {
			t.minSize = 1 << 30
		}
	}
}

// stripComment removes a '#' comment that is not inside a quoted string.
func stripComment(l string) string {
	var quote byte
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case quote != 0 && c == '\\':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote == 0 && c == '#':
			return l[:i]
		}
	}
	return l
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && (c == '_' || c >= '0' && c <= '9'):
		default:
			return false
		}
	}
	return true
}

// parseLine parses one definition line into a field or a constant; a
// blank or comment line gives neither.
func parseLine(raw string) (*Field, *Constant, error) {
	line := strings.TrimSpace(raw)
	if line == "" || line[0] == '#' {
		return nil, nil, nil
	}
	typ, rest, _ := strings.Cut(strings.ReplaceAll(line, "\t", " "), " ")
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return nil, nil, fmt.Errorf("%w: want \"type name\"", ErrSyntax)
	}
	f := Field{}
	if err := parseType(typ, &f); err != nil {
		return nil, nil, err
	}
	// Constant: NAME=value (string constants keep '#' in the value).
	name := rest
	if i := strings.IndexAny(rest, " ="); i >= 0 {
		name = rest[:i]
	}
	after := strings.TrimLeft(rest[len(name):], " ")
	if strings.HasPrefix(after, "=") {
		if f.Kind == Message || f.Array != Scalar {
			return nil, nil, fmt.Errorf("%w: constants must be of a primitive type", ErrSyntax)
		}
		if !isIdent(name) {
			return nil, nil, fmt.Errorf("%w: bad constant name %q", ErrSyntax, name)
		}
		val := strings.TrimSpace(after[1:])
		if f.Kind != String && f.Kind != WString {
			val = strings.TrimSpace(stripComment(val))
		}
		if val == "" {
			return nil, nil, fmt.Errorf("%w: constant %s has no value", ErrSyntax, name)
		}
		return nil, &Constant{Name: name, Kind: f.Kind, Value: val}, nil
	}
	rest = strings.TrimSpace(stripComment(rest))
	name, def, _ := strings.Cut(rest, " ")
	if !isIdent(name) {
		return nil, nil, fmt.Errorf("%w: bad field name %q", ErrSyntax, name)
	}
	f.Name = name
	f.Default = strings.TrimSpace(def)
	return &f, nil, nil
}

func parseType(s string, f *Field) error {
	base := s
	if i := strings.IndexByte(s, '['); i >= 0 {
		if !strings.HasSuffix(s, "]") {
			return fmt.Errorf("%w: bad array type %q", ErrSyntax, s)
		}
		base = s[:i]
		inner := s[i+1 : len(s)-1]
		switch {
		case inner == "":
			f.Array = Unbounded
		case strings.HasPrefix(inner, "<="):
			f.Array = Bounded
			n, err := strconv.Atoi(inner[2:])
			if err != nil || n <= 0 || n > maxFixedLen {
				return fmt.Errorf("%w: bad sequence bound in %q", ErrSyntax, s)
			}
			f.Len = n
		default:
			f.Array = Fixed
			n, err := strconv.Atoi(inner)
			if err != nil || n <= 0 || n > maxFixedLen {
				return fmt.Errorf("%w: bad array length in %q", ErrSyntax, s)
			}
			f.Len = n
		}
	}
	if b, bound, ok := strings.Cut(base, "<="); ok {
		if b != "string" && b != "wstring" {
			return fmt.Errorf("%w: only strings take a bound, not %q", ErrSyntax, s)
		}
		n, err := strconv.Atoi(bound)
		if err != nil || n <= 0 {
			return fmt.Errorf("%w: bad string bound in %q", ErrSyntax, s)
		}
		base, f.StringBound = b, n
	}
	if k, ok := builtinKinds[base]; ok {
		f.Kind, f.TypeName = k, base
		return nil
	}
	parts := strings.Split(base, "/")
	if len(parts) > 3 {
		return fmt.Errorf("%w: bad type %q", ErrSyntax, s)
	}
	for _, p := range parts {
		if !isIdent(p) {
			return fmt.Errorf("%w: bad type %q", ErrSyntax, s)
		}
	}
	f.Kind, f.TypeName = Message, base
	return nil
}
