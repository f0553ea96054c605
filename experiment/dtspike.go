package experiment

import (
	"context"
	"fmt"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/guard"
	"github.com/simclock/simclock/node"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport/inproc"
	"github.com/simclock/simclock/virtualclock"
)

// DtSpikeConfig is the R29 worked example.
type DtSpikeConfig struct {
	FirstClock time.Duration // first /clock value (125 s)
	Period     time.Duration // the control loop's sim-clock period (0.5 s)
	Speed      float64       // m/s the robot really moves at (0.5)
	Timeout    time.Duration // "no data for this long" watchdog (2 s)
	Ticks      int           // loop iterations to report
	// PositionAtFirstClock is where the robot is at the first tick (3.25
	// m), for DtSpikeCases.
	PositionAtFirstClock float64
}

// DefaultDtSpike is the example of R29: first /clock at 125 s, 0.5 s
// period, 0.5 m/s, 2 s timeout.
func DefaultDtSpike() DtSpikeConfig {
	return DtSpikeConfig{FirstClock: 125 * time.Second, Period: 500 * time.Millisecond, Speed: 0.5, Timeout: 2 * time.Second, Ticks: 6, PositionAtFirstClock: 3.25}
}

// Validate checks the configuration and names the first bad field.
func (c DtSpikeConfig) Validate() error {
	switch {
	case c.Period <= 0:
		return fmt.Errorf("experiment: dtspike period %s must be positive", FormatSeconds(int64(c.Period)))
	case c.Ticks <= 0 || c.Ticks > 100_000:
		return fmt.Errorf("experiment: dtspike ticks %d must be between 1 and 100000", c.Ticks)
	case c.FirstClock <= 0 || c.FirstClock > 1<<31*time.Second:
		return fmt.Errorf("experiment: dtspike first /clock %s must be positive and fit a message", FormatSeconds(int64(c.FirstClock)))
	case c.Timeout <= 0:
		return fmt.Errorf("experiment: dtspike timeout %s must be positive", FormatSeconds(int64(c.Timeout)))
	}
	return nil
}

// DtSpikeRow is one loop iteration, computed naively (baseline stored in
// the constructor, only a dt < 0 check) and with guard.DtTracker.
type DtSpikeRow struct {
	Tick          int           `json:"tick"`
	NowNs         int64         `json:"now_ns"`
	NaiveDt       time.Duration `json:"naive_dt_ns"`
	NaiveDistM    float64       `json:"naive_distance_m"`
	NaiveSpeedMS  float64       `json:"naive_speed_mps"`
	NaiveTimeout  bool          `json:"naive_timeout"`
	GuardSkip     string        `json:"guarded_skip"`
	GuardDt       time.Duration `json:"guarded_dt_ns"`
	GuardDistM    float64       `json:"guarded_distance_m"`
	GuardSpeedMS  float64       `json:"guarded_speed_mps"`
	GuardTimeout  bool          `json:"guarded_timeout"`
	TrueDistanceM float64       `json:"true_distance_m"`
}

// RunDtSpike runs a control loop on a sim-time node in virtual time: the
// simulator's first /clock carries cfg.FirstClock, the node stored its
// baseline (and its "last message" time for the watchdog) in its
// constructor, before that. It reports each iteration with the naive
// arithmetic and with the guard.
func RunDtSpike(ctx context.Context, cfg DtSpikeConfig) ([]DtSpikeRow, error) {
	rows, _, err := runDtSpike(ctx, cfg)
	return rows, err
}

// dtSpikeReadings are the controller's clock readings the cases are built
// from: its constructor's baseline, a callback before any /clock, and
// the first loop tick.
type dtSpikeReadings struct {
	ctor, preClock, firstTick simclock.Time[simclock.ROS]
	preClockRan               bool
}

