package cli

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/simclock/simclock/internal/report"
	"github.com/simclock/simclock/internal/term"
	"github.com/simclock/simclock/lint"
	"github.com/simclock/simclock/rules"
)

// lintOptions are the inputs of simclock lint: its streams, flags and
// paths, checked by the command, and the settings they resolve to with the
// config file's (lintConfig), before runLint.
type lintOptions struct {
	env       *Env
	format    string
	fix       bool
	rules     string
	distro    string
	strict    bool
	failOn    rules.FailOn
	root      string
	xunitFile string
	config    string
	exclude   []string
	stdinName string
	stdin     bool // the one PATH is "-"
	paths     []string

	cfg     lint.Config  // what the run checks: flags, config file, $ROS_DISTRO, defaults
	cfgFile string       // the config file read, "" for none
	roots   report.Roots // what SARIF artifact URIs are relative to
}

func newLintCmd(env *Env, runF func(context.Context, *lintOptions) error) *cobra.Command {
	opts := &lintOptions{env: env}
	var ids []string
	for _, r := range lint.Rules {
		ids = append(ids, r.ID.String())
	}
	cmd := &cobra.Command{
		Use:   "lint [flags] PATH...",
		Short: "Find ROS 2 time pitfalls in rclpy and rclcpp source code",
		Long: `simclock lint [--format text|json|sarif|junit] [--fix] [--rules R27,R29] [--strict] PATH...

Scans the Python and C++ files under each PATH (and YAML parameter and launch
files, XML launch files and shell scripts, for a misspelt use_sim_time) for
the time pitfalls of the ROS 2 time specification and reports each as
  file:line:col: SEVERITY: RULE: message
followed by how to fix it; why each rule matters is said once, after the
findings, with its section in docs/rules.md. Directories named build,
install, log, hidden ones and those holding AMENT_IGNORE or COLCON_IGNORE
are skipped. Give a package's headers and sources together: C++ class
members are followed across the files of one package. PATH - reads standard
input (as Python, or as --stdin-filename's extension says).

Rules: ` + strings.Join(ids, ", ") + `, by number or name (unguarded-window).
Silence a finding with a comment on its line or alone on the line before:
  # simclock: ignore[R27]      // simclock: ignore[unguarded-window,R28]
A suppression naming no rule, or silencing nothing, is itself reported
(info; a warning under --strict).

Settings come from the flags, then the config file, then $ROS_DISTRO, then
the defaults: the
first .simclock.yaml (key "lint") or pyproject.toml with [tool.simclock]
([tool.simclock.lint]) in each PATH's directory or above, or --config FILE;
it sets rules, ignore, exclude, per_file_ignores and ros_distro (docs/cli.md,
"simclock lint"). --rules replaces the file's rules and ignore, --exclude its
exclude (globs; a name without / matches at any depth), --ros-distro its
ros_distro. A path named on the command line is linted even if excluded.

--fix rewrites files in place where the repair is mechanical (keyword
arguments for rclpy Time/Duration, use_sim_time spelling, ROS clock type for
a SYSTEM_TIME baseline); guards are never inserted.

--ros-distro (default $ROS_DISTRO, as every ROS shell sets it, else jazzy)
says what now() - W below 0 does: rclpy raises; rclcpp throws from 28.2
(Kilted, Rolling) and silently gives a negative Time on Humble and Jazzy,
where a C++ window is info, and nothing when it is only compared. Test code (gtest, pytest,
launch_testing) runs on wall time unless it mentions use_sim_time, so the
sim-time startup rules (R26, R27, R29) skip it.

Files that could not be parsed (YAML or XML that is not well formed) and
Python files with syntax errors are named on stderr (file:line: ...) and
analysed as far as they go; --strict fails the run on them. C++ the parser
cannot fully follow (macros it cannot expand) is valid code: it is analysed
around them and only counted. A directory or file that cannot be read is
named and the rest is linted; the run then fails. SARIF artifact URIs
are relative to --root (default: the git work tree holding the paths, else
the current directory), however the paths were typed.

--format junit writes JUnit XML as ament's linters do; --xunit-file FILE
writes it to FILE beside the --format output, as ament_flake8 --xunit-file
does, for ament_add_test's RESULT_FILE (docs/ament.md has the CMake lines).

Exit status: 0 when clean, 1 when a finding that reaches --fail-on remains
(default warning: warnings and errors fail, info does not), a path could not
be read, no file was found to lint (as ament's linters: "No files found"),
or, with --strict, a file could not be parsed or a suppression does
nothing; 2 on usage errors (a bad config file included).

Examples:
  simclock lint src/my_pkg
  simclock lint --rules R27,R28 --format sarif src > lint.sarif
  simclock lint --xunit-file build/test_results/my_pkg/simclock_lint.xunit.xml src/my_pkg
  simclock lint --stdin-filename node.py - < node.py
  simclock lint --fix src/my_pkg/my_pkg/node.py`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.paths = args
			if err := opts.resolve(cmd.Flags().Changed); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runLint(cmd.Context(), opts)
		},
	}
	flags := cmd.Flags()
	addFormatFlag(flags, &opts.format, formatSARIF, formatJUnit)
	flags.BoolVar(&opts.fix, "fix", false, "apply mechanical fixes to the files in place")
	flags.StringVar(&opts.rules, "rules", "", "comma-separated rules to report, by number or name (default: all, or the config file's)")
	flags.BoolVar(&opts.strict, "strict", false, "fail (exit 1) when a file could not be parsed or a suppression comment does nothing")
	flags.StringVar(&opts.xunitFile, "xunit-file", "", "also write the findings as JUnit XML to this file (ament_add_test's RESULT_FILE)")
	flags.StringVar(&opts.config, "config", "", "read settings from this file (default: .simclock.yaml or pyproject.toml found from the paths up)")
	flags.StringSliceVar(&opts.exclude, "exclude", nil, "glob of files and directories not to lint below a PATH, repeatable (replaces the config file's)")
	flags.StringVar(&opts.stdinName, "stdin-filename", "", "the name standard input (PATH -) is linted as: its extension picks the language")
	addFailOnFlag(flags, &opts.failOn)
	flags.StringVar(&opts.root, "root", "", "directory SARIF artifact URIs are relative to (default: the git work tree, else the current directory)")
	flags.StringVar(&opts.distro, "ros-distro", "",
		"ROS 2 distribution the code targets ("+strings.Join(lint.Distros, ", ")+"; default $ROS_DISTRO, else "+lint.DefaultDistro+
			"): what a negative rclcpp::Time does depends on it")
	return cmd
}

