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
// does, so the string detectors (R16) also read them: YAML through a YAML
// parser (keys of mappings), XML launch files through encoding/xml
// (attribute values, as in <param name="use_sim_time" value="true"/>).
// They need no cgo.

// lowerConfig records the mapping keys of a YAML file, or the attribute
// values of an XML launch file, as string expressions of u, and their
// comments for suppression. On a parse error what was read so far is kept.
func lowerConfig(u *unit) (err error) {
	defer func() {
		// yaml.v3 has panicked on malformed input in the past; a bad file
		// must not take the run down.
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: %v", ErrParse, p)
		}
	}()
	// add records the string name at byte offset off (-1 when unknown: the
	// string is then placed at the start of the file and has no content
	// node, so no fix).
	add := func(off int, name string) {
		e := &expr{kind: eString, name: name, n: &node{kind: "string"}}
		if off >= 0 && off+len(name) <= len(u.src) && string(u.src[off:off+len(name)]) == name {
			e.n.start, e.n.end = off, off+len(name)
			e.content = e.n
		} else {
			off = max(off, 0)
			e.n.start, e.n.end = off, min(off+len(name), len(u.src))
		}
		u.strings = append(u.strings, e)
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
				return fmt.Errorf("%w: %v", ErrParse, err)
			}
			u.yamlComments(&doc)
			walkYAML(&doc, func(key *yaml.Node) {
				off := u.offsetOf(key.Line, key.Column)
				if off >= 0 && off < len(u.src) && (u.src[off] == '"' || u.src[off] == '\'') {
					off++
				}
				add(off, key.Value)
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
				return fmt.Errorf("%w: %v", ErrParse, err)
			}
			end := int(dec.InputOffset())
			switch t := tok.(type) {
			case xml.StartElement:
				for _, a := range t.Attr {
					// The value's position inside this tag's bytes.
					rel := bytes.Index(u.src[start:end], []byte(a.Value))
					off := -1
					if rel >= 0 {
						off = start + rel
					}
					add(off, a.Value)
				}
			case xml.Comment:
				u.comments = append(u.comments, &node{kind: "comment", start: start, end: end})
			}
		}
	}
	return nil
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
