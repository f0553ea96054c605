package cli

import (
	"context"
	"time"

	"github.com/spf13/pflag"

	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/inproc"
)

// Transport kinds accepted by --transport.
const (
	transportInproc = "inproc"
	transportDDS    = "dds"
)

// openTransport opens the transport a user picked with --transport.
// inproc gets a fresh bus: useful only when the command's publishers and
// subscribers all live in this process.
func openTransport(ctx context.Context, env *Env, kind string) (transport.Transport, error) {
	switch kind {
	case transportInproc:
		bus := env.Bus
		if bus == nil {
			bus = inproc.NewBus()
		}
		return bus.Connect("simclock"), nil
	case transportDDS:
		return openDDS(ctx, env)
	}
	return nil, flagErrorf("--transport %q: want %s", kind, oneOf([]string{transportDDS, transportInproc}))
}

// addTransportFlag registers --transport with its default.
func addTransportFlag(f *pflag.FlagSet, target *string, def string) {
	addEnumFlag(f, target, "transport", def, "dds (a ROS 2 graph) or inproc (this process)", transportDDS, transportInproc)
}

// withDuration returns ctx bounded by d of wall-clock time when d > 0, or
// ctx itself (doctor's --duration; pub and monitor time their runs on
// their executor's clock instead, so they run in virtual time in tests).
func withDuration(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d > 0 {
		return context.WithTimeout(ctx, d)
	}
	return ctx, func() {}
}