// resolve checks the paths and flags, changed telling which flags were
// given, and settles the run's settings (lintConfig) and SARIF roots.
func (opts *lintOptions) resolve(changed func(name string) bool) error {
	if len(opts.paths) == 0 {
		return flagErrorf("lint: no PATH given")
	}
	switch {
	case slices.Contains(opts.paths, "-"):
		if len(opts.paths) > 1 {
			return flagErrorf("lint: - (standard input) must be the only PATH")
		}
		if opts.fix {
			return flagErrorf("lint: --fix cannot rewrite standard input")
		}
		opts.stdin = true
	case opts.stdinName != "":
		return flagErrorf("--stdin-filename only applies to PATH - (standard input)")
	}
	if !opts.stdin {
		for _, p := range opts.paths {
			info, err := os.Stat(p)
			if errors.Is(err, fs.ErrNotExist) {
				return flagErrorf("lint: %v", err)
			}
			// A named pipe or socket would be read forever: refused.
			if err == nil && !info.IsDir() {
				if _, err := lint.Files([]string{p}); errors.Is(err, lint.ErrNotRegular) {
					return flagErrorf("lint: %v", err)
				}
			}
		}
	}
	if opts.root != "" {
		if opts.format != formatSARIF {
			return flagErrorf("--root only applies to --format sarif")
		}
		if info, err := os.Stat(opts.root); err != nil || !info.IsDir() {
			if err == nil {
				err = fmt.Errorf("%s is not a directory", opts.root)
			}
			return flagErrorf("--root: %v", err)
		}
	}
	var err error
	if opts.cfg, opts.cfgFile, err = lintConfig(changed, opts); err != nil {
		return err
	}
	scanned := opts.paths
	if opts.stdin {
		scanned = []string{"."}
		if opts.stdinName != "" {
			scanned = []string{opts.stdinName}
		}
	}
	if opts.roots, err = report.ScanRoot(opts.root, scanned); err != nil {
		return flagErrorf("--root: %v", err)
	}
	return nil
}

