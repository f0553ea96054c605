package inproc_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/inproc"
	"github.com/simclock/simclock/transport/transporttest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestConformance(t *testing.T) {
	transporttest.Run(t, func(t *testing.T) (a, b transport.Transport) {
		bus := inproc.NewBus()
		return bus.Connect("a"), bus.Connect("b")
	}, transporttest.Features{})
}
