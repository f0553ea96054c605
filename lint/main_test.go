package lint

import (
	"testing"

	"go.uber.org/goleak"
)

// Run starts parsing workers; every test must leave none behind.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
