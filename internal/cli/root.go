// Package cli implements the simclock command line: one cobra command per
// file, each a thin shell over a library package. Nothing outside
// cmd/simclock imports it.
//
// Exit codes: 0 success; 1 failure, findings (lint, bag) or a prediction
// mismatch; 2 usage error.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/simclock/simclock/node"
)

// Version is the simclock version printed by --version and in JSON env lines.
const Version = "0.1.0"

// Env bundles the streams a command writes to, so tests can run commands
// in-process with buffers.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// StderrIsTTY enables progress bars and in-place refresh on stderr.
	StderrIsTTY bool
	// Getenv reads the environment; defaults to os.Getenv.
	Getenv func(string) string
	// ROSArgs are the "--ros-args ... [--]" arguments Main took out of the
	// command line (node name and namespace remappings).
	ROSArgs node.ROSArgs
}

// Exit codes.
const (
	ExitOK       = 0
	ExitFailure  = 1
	ExitUsage    = 2
	ExitCanceled = 130
)

// errFindings makes a command exit 1 without printing an error: the command
// has already reported its findings.
var errFindings = errors.New("findings reported")

// usageError marks a bad flag or argument; Main prints it with a usage hint
// and exits 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// flagErrorf returns a usage error: exit status 2.
func flagErrorf(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// NewRoot builds the simclock command tree writing to env.
func NewRoot(env *Env) *cobra.Command {
	if env.Getenv == nil {
		env.Getenv = os.Getenv
	}
	root := &cobra.Command{
		Use:   "simclock",
		Short: "The ROS 2 time stack in Go: sim time you can trust, and tools that find time bugs",
		Long: `simclock implements the ROS 2 time system (Time, Duration, clock types, the ROS
clock with sim-time override, /clock time source, timers and rates with rcl's
semantics) and ships tools that reproduce, predict and find the time hazards
ROS 2 users meet in simulation.`,
		Version:       Version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(env.Stdin)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return &usageError{err} })
	root.AddCommand(
		newExperimentCmd(env), // the main job: reproduce the hazards
		newPredictCmd(env),    // ... and predict them
		newPubCmd(env),        // a fake simulator on /clock
		newMonitorCmd(env),    // /clock as a node sees it
		newDoctorCmd(env),     // the time of a live graph
		newBagCmd(env),        // hazards in recordings
		newLintCmd(env),       // hazards in source code
	)
	return root
}

// Main runs simclock with args and returns the process exit code.
func Main(ctx context.Context, args []string, env *Env) int {
	root := NewRoot(env)
	rosArgs, args, err := node.ParseROSArgs(args)
	if err == nil {
		env.ROSArgs = rosArgs
		root.SetArgs(args)
		err = root.ExecuteContext(ctx)
	} else {
		err = &usageError{err}
	}
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, errFindings):
		return ExitFailure
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(env.Stderr, "simclock: interrupted")
		return ExitCanceled
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(env.Stderr, "simclock: %v\nRun 'simclock --help' for usage.\n", err)
		return ExitUsage
	}
	fmt.Fprintf(env.Stderr, "simclock: %v\n", err)
	return ExitFailure
}