// runLint lints the paths (or standard input) as opts says and reports.
func runLint(ctx context.Context, opts *lintOptions) error {
	start := time.Now()
	env, cfg := opts.env, opts.cfg
	var res *lint.Result
	var err error
	if opts.stdin {
		src, rerr := io.ReadAll(env.Stdin)
		if rerr != nil {
			return fmt.Errorf("lint: standard input: %w", rerr)
		}
		name := cmp.Or(opts.stdinName, "-")
		res, err = lint.Source(name, src, cfg)
	} else {
		res, err = lint.Run(ctx, opts.paths, cfg)
	}
	if err != nil {
		if errors.Is(err, lint.ErrNoParser) {
			return err
		}
		return fmt.Errorf("lint: %w", err)
	}
	fixed := 0
	if opts.fix {
		if fixed, err = lint.Fix(res); err != nil {
			return fmt.Errorf("lint --fix: %w", err)
		}
	}
	run := lintRun{res: res, opts: opts, fixed: fixed, elapsed: time.Since(start)}
	switch opts.format {
	case formatJSON:
		err = run.writeJSON(env.Stdout)
	case formatSARIF:
		err = run.writeSARIF(env.Stdout)
	case formatJUnit:
		err = run.writeJUnit(env.Stdout, "simclock.lint")
	default:
		err = run.writeText(env.Stdout, env.Stderr)
	}
	if err != nil {
		return err
	}
	if opts.xunitFile != "" {
		if err := run.writeXunitFile(); err != nil {
			return err
		}
	}
	if run.failed() {
		return errFindings
	}
	return nil
}

// lintRun is a finished run and how it was asked for: what every output
// format writes.
type lintRun struct {
	res     *lint.Result
	opts    *lintOptions
	fixed   int
	elapsed time.Duration
}

// failed is the exit status's view of a run: a finding left that reaches
// --fail-on, a path that could not be read, no file linted at all, or
// under --strict a file that could not be parsed or has a syntax error.
func (r lintRun) failed() bool {
	return r.res.Failed(r.opts.failOn) || r.opts.strict && (len(r.res.Failures()) > 0 || len(r.res.SyntaxErrors()) > 0) ||
		len(r.res.Unreadable()) > 0 || r.noFiles()
}

// noFiles reports a run that linted nothing: an empty directory, one with
// no source, /dev/null, a binary file. ament's linters say "No files
// found" and exit 1; so does lint.
func (r lintRun) noFiles() bool { return r.res.Files == 0 }

// noFilesText says that nothing was linted.
func (r lintRun) noFilesText() string {
	where := strings.Join(r.opts.paths, " ")
	if r.opts.stdin {
		where = "standard input"
	}
	return "no files found to lint in " + where + " (Python, C++, YAML, XML launch files, shell scripts): nothing was checked"
}

// ruleOrCode names a finding in text: its rule (R27), or its code for a
// finding about a suppression comment, which cites none.
func ruleOrCode(f lint.Finding) string {
	if id := f.Rule(); id != 0 {
		return id.String()
	}
	return string(f.Code)
}

