package experiment

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/simclock/simclock"
)

// Once, `simclock predict --start 1700000000 --window 1 --hz 10` took
// 43 s because the enumeration walked every period from 0. The answer at
// a Unix-epoch start is the answer at any start past the window: one tick
// at S, then every period.
func TestPredictAtUnixEpoch(t *testing.T) {
	const S = 1_700_000_000 * time.Second
	p := Predict(PredictInput{Start: S, Window: time.Second, Hz: 10, ClockStep: 10 * time.Millisecond, Duration: 2500 * time.Millisecond})
	if len(p.Ticks) != 25 || p.Exceptions != 0 || p.Zeros != 0 || p.Positives != 25 {
		t.Fatalf("%d ticks, %d/%d/%d", len(p.Ticks), p.Exceptions, p.Zeros, p.Positives)
	}
	for i, now := range p.Ticks {
		if want := int64(S) + int64(i)*int64(100*time.Millisecond); now != want {
			t.Fatalf("tick %d at %d, want %d", i, now, want)
		}
	}
}

// The startup experiment at Unix-epoch start times answers at once and
// matches its prediction.
func TestStartupAtUnixEpoch(t *testing.T) {
	cfg := DefaultStartup()
	cfg.Starts = []time.Duration{1_700_000_000 * time.Second, 1_700_000_000*time.Second + 5*time.Millisecond}
	res, err := RunStartup(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		for _, w := range r.Windows {
			if !w.Matched() || w.Positives == 0 {
				t.Errorf("S=%v W=%v %v Hz: measured %d/%d/%d, predicted %d/%d", r.S, w.W, w.Hz,
					w.Exceptions, w.Zeros, w.Positives, w.PredictedExceptions, w.PredictedZeros)
			}
		}
		if r.SimTimers[0].FirstNow != int64(r.S) {
			t.Errorf("first 10 Hz tick at %v, want S = %v", r.SimTimers[0].FirstNow, r.S)
		}
	}
}

// A start whose run ends past the last /clock value (int32 seconds) is
// refused up front instead of failing mid-run.
func TestStartupPastLastClockValue(t *testing.T) {
	cfg := DefaultStartup()
	cfg.Starts = []time.Duration{simclock.MaxMessageDuration - time.Second}
	if err := cfg.Validate(); !errors.Is(err, simclock.ErrOutOfRange) {
		t.Fatalf("Validate = %v, want ErrOutOfRange", err)
	}
	cfg.Starts = []time.Duration{simclock.MaxMessageDuration - cfg.Duration}
	if err := cfg.Validate(); err != nil {
		t.Fatalf("a run ending on the last /clock value: %v", err)
	}
	if err := (PredictInput{Start: simclock.MaxDuration, Window: 1, Hz: 1, ClockStep: 1, Duration: 1}).Check(); !errors.Is(err, simclock.ErrOverflow) {
		t.Fatalf("Check of S = max, D = 1ns: %v, want ErrOverflow", err)
	}
}

// R29 worked as the write-up does: the normal step beside the
// uninitialized one, and the callback before any /clock.
func TestDtSpikeCases(t *testing.T) {
	cases, err := DtSpikeCases(context.Background(), DefaultDtSpike())
	if err != nil {
		t.Fatal(err)
	}
	f := func(x float64) *float64 { return &x }
	want := []DtSpikeCase{
		{Case: "normal", PrevTimeNs: 124.5e9, NowNs: 125e9, Dt: 500 * time.Millisecond, PrevPositionM: 3, PositionM: 3.25,
			DistanceM: 0.25, SpeedMPS: f(0.5), PassesDtCheck: true},
		{Case: "uninitialized", PrevTimeNs: 0, NowNs: 125e9, Dt: 125 * time.Second, PrevPositionM: 3, PositionM: 3.25,
			DistanceM: 62.5, SpeedMPS: f(0.002), PassesDtCheck: true, WatchdogExceeded: 123 * time.Second, WatchdogTrips: true},
		{Case: "before_first_clock", PrevTimeNs: 0, NowNs: 0, Dt: 0, PrevPositionM: 3, PositionM: 3,
			DistanceM: 0, DivideByZero: true, PassesDtCheck: true},
	}
	if len(cases) != len(want) {
		t.Fatalf("%d cases", len(cases))
	}
	for i, c := range cases {
		w := want[i]
		if (c.SpeedMPS == nil) != (w.SpeedMPS == nil) || (c.SpeedMPS != nil && *c.SpeedMPS != *w.SpeedMPS) {
			t.Errorf("%s: speed %v, want %v", c.Case, c.SpeedMPS, w.SpeedMPS)
		}
		c.SpeedMPS, w.SpeedMPS = nil, nil
		if c != w {
			t.Errorf("case %d:\n got %+v\nwant %+v", i, c, w)
		}
	}
}

// The timer phase of the clock-type experiment: Time() (SYSTEM_TIME) as
// last_used fails on every tick as an error value, nothing escapes the
// spin; get_clock().now() works.
func TestClockTypesTimer(t *testing.T) {
	rows, err := ClockTypesTimer(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows", len(rows))
	}
	sys, ros := rows[0], rows[1]
	if sys.LastUsedClockType != "SYSTEM_TIME" || sys.Entered != 5 || sys.Completed != 5 || sys.Errors != 5 || sys.EscapesSpin ||
		sys.FirstError == "" {
		t.Errorf("Time(): %+v", sys)
	}
	if ros.LastUsedClockType != "ROS_TIME" || ros.Entered != 5 || ros.Completed != 5 || ros.Errors != 0 || ros.EscapesSpin {
		t.Errorf("get_clock().now(): %+v", ros)
	}
}

// A long run of slow /clock messages: the wall run is past int64
// nanoseconds, which must be refused, not wrapped into a small number.
func TestStartupWallRunPastInt64(t *testing.T) {
	cfg := DefaultStartup()
	cfg.Duration = 1_000_000 * time.Second
	cfg.ClockStep = time.Second
	cfg.ClockPeriod = 1_000_000 * time.Hour
	if err := cfg.Validate(); err == nil {
		t.Fatal("a wall run of 10^12 hours validated")
	}
}
