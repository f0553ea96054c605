//go:build !cgo

package lint

// parse always fails without cgo: see ErrNoParser.
func parse(lang, []byte) (*node, bool, error) { return nil, false, ErrNoParser }