func runDtSpike(ctx context.Context, cfg DtSpikeConfig) ([]DtSpikeRow, dtSpikeReadings, error) {
	var obs dtSpikeReadings
	if err := cfg.Validate(); err != nil {
		return nil, obs, err
	}
	fake := virtualclock.New()
	exec := executor.New(executor.Config{Virtual: fake})
	defer exec.Close()
	bus := inproc.NewBus()
	simNode, err := node.New("fake_simulator", exec, bus.Connect("sim"), node.Options{})
	if err != nil {
		return nil, obs, err
	}
	defer simNode.Close()
	subject, err := node.New("controller", exec, bus.Connect("controller"), node.Options{UseSimTime: true})
	if err != nil {
		return nil, obs, err
	}
	defer subject.Close()
	// The startup experiment's fake simulator, from FirstClock: 10 ms of
	// sim time every 5 ms, 0.5 s after the subscription matched.
	simCfg := DefaultStartup()
	simCfg.MatchDelay = 0
	simCfg.Duration = time.Duration(cfg.Ticks+2) * cfg.Period
	sim, err := newSimulator(exec, simNode, simCfg, cfg.FirstClock)
	if err != nil {
		return nil, obs, err
	}
	defer sim.close()

	// The constructor: the naive code stores now() (0) as its baseline.
	naivePrev := subject.Now()
	obs.ctor = naivePrev
	// A callback that runs before any /clock (a wall timer, a sensor
	// subscription): it reads now() while the clock still sits at 0.
	var pre *timer.Timer
	if pre, err = subject.CreateWallTimer(100*time.Millisecond, func(timer.Info) {
		pre.Cancel()
		obs.preClock, obs.preClockRan = subject.Now(), true
	}); err != nil {
		return nil, obs, err
	}
	naiveLastMsg := subject.Now()
	var naiveDist, guardDist float64
	var tracker guard.DtTracker[simclock.ROS]
	tracker.Update(subject.Now())
	position := func(now simclock.Time[simclock.ROS]) float64 {
		if now.Nanoseconds() < int64(cfg.FirstClock) {
			return 0
		}
		return cfg.Speed * float64(now.Nanoseconds()-int64(cfg.FirstClock)) / 1e9
	}
	naivePrevPos, guardPrevPos := position(naivePrev), 0.0
	var guardLastMsg simclock.Time[simclock.ROS]
	var rows []DtSpikeRow
	if _, err := subject.CreateTimer(cfg.Period, func(timer.Info) {
		now := subject.Now()
		if len(rows) == 0 {
			obs.firstTick = now
		}
		pos := position(now)
		row := DtSpikeRow{Tick: len(rows) + 1, NowNs: now.Nanoseconds(), TrueDistanceM: pos}
		// Naive: dt = now - prev, skip only if dt < 0.
		dt := now.Sub(naivePrev)
		row.NaiveDt = dt
		if dt >= 0 {
			naiveDist += cfg.Speed * dt.Seconds()
			if dt > 0 {
				row.NaiveSpeedMS = (pos - naivePrevPos) / dt.Seconds()
			}
		}
		row.NaiveDistM = naiveDist
		row.NaiveTimeout = now.Sub(naiveLastMsg) > cfg.Timeout
		naivePrev, naivePrevPos, naiveLastMsg = now, pos, now
		// Guarded: DtTracker, and the watchdog starts at the first valid sample.
		step := tracker.Update(now)
		row.GuardSkip = step.Skip.String()
		if step.OK() {
			row.GuardDt = step.Dt
			guardDist += cfg.Speed * step.Dt.Seconds()
			row.GuardSpeedMS = (pos - guardPrevPos) / step.Dt.Seconds()
			row.GuardTimeout = now.Sub(guardLastMsg) > cfg.Timeout
		}
		row.GuardDistM = guardDist
		guardPrevPos, guardLastMsg = pos, now
		rows = append(rows, row)
		if len(rows) >= cfg.Ticks {
			exec.Stop()
		}
	}); err != nil {
		return nil, obs, err
	}
	sim.begin()
	if err := exec.Spin(ctx); err != nil {
		return rows, obs, err
	}
	return rows, obs, sim.err
}

