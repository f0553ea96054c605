package lint

import (
	"cmp"
	"slices"

	"github.com/simclock/simclock/rules"
)

// Finding is one reported pitfall.
type Finding struct {
	File    string   `json:"file"`
	Line    int      `json:"line"` // 1-based
	Col     int      `json:"col"`  // 1-based, in Unicode code points
	EndLine int      `json:"end_line"`
	EndCol  int      `json:"end_col"`
	Rule    rules.ID `json:"rule"`
	// Severity is the rule's, except for findings a rule reports as info.
	Severity rules.Severity `json:"severity"`
	Message  string         `json:"message"`
	// Why explains the failure, citing the spec rules.
	Why string `json:"why"`
	// Fix says how to repair it, in words.
	Fix string `json:"fix"`
	// Edits repair the finding mechanically; empty when --fix cannot.
	Edits []Edit `json:"edits,omitempty"`
	// Fixed is set when the edits were applied.
	Fixed bool `json:"fixed,omitempty"`
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
			cmp.Compare(a.Col, b.Col), cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Message, b.Message))
	})
}
