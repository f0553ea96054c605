package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

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
	if err := checkCycloneURI(cfg.URI, env.Getenv); err != nil {
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

// checkCycloneURI finds a configuration file CYCLONEDDS_URI names that
// does not exist: Cyclone DDS would print a raw log line and refuse to
// create the domain (dds_create_domain: Error (-1)). Entries are
// comma-separated file:// URIs, paths or XML (left to Cyclone); ${VAR}
// is expanded as Cyclone does.
func checkCycloneURI(uri string, getenv func(string) string) error {
	for entry := range strings.SplitSeq(uri, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" || strings.HasPrefix(entry, "<") {
			continue
		}
		path := os.Expand(strings.TrimPrefix(entry, "file://"), getenv)
		if _, err := os.Stat(path); err != nil {
			return fmt.Errorf("CYCLONEDDS_URI names %s, which cannot be read (%w): point it at a Cyclone DDS XML file, e.g. config/cyclonedds-loopback.xml", entry, errors.Unwrap(err))
		}
	}
	return nil
}
