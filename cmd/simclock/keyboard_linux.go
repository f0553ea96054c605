package main

import (
	"os"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/simclock/simclock/internal/cli"
)

// terminalKeys reads the keys typed on the terminal of standard input, one
// at a time and without echo (as ros2 bag play's keyboard handler does);
// signals (Ctrl-C) still work. Close restores the terminal.
type terminalKeys struct {
	fd   int
	old  *unix.Termios
	ch   chan byte
	once sync.Once
}

// openKeyboard is cli.Env.Keyboard when standard input is a terminal.
func openKeyboard() (cli.Keyboard, error) {
	fd := int(os.Stdin.Fd())
	old, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return nil, err
	}
	raw := *old
	raw.Lflag &^= unix.ICANON | unix.ECHO
	raw.Cc[unix.VMIN], raw.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, &raw); err != nil {
		return nil, err
	}
	k := &terminalKeys{fd: fd, old: old, ch: make(chan byte, 16)}
	go func() {
		// It ends with the process: a read on a terminal cannot be
		// interrupted, and the command is over when the keys are closed.
		b := make([]byte, 1)
		for {
			if n, err := os.Stdin.Read(b); err != nil {
				return
			} else if n == 1 {
				select {
				case k.ch <- b[0]:
				default: // typed faster than played: drop
				}
			}
		}
	}()
	return k, nil
}

func (k *terminalKeys) Keys() <-chan byte { return k.ch }

func (k *terminalKeys) Close() error {
	var err error
	k.once.Do(func() { err = unix.IoctlSetTermios(k.fd, unix.TCSETS, k.old) })
	return err
}
