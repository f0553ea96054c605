//go:build !cgo

package lint

// haveParser is false without cgo: see ErrNoParser.
const haveParser = false

// parse always fails without cgo: see ErrNoParser.
func parse(lang, []byte) (*node, bool, error) { return nil, false, ErrNoParser }
