// Package timetest holds what simclock's conformance suites share (the
// root package's and timemsg's): constructors for table literals with
// valid inputs, and the error check every case makes.
package timetest

import (
	"errors"
	"testing"

	"github.com/simclock/simclock"
)

// Must unwraps a constructor result for table literals with valid inputs;
// an error there is a mistake in the table, so it panics.
func Must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// ROS is the ROS time ns nanoseconds after the epoch (ns >= 0).
func ROS(ns int64) simclock.Time[simclock.ROS] {
	return Must(simclock.TimeFromNanoseconds[simclock.ROS](ns))
}

// Any is the time ns of clock type ct (ns >= 0).
func Any(ns int64, ct simclock.ClockType) simclock.AnyTime {
	return Must(simclock.AnyTimeFromNanoseconds(ns, ct))
}

// CheckErr reports whether err matches want (nil meaning "no error") and
// fails t, naming the case's reference ref, when it does not.
func CheckErr(t testing.TB, ref string, err, want error) bool {
	t.Helper()
	if want == nil {
		if err != nil {
			t.Errorf("%s: unexpected error %v", ref, err)
			return false
		}
		return true
	}
	if !errors.Is(err, want) {
		t.Errorf("%s: got error %v, want %v", ref, err, want)
		return false
	}
	return true
}
