package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/simclock/simclock/internal/report"
	"github.com/simclock/simclock/lint"
	"github.com/simclock/simclock/rules"
)

// lintOptions holds the flag values of simclock lint.
type lintOptions struct {
	format string
	fix    bool
	rules  string
	distro string
	strict bool
	failOn rules.FailOn
	root   string
	paths  []string
}

func newLintCmd(env *Env) *cobra.Command {
	opts := &lintOptions{}
	var ids []string
	for _, r := range lint.Rules {
		ids = append(ids, r.ID.String())
	}
	cmd := &cobra.Command{
		Use:   "lint [flags] PATH...",
		Short: "Find ROS 2 time pitfalls in rclpy and rclcpp source code",
		Long: `simclock lint [--format text|json|sarif] [--fix] [--rules R27,R29] [--strict] PATH...

Scans the Python and C++ files under each PATH (and YAML parameter and launch
files, XML launch files and shell scripts, for a misspelt use_sim_time) for
the time pitfalls of the ROS 2 time specification and reports each as
  file:line:col: RULE: message
followed by how to fix it; why each rule matters is said once, after the
findings, with its section in docs/rules.md. Directories named build,
install, log and hidden ones are skipped. Give a package's headers and
sources together: C++ class members are followed across the files of one
package.

Rules: ` + strings.Join(ids, ", ") + `.
Silence a finding with a comment on its line or alone on the line before:
  # simclock: ignore[R27]      // simclock: ignore[R27,R28]

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
around them and only counted. SARIF artifact URIs
are relative to --root (default: the git work tree holding the paths, else
the current directory), however the paths were typed.

Exit status: 0 when clean, 1 when a finding that reaches --fail-on remains
(default warning: warnings and errors fail, info does not) or, with --strict,
a file could not be parsed; 2 on usage errors.

Examples:
  simclock lint src/my_pkg
  simclock lint --rules R27,R28 --format sarif src > lint.sarif
  simclock lint --fix src/my_pkg/my_pkg/node.py`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.paths = args
			return runLint(cmd, env, opts)
		},
	}
	flags := cmd.Flags()
	addFormatFlag(flags, &opts.format, formatSARIF)
	flags.BoolVar(&opts.fix, "fix", false, "apply mechanical fixes to the files in place")
	flags.StringVar(&opts.rules, "rules", "", "comma-separated rule IDs to report (default: all)")
	flags.BoolVar(&opts.strict, "strict", false, "fail (exit 1) when a file could not be parsed")
	addFailOnFlag(flags, &opts.failOn)
	flags.StringVar(&opts.root, "root", "", "directory SARIF artifact URIs are relative to (default: the git work tree, else the current directory)")
	flags.StringVar(&opts.distro, "ros-distro", "",
		"ROS 2 distribution the code targets ("+strings.Join(lint.Distros, ", ")+"; default $ROS_DISTRO, else "+lint.DefaultDistro+
			"): what a negative rclcpp::Time does depends on it")
	return cmd
}

