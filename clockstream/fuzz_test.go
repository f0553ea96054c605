package clockstream_test

import (
	"errors"
	"testing"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/clockstream"
	"github.com/simclock/simclock/timemsg"
)

// FuzzObserve feeds arbitrary payloads, as a DDS reader delivers them, to
// the monitor's decode path: it never panics, every message is counted
// once as valid, malformed (a negative sec included, as a node refuses
// it) or not normalised, and only valid ones move the clock (R8, R9).
func FuzzObserve(f *testing.F) {
	for _, seed := range [][]byte{
		timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: 1234, Nanosec: 567890}}),
		{0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0xd2, 0x00, 0x08, 0xaa, 0x52}, // big endian
		{0x00, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00},                         // short
		{0x00, 0x03, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, // PL_CDR_LE
		{0x00, 0x01, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x00, 0xca, 0x9a, 0x3b}, // nanosec 1e9
		{0x00, 0x01, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00}, // sec -1
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
		// The node's rules from the parts: the bytes decode, and rclpy's
		// Time.from_msg (ToTime) takes the value; a negative sec is refused
		// before a nanosec of 1e9 or more is looked at.
		c, err := timemsg.UnmarshalClock(data)
		if err == nil || errors.Is(err, timemsg.ErrNotNormalized) {
			if _, terr := timemsg.ToTime[simclock.ROS](c.Clock); terr != nil {
				err = terr
			}
		}
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

// FuzzSchedule: any accepted configuration yields ticks whose wall times
// never go back and whose values are never negative, and a looping
// schedule restarts at Start; NewSchedule refuses the rest, never panics.
func FuzzSchedule(f *testing.F) {
	f.Add(int64(0), int64(10e6), int64(10e6), int64(0), int64(0), int64(0), false, 0.0, int64(0), uint64(1), 3)
	f.Add(int64(100e9), int64(10e6), int64(20e6), int64(101e9), int64(50e9), int64(102e9), true, 0.2, int64(3e6), uint64(7), 1)
	f.Fuzz(func(t *testing.T, start, period, step, pauseAt, jumpTo, until int64, loop bool, drop float64, jitter int64, seed uint64, every int) {
		cfg := clockstream.ScheduleConfig{Start: time.Duration(start), Period: time.Duration(period), Step: time.Duration(step),
			Pause: pauseAt > 0, PauseAt: time.Duration(pauseAt), ResumeAfter: time.Duration(period) * 3,
			Jump: jumpTo > 0, JumpAt: time.Duration(pauseAt), JumpTo: time.Duration(jumpTo),
			HasUntil: until > 0, Until: time.Duration(until), Loop: loop, EndAtUntil: loop,
			Drop: drop, Jitter: time.Duration(jitter), Seed: seed, Every: every}
		s, err := clockstream.NewSchedule(cfg)
		if err != nil {
			return
		}
		last := time.Duration(-1)
		for range 200 {
			tk, ok := s.Next()
			if !ok {
				break
			}
			if tk.Wall < last && cfg.Jitter == 0 || tk.Wall < 0 || tk.Sim < 0 {
				t.Fatalf("tick %+v after wall %v (cfg %+v)", tk, last, cfg)
			}
			if tk.Event == clockstream.TickLoop && tk.Sim != cfg.Start {
				t.Fatalf("loop to %v, want start %v", tk.Sim, cfg.Start)
			}
			last = tk.Wall
		}
	})
}
