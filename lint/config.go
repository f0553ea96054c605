package lint

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Parameter files, launch files and shell scripts set use_sim_time as often
// as code does, so the string detectors (R16) also read them. YAML goes
// through a YAML parser, XML launch files through encoding/xml, shell
// scripts line by line; each is lowered to string expressions whose role
// says what they stand for. They need no cgo.

// lowerConfig records the parameter names, launch argument names and
// command-line text of a YAML, XML launch or shell file as string
// expressions of u, and its comments for suppression. On a parse error what
// was read so far is kept.
func lowerConfig(u *unit) (err error) {
	defer func() {
		// yaml.v3 has panicked on malformed input in the past; a bad file
		// must not take the run down.
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: %v", ErrParse, p)
		}
	}()
	// The names a launch file's set_parameter gives (XML, launch.yaml) form
	// one scope, taken as the whole file, even when the file stops early.
	defer func() {
		var set []*expr
		for _, e := range u.strings {
			if e.scopeParam {
				set = append(set, e)
			}
		}
		besideSimTime(set)
	}()
	switch u.lang {
	case langYAML:
		return u.lowerYAML()
	case langXML:
		return u.lowerXML()
	case langShell:
		u.lowerShell()
	}
	return nil
}

// besideSimTime marks every parameter name of one scope as beside a
// correct use_sim_time when one of them is use_sim_time: the node (or every
// node of the scope) gets use_sim_time anyway, so R16 leaves its
// "/use_sim_time" alone, and a YAML mapping's or Python dict's misspelt
// key beside it is a duplicate to remove. The front ends give it their
// scopes: a YAML mapping's keys, a launch.yaml node's param names, a ROS 2
// XML node's <param> names, a Python dict's keys, and a file's
// set_parameter names.
func besideSimTime(names []*expr) {
	for _, e := range names {
		if e.name == simTime {
			for _, x := range names {
				x.beside = true
			}
			return
		}
	}
}

// addString records the string name found at byte offset off (-1 when
// unknown: the string is then placed at the start of the file and has no
// content node, so no fix).
func (u *unit) addString(off int, name string, role strRole) *expr {
	e := &expr{kind: eString, name: name, role: role, n: &node{kind: "string"}}
	if off >= 0 && off+len(name) <= len(u.src) && string(u.src[off:off+len(name)]) == name {
		e.n.start, e.n.end = off, off+len(name)
		e.content = e.n
	} else {
		off = max(off, 0)
		e.n.start, e.n.end = off, min(off+len(name), len(u.src))
	}
	u.strings = append(u.strings, e)
	return e
}

// lowerYAML records every mapping key as a parameter name (parameter files,
// "/**: ros__parameters:" wildcards included), the name of a launch.yaml
// param or set_parameter as a parameter name and of a launch.yaml arg as a
// launch argument, and every other scalar as text.
func (u *unit) lowerYAML() error {
	dec := yaml.NewDecoder(bytes.NewReader(u.src))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: %v", ErrParse, err)
		}
		u.yamlComments(&doc)
		u.walkYAML(&doc, "", yamlCtx{})
	}
}

// yamlOffset is the byte offset of a scalar's text: its position, past an
// opening quote.
func (u *unit) yamlOffset(n *yaml.Node) int {
	off := u.offsetOf(n.Line, n.Column)
	if off >= 0 && off < len(u.src) && (u.src[off] == '"' || u.src[off] == '\'') {
		off++
	}
	return off
}

// yamlCtx is what encloses a YAML node, for the parameter names a ROS 2
// node receives as written (R16's "/use_sim_time").
type yamlCtx struct {
	params bool     // the mapping directly under ros__parameters
	node   bool     // inside a launch.yaml node or composable_node
	group  *[]*expr // the names of a launch.yaml node's param list
}

