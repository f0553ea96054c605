package rules_test

import (
	"fmt"

	"github.com/simclock/simclock/rules"
)

// A finding cites a rule by number; its summary and URL say what it means.
func ExampleID() {
	r := rules.R27
	fmt.Println(r)
	fmt.Println(r.Summary())
	fmt.Println(r.URL())
	// Output:
	// R27
	// The window guard that works skips while now ≤ W; 'now == 0 or now < W' lets the boundary tick through with time 0.
	// https://github.com/simclock/simclock/blob/main/docs/rules.md#r27
}
