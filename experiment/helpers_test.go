package experiment

import (
	"testing"

	"github.com/simclock/simclock"
)

func mustSys(t *testing.T, sec float64) simclock.Time[simclock.System] {
	t.Helper()
	v, err := simclock.NewTime[simclock.System](sec, 0)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mustSteady(t *testing.T, sec float64) simclock.Time[simclock.Steady] {
	t.Helper()
	v, err := simclock.NewTime[simclock.Steady](sec, 0)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
