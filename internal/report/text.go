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
	lines := Wrap
	if t.Fold {
		lines = Fold
	}
	for _, l := range lines(margin+text, width, margin+indent) {
		fmt.Fprintln(w, l)
	}
}

// Wrap breaks text into lines of at most width columns at spaces, the
// continuation lines indented by indent; spacing within a line is kept,
// blanks at a break are dropped. A word longer than a line stays whole, on
// a line of its own, and the words after it are wrapped as any others.
// A width below 1 leaves text whole.
func Wrap(text string, width int, indent string) []string {
	return breakLines(text, width, indent, false)
}

// Fold is Wrap, but a word longer than a line is broken where the line
// ends (a 300-byte name), so that no line is wider than width when indent
// is narrower than width.
func Fold(text string, width int, indent string) []string {
	return breakLines(text, width, indent, true)
}

func breakLines(text string, width int, indent string, fold bool) []string {
	line := []rune(text)
	if width < 1 {
		return []string{text}
	}
	var lines []string
	fold = fold && len([]rune(indent)) < width // else a cut would not shorten the rest
	for len(line) > width {
		lead := 0 // a line's leading blanks are its margin, never a break
		for lead < len(line) && line[lead] == ' ' {
			lead++
		}
		cut := -1 // the last space within width, else the first after it
		for i := min(width, len(line)-1); i > lead && cut < 0; i-- {
			if line[i] == ' ' {
				cut = i
			}
		}
		for i := max(width+1, lead+1); i < len(line) && cut < 0; i++ {
			if line[i] == ' ' {
				cut = i
			}
		}
		var head, tail []rune
		switch {
		case fold && (cut < 0 || cut > width):
			head, tail = line[:width], line[width:] // the word goes on
		case cut < 0:
			return append(lines, string(line)) // one word to the end
		default:
			head, tail = line[:cut], []rune(strings.TrimLeft(string(line[cut:]), " "))
		}
		lines = append(lines, strings.TrimRight(string(head), " "))
		if len(tail) == 0 {
			return lines
		}
		// Every turn takes a word, or a line's width of one.
		line = append([]rune(indent), tail...)
	}
	return append(lines, string(line))
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
