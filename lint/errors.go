package lint

import "errors"

// Sentinel errors; match them with errors.Is.
var (
	// ErrNoParser is returned by every entry point in a build without cgo:
	// the Python and C++ parsers are tree-sitter grammars written in C.
	ErrNoParser = errors.New("simclock lint needs a cgo build (CGO_ENABLED=1 and a C compiler)")
	// ErrParse wraps a failure to parse a file at all. Files with syntax
	// errors are still analysed: tree-sitter recovers and marks the error.
	ErrParse = errors.New("parse failed")
	// ErrUnknownRule is returned for a rule ID that the linter does not have.
	ErrUnknownRule = errors.New("unknown rule")
	// ErrUnknownDistro is returned for a ROS 2 distribution the linter
	// does not know.
	ErrUnknownDistro = errors.New("unknown ROS 2 distribution")
	// ErrOverlappingEdits is returned when two fixes touch the same bytes.
	ErrOverlappingEdits = errors.New("overlapping edits")
	// ErrNotRegular is returned for a path that is neither a directory nor
	// a regular file (a named pipe would be read forever).
	ErrNotRegular = errors.New("not a regular file or directory")
)
