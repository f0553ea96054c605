package dds_test

import (
	"context"
	"errors"

	"github.com/simclock/simclock/internal/testdomain"
	"github.com/simclock/simclock/transport/dds"
	"testing"

	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/transporttest"
)

// Domain ids used by this package's tests; each test has its own.
var (
	domainConformance = testdomain.ID(61)
	domainMalformed   = testdomain.ID(62)
	domainCPeer       = testdomain.ID(63)
	// 70..73: TestDiscoveryConfigsAccepted
	domainDiscoveryBase = testdomain.ID(70)
)

func TestConformance(t *testing.T) {
	requireDDS(t)
	transporttest.Run(t, func(t *testing.T) (a, b transport.Transport) {
		return open(t, domainConformance), open(t, domainConformance)
	}, transporttest.Features{Async: true, SourceTimestamps: true})
}

func TestPublishRefusesInvalidPayload(t *testing.T) {
	requireDDS(t)
	tr := open(t, domainMalformed)
	p, err := tr.Publisher("/clock", "rosgraph_msgs/msg/Clock", transport.ClockPublisherQoS)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]byte{nil, {0x00, 0x01}, {0xff, 0xff, 0, 0}, {0x00, 0x04, 0, 0, 1, 2, 3, 4}, {0x12, 0x34, 0, 0}} {
		if err := p.Publish(context.Background(), bad); !errors.Is(err, dds.ErrInvalidPayload) {
			t.Errorf("Publish(% x) = %v, want ErrInvalidPayload", bad, err)
		}
	}
	for _, ok := range [][]byte{{0, 0, 0, 0}, {0, 1, 0, 0, 1, 0, 0, 0}, {0, 3, 0, 0}, {0, 7, 0, 0}, {0, 0x0b, 0, 0}} {
		if err := p.Publish(context.Background(), ok); err != nil {
			t.Errorf("Publish(% x) = %v, want nil: the transport does not judge bodies", ok, err)
		}
	}
}