func runLint(cmd *cobra.Command, env *Env, opts *lintOptions) error {
	if len(opts.paths) == 0 {
		return flagErrorf("lint: no PATH given")
	}
	ids, err := lint.ParseRules(opts.rules)
	if err != nil {
		return flagErrorf("--rules: %v", err)
	}
	if opts.distro == "" {
		// A ROS shell sets ROS_DISTRO: lint for the distribution in use.
		if d := env.Getenv("ROS_DISTRO"); d != "" {
			if _, err := lint.ParseDistro(d); err == nil {
				opts.distro = d
			} else {
				fmt.Fprintf(env.Stderr, "simclock lint: ROS_DISTRO=%s is not one lint knows (%s): linting for %s\n",
					escapeTerminal(d), strings.Join(lint.Distros, ", "), lint.DefaultDistro)
			}
		}
	}
	if _, err := lint.ParseDistro(opts.distro); err != nil {
		return flagErrorf("--ros-distro: %v", err)
	}
	for _, p := range opts.paths {
		if _, err := os.Stat(p); err != nil {
			return flagErrorf("lint: %v", err)
		}
		if _, err := lint.Files([]string{p}); errors.Is(err, lint.ErrNotRegular) {
			return flagErrorf("lint: %v", err)
		}
	}
	if opts.root != "" && opts.format != formatSARIF {
		return flagErrorf("--root only applies to --format sarif")
	}
	roots, err := report.ScanRoot(opts.root, opts.paths)
	if err != nil {
		return flagErrorf("--root: %v", err)
	}
	res, err := lint.Run(cmd.Context(), opts.paths, lint.Config{Rules: ids, RosDistro: opts.distro})
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
	switch opts.format {
	case formatJSON:
		err = writeLintJSON(env.Stdout, res, ids, fixed, opts)
	case formatSARIF:
		err = writeLintSARIF(env.Stdout, res, roots, opts.strict)
	default:
		err = writeLintText(env.Stdout, env.Stderr, res, fixed, opts.strict)
	}
	if err != nil {
		return err
	}
	if lintFailed(res, opts) {
		return errFindings
	}
	return nil
}

