package lint

import (
	"cmp"
	"slices"

	"github.com/simclock/simclock/rules"
)

// Finding is one reported pitfall: the finding every simclock tool
// reports, with the edits that repair it. Its code is the rule's name, its
// one rule the rule's ID, its subject the file and the range in it
// (1-based lines, columns in Unicode code points); Why explains the
// failure, citing the rules. Its severity is the rule's, except for
// findings a rule reports as info.
type Finding struct {
	rules.Finding
	// Edits repair the finding mechanically; empty when --fix cannot.
	Edits []Edit `json:"edits,omitempty"`
	// Fixed is set when the edits were applied.
	Fixed bool `json:"fixed,omitempty"`
}

// Rule returns the rule the finding reports, 0 for a finding about a
// suppression comment, which cites none.
func (f *Finding) Rule() rules.ID {
	if len(f.Rules) == 0 {
		return 0
	}
	return f.Rules[0]
}

// Edit replaces the bytes [Start, End) of a file with New.
type Edit struct {
	Start int    `json:"start"`
	End   int    `json:"end"`
	New   string `json:"new"`
}

// ApplyEdits returns src with edits applied. Identical edits are applied
// once; overlapping ones fail with ErrOverlappingEdits.
func ApplyEdits(src []byte, edits []Edit) ([]byte, error) {
	es := slices.Clone(edits)
	slices.SortFunc(es, func(a, b Edit) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End), cmp.Compare(a.New, b.New))
	})
	es = slices.Compact(es)
	out := make([]byte, 0, len(src)+64)
	pos := 0
	for _, e := range es {
		if e.Start < pos || e.End < e.Start || e.End > len(src) {
			return nil, ErrOverlappingEdits
		}
		out = append(out, src[pos:e.Start]...)
		out = append(out, e.New...)
		pos = e.End
	}
	return append(out, src[pos:]...), nil
}

// sortFindings orders findings by file, position and rule.
func sortFindings(fs []Finding) {
	slices.SortFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Col, b.Col), cmp.Compare(a.Rule(), b.Rule()), cmp.Compare(a.Code, b.Code), cmp.Compare(a.Message, b.Message))
	})
}
