//go:build !race

package timer_test

const raceEnabled = false