// walkYAML lowers n, whose key in the enclosing mapping (or the key of the
// sequence holding it) is parent.
func (u *unit) walkYAML(n *yaml.Node, parent string, ctx yamlCtx) {
	switch n.Kind {
	case yaml.MappingNode:
		// A launch.yaml "param: [{name: x, value: y}]" item, or an arg.
		var nameNode *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "name" {
				nameNode = n.Content[i+1]
			}
		}
		var keys []*expr
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			e := u.addString(u.yamlOffset(k), k.Value, roleParamName)
			e.ros2Param = ctx.params
			keys = append(keys, e)
			if v == nameNode && v.Kind == yaml.ScalarNode {
				switch parent {
				case "param", "set_parameter":
					e := u.addString(u.yamlOffset(v), v.Value, roleParamName)
					e.ros2Param = parent == "param" && ctx.node
					e.scopeParam = parent == "set_parameter"
					if parent == "param" && ctx.group != nil {
						*ctx.group = append(*ctx.group, e)
					}
					continue
				case "arg":
					u.addString(u.yamlOffset(v), v.Value, roleLaunchArg)
					continue
				}
			}
			child := yamlCtx{
				params: k.Value == "ros__parameters",
				node:   ctx.node || k.Value == "node" || k.Value == "composable_node",
			}
			var group []*expr
			if k.Value == "param" && child.node {
				child.group = &group
			}
			u.walkYAML(v, k.Value, child)
			besideSimTime(group)
		}
		// A key beside use_sim_time in the same mapping is a duplicate.
		besideSimTime(keys)
		for _, e := range keys {
			if e.beside {
				e.role = roleDupName
			}
		}
	case yaml.SequenceNode, yaml.DocumentNode:
		for _, c := range n.Content {
			u.walkYAML(c, parent, ctx)
		}
	case yaml.ScalarNode:
		if strings.Contains(n.Value, ":=") {
			u.addText(u.yamlOffset(n), n.Value)
		}
	}
}

// addText records text that may hold name:=value arguments. The text is
// looked up in the source from off, so that fixes land on the right bytes
// even when the scalar or attribute was quoted or escaped; when it is not
// found verbatim, its arguments are reported without a fix.
func (u *unit) addText(off int, text string) {
	u.addString(off, text, roleText)
}

// lowerXML records the name of <param> and <set_parameter> elements as
// parameter names, of <arg> as launch argument names, and every other
// attribute value that holds ":=" as text (args="--ros-args -p x:=1").
func (u *unit) lowerXML() error {
	dec := xml.NewDecoder(bytes.NewReader(u.src))
	dec.Strict = false
	// The open elements, for the <param> names a launch_ros node receives
	// as written: a ROS 2 <node> (it names its executable exec=, ROS 1's
	// type=) or a <composable_node>. Its names are one scope for
	// besideSimTime.
	type frame struct {
		name  string
		ros2  bool
		names []*expr
	}
	var open []*frame
	for {
		start := int(dec.InputOffset())
		tok, err := dec.RawToken()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: %w", ErrParse, err)
		}
		end := int(dec.InputOffset())
		switch t := tok.(type) {
		case xml.StartElement:
			var parent *frame
			if len(open) > 0 {
				parent = open[len(open)-1]
			}
			f := &frame{name: t.Name.Local}
			switch t.Name.Local {
			case "node":
				for _, a := range t.Attr {
					f.ros2 = f.ros2 || a.Name.Local == "exec"
				}
			case "composable_node":
				f.ros2 = true
			}
			open = append(open, f)
			for _, a := range t.Attr {
				role := roleText
				if a.Name.Local == "name" {
					switch t.Name.Local {
					case "param", "set_parameter":
						role = roleParamName
					case "arg":
						role = roleLaunchArg
					}
				}
				if role == roleText && !strings.Contains(a.Value, ":=") {
					continue
				}
				// The value's position inside this tag's bytes.
				rel := bytes.Index(u.src[start:end], []byte(a.Value))
				off := -1
				if rel >= 0 {
					off = start + rel
				}
				e := u.addString(off, a.Value, role)
				// Only ROS 2's launch_xml has <set_parameter>.
				e.scopeParam = t.Name.Local == "set_parameter" && role == roleParamName
				if t.Name.Local == "param" && role == roleParamName && parent != nil && parent.ros2 {
					e.ros2Param = true
					parent.names = append(parent.names, e)
				}
			}
		case xml.EndElement:
			// Pop to the matching element (a non-strict decoder passes
			// unbalanced tags through).
			for i := len(open) - 1; i >= 0; i-- {
				if open[i].name != t.Name.Local {
					continue
				}
				for _, f := range open[i:] {
					besideSimTime(f.names)
				}
				open = open[:i]
				break
			}
		case xml.Comment:
			u.comments = append(u.comments, &node{kind: "comment", start: start, end: end})
		}
	}
}

