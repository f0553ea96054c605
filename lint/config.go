package lint

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Parameter files and XML launch files set use_sim_time as often as code
// does, so R16 also reads them: YAML through a YAML parser (keys of
// mappings), XML launch files through encoding/xml (attribute values, as in
// <param name="use_sim_time" value="true"/>). They need no cgo.

// configFindings checks a YAML or XML launch file for R16.
func configFindings(u *unit) (out []Finding, err error) {
	defer func() {
		// yaml.v3 has panicked on malformed input in the past; a bad file
		// must not take the run down.
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: %v", ErrParse, p)
		}
	}()
	r, _ := RuleByID("R16")
	report := func(off int, name string) {
		var edits []Edit
		if off >= 0 && off+len(name) <= len(u.src) && string(u.src[off:off+len(name)]) == name {
			edits = []Edit{{Start: off, End: off + len(name), New: "use_sim_time"}}
		}
		f := Finding{File: u.path, Rule: r.ID, Level: r.Level,
			Message: fmt.Sprintf("parameter name %q is not use_sim_time: the node silently keeps wall time", name),
			Why:     "Only the use_sim_time parameter switches a node to /clock (R16); any other spelling declares or sets an unrelated parameter and is ignored.",
			Fix:     "write use_sim_time", Edits: edits}
		if off < 0 {
			off = 0
		}
		f.Line, f.Col = u.position(off)
		f.EndLine, f.EndCol = u.position(off + len(name))
		out = append(out, f)
	}
	switch u.lang {
	case langYAML:
		dec := yaml.NewDecoder(bytes.NewReader(u.src))
		for {
			var doc yaml.Node
			err := dec.Decode(&doc)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return out, fmt.Errorf("%w: %v", ErrParse, err)
			}
			u.yamlComments(&doc)
			walkYAML(&doc, func(key *yaml.Node) {
				if simTimeMisspellings[key.Value] {
					off := u.offsetOf(key.Line, key.Column)
					if off >= 0 && off < len(u.src) && (u.src[off] == '"' || u.src[off] == '\'') {
						off++
					}
					report(off, key.Value)
				}
			})
		}
	case langXML:
		dec := xml.NewDecoder(bytes.NewReader(u.src))
		dec.Strict = false
		for {
			start := int(dec.InputOffset())
			tok, err := dec.RawToken()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return out, fmt.Errorf("%w: %v", ErrParse, err)
			}
			end := int(dec.InputOffset())
			switch t := tok.(type) {
			case xml.StartElement:
				for _, a := range t.Attr {
					if simTimeMisspellings[a.Value] {
						// The value's position inside this tag's bytes.
						rel := bytes.Index(u.src[start:end], []byte(a.Value))
						off := -1
						if rel >= 0 {
							off = start + rel
						}
						report(off, a.Value)
					}
				}
			case xml.Comment:
				u.comments = append(u.comments, &node{kind: "comment", start: start, end: end})
			}
		}
	}
	return out, nil
}

// walkYAML calls f on every mapping key under n.
func walkYAML(n *yaml.Node, f func(key *yaml.Node)) {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			f(n.Content[i])
		}
	}
	for _, c := range n.Content {
		walkYAML(c, f)
	}
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
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(u.src[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	for c := 1; c < col; c++ {
		if off >= len(u.src) || u.src[off] == '\n' {
			return -1
		}
		_, size := utf8.DecodeRune(u.src[off:])
		off += size
	}
	return off
}
