package lint

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/simclock/simclock/rules"
)

func writeFile(t *testing.T, path, contents string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(contents), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The config file is found as ruff and flake8 find theirs: the nearest
// .simclock.yaml, or pyproject.toml with a [tool.simclock] table, from a
// path up; a pyproject.toml of another tool is passed over, and
// .simclock.yaml wins over pyproject.toml in one directory.
func TestFindConfigFile(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, filepath.Join(ws, "pyproject.toml"), "[tool.simclock.lint]\nrules = [\"R27\"]\n")
	writeFile(t, filepath.Join(ws, "src/a/pyproject.toml"), "[tool.ruff]\nline-length = 99\n")
	writeFile(t, filepath.Join(ws, "src/a/node.py"), "")
	writeFile(t, filepath.Join(ws, "src/b/.simclock.yaml"), "lint:\n  ros_distro: humble\n")
	writeFile(t, filepath.Join(ws, "src/b/pyproject.toml"), "[tool.simclock.lint]\n")
	writeFile(t, filepath.Join(ws, "src/b/pkg/node.py"), "")
	for path, want := range map[string]string{
		"src/a/node.py":  "pyproject.toml",
		"src/a":          "pyproject.toml",
		"src/b/pkg":      "src/b/.simclock.yaml",
		"src/b/pkg/x.py": "src/b/.simclock.yaml", // not there yet: its directory counts
	} {
		got, err := FindConfigFile(filepath.Join(ws, path))
		if err != nil || got != filepath.Join(ws, want) {
			t.Errorf("FindConfigFile(%s) = %q, %v; want %s", path, got, err, want)
		}
	}
	none := t.TempDir()
	if got, err := FindConfigFile(none); err != nil || (got != "" && !strings.HasPrefix(none, filepath.Dir(got))) {
		t.Errorf("no config file: %q, %v", got, err)
	}
	writeFile(t, filepath.Join(ws, "src/c/pyproject.toml"), "[tool.ruff\n")
	if _, err := FindConfigFile(filepath.Join(ws, "src/c")); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "pyproject.toml:1") {
		t.Errorf("a broken pyproject.toml: %v", err)
	}
}

// The same settings read the same from YAML and TOML; rules and ignore
// take numbers and names; globs are relative to the file's directory.
func TestReadConfigFile(t *testing.T) {
	dir := t.TempDir()
	yaml := filepath.Join(dir, "y", ".simclock.yaml")
	writeFile(t, yaml, `# settings for simclock lint
lint:
  rules: [R27, lookup-time-zero, R29, r5]
  ignore: [constructor-baseline]
  exclude: [test/fixtures, "*_pb2.py"]
  per_file_ignores:
    "test/**": [R27]
  ros_distro: Humble
`)
	toml := filepath.Join(dir, "t", "pyproject.toml")
	writeFile(t, toml, `[project]
name = "my_pkg"

[tool.ruff]
line-length = 99

[tool.simclock.lint]
rules = ["R27", "lookup-time-zero", "R29", "r5"]
ignore = ["constructor-baseline"]
exclude = ["test/fixtures", "*_pb2.py"]
ros_distro = "Humble"

[tool.simclock.lint.per_file_ignores]
"test/**" = ["R27"]
`)
	for _, file := range []string{yaml, toml} {
		cfg, err := ReadConfigFile(file)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		base := filepath.Dir(file)
		if !slices.Equal(cfg.Rules, []rules.ID{rules.R27, rules.R28, rules.R5}) || cfg.RosDistro != "Humble" ||
			len(cfg.Exclude) != 2 || cfg.Exclude[0] != (Pattern{Dir: base, Glob: "test/fixtures"}) ||
			len(cfg.Ignore) != 1 || cfg.Ignore[0].Pattern.Glob != "test/**" || !slices.Equal(cfg.Ignore[0].Rules, []rules.ID{rules.R27}) {
			t.Errorf("%s: %+v", file, cfg)
		}
		if !cfg.Exclude[1].Match(filepath.Join(base, "deep", "x_pb2.py")) || cfg.Exclude[0].Match(filepath.Join(dir, "test", "fixtures")) {
			t.Errorf("%s: globs are not relative to the file", file)
		}
	}
	// ignore alone means every rule but those.
	only := filepath.Join(dir, "ignore.yaml")
	writeFile(t, only, "lint:\n  ignore: [R16]\n")
	if cfg, err := ReadConfigFile(only); err != nil || len(cfg.Rules) != len(Rules)-1 || slices.Contains(cfg.Rules, rules.R16) {
		t.Errorf("ignore alone: %v %v", cfg.Rules, err)
	}
	empty := filepath.Join(dir, "empty.yaml")
	writeFile(t, empty, "# nothing yet\n")
	if cfg, err := ReadConfigFile(empty); err != nil || cfg.Rules != nil || cfg.Exclude != nil {
		t.Errorf("an empty file: %+v %v", cfg, err)
	}
}

