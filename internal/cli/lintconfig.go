package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/simclock/simclock/internal/term"
	"github.com/simclock/simclock/lint"
)

// lintConfig resolves what a lint run checks, in this order of
// precedence (docs/cli.md): the flags given, then the config file
// (--config FILE, else the .simclock.yaml or pyproject.toml [tool.simclock]
// found from the paths up), then the environment ($ROS_DISTRO), then the
// defaults. --rules replaces the file's rules and ignore, --exclude its
// exclude, --ros-distro its ros_distro; the file's per_file_ignores stand.
// It returns the config and the file read ("" for none). Every problem is
// a usage error. changed tells which flags were given.
func lintConfig(changed func(name string) bool, opts *lintOptions) (lint.Config, string, error) {
	env, file := opts.env, opts.config
	if file != "" {
		if info, err := os.Stat(file); err != nil || info.IsDir() {
			if err == nil {
				err = errors.New("is a directory")
			}
			return lint.Config{}, "", flagErrorf("--config: %v", err)
		}
	} else {
		var err error
		if file, err = findLintConfig(opts); err != nil {
			return lint.Config{}, "", err
		}
	}
	var cfg lint.Config
	if file != "" {
		var err error
		if cfg, err = lint.ReadConfigFile(file); err != nil {
			return lint.Config{}, "", flagErrorf("%v", err)
		}
	}
	if changed("rules") {
		ids, err := lint.ParseRules(opts.rules)
		if err != nil {
			return lint.Config{}, "", flagErrorf("--rules: %v", err)
		}
		cfg.Rules = ids
	}
	if changed("exclude") {
		cfg.Exclude = nil
		for _, g := range opts.exclude {
			p, err := lint.NewPattern(".", g)
			if err != nil {
				return lint.Config{}, "", flagErrorf("--exclude: %v", err)
			}
			cfg.Exclude = append(cfg.Exclude, p)
		}
	}
	if changed("ros-distro") {
		if opts.distro == "" {
			return lint.Config{}, "", flagErrorf("--ros-distro: empty (want one of %s)", oneOf(lint.Distros))
		}
		if _, err := lint.ParseDistro(opts.distro); err != nil {
			return lint.Config{}, "", flagErrorf("--ros-distro: %v", err)
		}
		cfg.RosDistro = opts.distro
	}
	if cfg.RosDistro == "" {
		// A ROS shell sets ROS_DISTRO: lint for the distribution in use.
		if d := env.Getenv("ROS_DISTRO"); d != "" {
			if _, err := lint.ParseDistro(d); err == nil {
				cfg.RosDistro = d
			} else {
				fmt.Fprintf(env.Stderr, "simclock lint: ROS_DISTRO=%s is not one lint knows (%s): linting for %s\n",
					term.Escape(d), strings.Join(lint.Distros, ", "), lint.DefaultDistro)
			}
		}
	}
	cfg.Strict = opts.strict
	return cfg, file, nil
}

// findLintConfig finds the config file of the paths linted (of
// --stdin-filename's directory, or the current one, for standard input).
// Paths under different config files are a usage error: which would win
// is not obvious, so the user says (--config, or one run per tree).
func findLintConfig(opts *lintOptions) (string, error) {
	starts := opts.paths
	if opts.stdin {
		starts = []string{"."}
		if opts.stdinName != "" {
			starts = []string{filepath.Dir(opts.stdinName)}
		}
	}
	found, from := "", ""
	for _, p := range starts {
		f, err := lint.FindConfigFile(p)
		if err != nil {
			return "", flagErrorf("%v", err)
		}
		if from != "" && f != found {
			return "", flagErrorf("lint: %s and %s are under different config files (%s, %s): lint them apart, or give --config",
				from, p, orNone(found), orNone(f))
		}
		found, from = f, p
	}
	return found, nil
}

func orNone(file string) string {
	if file == "" {
		return "none"
	}
	return file
}
