package cli

import (
	"context"
	"time"

	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/inproc"
)

// Transport kinds accepted by --transport.
const (
	transportInproc = "inproc"
	transportDDS    = "dds"
)

// withDuration returns ctx bounded by d when d > 0 (the --duration flag of
// pub and monitor), or ctx itself.
func withDuration(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d > 0 {
		return context.WithTimeout(ctx, d)
	}
	return ctx, func() {}
}

// openTransport opens the transport a user picked with --transport.
// inproc gets a fresh bus: useful only when the command's publishers and
// subscribers all live in this process.
func openTransport(ctx context.Context, env *Env, kind string) (transport.Transport, error) {
	switch kind {
	case transportInproc:
		return inproc.NewBus().Connect("simclock"), nil
	case transportDDS:
		return openDDS(ctx, env)
	}
	return nil, flagErrorf("--transport %q: want inproc or dds", kind)
}
