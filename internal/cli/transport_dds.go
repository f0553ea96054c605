package cli

import (
	"context"
	"fmt"

	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/dds"
)

// openDDS opens the Cyclone DDS transport with ROS 2's environment
// conventions: ROS_DOMAIN_ID, ROS_AUTOMATIC_DISCOVERY_RANGE,
// ROS_STATIC_PEERS, ROS_LOCALHOST_ONLY and CYCLONEDDS_URI, read through
// env.Getenv. SIMCLOCK_LIBDDSC names the libddsc to load instead of
// searching for one. Configuration warnings go to stderr.
func openDDS(ctx context.Context, env *Env) (transport.Transport, error) {
	cfg, warnings, err := dds.ConfigFromEnv(env.Getenv)
	if err != nil {
		return nil, err
	}
	cfg.Library = env.Getenv("SIMCLOCK_LIBDDSC")
	for _, w := range warnings {
		fmt.Fprintf(env.Stderr, "simclock: warning: %s\n", w)
	}
	return dds.Open(ctx, cfg)
}

// transportDomain returns the DDS domain of tr, or -1 for other transports.
func transportDomain(tr transport.Transport) int {
	if d, ok := tr.(*dds.Transport); ok {
		return int(d.Domain())
	}
	return -1
}
