package report_test

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/simclock/simclock/internal/report"
)

// A word longer than a line stays whole on a line of its own, and the
// words after it are wrapped as any others (they came out as one line
// when the long word started the text).
func TestWrapLongFirstWord(t *testing.T) {
	long := strings.Repeat("x", 30)
	for _, tc := range []struct {
		text   string
		indent string
		want   []string
	}{
		{long + " aa bb cc dd ee ff", "  ", []string{long, "  aa bb cc", "  dd ee ff"}},
		{"aa " + long + " bb cc dd ee ff", "  ", []string{"aa", "  " + long, "  bb cc dd", "  ee ff"}},
		{"  " + long + " aa bb cc dd", "    ", []string{"  " + long, "    aa bb", "    cc dd"}},
		{long, "  ", []string{long}},
		{long + "   ", "  ", []string{long}},
		{"aa bb cc dd ee ff", "  ", []string{"aa bb cc", "  dd ee ff"}},
	} {
		if got := report.Wrap(tc.text, 10, tc.indent); !slices.Equal(got, tc.want) {
			t.Errorf("Wrap(%q, 10, %q) =\n%q\nwant\n%q", tc.text, tc.indent, got, tc.want)
		}
	}
}

// Fold is Wrap, but a word longer than a line is broken where the line
// ends: no line is wider than width.
func TestFold(t *testing.T) {
	long := strings.Repeat("x", 25)
	got := report.Fold(long+" aa bb cc dd", 10, "  ")
	want := []string{"xxxxxxxxxx", "  xxxxxxxx", "  xxxxxxx", "  aa bb cc", "  dd"}
	if !slices.Equal(got, want) {
		t.Errorf("Fold =\n%q\nwant\n%q", got, want)
	}
}

// FuzzWrap: Wrap and Fold keep every word in order (Fold's broken words
// joined again) and always end; a line of Wrap is wider than width only
// when it holds one word, a line of Fold never.
func FuzzWrap(f *testing.F) {
	f.Add("error   clock_backward /clock [R14,R22] ×1: /clock jumps backwards (a looped or restarted recording)", 40, "    ")
	f.Add(strings.Repeat("x", 150)+" y z w", 100, "  ")
	f.Add("a b", 1, strings.Repeat(" ", 20))
	f.Add("  fix: "+strings.Repeat("é", 120)+" and more words here", 100, "    ")
	f.Fuzz(func(t *testing.T, text string, width int, indent string) {
		if width < 1 || width > 200 || len(indent) > 40 || strings.Trim(indent, " ") != "" || strings.ContainsFunc(text, func(r rune) bool { return r != ' ' && unicode.IsSpace(r) }) || !utf8.ValidString(text) {
			return
		}
		words := strings.Fields(text)
		lines := report.Wrap(text, width, indent)
		if got := strings.Fields(strings.Join(lines, " ")); !slices.Equal(got, words) {
			t.Fatalf("Wrap(%q, %d) = %q: words changed", text, width, lines)
		}
		if utf8.RuneCountInString(indent) >= width {
			return
		}
		for _, l := range lines {
			if n := utf8.RuneCountInString(l); n > width && len(strings.Fields(l)) > 1 {
				t.Fatalf("Wrap(%q, %d, %q): %d columns, and more than one word: %q", text, width, indent, n, l)
			}
		}
		folded := report.Fold(text, width, indent)
		for _, l := range folded {
			if n := utf8.RuneCountInString(l); n > width {
				t.Fatalf("Fold(%q, %d, %q): %d columns: %q", text, width, indent, n, l)
			}
		}
		if got, want := strings.Join(strings.Fields(strings.Join(folded, "")), ""), strings.Join(words, ""); got != want {
			t.Fatalf("Fold(%q, %d) = %q: characters changed", text, width, folded)
		}
	})
}
