package dds_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/goleak"

	"github.com/simclock/simclock/transport/dds"
)

func TestMain(m *testing.M) {
	// Re-executed as a benchmark peer (bench_test.go): serve, then exit.
	// This runs here and not in an init function: runtime.main keeps the
	// main goroutine locked to the main thread while package inits run,
	// and a peer served from an init spun its executor on a locked
	// goroutine, whose every yield to the scheduler (the dds package's
	// yielder) hands its P to another thread and back (stoplockedm,
	// startlockedm): two thread wake-ups no application's node pays.
	if mode := os.Getenv("SIMCLOCK_BENCH_PEER"); mode != "" {
		os.Exit(benchPeer(mode))
	}
	goleak.VerifyTestMain(m)
}

// loopbackURI is the project's loopback-only Cyclone configuration: every
// DDS test stays on 127.0.0.1 with no multicast.
func loopbackURI(t testing.TB) string {
	t.Helper()
	p, err := filepath.Abs("../../config/cyclonedds-loopback.xml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("loopback config: %v", err)
	}
	return "file://" + p
}

// requireDDS skips when libddsc is missing, unless CI is set: then a
// missing library fails the test.
func requireDDS(t testing.TB) {
	t.Helper()
	err := dds.Available()
	if err == nil {
		return
	}
	if !errors.Is(err, dds.ErrNoDDS) {
		t.Fatalf("Available: %v, which does not wrap ErrNoDDS", err)
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("CI is set and Cyclone DDS is missing: %v", err)
	}
	t.Skipf("Cyclone DDS is not installed (apt-get install cyclonedds-dev): %v", err)
}

// open joins test domain domain on loopback.
func open(t testing.TB, domain int) *dds.Transport {
	t.Helper()
	tr, err := dds.Open(context.Background(), dds.Config{Domain: uint32(domain), URI: loopbackURI(t)})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { tr.Close() }) //nolint:errcheck // idempotent
	return tr
}
