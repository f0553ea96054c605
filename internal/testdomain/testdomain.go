// Package testdomain gives the DDS tests and benchmarks their domain ids.
//
// Each test that opens DDS has a fixed id of its own (61 to 171 today),
// so that tests running in parallel never see each other's traffic.
// Two runs of the suite on one machine (two checkouts, or a benchmark
// beside a test run) would still share those ids; setting
// SIMCLOCK_DOMAIN_OFFSET=N in the environment shifts every one of them by
// N, so that each benchmark or test meets a different one in the other
// run:
//
//	SIMCLOCK_DOMAIN_OFFSET=40 scripts/bench
//
// The shifted ids are not disjoint from the unshifted ones: the fixed ids
// span 61 to 171 and an offset can be at most 61, so a shifted benchmark
// shares its domain with some unshifted test (at 60, the round-trip
// benchmark's 126 is TestDoctorGate's, whose simulator publishes /clock
// at 100 Hz). Runs that must not see each other's traffic belong in
// separate network namespaces (ip netns exec). The /clock benchmarks
// count the echoes they did not send (foreign_echoes).
//
// An offset that is not a number, or that pushes an id past 232 (the
// highest ROS_DOMAIN_ID), makes ID panic, naming the variable: a test
// must not silently run on another id than the one it was given.
package testdomain

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Env is the environment variable holding the offset.
const Env = "SIMCLOCK_DOMAIN_OFFSET"

// MaxID is the highest domain id ROS 2 allows (ROS_DOMAIN_ID 0..232).
const MaxID = 232

// Offset returns the offset in the environment, 0 when unset.
func Offset() (int, error) {
	s := strings.TrimSpace(os.Getenv(Env))
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > MaxID {
		return 0, fmt.Errorf("testdomain: %s=%q: want a number from 0 to %d", Env, s, MaxID)
	}
	return n, nil
}

// ID returns the domain id of a test whose fixed id is fixed: fixed plus
// the offset in the environment. It panics when the offset is invalid or
// the id would pass MaxID.
func ID(fixed int) int {
	off, err := Offset()
	if err != nil {
		panic(err)
	}
	id := fixed + off
	if fixed < 0 || id > MaxID {
		panic(fmt.Sprintf("testdomain: domain %d + %s %d = %d is past %d: use a smaller offset", fixed, Env, off, id, MaxID))
	}
	return id
}
