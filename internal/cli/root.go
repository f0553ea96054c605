// Package cli implements the simclock command line: one cobra command per
// file, each a thin shell over a library package. Nothing outside
// cmd/simclock imports it.
//
// Every command has one shape, as gh's: newXCmd(env, runF) binds its
// flags to one xOptions struct that holds all its inputs (the Env of
// streams included); RunE puts the arguments in it, checks it and settles
// what the flags mean together (which wins, names resolved as the node's,
// values derived from several flags), then calls runF when one is given
// (a test of the parsing alone, options_test.go) and else runX(ctx, opts),
// which reads nothing from cobra.
//
// Exit codes, the same for every command (exitcodes_test.go): 0 success;
// 1 failure, findings (lint, bag, doctor), a failed check (monitor) or a
// prediction mismatch; 2 usage: an unknown command (with suggestions) or
// flag, a bad value (NaN, Inf, a negative or zero time where meaningless),
// a stop before a start, the same file twice. SIGINT and SIGTERM end a
// live run (pub, monitor, bag clock) with its summary and its verdict.
package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/internal/term"
	"github.com/simclock/simclock/node"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/inproc"
	"github.com/simclock/simclock/virtualclock"
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

	// Virtual, when set, runs the live commands (pub, monitor) in virtual
	// time on this fake clock: tests run them without waiting.
	Virtual *virtualclock.Clock
	// Bus is the in-process bus of --transport inproc; nil gives each
	// command a bus of its own.
	Bus *inproc.Bus
	// OnExecutor, when set, is called with the executor a live command is
	// about to spin, so a test can run peers (a simulator) beside it.
	OnExecutor func(*executor.Executor)
	// Keyboard, when set, opens the terminal's keys (bag clock's space to
	// pause); nil when standard input is not a terminal.
	Keyboard func() (Keyboard, error)
}

// newExecutor returns the executor of a live command on tr: in virtual
// time when env.Virtual is set, else waiting in tr's wait set when tr
// offers one (the dds transport), timers included.
func (env *Env) newExecutor(tr transport.Transport) *executor.Executor {
	ws, _ := tr.(transport.Waitable)
	exec := executor.New(executor.Config{Virtual: env.Virtual, WaitSet: ws})
	if env.OnExecutor != nil {
		env.OnExecutor(exec)
	}
	return exec
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
ROS 2 users meet in simulation.

Every time flag takes seconds: 1.5, 1.5s and 1500ms mean the same. Exit
status: 0 clean, 1 findings or failed checks, 2 usage.`,
		Version:       Version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(env.Stdin)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return &usageError{plainFlagError(err)} })
	root.AddCommand(
		newExperimentCmd(env),   // the main job: reproduce the hazards
		newPredictCmd(env, nil), // ... and predict them
		newPubCmd(env, nil),     // a fake simulator on /clock
		newMonitorCmd(env, nil), // /clock as a node sees it
		newDoctorCmd(env, nil),  // the time of a live graph
		newBagCmd(env),          // hazards in recordings
		newLintCmd(env, nil),    // hazards in source code
	)
	// cobra adds its completion command when it executes; added now, it
	// follows the same argument and exit rules as the others.
	root.InitDefaultCompletionCmd()
	// "simclock help nosuch" is an unknown command, as "simclock nosuch"
	// is (cobra's help prints the root help and exits 0).
	root.SetHelpCommand(&cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := root.Find(args)
			if err != nil || cmd == nil || len(rest) > 0 {
				at, typed := root, firstWord(args)
				if cmd != nil && len(rest) > 0 {
					at, typed = cmd, rest[0]
				}
				return unknownCommand(at, typed)
			}
			return cmd.Help()
		},
	})
	refuseUnknownCommands(root)
	argsAreUsage(root)
	pointToTroubleshooting(root)
	// Help fits 100 columns too: flag descriptions wrap.
	cobra.AddTemplateFunc("wrappedFlagUsages", func(f *pflag.FlagSet) string { return f.FlagUsagesWrapped(tableWidth) })
	root.SetUsageTemplate(strings.NewReplacer(
		".LocalFlags.FlagUsages", "wrappedFlagUsages .LocalFlags",
		".InheritedFlags.FlagUsages", "wrappedFlagUsages .InheritedFlags",
	).Replace(root.UsageTemplate()))
	return root
}

// strconvError matches what pflag leaves of a number it could not parse:
// `strconv.ParseInt: parsing "1e6": invalid syntax`.
var strconvError = regexp.MustCompile(`strconv\.Parse(Int|Uint|Float): parsing "([^"]*)": (invalid syntax|value out of range)`)

// plainFlagError says in words what pflag's number errors say in Go:
// `invalid argument "1e6" for "--clock-every" flag: want a whole number`.
func plainFlagError(err error) error {
	msg := err.Error()
	m := strconvError.FindStringSubmatch(msg)
	if m == nil {
		return err
	}
	want := map[string]string{"Int": "a whole number", "Uint": "a whole number, 0 or more", "Float": "a number"}[m[1]]
	if m[3] == "value out of range" {
		want += " in range"
	}
	return errors.New(strings.Replace(msg, m[0], "want "+want, 1))
}

