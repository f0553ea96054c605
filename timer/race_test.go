//go:build race

package timer_test

// raceEnabled shortens the heaviest tests under the race detector.
const raceEnabled = true
