package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/simclock/simclock/experiment"
	"github.com/simclock/simclock/internal/units"
	"github.com/simclock/simclock/transport"
)

// configureDDSStartup sets up the startup experiment over real DDS: for
// each scenario the subject runs here and the fake simulator runs as a
// separate simclock process, both on their own domain, ROS_DOMAIN_ID +
// scenario index.
func configureDDSStartup(ctx context.Context, env *Env, cfg *experiment.StartupConfig) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("dds experiment: find the simclock binary: %w", err)
	}
	base := 0
	if v := env.Getenv("ROS_DOMAIN_ID"); v != "" {
		if base, err = strconv.Atoi(v); err != nil || base < 0 || base > 232 {
			return fmt.Errorf("ROS_DOMAIN_ID %q: want 0..232", v)
		}
	}
	if base+len(cfg.Starts)-1 > 232 {
		return fmt.Errorf("ROS_DOMAIN_ID %d: %d scenarios need domains up to %d, past 232", base, len(cfg.Starts), base+len(cfg.Starts)-1)
	}
	cfg.Mode = experiment.Realtime
	domainEnv := func(scenario int) *Env {
		e := *env
		e.Getenv = func(k string) string {
			if k == "ROS_DOMAIN_ID" {
				return strconv.Itoa(base + scenario)
			}
			return env.Getenv(k)
		}
		return &e
	}
	cfg.NewTransport = func(scenario int) (transport.Transport, transport.Transport, func(), error) {
		tr, err := openDDS(ctx, domainEnv(scenario))
		if err != nil {
			return nil, nil, nil, err
		}
		return nil, tr, func() { tr.Close() }, nil
	}
	c := *cfg
	cfg.ExternalSimulator = func(ctx context.Context, scenario int, start time.Duration) (func() error, error) {
		cmd := exec.CommandContext(ctx, self, "experiment", "startup-simulator",
			"--start", start.String(), "--clock-step", c.ClockStep.String(), "--clock-period", c.ClockPeriod.String(),
			"--clock-every", strconv.Itoa(c.ClockEvery), "--pre-clock", c.PreClock.String(), "--duration", c.Duration.String())
		cmd.Env = append(os.Environ(), "ROS_DOMAIN_ID="+strconv.Itoa(base+scenario))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		return func() error {
			if err := cmd.Wait(); err != nil {
				return fmt.Errorf("%v: %s", err, bytes.TrimSpace(stderr.Bytes()))
			}
			return nil
		}, nil
	}
	return nil
}

// newStartupSimulatorCmd is the other half of the DDS experiment: the fake
// simulator alone, in its own process.
func newStartupSimulatorCmd(env *Env, runF func(context.Context, *startupSimulatorOptions) error) *cobra.Command {
	o := &startupSimulatorOptions{env: env, cfg: experiment.DefaultStartup()}
	cmd := &cobra.Command{
		Use:    "startup-simulator",
		Short:  "The fake simulator of 'experiment startup --transport dds', run as its own process",
		Hidden: true,
		Args:   noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.cfg.Starts = []time.Duration{o.start}
			o.cfg.Mode = experiment.Realtime
			if err := o.cfg.Validate(); err != nil {
				return flagErrorf("%v", err)
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runStartupSimulator(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	cfg := &o.cfg
	f.Var(units.Duration(&o.start, units.NonNegative), "start", "simulator start time S")
	f.Var(units.Duration(&cfg.ClockStep, units.Positive), "clock-step", "sim time per /clock message")
	f.Var(units.Duration(&cfg.ClockPeriod, units.Positive), "clock-period", "wall time between /clock messages")
	f.IntVar(&cfg.ClockEvery, "clock-every", cfg.ClockEvery, "publish one /clock message in N")
	f.Var(units.Duration(&cfg.PreClock, units.NonNegative), "pre-clock", "wall time to wait after the subscription matched")
	f.Var(units.Duration(&cfg.Duration, units.Positive), "duration", "length of each run in sim time after S (not wall-clock time)")
	return cmd
}

// startupSimulatorOptions are the inputs of the hidden simclock experiment
// startup-simulator.
type startupSimulatorOptions struct {
	env   *Env
	cfg   experiment.StartupConfig
	start time.Duration
}

// runStartupSimulator publishes the fake simulator's /clock over DDS.
func runStartupSimulator(ctx context.Context, o *startupSimulatorOptions) error {
	tr, err := openDDS(ctx, o.env)
	if err != nil {
		return err
	}
	defer tr.Close()
	return experiment.RunSimulator(ctx, o.cfg, tr, o.start)
}