// lintRuleID names a check in SARIF and JUnit as in text.
func lintRuleID(c rules.Check) string {
	if len(c.Rules) > 0 {
		return c.Rules[0].String()
	}
	return string(c.Code)
}

// writeText prints each finding with its fix, then once per rule why it
// matters and where it is documented, all wrapped to 100 columns. Paths,
// messages (which quote the source) and fixes are escaped (term.Escape). Files
// that could not be parsed or read are named on errOut, then the summary.
func (r lintRun) writeText(out, errOut io.Writer) error {
	res := r.res
	var seen []rules.ID
	for _, f := range res.Findings {
		mark := ""
		if f.Fixed {
			mark = " (fixed)"
		}
		if _, err := fmt.Fprintf(out, "%s:%d:%d: %s: %s: %s%s\n", term.Escape(f.File), f.Line, f.Col, f.Severity, ruleOrCode(f), term.Escape(f.Message), mark); err != nil {
			return err
		}
		if f.Fixed {
			continue
		}
		if id := f.Rule(); id != 0 && !slices.Contains(seen, id) {
			seen = append(seen, id)
		}
		if err := printWrapped(out, "    ", "fix: "+term.Escape(f.Fix), "     "); err != nil {
			return err
		}
	}
	slices.Sort(seen)
	for i, id := range seen {
		rule, _ := lint.RuleByID(id)
		if i == 0 {
			if _, err := fmt.Fprintln(out); err != nil {
				return err
			}
		}
		if err := printWrapped(out, "", fmt.Sprintf("why %s (%s): %s", rule.ID, rule.Name, rule.Help), "    "); err != nil {
			return err
		}
		if _, err := fmt.Fprintf(out, "    %s\n", rule.HelpURL()); err != nil {
			return err
		}
	}
	failures := res.Failures()
	syntax := res.SyntaxErrors()
	for _, p := range append(failures, syntax...) {
		where := p.File
		if p.Line > 0 {
			where += ":" + strconv.Itoa(p.Line)
		}
		fmt.Fprintf(errOut, "%s: %s\n", term.Escape(where), term.Escape(parseErrorText(p)))
	}
	for _, sk := range res.Skipped {
		fmt.Fprintf(errOut, "%s: %s\n", term.Escape(sk.File), term.Escape(sk.Reason))
	}
	if len(res.Findings) > 0 || r.fixed > 0 {
		fmt.Fprintf(errOut, "simclock lint: %d finding(s), %d fixed, in %d file(s)\n", len(res.Findings), r.fixed, res.Files)
	}
	if n := len(failures); n > 0 {
		what := "analysed up to the error"
		if r.opts.strict {
			what = "--strict: the run fails"
		}
		fmt.Fprintf(errOut, "simclock lint: %d file(s) could not be parsed; %s\n", n, what)
	}
	if n := len(syntax); n > 0 {
		what := "analysed around them"
		if r.opts.strict {
			what = "--strict: the run fails"
		}
		fmt.Fprintf(errOut, "simclock lint: %d file(s) with syntax errors; %s\n", n, what)
	}
	if n := len(res.ParseErrors) - len(failures) - len(syntax); n > 0 {
		fmt.Fprintf(errOut, "simclock lint: %d C++ file(s) analysed around code the parser does not know (usually macros); --format json lists them\n", n)
	}
	if n := len(res.Unreadable()); n > 0 {
		fmt.Fprintf(errOut, "simclock lint: %d path(s) could not be read: the rest was linted, and the run fails\n", n)
	}
	if r.noFiles() {
		fmt.Fprintf(errOut, "simclock lint: %s\n", term.Escape(r.noFilesText()))
	}
	return nil
}

// printWrapped prints text after margin, wrapped at spaces to the table
// width with the output layer's wrap, continuation lines indented by
// indent under the first.
func printWrapped(w io.Writer, margin, text, indent string) error {
	for _, line := range wrap(text, tableWidth-len(margin), indent) {
		if _, err := fmt.Fprintln(w, margin+line); err != nil {
			return err
		}
	}
	return nil
}

