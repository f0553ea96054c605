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
}

// DefaultDtSpike is the example of R29: first /clock at 125 s, 0.5 s
// period, 0.5 m/s, 2 s timeout.
func DefaultDtSpike() DtSpikeConfig {
	return DtSpikeConfig{FirstClock: 125 * time.Second, Period: 500 * time.Millisecond, Speed: 0.5, Timeout: 2 * time.Second, Ticks: 6}
}

// Validate checks the configuration and names the first bad field.
func (c DtSpikeConfig) Validate() error {
	switch {
	case c.Period <= 0:
		return fmt.Errorf("experiment: dtspike period %v must be positive", c.Period)
	case c.Ticks <= 0 || c.Ticks > 100_000:
		return fmt.Errorf("experiment: dtspike ticks %d must be between 1 and 100000", c.Ticks)
	case c.FirstClock <= 0 || c.FirstClock > 1<<31*time.Second:
		return fmt.Errorf("experiment: dtspike first /clock %v must be positive and fit a message", c.FirstClock)
	case c.Timeout <= 0:
		return fmt.Errorf("experiment: dtspike timeout %v must be positive", c.Timeout)
	}
	return nil
}

// DtSpikeRow is one loop iteration, computed naively (baseline stored in
// the constructor, only a dt < 0 check) and with guard.DtTracker.
type DtSpikeRow struct {
	Kind          string  `json:"kind"` // "dtspike_tick"
	Tick          int     `json:"tick"`
	NowS          float64 `json:"now_s"`
	NaiveDtS      float64 `json:"naive_dt_s"`
	NaiveDistM    float64 `json:"naive_distance_m"`
	NaiveSpeedMS  float64 `json:"naive_speed_mps"`
	NaiveTimeout  bool    `json:"naive_timeout"`
	GuardSkip     string  `json:"guarded_skip"`
	GuardDtS      float64 `json:"guarded_dt_s"`
	GuardDistM    float64 `json:"guarded_distance_m"`
	GuardSpeedMS  float64 `json:"guarded_speed_mps"`
	GuardTimeout  bool    `json:"guarded_timeout"`
	TrueDistanceM float64 `json:"true_distance_m"`
}

// RunDtSpike runs a control loop on a sim-time node in virtual time: the
// simulator's first /clock carries cfg.FirstClock, the node stored its
// baseline (and its "last message" time for the watchdog) in its
// constructor, before that. It reports each iteration with the naive
// arithmetic and with the guard.
func RunDtSpike(ctx context.Context, cfg DtSpikeConfig) ([]DtSpikeRow, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	fake := virtualclock.New()
	exec := executor.New(executor.Config{Virtual: fake})
	defer exec.Close()
	bus := inproc.NewBus()
	simNode, err := node.New("fake_simulator", exec, bus.Connect("sim"), node.Options{})
	if err != nil {
		return nil, err
	}
	defer simNode.Close()
	subject, err := node.New("controller", exec, bus.Connect("controller"), node.Options{UseSimTime: true})
	if err != nil {
		return nil, err
	}
	defer subject.Close()
	// The startup experiment's fake simulator, from FirstClock: 10 ms of
	// sim time every 5 ms, 0.5 s after the subscription matched.
	simCfg := DefaultStartup()
	simCfg.MatchDelay = 0
	simCfg.Duration = time.Duration(cfg.Ticks+2) * cfg.Period
	sim, err := newSimulator(exec, simNode, simCfg, cfg.FirstClock)
	if err != nil {
		return nil, err
	}
	defer sim.close()

	// The constructor: the naive code stores now() (0) as its baseline.
	naivePrev := subject.Now()
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
		pos := position(now)
		row := DtSpikeRow{Kind: "dtspike_tick", Tick: len(rows) + 1, NowS: now.Seconds(), TrueDistanceM: pos}
		// Naive: dt = now - prev, skip only if dt < 0.
		dt := now.Sub(naivePrev)
		row.NaiveDtS = dt.Seconds()
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
			row.GuardDtS = step.Dt.Seconds()
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
		return nil, err
	}
	sim.begin()
	if err := exec.Spin(ctx); err != nil {
		return rows, err
	}
	return rows, sim.err
}