// A DtSpikeCase is one step of the control loop worked by hand, as the
// R29 write-up does: the robot was at PrevPositionM at the previous tick
// and is at PositionM now; dt is now minus the stored previous time.
type DtSpikeCase struct {
	Case          string        `json:"case"` // "normal", "uninitialized", "before_first_clock"
	PrevTimeNs    int64         `json:"prev_time_ns"`
	NowNs         int64         `json:"now_ns"`
	Dt            time.Duration `json:"dt_ns"`
	PrevPositionM float64       `json:"prev_position_m"`
	PositionM     float64       `json:"position_m"`
	// DistanceM is the integral speed·dt at the commanded speed.
	DistanceM float64 `json:"integrated_distance_m"`
	// SpeedMPS is the finite difference (position - prev)/dt; nil when dt
	// is 0 (DivideByZero: Python raises ZeroDivisionError, C++ gets inf
	// or NaN).
	SpeedMPS     *float64 `json:"finite_difference_speed_mps"`
	DivideByZero bool     `json:"divides_by_zero"`
	// PassesDtCheck is true when a "skip if dt < 0" check lets the step
	// through.
	PassesDtCheck bool `json:"passes_dt_negative_check"`
	// WatchdogExceeded is how far dt is past the watchdog timeout (0
	// when within it); the watchdog trips when it is positive.
	WatchdogExceeded time.Duration `json:"watchdog_exceeded_by_ns"`
	WatchdogTrips    bool          `json:"watchdog_trips"`
}

// DtSpikeCases runs the controller of RunDtSpike and works its first step
// three ways, from what the controller read: the normal step (previous
// tick one period before the first, at 124.5 s), the uninitialized one
// (previous time stored in the constructor, 0), and the callback that
// runs before any /clock (previous and current time both 0). The robot
// moves at cfg.Speed and is at PositionAtFirstClock at the first tick, so
// at PositionAtFirstClock - Speed·Period one period earlier (3.0 m and
// 3.25 m by default); before any /clock nothing has moved.
func DtSpikeCases(ctx context.Context, cfg DtSpikeConfig) ([]DtSpikeCase, error) {
	_, obs, err := runDtSpike(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if !obs.preClockRan {
		return nil, fmt.Errorf("experiment: dtspike: no callback ran before the first /clock")
	}
	prevTick, err := obs.firstTick.Minus(cfg.Period)
	if err != nil {
		return nil, fmt.Errorf("experiment: dtspike: the tick before the first: %w", err)
	}
	now := cfg.PositionAtFirstClock
	before := now - cfg.Speed*cfg.Period.Seconds()
	return []DtSpikeCase{
		dtSpikeCase("normal", prevTick, obs.firstTick, before, now, cfg),
		dtSpikeCase("uninitialized", obs.ctor, obs.firstTick, before, now, cfg),
		dtSpikeCase("before_first_clock", obs.ctor, obs.preClock, before, before, cfg),
	}, nil
}

func dtSpikeCase(name string, prev, now simclock.Time[simclock.ROS], prevPos, pos float64, cfg DtSpikeConfig) DtSpikeCase {
	dt := now.Sub(prev)
	c := DtSpikeCase{Case: name, PrevTimeNs: prev.Nanoseconds(), NowNs: now.Nanoseconds(),
		Dt: dt, PrevPositionM: prevPos, PositionM: pos, DistanceM: cfg.Speed * dt.Seconds(),
		PassesDtCheck: !(dt < 0), DivideByZero: dt == 0, WatchdogTrips: dt > cfg.Timeout}
	if dt != 0 {
		v := (pos - prevPos) / dt.Seconds()
		c.SpeedMPS = &v
	}
	if dt > cfg.Timeout {
		c.WatchdogExceeded = dt - cfg.Timeout
	}
	return c
}
