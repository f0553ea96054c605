package transport_test

import (
	"errors"
	"testing"

	"github.com/simclock/simclock/transport"
)

// One QoS vocabulary: the kinds spelt as ros2 topic info -v prints them,
// and the DDS requested/offered rule, whatever the enums' order.
func TestQoSKinds(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{transport.Reliable.String(), "RELIABLE"},
		{transport.BestEffort.String(), "BEST_EFFORT"},
		{transport.Volatile.String(), "VOLATILE"},
		{transport.TransientLocal.String(), "TRANSIENT_LOCAL"},
		{transport.Transient.String(), "TRANSIENT"},
		{transport.Persistent.String(), "PERSISTENT"},
		{(transport.BestEffort + 1).String(), "Reliability(2)"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	// The zero value is ROS 2's default profile's: reliable, volatile.
	if q := (transport.QoS{}); q.Reliability != transport.Reliable || q.Durability != transport.Volatile {
		t.Errorf("zero QoS is %v %v", q.Reliability, q.Durability)
	}
	rel := []transport.Reliability{transport.Reliable, transport.BestEffort}
	for _, offer := range rel {
		for _, want := range rel {
			ok := !(offer == transport.BestEffort && want == transport.Reliable)
			if got := offer.Satisfies(want); got != ok {
				t.Errorf("%v offered, %v requested: %v, want %v", offer, want, got, ok)
			}
		}
	}
	dur := []transport.Durability{transport.Volatile, transport.TransientLocal, transport.Transient, transport.Persistent}
	for i, offer := range dur {
		for j, want := range dur {
			if got := offer.Satisfies(want); got != (i >= j) {
				t.Errorf("%v offered, %v requested: %v", offer, want, got)
			}
			q := func(d transport.Durability) transport.QoS { return transport.QoS{Durability: d} }
			if got := transport.Compatible(q(offer), q(want)); got != (i >= j) {
				t.Errorf("Compatible(%v, %v) = %v", offer, want, got)
			}
		}
	}
	if err := transport.ClockSubscriptionQoS.Check(); err != nil {
		t.Error(err)
	}
	if err := (transport.QoS{Durability: transport.Transient}).Check(); !errors.Is(err, transport.ErrUnsupportedQoS) {
		t.Errorf("TRANSIENT: %v", err)
	}
}
