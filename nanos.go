package simclock

import (
	"math"
	"math/big"
	"time"
)

// two63 is 2^63 as a float64, the first value outside int64.
const two63 = 9223372036854775808.0

// totalNanos computes rclpy's int(seconds*1e9) + int(nanoseconds) exactly:
// the product is an IEEE-754 double truncated toward zero, and the sum is
// taken in unbounded integers before the range check (R2, R7).
func totalNanos(sec float64, nsec int64) (int64, error) {
	if math.IsNaN(sec) {
		return 0, ErrOutOfRange
	}
	if math.IsInf(sec, 0) {
		return 0, ErrOverflow
	}
	f := math.Trunc(sec * 1e9)
	if math.IsInf(f, 0) {
		// sec is finite but sec*1e9 is not (|sec| > MaxFloat64/1e9).
		return 0, ErrOverflow
	}
	if f > -two63 && f < two63 {
		return addInt64(int64(f), nsec)
	}
	// The product is outside int64 on its own; the sum may still fit.
	bf := new(big.Float).SetFloat64(f)
	bi, _ := bf.Int(nil)
	bi.Add(bi, big.NewInt(nsec))
	if !bi.IsInt64() {
		return 0, ErrOverflow
	}
	return bi.Int64(), nil
}

// addInt64 returns a+b or ErrOverflow.
func addInt64(a, b int64) (int64, error) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return 0, ErrOverflow
	}
	return s, nil
}

// subInt64 returns a-b or ErrOverflow.
func subInt64(a, b int64) (int64, error) {
	s := a - b
	if (b < 0 && s < a) || (b > 0 && s > a) {
		return 0, ErrOverflow
	}
	return s, nil
}

// SaturatingAdd returns a+b clamped to [MinDuration, MaxDuration] instead
// of wrapping. Deadlines use it: a deadline past the end of representable
// time (a timer of period InfiniteDuration) stays there, as "never".
func SaturatingAdd(a, b time.Duration) time.Duration {
	s, err := addInt64(int64(a), int64(b))
	if err == nil {
		return time.Duration(s)
	}
	if b > 0 {
		return MaxDuration
	}
	return MinDuration
}
