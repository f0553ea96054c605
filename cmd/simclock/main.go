// Command simclock reproduces, predicts and finds ROS 2 time hazards.
// Run "simclock --help" for the commands.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/simclock/simclock/internal/cli"
)

func main() {
	// SIGINT and SIGTERM both end a run the same way: with its summary.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	env := &cli.Env{
		Stdin:       os.Stdin,
		Stdout:      os.Stdout,
		Stderr:      os.Stderr,
		StderrIsTTY: isTerminal(os.Stderr),
	}
	if isTerminal(os.Stdin) {
		env.Keyboard = openKeyboard
	}
	code := cli.Main(ctx, os.Args[1:], env)
	stop()
	os.Exit(code)
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
