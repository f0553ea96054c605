package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/simclock/simclock/internal/term"
	"github.com/simclock/simclock/rules"
)

// Width is the width human output fits by default (docs/cli.md).
const Width = 100

// Layout is how Text lays out each finding.
type Layout int

const (
	// Records heads each finding with its severity in a column, its code,
	// subject, rules and count, and lists its examples under it (bag):
	//
	//	error   zero_stamp /range header.stamp [R10,R29] ×2: stamps equal to 0 ...
	//	          at log +0.000 s (message 0): 0.000000000
	Records Layout = iota
	// Sentences heads each finding with its severity and code, then its
	// message, which names what it is about, and its fix (doctor):
	//
	//	error clock_qos_mismatch: the /clock reader of /robot/strict ...
	//	  fix: give the reader the QoS rclcpp uses for /clock ...
	Sentences
)

// Text writes findings for people. Lines are wrapped at spaces to Width
// columns (0: never), continued indented under their start; findings
// stay in the order given. What a finding says is escaped (term.Escape):
// its names came from a file or the network.
type Text struct {
	Layout Layout
	Width  int
	// Fold breaks a word longer than a line (a 300-byte name) where the
	// line ends, so that no line is wider than Width; otherwise it stays
	// whole.
	Fold bool
	// Example says how one example of a finding reads ("" leaves it out);
	// Records layout only.
	Example func(f rules.Finding, e rules.Example) string
}

// Write writes fs to w.
func (t Text) Write(w io.Writer, fs []rules.Finding) error {
	ew := &errWriter{w: w}
	for _, f := range fs {
		switch t.Layout {
		case Records:
			t.line(ew, "", fmt.Sprintf("%-7s %s %s ×%d: %s", f.Severity, f.Code, term.Escape(strings.TrimSpace(subject(f))), f.Count,
				term.Escape(f.Message)), "    ")
			if t.Example != nil {
				for _, e := range f.Examples {
					if d := t.Example(f, e); d != "" {
						t.line(ew, "          ", term.Escape(d), "    ")
					}
				}
			}
		case Sentences:
			t.line(ew, "", fmt.Sprintf("%s %s: %s", f.Severity, f.Code, term.Escape(f.Message)), "  ")
			if f.Fix != "" {
				t.line(ew, "  ", "fix: "+term.Escape(f.Fix), "  ")
			}
		}
	}
	return ew.err
}

// subject is where a finding of the Records layout is: its topic and
// field, and the rules it cites.
func subject(f rules.Finding) string {
	s := f.Topic
	if f.Field != "" {
		s += " " + f.Field
	}
	if len(f.Rules) > 0 {
		s += " [" + f.Rules.String() + "]"
	}
	return s
}

// line writes margin+text wrapped to t.Width, continuation lines indented
// by indent more than the margin.
func (t Text) line(w io.Writer, margin, text, indent string) {
	width := t.Width
	if width <= 0 {
		fmt.Fprintln(w, margin+text)
		return
	}
	if t.Fold {
		for _, l := range fold(margin+text, width, margin+indent) {
			fmt.Fprintln(w, l)
		}
		return
	}
	for _, l := range Wrap(margin+text, width, margin+indent) {
		fmt.Fprintln(w, l)
	}
}

// fold breaks text into lines of at most width columns at spaces, the
// continuation lines indented by indent (shorter than width); a word too
// long for a line starts a line of its own and is broken where it ends.
func fold(text string, width int, indent string) []string {
	var lines []string
	ind := []rune(indent)
	if len(ind) >= width {
		ind = nil
	}
	var line []rune
	empty := true // line holds nothing but its indent
	flush := func() {
		lines = append(lines, strings.TrimRight(string(line), " "))
		line, empty = append([]rune(nil), ind...), true
	}
	for _, word := range strings.Split(text, " ") {
		r := []rune(word)
		switch {
		case empty:
		case len(line)+1+len(r) <= width:
			line = append(line, ' ')
		default:
			flush()
		}
		line = append(line, r...)
		empty = false
		for len(line) > width {
			rest := append([]rune(nil), line[width:]...)
			line = line[:width]
			flush()
			line = append(line, rest...)
			empty = false
		}
	}
	flush()
	return lines
}

// Wrap breaks text into lines of at most width columns at spaces, the
// continuation lines indented by indent; spacing within a line is kept.
// A word longer than a line stays whole.
func Wrap(text string, width int, indent string) []string {
	var lines []string
	line := []rune(text)
	for len(line) > width {
		cut := -1
		for i := width; i > 0; i-- {
			if line[i] == ' ' && strings.TrimSpace(string(line[:i])) != "" {
				cut = i
				break
			}
		}
		if cut < 0 || len(strings.TrimSpace(string(line[cut:]))) == 0 {
			break
		}
		lines = append(lines, strings.TrimRight(string(line[:cut]), " "))
		rest := []rune(indent + strings.TrimLeft(string(line[cut:]), " "))
		if len(rest) >= len(line) {
			line = nil
			lines = append(lines, string(rest))
			break
		}
		line = rest
	}
	if line != nil {
		lines = append(lines, string(line))
	}
	return lines
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(b []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(b)
	e.err = err
	return n, err
}