// troubleshootingNote ends every command's help: a user who came with an
// error message finds the page that names its causes.
const troubleshootingNote = `A time error from ROS 2 ("Lookup would require extrapolation", TF_OLD_DATA,
"Detected jump back in time", "Subtraction leads to negative time", ...)?
docs/troubleshooting.md quotes each one, its causes, and the command that finds them.`

// pointToTroubleshooting appends troubleshootingNote to the help of c and
// every command under it but cobra's own.
func pointToTroubleshooting(c *cobra.Command) {
	if c.Name() != "help" && c.Name() != "completion" {
		c.Long = strings.TrimRight(cmp.Or(c.Long, c.Short), "\n") + "\n\n" + troubleshootingNote
	}
	for _, sub := range c.Commands() {
		pointToTroubleshooting(sub)
	}
}

// refuseUnknownCommands makes every command group (a command with
// subcommands and no action of its own) refuse an unknown subcommand as a
// usage error with suggestions: "simclock experiment startpu" exits 2 and
// says "did you mean startup?", where cobra would print help and exit 0.
func refuseUnknownCommands(c *cobra.Command) {
	if c.HasSubCommands() && c.Run == nil && c.RunE == nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			return unknownCommand(cmd, args[0])
		}
		c.RunE = func(cmd *cobra.Command, args []string) error { return cmd.Help() }
	}
	for _, sub := range c.Commands() {
		refuseUnknownCommands(sub)
	}
}

// unknownCommand is the usage error for a mistyped command, with the
// commands it may have meant.
func unknownCommand(cmd *cobra.Command, typed string) error {
	msg := fmt.Sprintf("unknown command %q for %q", typed, cmd.CommandPath())
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2
	}
	if s := cmd.SuggestionsFor(typed); len(s) > 0 {
		msg += fmt.Sprintf("; did you mean %s?", strings.Join(s, " or "))
	}
	return &usageError{errors.New(msg)}
}

// Main runs simclock with args and returns the process exit code.
func Main(ctx context.Context, args []string, env *Env) int {
	root := NewRoot(env)
	rosArgs, args, err := node.ParseROSArgs(args)
	cmd := root
	if err == nil {
		env.ROSArgs = rosArgs
		root.SetArgs(joinOptionalValues(root, args))
		cmd, err = root.ExecuteContextC(ctx)
	} else {
		err = &usageError{err}
	}
	if err != nil && strings.HasPrefix(err.Error(), "unknown command ") && cmd == root {
		// cobra's own error for the root; ours has the suggestions too.
		if typed := firstWord(args); typed != "" {
			err = unknownCommand(root, typed)
		}
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
		path := "simclock"
		if cmd != nil {
			path = cmd.CommandPath()
		}
		fmt.Fprintf(env.Stderr, "simclock: %s\nRun '%s --help' for usage.\n", errorText(err), path)
		return ExitUsage
	}
	fmt.Fprintf(env.Stderr, "simclock: %s\n", errorText(err))
	return ExitFailure
}

// errorText is err's message for a terminal, escaped (term.Escape): an
// error names paths and topics from outside.
func errorText(err error) string { return term.Escape(err.Error()) }

// optionalNumberAnnotation marks a flag whose value is optional and a
// number, as argparse's nargs='?' in the ros2 CLI: "--clock 100" means
// --clock=100 there, where pflag would take 100 for an argument.
const optionalNumberAnnotation = "simclock_optional_number"

// joinOptionalValues rewrites "--FLAG N" as "--FLAG=N" for the flags of
// the command args run that carry optionalNumberAnnotation, when N is a
// number.
func joinOptionalValues(root *cobra.Command, args []string) []string {
	cmd, _, err := root.Find(args)
	if err != nil || cmd == nil {
		return args
	}
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if name, ok := strings.CutPrefix(a, "--"); ok && i+1 < len(args) {
			if f := cmd.Flags().Lookup(name); f != nil && f.Annotations[optionalNumberAnnotation] != nil {
				if _, err := strconv.ParseFloat(args[i+1], 64); err == nil {
					out = append(out, a+"="+args[i+1])
					i++
					continue
				}
			}
		}
		out = append(out, a)
	}
	return out
}

// firstWord returns the first argument that is not a flag.
func firstWord(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

// noArgs refuses positional arguments, as a usage error naming the
// command (cobra.NoArgs would call an argument an "unknown command").
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return flagErrorf("%s takes no arguments, got %q", cmd.CommandPath(), args)
	}
	return nil
}

// argsAreUsage makes every argument check in the tree of c report a
// usage error (exit 2), whoever wrote the check: cobra's own validators
// return plain errors, which would exit 1.
func argsAreUsage(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			err := check(cmd, args)
			if _, ok := errors.AsType[*usageError](err); err == nil || ok {
				return err
			}
			return &usageError{err}
		}
	}
	for _, sub := range c.Commands() {
		argsAreUsage(sub)
	}
}
