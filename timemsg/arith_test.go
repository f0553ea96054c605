package timemsg_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/timemsg"
)

// rclcpp's test_duration.cpp, operators_with_message_stamp (Jazzy): a
// 0.1 s stamp plus or minus 1.1 s and -1.1 s, a negative stamp plus max,
// and 0.1 s plus max. Two results differ on purpose (see Time.Add):
// rclcpp returns the negative stamp {sec: -1, nanosec: 0} for 0.1 s +
// (-1.1 s) and 0.1 s - 1.1 s; simclock returns ErrNegativeTime.
func TestTimeMessagePlusMinusDuration(t *testing.T) {
	stamp := timemsg.Time{Nanosec: 100_000_000}                   // rclcpp::Time(0, 100000000u)
	pos := 1100 * time.Millisecond                                // rclcpp::Duration(1, 100000000u)
	neg := -2*time.Second + 900*time.Millisecond                  // rclcpp::Duration(-2, 900000000u)
	max := simclock.MaxDuration                                   // Duration::from_nanoseconds(INT64_MAX)
	negStamp := timemsg.Time{Sec: -1}                             // neg_time_msg.sec = -1
	big := timemsg.Time{Sec: math.MaxInt32, Nanosec: 999_999_999} // Time::max()
	for _, tc := range []struct {
		name string
		got  func() (timemsg.Time, error)
		want timemsg.Time
		err  error
	}{
		{"res_addpos", func() (timemsg.Time, error) { return stamp.Add(pos) }, timemsg.Time{Sec: 1, Nanosec: 200_000_000}, nil},
		{"res_addneg (rclcpp: {-1, 0})", func() (timemsg.Time, error) { return stamp.Add(neg) }, timemsg.Time{}, simclock.ErrNegativeTime},
		{"res_subpos (rclcpp: {-1, 0})", func() (timemsg.Time, error) { return stamp.Minus(pos) }, timemsg.Time{}, simclock.ErrNegativeTime},
		{"res_subneg", func() (timemsg.Time, error) { return stamp.Minus(neg) }, timemsg.Time{Sec: 1, Nanosec: 200_000_000}, nil},
		{"neg_time_msg + max: runtime_error", func() (timemsg.Time, error) { return negStamp.Add(max) }, timemsg.Time{}, simclock.ErrNegativeTime},
		{"time_msg + max: overflow_error", func() (timemsg.Time, error) { return stamp.Add(max) }, timemsg.Time{}, simclock.ErrOverflow},
		// Beyond the upstream test.
		{"exactly 0 is valid", func() (timemsg.Time, error) { return stamp.Minus(100 * time.Millisecond) }, timemsg.Time{}, nil},
		{"non-normalised input is added", func() (timemsg.Time, error) { return timemsg.Time{Nanosec: 1_500_000_000}.Add(0) }, timemsg.Time{Sec: 1, Nanosec: 500_000_000}, nil},
		{"Time::max() + 1 ns: rclcpp wraps", func() (timemsg.Time, error) { return big.Add(1) }, timemsg.Time{}, simclock.ErrOutOfRange},
		{"0 - min: overflow", func() (timemsg.Time, error) { return timemsg.Time{}.Minus(simclock.MinDuration) }, timemsg.Time{}, simclock.ErrOverflow},
	} {
		got, err := tc.got()
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("%s = %v, %v; want %v", tc.name, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s = %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
}

// FuzzTimeMessageShift checks Add and Minus against the arithmetic in
// nanoseconds: a result is exact and normalised, or one of the errors.
func FuzzTimeMessageShift(f *testing.F) {
	f.Add(int32(0), uint32(100_000_000), int64(1_100_000_000))
	f.Add(int32(-1), uint32(0), int64(math.MaxInt64))
	f.Add(int32(math.MaxInt32), uint32(math.MaxUint32), int64(math.MinInt64))
	f.Add(int32(5), uint32(2_000_000_000), int64(-7_000_000_000))
	f.Fuzz(func(t *testing.T, sec int32, nsec uint32, d int64) {
		m := timemsg.Time{Sec: sec, Nanosec: nsec}
		for _, op := range []struct {
			name string
			f    func(time.Duration) (timemsg.Time, error)
			want func(a, b int64) (int64, bool)
		}{
			{"+", m.Add, func(a, b int64) (int64, bool) { s := a + b; return s, (b > 0) == (s > a) || b == 0 }},
			{"-", m.Minus, func(a, b int64) (int64, bool) { s := a - b; return s, (b > 0) == (s < a) || b == 0 }},
		} {
			got, err := op.f(time.Duration(d))
			want, fits := op.want(m.Nanoseconds(), d)
			switch {
			case sec < 0:
				if !errors.Is(err, simclock.ErrNegativeTime) {
					t.Fatalf("%v %s %d = %v, %v; want ErrNegativeTime", m, op.name, d, got, err)
				}
			case !fits:
				if !errors.Is(err, simclock.ErrOverflow) {
					t.Fatalf("%v %s %d = %v, %v; want ErrOverflow", m, op.name, d, got, err)
				}
			case want < 0:
				if !errors.Is(err, simclock.ErrNegativeTime) {
					t.Fatalf("%v %s %d = %v, %v; want ErrNegativeTime", m, op.name, d, got, err)
				}
			case want/1e9 > math.MaxInt32:
				if !errors.Is(err, simclock.ErrOutOfRange) {
					t.Fatalf("%v %s %d = %v, %v; want ErrOutOfRange", m, op.name, d, got, err)
				}
			default:
				if err != nil || got.Nanoseconds() != want || !got.Normalized() {
					t.Fatalf("%v %s %d = %v, %v; want %d ns, normalised", m, op.name, d, got, err, want)
				}
			}
		}
	})
}
