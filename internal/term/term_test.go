package term_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/simclock/simclock/internal/term"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/robot/imu_driver", "/robot/imu_driver"},
		{"/ロボット/センサ", "/ロボット/センサ"}, // any script stays
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"\x1b]0;title\x07", `\x1b]0;title\a`},
		{"a\nb\tc\rd", `a\nb\tc\rd`},
		{"del\x7f", `del\x7f`},
		{"c1\u009bx", `c1\u009bx`},
		{"bidi\u202eevil", `bidi\u202eevil`},
		{"line\u2028sep", `line\u2028sep`},
		{"bad\xffutf8", `bad\xffutf8`},
		{`back\slash`, `back\\slash`},
		{"", ""},
	} {
		if got := term.Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// safe reports what in text a terminal would act on: a control character
// other than newline, a format character, invalid UTF-8.
func safe(text string) (bad rune, ok bool) {
	if !utf8.ValidString(text) {
		return utf8.RuneError, false
	}
	for _, r := range text {
		if r != '\n' && r != ' ' && !unicode.IsPrint(r) {
			return r, false
		}
	}
	return 0, true
}

// FuzzEscape: the escaped text is terminal-safe, and printable text
// passes unchanged.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"\x1b[2J", "\x1b]0;x\x07", "a\\b", "\xff\xfe", "\u202e", "/ok/name"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := term.Escape(s)
		if r, ok := safe(strings.ReplaceAll(got, "\n", "")); !ok || strings.Contains(got, "\n") {
			t.Fatalf("Escape(%q) = %q still carries %U", s, got, r)
		}
		if _, ok := safe(s); ok && !strings.ContainsAny(s, "\n\\") && got != s {
			t.Fatalf("Escape(%q) = %q changed printable text", s, got)
		}
	})
}

// A node name announced with an ANSI colour and a window title.
func ExampleEscape() {
	fmt.Println(term.Escape("/robot/\x1b[31mimu\x1b[0m"))
	fmt.Println(term.Escape("/\x1b]0;pwned\x07"))
	// Output:
	// /robot/\x1b[31mimu\x1b[0m
	// /\x1b]0;pwned\a
}
