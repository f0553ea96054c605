package cli

import (
	"context"
	"errors"

	"simclock/transport"
)

// openDDS opens the Cyclone DDS transport with ROS 2's environment
// conventions (ROS_DOMAIN_ID, CYCLONEDDS_URI, ...).
func openDDS(ctx context.Context, env *Env) (transport.Transport, error) {
	return nil, errors.New("the dds transport is not built yet")
}
