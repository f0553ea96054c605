package lint

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"gopkg.in/yaml.v3"

	"github.com/simclock/simclock/rules"
)

// Config files. A project keeps its lint settings in .simclock.yaml, under
// "lint":
//
//	lint:
//	  rules: [R27, lookup-time-zero]  # the rules to report (default: all)
//	  ignore: [R16]                   # rules not to report
//	  exclude: [test/fixtures, "*_pb2.py"]
//	  per_file_ignores:
//	    "test/**": [constructor-baseline]
//	  ros_distro: humble
//
// or in pyproject.toml, as [tool.simclock.lint] with the same keys. As ruff
// and flake8 find theirs, lint looks for one in the directory of each path
// it is given and in every directory above: the first .simclock.yaml, or
// pyproject.toml with a [tool.simclock] table, is the file (at one level,
// .simclock.yaml wins). Globs are relative to the file's directory (see
// Pattern). A key lint does not know is an error, so a misspelt setting is
// never silently ignored.

// ConfigFileNames are the names a config file is looked for under, in
// order of precedence within one directory.
var ConfigFileNames = []string{".simclock.yaml", "pyproject.toml"}

// ErrConfig wraps every error about a config file's contents.
var ErrConfig = errors.New("config file")

// fileSettings is the "lint" section of a config file, as written.
type fileSettings struct {
	Rules          []string            `yaml:"rules" toml:"rules"`
	Ignore         []string            `yaml:"ignore" toml:"ignore"`
	Exclude        []string            `yaml:"exclude" toml:"exclude"`
	PerFileIgnores map[string][]string `yaml:"per_file_ignores" toml:"per_file_ignores"`
	RosDistro      string              `yaml:"ros_distro" toml:"ros_distro"`
}

// settingKeys are the keys of the lint section, for error messages.
var settingKeys = []string{"rules", "ignore", "exclude", "per_file_ignores", "ros_distro"}

// FindConfigFile returns the config file that applies to path (a file or a
// directory): the first .simclock.yaml, or pyproject.toml holding a
// [tool.simclock] table, in path's directory or above; "" when there is
// none.
func FindConfigFile(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	dir := abs
	if info, err := os.Stat(abs); err != nil || !info.IsDir() {
		dir = filepath.Dir(abs)
	}
	for {
		if p := filepath.Join(dir, ConfigFileNames[0]); isFile(p) {
			return p, nil
		}
		if p := filepath.Join(dir, ConfigFileNames[1]); isFile(p) {
			ours, err := hasSimclockTable(p)
			if err != nil {
				return "", err
			}
			if ours {
				return p, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

func isFile(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular()
}

// readPyproject returns the [tool.simclock] table of a pyproject.toml, nil
// when it has none.
func readPyproject(path string) (map[string]any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Tool map[string]any `toml:"tool"`
	}
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			return nil, fmt.Errorf("%w %s:%d:%d: %v", ErrConfig, path, row, col, de)
		}
		return nil, fmt.Errorf("%w %s: %v", ErrConfig, path, err)
	}
	t, ok := doc.Tool["simclock"]
	if !ok {
		return nil, nil
	}
	table, ok := t.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w %s: tool.simclock is not a table", ErrConfig, path)
	}
	return table, nil
}

func hasSimclockTable(path string) (bool, error) {
	t, err := readPyproject(path)
	return t != nil, err
}

// ReadConfigFile reads the lint settings of a config file (.simclock.yaml,
// or a pyproject.toml's [tool.simclock.lint]; a name ending in .toml is
// read as TOML) into a Config: its Rules (rules minus ignore; nil for
// every rule), Exclude, Ignore (per_file_ignores) and RosDistro. Every
// rule and glob is checked: a mistake is an error wrapping ErrConfig that
// names the file and the key.
func ReadConfigFile(path string) (Config, error) {
	var set fileSettings
	var err error
	if strings.HasSuffix(strings.ToLower(path), ".toml") {
		set, err = decodeTOML(path)
	} else {
		set, err = decodeYAML(path)
	}
	if err != nil {
		return Config{}, err
	}
	return set.config(path)
}

