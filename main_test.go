package simclock_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a test leaves goroutines behind: sleeps,
// waits and jump callbacks must all end with their context or clock.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
