package cli

import "github.com/simclock/simclock/internal/term"

// cell is a string from outside as a table cell: escaped, then cut to n
// columns unless wide.
func cell(s string, n int, wide bool) string {
	s = term.Escape(s)
	if wide {
		return s
	}
	return clip(s, n)
}
