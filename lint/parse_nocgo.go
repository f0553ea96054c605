//go:build !cgo

package lint

// haveParser is false without cgo: see ErrNoParser.
const haveParser = false

// parse always fails without cgo: see ErrNoParser.
func parse(lang, []byte) (*node, int, error) { return nil, -1, ErrNoParser }

// parserSet stands in for the cgo build's per-worker parsers.
type parserSet struct{}

func newParserSet() *parserSet { return &parserSet{} }

func (*parserSet) close() {}

func (*parserSet) parse(lang, []byte) (*node, int, error) { return nil, -1, ErrNoParser }
