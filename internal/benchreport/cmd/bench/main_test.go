package main

import (
	"testing"

	"github.com/simclock/simclock/internal/benchround"
)

// The command names benchround's variable itself (linking benchround
// would link package testing into it); the two names must not drift, or
// every repetition would run its figure first.
func TestFirstRoundEnvIsBenchround(t *testing.T) {
	if firstRoundEnv != benchround.FirstRoundEnv {
		t.Errorf("firstRoundEnv %q, benchround.FirstRoundEnv %q", firstRoundEnv, benchround.FirstRoundEnv)
	}
}
