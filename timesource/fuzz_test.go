package timesource_test

import (
	"errors"
	"testing"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/timesource"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/inproc"
	"github.com/simclock/simclock/virtualclock"
)

// FuzzHandle feeds arbitrary bytes to the time source's message handling:
// it never panics, the clock changes only when the bytes decode to a
// normalised, non-negative Clock (and then to exactly that value), the
// counters add up (Received == Applied + Malformed) and each kind of
// warning comes at most once.
func FuzzHandle(f *testing.F) {
	clock := func(sec int32, nsec uint32) []byte {
		return timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: sec, Nanosec: nsec}})
	}
	f.Add(clock(5, 500), "sim/pub1")
	f.Add(clock(0, 0), "sim/pub1")
	f.Add(clock(42, 0), "")
	f.Add(clock(1, 1e9), "sim/pub1")
	f.Add(clock(-1, 0), "other/pub2")
	f.Add(clock(2147483647, 999999999), "sim/pub1")
	f.Add(clock(3, 0)[:11], "sim/pub1")
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 1}, "sim/pub1")             // big endian
	f.Add([]byte{0, 1, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff}, "sim/pub1") // padding
	f.Add([]byte{0, 2, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0}, "sim/pub1")             // PL_CDR
	f.Add([]byte{}, "")
	f.Fuzz(func(t *testing.T, data []byte, publisher string) {
		fc := virtualclock.New()
		tr := inproc.NewBus().Connect("n")
		defer tr.Close()
		var warnings []error
		ts := timesource.New(tr, func(transport.Subscription, func(transport.Sample)) func() { return func() {} },
			timesource.Options{OnWarning: func(err error) { warnings = append(warnings, err) }})
		c := simclock.NewROSClockOn(fc.System(), fc.Steady())
		ts.AttachClock(c)
		if err := ts.SetUseSimTime(true); err != nil {
			t.Fatal(err)
		}
		defer ts.Close()
		ts.Handle(transport.Sample{Data: timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: 42}}), Publisher: "sim/pub1"})
		for range 2 {
			before := c.Now()
			ts.Handle(transport.Sample{Data: data, Publisher: transport.PublisherID(publisher)})
			m, err := timemsg.UnmarshalClock(data)
			if err == nil && m.Clock.Sec >= 0 {
				if got, want := c.Now().Nanoseconds(), m.Clock.Nanoseconds(); got != want || !m.Clock.Normalized() {
					t.Fatalf("% x decodes to %v: now = %d, want %d", data, m.Clock, got, want)
				}
			} else if !c.Now().Equal(before) {
				t.Fatalf("% x does not decode (%v) but moved the clock from %v to %v", data, err, before, c.Now())
			}
		}
		st := ts.Stats()
		if st.Received != 3 || st.Received != st.Applied+st.Malformed {
			t.Fatalf("Stats %+v: want 3 received = applied + malformed", st)
		}
		var bad, multi int
		for _, w := range warnings {
			if errors.Is(w, timesource.ErrMalformedClock) {
				bad++
			}
			if errors.Is(w, timesource.ErrMultiplePublishers) {
				multi++
			}
		}
		if bad != min(int(st.Malformed), 1) {
			t.Errorf("%d malformed warnings for %d malformed messages", bad, st.Malformed)
		}
		wantMulti := 0
		if publisher != "" && publisher != "sim/pub1" {
			wantMulti = 1
		}
		if multi != wantMulti {
			t.Errorf("%d multiple-publisher warnings, want %d", multi, wantMulti)
		}
	})
}
