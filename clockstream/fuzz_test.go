package clockstream_test

import (
	"errors"
	"testing"
	"time"

	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/timemsg"
)

// FuzzObserve feeds arbitrary payloads, as a DDS reader delivers them, to
// the monitor's decode path: it never panics, every message is counted
// once as valid, malformed or not normalised, and only valid ones move
// the clock (R8, R9).
func FuzzObserve(f *testing.F) {
	for _, seed := range [][]byte{
		timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: 1234, Nanosec: 567890}}),
		{0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0xd2, 0x00, 0x08, 0xaa, 0x52}, // big endian
		{0x00, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00},                         // short
		{0x00, 0x03, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, // PL_CDR_LE
		{0x00, 0x01, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x00, 0xca, 0x9a, 0x3b}, // nanosec 1e9
		{0x00, 0x01},
		{},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m := clockstream.NewAnalyzer(clockstream.Config{}, 0)
		observe(m, 0, timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: 1}}), "p")
		observe(m, 10*time.Millisecond, data, "p")
		r := m.Report(20*time.Millisecond, nil)
		c, err := timemsg.UnmarshalClock(data)
		switch {
		case err == nil:
			if r.Malformed != 0 || r.NotNormalized != 0 || r.Value != c.Clock.Nanoseconds() {
				t.Fatalf("valid % x: malformed %d, not normalized %d, sim %d (want %d)", data, r.Malformed, r.NotNormalized, r.Value, c.Clock.Nanoseconds())
			}
		case errors.Is(err, timemsg.ErrNotNormalized):
			if r.NotNormalized != 1 || r.Value != int64(time.Second) {
				t.Fatalf("not normalized % x: counted %d, sim %d", data, r.NotNormalized, r.Value)
			}
		default:
			if r.Malformed != 1 || r.Value != int64(time.Second) {
				t.Fatalf("malformed % x (%v): counted %d, sim %d", data, err, r.Malformed, r.Value)
			}
		}
		if r.Messages != 2 || m.Totals(20*time.Millisecond).Messages != 2 {
			t.Fatalf("messages %d, want 2", r.Messages)
		}
	})
}