// A mistake in a config file is an error naming the file and the key,
// never a setting silently dropped.
func TestReadConfigFileErrors(t *testing.T) {
	dir := t.TempDir()
	for name, tc := range map[string]struct{ file, contents, want string }{
		"misspelt key":      {".simclock.yaml", "lint:\n  rule: [R27]\n", "line 2: field rule not found"},
		"unknown section":   {".simclock.yaml", "lnit:\n  rules: [R27]\n", "field lnit not found"},
		"unknown rule":      {".simclock.yaml", "lint:\n  rules: [R99]\n", "rules: unknown rule \"R99\""},
		"unknown name":      {".simclock.yaml", "lint:\n  per_file_ignores:\n    x: [unguarded_window]\n", "per_file_ignores: x: unknown rule"},
		"bad distro":        {".simclock.yaml", "lint:\n  ros_distro: foxy\n", "ros_distro: unknown ROS 2 distribution \"foxy\""},
		"bad glob":          {".simclock.yaml", "lint:\n  exclude: [\"a/[b\"]\n", "exclude: bad pattern"},
		"all ignored":       {".simclock.yaml", "lint:\n  rules: [R27]\n  ignore: [R27]\n", "every rule is ignored"},
		"not a list":        {".simclock.yaml", "lint:\n  rules: R27\n", "line 2"},
		"toml misspelt key": {"pyproject.toml", "[tool.simclock.lint]\nrule = [\"R27\"]\n", "unknown key tool.simclock.lint.rule"},
		"toml unknown":      {"pyproject.toml", "[tool.simclock]\nlnit = 1\n", "unknown key tool.simclock.lnit"},
		"toml type":         {"pyproject.toml", "[tool.simclock.lint]\nrules = \"R27\"\n", "[tool.simclock.lint]"},
		"toml no table":     {"pyproject.toml", "[tool.ruff]\n", "no [tool.simclock] table"},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "_"), tc.file)
		writeFile(t, path, tc.contents)
		_, err := ReadConfigFile(path)
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want ErrConfig naming %s and %q", name, err, path, tc.want)
		}
	}
}

func TestPattern(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		glob, path    string
		match, covers bool
	}{
		{"build", "a/build", true, true},
		{"build", "a/build/x.py", false, true},
		{"*_pb2.py", "deep/down/m_pb2.py", true, true},
		{"test/fixtures", "test/fixtures", true, true},
		{"test/fixtures", "test/fixtures/a.py", false, true},
		{"test/fixtures", "other/test/fixtures", false, false},
		{"./src/**/gen_*.py/", "src/a/b/gen_x.py", true, true},
		{"test", "../test/x.py", false, false}, // outside the file's directory
	} {
		p, err := NewPattern(dir, tc.glob)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, filepath.FromSlash(tc.path))
		if p.Match(path) != tc.match || p.Covers(path) != tc.covers {
			t.Errorf("%q on %s: Match %v Covers %v, want %v %v", tc.glob, tc.path, p.Match(path), p.Covers(path), tc.match, tc.covers)
		}
	}
}
