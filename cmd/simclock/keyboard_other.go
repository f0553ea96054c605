//go:build !linux

package main

import (
	"errors"

	"github.com/simclock/simclock/internal/cli"
)

// openKeyboard: keys are read on Linux only.
func openKeyboard() (cli.Keyboard, error) { return nil, errors.New("keyboard controls need Linux") }
