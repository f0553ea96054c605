package cli

import "github.com/simclock/simclock/internal/term"

// printable is term.Escape: the command line's one escaping function.
func printable(s string) string { return term.Escape(s) }

// cell is a string from outside as a table cell: escaped, then cut to n
// columns unless wide.
func cell(s string, n int, wide bool) string {
	s = printable(s)
	if wide {
		return s
	}
	return clip(s, n)
}
