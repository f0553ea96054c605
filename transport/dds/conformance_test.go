package dds_test

import (
	"testing"

	"simclock/transport"
	"simclock/transport/transporttest"
)

// Domain ids used by this package's tests; each test has its own.
const (
	domainConformance = 61
	domainMalformed   = 62
	domainCPeer       = 63
	domainBench       = 64
)

func TestConformance(t *testing.T) {
	requireDDS(t)
	transporttest.Run(t, func(t *testing.T) (a, b transport.Transport) {
		return open(t, domainConformance), open(t, domainConformance)
	}, transporttest.Features{Async: true, SourceTimestamps: true})
}
