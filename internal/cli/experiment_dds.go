package cli

import (
	"context"

	"simclock/sim"
)

// configureDDSStartup sets up the startup experiment over real DDS: the
// fake simulator runs as a separate process.
func configureDDSStartup(ctx context.Context, env *Env, cfg *sim.StartupConfig) error {
	return flagErrorf("--transport dds for the startup experiment is not available in this build yet")
}
