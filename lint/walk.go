package lint

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Skip is a path the run did not lint.
type Skip struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
	// Unreadable is set when the path could not be read (a directory or a
	// file without permission, an I/O error): the run saw less than it was
	// asked to, and fails. Otherwise the path was named on the command line
	// but holds no source code (a binary file, a device such as /dev/null)
	// and is only noted.
	Unreadable bool `json:"unreadable"`
}

// Unreadable returns the paths that could not be read.
func (r *Result) Unreadable() []Skip {
	var out []Skip
	for _, s := range r.Skipped {
		if s.Unreadable {
			out = append(out, s)
		}
	}
	return out
}

// skipDirs are directories a walk never enters: colcon output and VCS data.
var skipDirs = map[string]bool{"build": true, "install": true, "log": true, "node_modules": true, "__pycache__": true}

// ignoreMarkers are the files whose presence makes colcon and ament's
// linters skip a directory; a walk skips it too.
var ignoreMarkers = []string{"AMENT_IGNORE", "COLCON_IGNORE"}

// Files lists the Python and C++ sources, YAML parameter and launch files,
// XML launch files and shell scripts under paths, sorted. A path that names
// a file is taken whatever its extension (unknown extensions are read as
// Python, unless the file is binary).
func Files(paths []string) ([]string, error) {
	files, _, err := walk(paths, nil)
	return files, err
}

// walk lists the files to lint under paths (see Files), leaving out what
// exclude matches below each path, hidden files and directories, colcon's build,
// install and log, and directories holding AMENT_IGNORE or COLCON_IGNORE.
// What cannot be read, and named devices (/dev/null), are returned as
// skips; a path that does not exist, or a named pipe or socket
// (ErrNotRegular), ends the walk with an error.
func walk(paths []string, exclude []Pattern) ([]string, []Skip, error) {
	var out []string
	var skipped []Skip
	unreadable := func(path string, err error) {
		skipped = append(skipped, Skip{File: path, Reason: "could not read: " + reason(err), Unreadable: true})
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, err
		}
		if err != nil {
			unreadable(p, err)
			continue
		}
		if !info.IsDir() {
			switch m := info.Mode(); {
			case m.IsRegular():
				out = append(out, p)
			case m&fs.ModeDevice != 0:
				// /dev/null: the usual stand-in for no input, read as none.
				skipped = append(skipped, Skip{File: p, Reason: "not a regular file (" + fileKind(m) + "): nothing to lint"})
			default:
				// A named pipe or a socket would be read forever, or
				// block: refused at once.
				return nil, nil, fmt.Errorf("%w: %s (%s)", ErrNotRegular, p, fileKind(m))
			}
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				// A directory that cannot be listed (or an entry that
				// vanished) is named, and the walk goes on.
				unreadable(path, err)
				if d != nil && d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if path == p {
					return nil
				}
				name := d.Name()
				if strings.HasPrefix(name, ".") || skipDirs[name] || excluded(exclude, path) || hasIgnoreMarker(path) {
					return filepath.SkipDir
				}
				return nil
			}
			// Hidden files are tools' settings (.pre-commit-config.yaml,
			// .simclock.yaml), as hidden directories are tools' data.
			if d.Type().IsRegular() && langOf(path) != langNone && !strings.HasPrefix(d.Name(), ".") && !excluded(exclude, path) {
				out = append(out, path)
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	slices.Sort(out)
	return slices.Compact(out), skipped, nil
}

// hasIgnoreMarker reports whether dir holds AMENT_IGNORE or COLCON_IGNORE.
func hasIgnoreMarker(dir string) bool {
	for _, m := range ignoreMarkers {
		if _, err := os.Lstat(filepath.Join(dir, m)); err == nil {
			return true
		}
	}
	return false
}

// reason says why a path could not be read, without repeating the path:
// "permission denied".
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// fileKind names a mode that is neither a regular file nor a directory.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// binarySniff is how much of a file is looked at for a NUL byte, git's
// test for a binary file.
const binarySniff = 8000

// binary reports whether src looks like a binary file (a NUL byte in its
// first 8000 bytes, as git decides), not source code.
func binary(src []byte) bool {
	return bytes.IndexByte(src[:min(len(src), binarySniff)], 0) >= 0
}

// binarySkip says why a binary file named on the command line was not
// linted, pointing a recording at the command that reads it.
func binarySkip(path string) Skip {
	why := "a binary file, not source code: not linted"
	switch strings.ToLower(filepath.Ext(path)) {
	case ".mcap", ".db3", ".zstd":
		why += " (a rosbag2 recording: simclock bag inspect reads it)"
	}
	return Skip{File: path, Reason: why}
}

// A Pattern matches paths by a glob relative to a directory, as the
// exclude lists of flake8 and ruff do. The glob uses "/" whatever the
// system: "*" and "?" within a name, "**" across directories, "{a,b}" for
// either. A glob without a "/" matches a file or directory name wherever
// it is ("build", "*_pb2.py"); one with a "/" matches the path relative to
// Dir ("test/fixtures", "src/**/gen_*.py").
type Pattern struct {
	// Dir is the absolute directory the glob is relative to: the config
	// file's for its patterns, the current directory for --exclude's.
	Dir string
	// Glob is the pattern, cleaned: no leading "./" or trailing "/".
	Glob string
}

// NewPattern makes a pattern of glob relative to dir.
func NewPattern(dir, glob string) (Pattern, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Pattern{}, err
	}
	g := strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(strings.TrimSpace(glob)), "./"), "/")
	if g == "" || g == "." {
		return Pattern{}, fmt.Errorf("empty pattern \"%s\"", glob)
	}
	if !doublestar.ValidatePattern(g) {
		return Pattern{}, fmt.Errorf("bad pattern \"%s\"", glob)
	}
	return Pattern{Dir: abs, Glob: g}, nil
}

// Match reports whether the pattern matches path itself (a path relative
// to the current directory, or absolute).
func (p Pattern) Match(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	if !strings.Contains(p.Glob, "/") {
		ok, _ := doublestar.Match(p.Glob, filepath.Base(abs))
		return ok
	}
	if !below(p.Dir, abs) {
		return false
	}
	rel, _ := filepath.Rel(p.Dir, abs)
	ok, _ := doublestar.Match(p.Glob, filepath.ToSlash(rel))
	return ok
}

// Covers reports whether the pattern matches path or a directory above it
// and below the pattern's Dir.
func (p Pattern) Covers(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	if !below(p.Dir, abs) {
		return p.Match(abs)
	}
	for dir := abs; dir != p.Dir; dir = filepath.Dir(dir) {
		if p.Match(dir) {
			return true
		}
	}
	return false
}

// below reports whether path is strictly inside dir (both absolute).
func below(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// excluded reports whether one of patterns matches path.
func excluded(patterns []Pattern, path string) bool {
	for _, p := range patterns {
		if p.Match(path) {
			return true
		}
	}
	return false
}