// writeLintText prints each finding with its fix, then once per rule why
// it matters and where it is documented, all wrapped to 100 columns. Files
// that could not be parsed are named on errOut, then the summary.
func writeLintText(out, errOut io.Writer, res *lint.Result, fixed int, strict bool) error {
	var seen []rules.ID
	for _, f := range res.Findings {
		mark := ""
		if f.Severity == rules.Info {
			mark = " (info)"
		}
		if f.Fixed {
			mark += " (fixed)"
		}
		if _, err := fmt.Fprintf(out, "%s:%d:%d: %s: %s%s\n", f.File, f.Line, f.Col, f.Rule(), f.Message, mark); err != nil {
			return err
		}
		if f.Fixed {
			continue
		}
		if !slices.Contains(seen, f.Rule()) {
			seen = append(seen, f.Rule())
		}
		if err := printWrapped(out, "    ", "fix: "+f.Fix, "     "); err != nil {
			return err
		}
	}
	slices.Sort(seen)
	for i, id := range seen {
		r, _ := lint.RuleByID(id)
		if i == 0 {
			if _, err := fmt.Fprintln(out); err != nil {
				return err
			}
		}
		if err := printWrapped(out, "", fmt.Sprintf("why %s (%s): %s", r.ID, r.Name, r.Help), "    "); err != nil {
			return err
		}
		if _, err := fmt.Fprintf(out, "    %s\n", r.HelpURL()); err != nil {
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
		fmt.Fprintf(errOut, "%s: %s\n", where, parseErrorText(p))
	}
	if len(res.Findings) > 0 || fixed > 0 {
		fmt.Fprintf(errOut, "simclock lint: %d finding(s), %d fixed, in %d file(s)\n", len(res.Findings), fixed, res.Files)
	}
	if n := len(failures); n > 0 {
		what := "analysed up to the error"
		if strict {
			what = "--strict: the run fails"
		}
		fmt.Fprintf(errOut, "simclock lint: %d file(s) could not be parsed; %s\n", n, what)
	}
	if n := len(syntax); n > 0 {
		what := "analysed around them"
		if strict {
			what = "--strict: the run fails"
		}
		fmt.Fprintf(errOut, "simclock lint: %d file(s) with syntax errors; %s\n", n, what)
	}
	if n := len(res.ParseErrors) - len(failures) - len(syntax); n > 0 {
		fmt.Fprintf(errOut, "simclock lint: %d C++ file(s) analysed around code the parser does not know (usually macros); --format json lists them\n", n)
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
//	{"kind":"env","schema":2,"command":"lint","version":"...","go":"...","tool":"simclock lint","rules":["R2",...],"fix":false}
//	{"kind":"finding","code":"unguarded-window","severity":"warning","rules":["R27"],"file":"...",
//	 "line":1,"col":1,"end_line":1,"end_col":9,"message":"...","why":"...","fix":"...","level":"warning","fixable":false}
//	{"kind":"parse_error","file":"...","line":7,"message":"...","recovered":true,"syntax_error":false}
//	{"kind":"summary","files":12,"findings":3,"fixed":0,"failed":true,"parse_errors":1,"unparsed":0}
//
// Columns count Unicode code points from 1. "severity" is info, warning or
// error; "level" is the same in SARIF's words (info is "note"). "fixed" is
// omitted unless --fix applied the finding's edits; "failed" is the exit
// status's view (info alone does not fail). A parse_error line names each
// file that did not parse cleanly: "recovered" when it was analysed around
// the error, else the file could not be parsed past "line" ("unparsed"
// counts those); "syntax_error" when it is not valid code (Python the
// parser rejects), not code the parser cannot expand (a C++ macro).
// --strict fails the run on the unparsed and the syntax errors. Fields may
// be added, never renamed. Schema 2 writes a finding as every tool does
// (rules.Finding): "code" (the rule's name) and "rules" (["R27"]) replace
// schema 1's "rule" ("R27").

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
	Tool  string     `json:"tool"`
	Rules []rules.ID `json:"rules"`
	Fix   bool       `json:"fix"`
}

type lintSummary struct {
	Files       int  `json:"files"`
	Findings    int  `json:"findings"`
	Fixed       int  `json:"fixed"`
	Failed      bool `json:"failed"`
	ParseErrors int  `json:"parse_errors"`
	Unparsed    int  `json:"unparsed"`
}

// lintFailed is the exit status's view of a run: a finding left that
// reaches --fail-on, or under --strict a file that could not be parsed or
// has a syntax error.
func lintFailed(res *lint.Result, opts *lintOptions) bool {
	return res.Failed(opts.failOn) || opts.strict && (len(res.Failures()) > 0 || len(res.SyntaxErrors()) > 0)
}

func writeLintJSON(out io.Writer, res *lint.Result, ids []rules.ID, fixed int, opts *lintOptions) error {
	jl := report.NewJSONLines(out)
	if len(ids) == 0 {
		for _, r := range lint.Rules {
			ids = append(ids, r.ID)
		}
	}
	if err := jl.Write("env", lintEnv{envHeader: newEnvHeader("lint"), Tool: "simclock lint", Rules: ids, Fix: opts.fix}); err != nil {
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
	return jl.Write("summary", lintSummary{Files: res.Files, Findings: len(res.Findings), Fixed: fixed,
		Failed: lintFailed(res, opts), ParseErrors: len(res.ParseErrors), Unparsed: len(res.Failures())})
}

// writeLintSARIF writes res as SARIF 2.1.0 with artifact URIs relative to
// roots; rules are named by number (R27). Files that could not be parsed
// are tool notifications: warnings, or errors under --strict (which then
// also marks the run unsuccessful).
func writeLintSARIF(out io.Writer, res *lint.Result, roots report.Roots, strict bool) error {
	run := report.SARIF{Version: Version, Checks: lint.Checks(), Roots: roots,
		RuleID: func(c rules.Check) string { return c.Rules[0].String() }}
	for _, p := range res.ParseErrors {
		level := rules.Info
		if !p.Recovered || p.SyntaxError {
			level = rules.Warning
			if strict {
				level = rules.Error
				run.Failed = true
			}
		}
		run.Notifications = append(run.Notifications, report.Notification{Level: level, Message: parseErrorText(p), File: p.File, Line: p.Line})
	}
	var results []report.Result
	for _, f := range res.Findings {
		if f.Fixed {
			continue
		}
		r := report.Result{Finding: f.Finding}
		for _, e := range f.Edits {
			r.Edits = append(r.Edits, report.Edit{Start: e.Start, End: e.End, New: e.New})
		}
		results = append(results, r)
	}
	return run.Write(out, results)
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