// lowerShell records every line of a shell script that may set a parameter
// (name:=value, ros2 param set) as text; "#" comments are comments.
func (u *unit) lowerShell() {
	off := 0
	for off < len(u.src) {
		end := bytes.IndexByte(u.src[off:], '\n')
		if end < 0 {
			end = len(u.src)
		} else {
			end += off
		}
		line := u.src[off:end]
		code := line
		if i := shellComment(line); i >= 0 {
			u.comments = append(u.comments, &node{kind: "comment", start: off + i, end: end})
			code = line[:i]
		}
		if bytes.Contains(code, []byte(":=")) || bytes.Contains(code, []byte("param")) {
			u.addString(off, string(code), roleText)
		}
		off = end + 1
	}
}

// shellComment returns the index of the "#" that starts a comment in a
// shell line, or -1. A "#" starts a comment at the start of a word outside
// quotes ("${#x}" and "a#b" do not).
func shellComment(line []byte) int {
	var quote byte
	for i, b := range line {
		switch {
		case quote != 0:
			if b == quote {
				quote = 0
			}
		case b == '\'' || b == '"':
			quote = b
		case b == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return i
		}
	}
	return -1
}

// yamlComments records the comments yaml.v3 attaches to nodes as comment
// nodes at their line, so "# simclock: ignore[R16]" works in YAML too.
func (u *unit) yamlComments(n *yaml.Node) {
	for _, c := range []string{n.LineComment, n.HeadComment} {
		if !strings.Contains(c, "simclock:") {
			continue
		}
		line := n.Line
		if c == n.HeadComment {
			line-- // a head comment sits on the line(s) above
		}
		if off := u.offsetOf(line, 1); off >= 0 {
			end := bytes.IndexByte(u.src[off:], '\n')
			if end < 0 {
				end = len(u.src) - off
			}
			// The comment text is found on its own line by the suppression
			// scan, which reads from the first "simclock:" on the node.
			if i := bytes.Index(u.src[off:off+end], []byte("#")); i >= 0 {
				u.comments = append(u.comments, &node{kind: "comment", start: off + i, end: off + end})
			}
		}
	}
	for _, c := range n.Content {
		u.yamlComments(c)
	}
}

// offsetOf converts a 1-based line and code-point column to a byte offset,
// -1 when out of range.
func (u *unit) offsetOf(line, col int) int {
	if u.lines == nil {
		u.lines = append(u.lines, 0)
		for i, b := range u.src {
			if b == '\n' {
				u.lines = append(u.lines, i+1)
			}
		}
	}
	if line < 1 || line > len(u.lines) {
		return -1
	}
	off := u.lines[line-1]
	for c := 1; c < col; c++ {
		if off >= len(u.src) || u.src[off] == '\n' {
			return -1
		}
		_, size := utf8.DecodeRune(u.src[off:])
		off += size
	}
	return off
}

// configParseError describes a YAML, XML or shell file that lowerConfig
// could not read to the end, with the line of the error when the parser
// gives one.
func configParseError(u *unit, err error) ParseError {
	pe := ParseError{File: u.path, Message: err.Error()}
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		pe.Line = se.Line
	} else if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		pe.Line, _ = strconv.Atoi(m[1])
	}
	pe.Message = strings.TrimPrefix(pe.Message, ErrParse.Error()+": ")
	// yaml.v3 also counts a lone "\r" as a line break; findings count "\n".
	pe.Line = min(pe.Line, bytes.Count(u.src, []byte{'\n'})+1)
	return pe
}

// yamlLine finds the line in yaml.v3's error messages ("yaml: line 3: ...").
var yamlLine = regexp.MustCompile(`line (\d+)`)
