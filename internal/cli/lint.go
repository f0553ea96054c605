package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/simclock/simclock/lint"
	"github.com/simclock/simclock/rules"
)

// lintOptions holds the flag values of simclock lint.
type lintOptions struct {
	format string
	fix    bool
	rules  string
	distro string
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
		Long: `simclock lint [--format text|json|sarif] [--fix] [--rules R27,R29] PATH...

Scans the Python and C++ files under each PATH (and YAML parameter files and
XML launch files, for a misspelt use_sim_time) for the time pitfalls of the
ROS 2 time specification and reports each as
  file:line:col: RULE: message
followed by why it is wrong and how to fix it. Directories named build,
install, log and hidden ones are skipped. Give a package's headers and
sources together: C++ class members are followed across the files of one
package.

Rules: ` + strings.Join(ids, ", ") + `.
Silence a finding with a comment on its line or alone on the line before:
  # simclock: ignore[R27]      // simclock: ignore[R27,R28]

--fix rewrites files in place where the repair is mechanical (keyword
arguments for rclpy Time/Duration, use_sim_time spelling, ROS clock type for
a SYSTEM_TIME baseline); guards are never inserted.

--ros-distro (default jazzy) words what now() - W below 0 does: rclpy
raises; rclcpp throws from 28.2 (Kilted, Rolling) and silently gives a
negative Time on Humble and Jazzy, where a window that is only compared is
therefore harmless and not reported. Test code (gtest, pytest,
launch_testing) runs on wall time unless it mentions use_sim_time, so the
sim-time startup rules (R26, R27, R29) skip it.

Exit status: 0 when clean (notes alone do not fail), 1 when warnings or
errors remain, 2 on usage errors.

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
	addFormatFlag(flags, &opts.format, "sarif")
	flags.BoolVar(&opts.fix, "fix", false, "apply mechanical fixes to the files in place")
	flags.StringVar(&opts.rules, "rules", "", "comma-separated rule IDs to report (default: all)")
	flags.StringVar(&opts.distro, "ros-distro", lint.DefaultDistro,
		"ROS 2 distribution the code targets ("+strings.Join(lint.Distros, ", ")+"): what a negative rclcpp::Time does depends on it")
	return cmd
}

func runLint(cmd *cobra.Command, env *Env, opts *lintOptions) error {
	if err := checkFormat(opts.format, "sarif"); err != nil {
		return err
	}
	if len(opts.paths) == 0 {
		return flagErrorf("lint: no PATH given")
	}
	ids, err := lint.ParseRules(opts.rules)
	if err != nil {
		return flagErrorf("--rules: %v", err)
	}
	if _, err := lint.ParseDistro(opts.distro); err != nil {
		return flagErrorf("--ros-distro: %v", err)
	}
	for _, p := range opts.paths {
		if _, err := os.Stat(p); err != nil {
			return flagErrorf("lint: %v", err)
		}
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
		err = writeLintJSON(env.Stdout, res, ids, opts.fix, fixed)
	case "sarif":
		err = writeLintSARIF(env.Stdout, res)
	default:
		err = writeLintText(env.Stdout, env.Stderr, res, fixed)
	}
	if err != nil {
		return err
	}
	if res.Failed() {
		return errFindings
	}
	return nil
}

func writeLintText(out, errOut io.Writer, res *lint.Result, fixed int) error {
	for _, f := range res.Findings {
		mark := ""
		if f.Severity == rules.Info {
			mark = " (info)"
		}
		if f.Fixed {
			mark += " (fixed)"
		}
		if _, err := fmt.Fprintf(out, "%s:%d:%d: %s: %s%s\n", f.File, f.Line, f.Col, f.Rule, f.Message, mark); err != nil {
			return err
		}
		if f.Fixed {
			continue
		}
		if _, err := fmt.Fprintf(out, "    why: %s\n    fix: %s\n", f.Why, f.Fix); err != nil {
			return err
		}
	}
	if len(res.Findings) > 0 || fixed > 0 {
		fmt.Fprintf(errOut, "simclock lint: %d finding(s), %d fixed, in %d file(s)\n", len(res.Findings), fixed, res.Files)
	}
	if n := len(res.ParseErrors); n > 0 {
		fmt.Fprintf(errOut, "simclock lint: %d file(s) had syntax errors (often unexpanded macros); analysed around them\n", n)
	}
	return nil
}

// JSON lines of simclock lint --format json (schema 1), one object per line:
//
//	{"kind":"env","schema":1,"tool":"simclock lint","version":"...","rules":["R2",...],"fix":false}
//	{"kind":"finding","file":"...","line":1,"col":1,"end_line":1,"end_col":9,"rule":"R27",
//	 "severity":"warning","message":"...","why":"...","fix":"...","level":"warning","fixable":false}
//	{"kind":"summary","files":12,"findings":3,"fixed":0,"failed":true,"parse_errors":0}
//
// Columns count Unicode code points from 1. "severity" is info, warning or
// error; "level" is the same in SARIF's words (info is "note"). "fixed" is
// omitted unless --fix applied the finding's edits; "failed" is the exit
// status's view (info alone does not fail). Fields may be added, never renamed.

// lintFinding is a finding as a JSON line.
type lintFinding struct {
	Kind string `json:"kind"`
	lint.Finding
	// Level is the severity in SARIF's words (info is "note"), kept for
	// readers of schema 1 from before "severity".
	Level   string `json:"level"`
	Fixable bool   `json:"fixable"`
}

// lintEnv and lintSummary are the first and last JSON lines.
type lintEnv struct {
	Kind    string     `json:"kind"`
	Schema  int        `json:"schema"`
	Tool    string     `json:"tool"`
	Version string     `json:"version"`
	Rules   []rules.ID `json:"rules"`
	Fix     bool       `json:"fix"`
}

type lintSummary struct {
	Kind        string `json:"kind"`
	Files       int    `json:"files"`
	Findings    int    `json:"findings"`
	Fixed       int    `json:"fixed"`
	Failed      bool   `json:"failed"`
	ParseErrors int    `json:"parse_errors"`
}

func writeLintJSON(out io.Writer, res *lint.Result, ids []rules.ID, fix bool, fixed int) error {
	jl := newJSONLines(out)
	if len(ids) == 0 {
		for _, r := range lint.Rules {
			ids = append(ids, r.ID)
		}
	}
	if err := jl.Write(lintEnv{Kind: "env", Schema: 1, Tool: "simclock lint", Version: Version, Rules: ids, Fix: fix}); err != nil {
		return err
	}
	for _, f := range res.Findings {
		lf := lintFinding{Kind: "finding", Finding: f, Level: f.Severity.SARIFLevel(), Fixable: len(f.Edits) > 0}
		lf.Edits = nil
		if err := jl.Write(lf); err != nil {
			return err
		}
	}
	return jl.Write(lintSummary{Kind: "summary", Files: res.Files, Findings: len(res.Findings), Fixed: fixed,
		Failed: res.Failed(), ParseErrors: len(res.ParseErrors)})
}

// SARIF 2.1.0, the subset simclock writes.
type sarifLog struct {
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name    string      `json:"name"`
	Version string      `json:"version"`
	Rules   []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	Name                 string       `json:"name"`
	ShortDescription     sarifText    `json:"shortDescription"`
	DefaultConfiguration sarifDefault `json:"defaultConfiguration"`
}

type sarifDefault struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations"`
	Fixes     []sarifFix      `json:"fixes,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine,omitempty"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifact      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifBytes `json:"deletedRegion"`
	InsertedContent sarifText  `json:"insertedContent"`
}

// sarifBytes is a region by byte offset; an insertion at the start of a
// file has offset 0 and length 0, so neither may be omitted.
type sarifBytes struct {
	ByteOffset int `json:"byteOffset"`
	ByteLength int `json:"byteLength"`
}

// sarifURI turns a path into a SARIF artifact URI: relative paths stay
// relative (resolved against the checkout by code scanning).
func sarifURI(p string) string {
	if filepath.IsAbs(p) {
		return "file://" + filepath.ToSlash(p)
	}
	return filepath.ToSlash(filepath.Clean(p))
}

func writeLintSARIF(out io.Writer, res *lint.Result) error {
	run := sarifRun{
		Tool:       sarifTool{Driver: sarifDriver{Name: "simclock", Version: Version}},
		ColumnKind: "unicodeCodePoints",
		Results:    []sarifResult{},
	}
	index := map[rules.ID]int{}
	for i, r := range lint.Rules {
		index[r.ID] = i
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID: r.ID.String(), Name: r.Name, ShortDescription: sarifText{r.Summary},
			DefaultConfiguration: sarifDefault{r.Severity.SARIFLevel()},
		})
	}
	for _, f := range res.Findings {
		if f.Fixed {
			continue
		}
		uri := sarifURI(f.File)
		sr := sarifResult{
			RuleID: f.Rule.String(), RuleIndex: index[f.Rule], Level: f.Severity.SARIFLevel(),
			Message: sarifText{f.Message + ". Why: " + f.Why + " Fix: " + f.Fix},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{uri},
				Region:           &sarifRegion{StartLine: f.Line, StartColumn: f.Col, EndLine: f.EndLine, EndColumn: f.EndCol},
			}}},
		}
		if len(f.Edits) > 0 {
			ch := sarifArtifactChange{ArtifactLocation: sarifArtifact{uri}}
			for _, e := range f.Edits {
				ch.Replacements = append(ch.Replacements, sarifReplacement{
					DeletedRegion:   sarifBytes{ByteOffset: e.Start, ByteLength: e.End - e.Start},
					InsertedContent: sarifText{e.New},
				})
			}
			sr.Fixes = []sarifFix{{Description: sarifText{f.Fix}, ArtifactChanges: []sarifArtifactChange{ch}}}
		}
		run.Results = append(run.Results, sr)
	}
	enc := newJSONLines(out)
	enc.enc.SetIndent("", "  ")
	return enc.Write(sarifLog{Version: "2.1.0", Runs: []sarifRun{run}})
}
