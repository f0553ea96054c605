// Package term keeps what a command prints safe for a terminal: strings
// from the network or from files are escaped before they reach one.
package term

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape returns s as it may reach a terminal: every character that is
// not printable is escaped the way Go writes it in a string literal, so
// that a name from the network or a file cannot move the cursor, recolour
// the terminal, set its title (ANSI and OSC sequences), break a line or
// hide text (bidirectional overrides). Escaped are the C0 and C1 controls
// and DEL (\n, \t, \r, \x1b, \u0085), Unicode format and separator
// characters other than the space (\u202e, \u2028), and bytes that are not
// UTF-8 (\xff); a backslash is doubled, so the escaped text reads back
// unambiguously. Printable text, any script, is kept as it is.
//
// It is the one escaping function of the command line: every string a
// command prints in text that it did not write itself (names from the
// network, topics and paths from files) goes through it. JSON output is
// not escaped this way (encoding/json escapes controls and keeps the value
// exact).
func Escape(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '\\' {
			clean = false
			break
		}
	}
	if clean {
		return s // printable ASCII, the usual case
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteString(`\x`)
			b.WriteString(hex2(s[i]))
		case r == '\\':
			b.WriteString(`\\`)
		case r == ' ' || unicode.IsPrint(r):
			b.WriteString(s[i : i+size])
		default:
			q := strconv.QuoteRune(r) // '\x1b', '\n', '\u202e'
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}