// decodeYAML reads the "lint" section of a YAML config file; unknown keys
// are errors with their line.
func decodeYAML(path string) (fileSettings, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return fileSettings{}, err
	}
	var doc struct {
		Lint fileSettings `yaml:"lint"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		msg := strings.ReplaceAll(strings.TrimPrefix(err.Error(), "yaml: "), "\n ", "")
		msg = strings.TrimPrefix(msg, "unmarshal errors: ")
		if strings.Contains(msg, "not found in type") {
			msg += " (known: lint: " + strings.Join(settingKeys, ", ") + ")"
		}
		return fileSettings{}, fmt.Errorf("%w %s: %s", ErrConfig, path, msg)
	}
	return doc.Lint, nil
}

// decodeTOML reads [tool.simclock.lint] of a pyproject.toml; unknown keys
// are errors naming them.
func decodeTOML(path string) (fileSettings, error) {
	table, err := readPyproject(path)
	if err != nil {
		return fileSettings{}, err
	}
	if table == nil {
		return fileSettings{}, fmt.Errorf("%w %s: no [tool.simclock] table", ErrConfig, path)
	}
	for _, k := range slices.Sorted(maps.Keys(table)) {
		if k != "lint" {
			return fileSettings{}, fmt.Errorf("%w %s: unknown key tool.simclock.%s (known: lint)", ErrConfig, path, k)
		}
	}
	lint, ok := table["lint"].(map[string]any)
	if !ok {
		if _, present := table["lint"]; present {
			return fileSettings{}, fmt.Errorf("%w %s: tool.simclock.lint is not a table", ErrConfig, path)
		}
		return fileSettings{}, nil
	}
	for _, k := range slices.Sorted(maps.Keys(lint)) {
		if !slices.Contains(settingKeys, k) {
			return fileSettings{}, fmt.Errorf("%w %s: unknown key tool.simclock.lint.%s (known: %s)", ErrConfig, path, k, strings.Join(settingKeys, ", "))
		}
	}
	// Decode the table alone, now that its keys are known, for its types.
	b, err := toml.Marshal(lint)
	if err != nil {
		return fileSettings{}, fmt.Errorf("%w %s: [tool.simclock.lint]: %v", ErrConfig, path, err)
	}
	var set fileSettings
	if err := toml.Unmarshal(b, &set); err != nil {
		return fileSettings{}, fmt.Errorf("%w %s: [tool.simclock.lint]: %v", ErrConfig, path, err)
	}
	return set, nil
}

// config checks the settings and resolves them into a Config.
func (s fileSettings) config(path string) (Config, error) {
	bad := func(key string, err error) (Config, error) {
		return Config{}, fmt.Errorf("%w %s: %s: %v", ErrConfig, path, key, err)
	}
	var cfg Config
	selected, err := parseRuleList(s.Rules)
	if err != nil {
		return bad("rules", err)
	}
	ignored, err := parseRuleList(s.Ignore)
	if err != nil {
		return bad("ignore", err)
	}
	if len(ignored) > 0 {
		if len(selected) == 0 {
			for _, r := range Rules {
				selected = append(selected, r.ID)
			}
		}
		selected = slices.DeleteFunc(selected, func(id rules.ID) bool { return slices.Contains(ignored, id) })
		if len(selected) == 0 {
			return bad("ignore", errors.New("every rule is ignored"))
		}
	}
	cfg.Rules = selected
	dir := filepath.Dir(path)
	for _, g := range s.Exclude {
		p, err := NewPattern(dir, g)
		if err != nil {
			return bad("exclude", err)
		}
		cfg.Exclude = append(cfg.Exclude, p)
	}
	for _, g := range slices.Sorted(maps.Keys(s.PerFileIgnores)) {
		p, err := NewPattern(dir, g)
		if err != nil {
			return bad("per_file_ignores", err)
		}
		ids, err := parseRuleList(s.PerFileIgnores[g])
		if err != nil {
			return bad("per_file_ignores: "+g, err)
		}
		cfg.Ignore = append(cfg.Ignore, PathRules{Pattern: p, Rules: ids})
	}
	if s.RosDistro != "" {
		if _, err := ParseDistro(s.RosDistro); err != nil {
			return bad("ros_distro", err)
		}
		cfg.RosDistro = s.RosDistro
	}
	return cfg, nil
}

// parseRuleList reads rules by number or name.
func parseRuleList(names []string) ([]rules.ID, error) {
	var ids []rules.ID
	for _, n := range names {
		id, err := ParseRule(n)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}