// JSON lines of simclock lint --format json (schema 2), one object per line:
//
//	{"kind":"env","schema":2,"command":"lint","version":"...","go":"...","tool":"simclock lint","rules":["R2",...],"fix":false,"config":".simclock.yaml"}
//	{"kind":"finding","code":"unguarded-window","severity":"warning","rules":["R27"],"file":"...",
//	 "line":1,"col":1,"end_line":1,"end_col":9,"message":"...","why":"...","fix":"...","level":"warning","fixable":false}
//	{"kind":"parse_error","file":"...","line":7,"message":"...","recovered":true,"syntax_error":false}
//	{"kind":"skipped","file":"...","reason":"could not read: permission denied","unreadable":true}
//	{"kind":"summary","files":12,"findings":3,"fixed":0,"failed":true,"parse_errors":1,"unparsed":0,"skipped":1,"unreadable":1}
//
// Columns count Unicode code points from 1. "severity" is info, warning or
// error; "level" is the same in SARIF's words (info is "note"). "fixed" is
// omitted unless --fix applied the finding's edits; "failed" is the exit
// status's view (info alone does not fail; a path that could not be read,
// or no file to lint, does). A parse_error line names each file that did
// not parse cleanly: "recovered" when it was analysed around the error,
// else the file could not be parsed past "line" ("unparsed" counts those);
// "syntax_error" when it is not valid code (Python the parser rejects),
// not code the parser cannot expand (a C++ macro). --strict fails the run
// on the unparsed and the syntax errors. A skipped line names each path
// not linted: "unreadable" when it could not be read, else a path named
// that holds no source code (a binary file, a device). "config" is the
// config file read, omitted when none. A finding about a suppression
// comment has "rules":[]. Fields may be added, never renamed. Schema 2
// writes a finding as every tool does (rules.Finding): "code" (the rule's
// name) and "rules" (["R27"]) replace schema 1's "rule" ("R27").

// lintFinding is a finding as a JSON line.
type lintFinding struct {
	lint.Finding
	// Level is the severity in SARIF's words (info is "note"), kept for
	// readers of schema 1 from before "severity".
	Level   string `json:"level"`
	Fixable bool   `json:"fixable"`
}

// lintEnv and lintSummary are the first and last JSON lines. The env
// line is every command's (envHeader); "tool" is kept for readers of
// schema 1 from before "command".
type lintEnv struct {
	envHeader
	Tool   string     `json:"tool"`
	Rules  []rules.ID `json:"rules"`
	Fix    bool       `json:"fix"`
	Config string     `json:"config,omitempty"`
}

type lintSummary struct {
	Files       int  `json:"files"`
	Findings    int  `json:"findings"`
	Fixed       int  `json:"fixed"`
	Failed      bool `json:"failed"`
	ParseErrors int  `json:"parse_errors"`
	Unparsed    int  `json:"unparsed"`
	Skipped     int  `json:"skipped"`
	Unreadable  int  `json:"unreadable"`
}

func (r lintRun) writeJSON(out io.Writer) error {
	res := r.res
	jl := report.NewJSONLines(out)
	ids := r.opts.cfg.Rules
	if len(ids) == 0 {
		for _, rule := range lint.Rules {
			ids = append(ids, rule.ID)
		}
	}
	if err := jl.Write("env", lintEnv{envHeader: newEnvHeader("lint"), Tool: "simclock lint", Rules: ids, Fix: r.opts.fix, Config: r.opts.cfgFile}); err != nil {
		return err
	}
	for _, f := range res.Findings {
		lf := lintFinding{Finding: f, Level: f.Severity.SARIFLevel(), Fixable: len(f.Edits) > 0}
		lf.Edits = nil
		if err := jl.Write("finding", lf); err != nil {
			return err
		}
	}
	for _, p := range res.ParseErrors {
		if err := jl.Write("parse_error", p); err != nil {
			return err
		}
	}
	for _, sk := range res.Skipped {
		if err := jl.Write("skipped", sk); err != nil {
			return err
		}
	}
	return jl.Write("summary", lintSummary{Files: res.Files, Findings: len(res.Findings), Fixed: r.fixed,
		Failed: r.failed(), ParseErrors: len(res.ParseErrors), Unparsed: len(res.Failures()),
		Skipped: len(res.Skipped), Unreadable: len(res.Unreadable())})
}

