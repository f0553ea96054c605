package bag

import (
	"os/exec"
	"strings"
	"testing"
)

// TestHotPathInlines guards a performance fact no benchmark would flag by
// itself: clockstream.Decode must inline into inspect's per-message path.
// Returned from a real call, its Sample is stored in 8-byte halves and
// copied back in 16-byte loads, a store-forwarding stall on every /clock
// message of a bag (11 % of inspect's analysis goroutine on small
// messages). Decode's inline cost sits close to the compiler's budget (77
// of 80 with go1.26), so a small change to it can silently lose this.
func TestHotPathInlines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the package with the compiler's inlining report")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	out, err := exec.CommandContext(t.Context(), goTool, "build", "-gcflags=-m", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "inlining call to clockstream.Decode") {
		t.Errorf("clockstream.Decode no longer inlines into package bag (go build -gcflags=-m=2 ./clockstream shows its cost and the budget)")
	}
}
