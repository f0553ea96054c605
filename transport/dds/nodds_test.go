package dds_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/simclock/simclock/transport/dds"
)

// TestNoDDSError checks, in a fresh process where no libddsc is loaded
// yet, that asking for a missing library fails with ErrNoDDS and says what
// to install.
func TestNoDDSError(t *testing.T) {
	if os.Getenv("SIMCLOCK_NODDS_CHILD") == "1" {
		_, err := dds.Open(context.Background(), dds.Config{Domain: 99, Library: "/nonexistent/libddsc.so.0"})
		if !errors.Is(err, dds.ErrNoDDS) {
			t.Fatalf("Open: got %v, want an error wrapping ErrNoDDS", err)
		}
		os.Stdout.WriteString(err.Error())
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoDDSError$")
	cmd.Env = append(os.Environ(), "SIMCLOCK_NODDS_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	wants := []string{"apt-get install cyclonedds-dev", "/opt/ros", "/nonexistent/libddsc.so.0"}
	if strings.Contains(string(out), "without cgo") {
		wants = []string{"apt-get install cyclonedds-dev", "CGO_ENABLED=1"} // a CGO_ENABLED=0 test binary
	}
	for _, want := range wants {
		if !strings.Contains(string(out), want) {
			t.Errorf("error message lacks %q:\n%s", want, out)
		}
	}
}