// notifications are what the run could not do, for SARIF and JUnit: files
// it could not parse or with syntax errors (warnings; errors under
// --strict), C++ it analysed around (notes), paths it could not
// read (errors), named paths with no source (notes), and no file linted at
// all (an error).
func (r lintRun) notifications() []report.Notification {
	var ns []report.Notification
	for _, p := range r.res.ParseErrors {
		level := rules.Info
		if !p.Recovered || p.SyntaxError {
			level = rules.Warning
			if r.opts.strict {
				level = rules.Error
			}
		}
		ns = append(ns, report.Notification{Level: level, Message: parseErrorText(p), File: p.File, Line: p.Line})
	}
	for _, sk := range r.res.Skipped {
		level := rules.Info
		if sk.Unreadable {
			level = rules.Error
		}
		ns = append(ns, report.Notification{Level: level, Message: sk.Reason, File: sk.File})
	}
	if r.noFiles() {
		ns = append(ns, report.Notification{Level: rules.Error, Message: r.noFilesText()})
	}
	return ns
}

// writeSARIF writes the run as SARIF 2.1.0 with artifact URIs relative to
// the scan root; rules are named by number (R27). What the run could not
// do is a tool notification; an error one marks the run unsuccessful.
func (r lintRun) writeSARIF(out io.Writer) error {
	run := report.SARIF{Version: Version, Checks: lint.Checks(), Roots: r.opts.roots, RuleID: lintRuleID,
		Notifications: r.notifications()}
	for _, n := range run.Notifications {
		run.Failed = run.Failed || n.Level == rules.Error
	}
	return run.Write(out, r.results())
}

// results are the findings left to fix, with their edits.
func (r lintRun) results() []report.Result {
	var results []report.Result
	for _, f := range r.res.Findings {
		if f.Fixed {
			continue
		}
		rr := report.Result{Finding: f.Finding}
		for _, e := range f.Edits {
			rr.Edits = append(rr.Edits, report.Edit{Start: e.Start, End: e.End, New: e.New})
		}
		results = append(results, rr)
	}
	return results
}

// writeJUnit writes the run as JUnit XML, the suite called name.
func (r lintRun) writeJUnit(out io.Writer, name string) error {
	run := report.JUnit{Name: name, Tool: "simclock_lint", Checks: lint.Checks(), RuleID: lintRuleID,
		FailOn: r.opts.failOn, Elapsed: r.elapsed, Checked: r.res.Checked, Notifications: r.notifications()}
	return run.Write(out, r.results())
}

// writeXunitFile writes --xunit-file, its directory made as needed, the
// suite named as ament's linters name theirs ("my_pkg.simclock_lint").
func (r lintRun) writeXunitFile() error {
	path := r.opts.xunitFile
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("--xunit-file: %w", err)
	}
	var b bytes.Buffer
	if err := r.writeJUnit(&b, report.JUnitName(path)); err != nil {
		return err
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("--xunit-file: %w", err)
	}
	return nil
}

// parseErrorText says what went wrong with a file.
func parseErrorText(p lint.ParseError) string {
	switch {
	case p.SyntaxError:
		return p.Message
	case p.Recovered:
		return "could not parse part of the file (" + p.Message + ")"
	}
	return "could not parse: " + p.Message
}
