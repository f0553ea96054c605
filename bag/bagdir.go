package bag

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Errors of the bag given, before any file is read.
var (
	// ErrUsage reports inputs that do not make one bag: the same file
	// twice, a directory beside files, two directories, no storage file.
	ErrUsage = errors.New("bag: not one bag")
	// ErrMissingFile reports a storage file that metadata.yaml lists and
	// the directory lacks.
	ErrMissingFile = errors.New("listed file is missing")
	// ErrInput reports a path given that cannot be read as a bag: it does
	// not exist, or it is not a regular file or a directory (a named pipe,
	// a device, standard input), which a bag reader cannot seek in and
	// which may never end.
	ErrInput = errors.New("not a bag file")
)

// An inputError names a path that cannot be read as a bag, and why; it
// matches ErrInput.
type inputError struct{ path, why string }

func (e *inputError) Error() string        { return fmt.Sprintf("bag: %s: %s", e.path, e.why) }
func (e *inputError) Is(target error) bool { return target == ErrInput }

// checkInput refuses, before anything opens it, a path that is not a
// regular file or a directory: opening a named pipe blocks until a
// writer comes, and a pipe or device cannot be read as a bag.
func checkInput(p string) error {
	if p == "-" {
		return &inputError{p, "standard input is not read: a bag is read from a file it can seek in (MCAP's summary, SQLite's pages); save the stream to a file and give that"}
	}
	st, err := os.Stat(p)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return &inputError{p, "no such file or directory"}
		}
		return &inputError{p, err.Error()}
	}
	if st.IsDir() || st.Mode().IsRegular() {
		return nil
	}
	kind := "not a regular file"
	switch m := st.Mode(); {
	case m&os.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case m&os.ModeCharDevice != 0:
		kind = "a character device"
	case m&os.ModeDevice != 0:
		kind = "a block device"
	case m&os.ModeSocket != 0:
		kind = "a socket"
	}
	return &inputError{p, kind + ", not a regular file: a bag is read from a file it can seek in; save the stream to a file and give that"}
}

// A bagFile is one storage file of a bag, in reading order.
type bagFile struct {
	path    string // as found: relative to the working directory
	storage string // its format's name, "mcap" or "sqlite3" (storageFormats)
	zstd    bool   // compressed whole (compression_mode: file)
	meta    *FileMetadata
	missing bool // listed in metadata.yaml, absent
}

// A bagSet is what the user gave, resolved: the files of one bag and, for
// a bag directory, its metadata.
type bagSet struct {
	// name is the recording's: the bag directory's, or NAME of its files
	// NAME_0, NAME_1...
	name  string
	dir   string
	meta  *Metadata
	files []bagFile
	// noMetadata is set for a directory without metadata.yaml, whose
	// storage files were found by name.
	noMetadata bool
}

// resolve turns the paths given into the files of one bag: one bag
// directory (or its metadata.yaml), or storage files given one by one (a
// split bag is all of them, in split order). Paths that hold several
// recordings are a usage error here: see resolveAll.
func resolve(paths []string) (*bagSet, error) {
	sets, err := resolveAll(paths)
	if err != nil {
		return nil, err
	}
	if len(sets) > 1 {
		names := make([]string, len(sets))
		for i, s := range sets {
			names[i] = s.name
		}
		return nil, fmt.Errorf("%w: %s holds %d recordings (%s): give one", ErrUsage, strings.Join(paths, " "), len(sets), strings.Join(names, ", "))
	}
	return sets[0], nil
}

// resolveAll turns the paths given into the recordings they hold, each a
// bagSet: a bag directory with its metadata.yaml is one recording; the
// storage files of a directory without one, or files given one by one,
// are grouped by recording as rosbag2 names them (NAME_0, NAME_1, ... of
// the recording NAME; a file not so named is a recording of its own),
// each in split order. A recording whose files are of two storages is a
// usage error.
func resolveAll(paths []string) ([]*bagSet, error) {
	var dirs, files []string
	for _, p := range paths {
		if err := checkInput(p); err != nil {
			return nil, err
		}
		st, err := os.Stat(p)
		switch {
		case err == nil && st.IsDir():
			dirs = append(dirs, p)
		case err == nil && filepath.Base(p) == "metadata.yaml":
			dirs = append(dirs, filepath.Dir(p))
		default:
			files = append(files, p)
		}
	}
	switch {
	case len(dirs) > 1:
		return nil, fmt.Errorf("%w: %d bag directories given (%s): inspect one bag at a time", ErrUsage, len(dirs), strings.Join(dirs, ", "))
	case len(dirs) == 1 && len(files) > 0:
		return nil, fmt.Errorf("%w: bag directory %s given with files (%s): give the directory alone, or its files", ErrUsage, dirs[0], strings.Join(files, ", "))
	case len(dirs) == 1:
		return resolveDir(dirs[0])
	}
	if err := checkDuplicates(files); err != nil {
		return nil, err
	}
	groups, err := groupRecordings(files)
	if err != nil {
		return nil, err
	}
	var sets []*bagSet
	for _, g := range groups {
		set := &bagSet{name: displayName(g.name)}
		for _, p := range g.paths {
			format, z := formatOf(p)
			set.files = append(set.files, bagFile{path: p, storage: format.name, zstd: z})
		}
		sets = append(sets, set)
	}
	return sets, nil
}

// A recordingGroup is the storage files of one recording, in split order.
type recordingGroup struct {
	name  string
	paths []string
}

// splitName is how rosbag2's SequentialWriter names the files of a
// recording: NAME_N.db3 or NAME_N.mcap (N from 0, NAME the bag
// directory's name; the extension is a storage format's), with .zstd when
// compressed whole.
var splitName = func() *regexp.Regexp {
	var exts []string
	for _, f := range storageFormats {
		exts = append(exts, regexp.QuoteMeta(f.ext))
	}
	return regexp.MustCompile(`(?i)^(.+)_(\d+)(` + strings.Join(exts, "|") + `)(\.zstd)?$`)
}()

// recordingOf returns the recording a storage file belongs to and its
// split index; a file not named NAME_N is a recording of its own (index
// -1), named after the file.
func recordingOf(path string) (name string, index int) {
	base := filepath.Base(path)
	if m := splitName.FindStringSubmatch(base); m != nil {
		if i, err := strconv.Atoi(m[2]); err == nil && len(m[2]) < 10 {
			return m[1], i
		}
	}
	return base, -1
}

// displayName is a recording's name for people: a lone file's without
// its storage extensions.
func displayName(name string) string {
	lower := strings.ToLower(name)
	exts := []string{".zstd"}
	for _, f := range storageFormats {
		exts = append(exts, f.ext)
	}
	for _, ext := range exts {
		if strings.HasSuffix(lower, ext) {
			name, lower = name[:len(name)-len(ext)], lower[:len(lower)-len(ext)]
		}
	}
	return name
}

// groupRecordings groups storage files by recording, each in split
// order; recordings are ordered by name. Two storages in one recording
// are refused: rosbag2 writes one.
func groupRecordings(paths []string) ([]recordingGroup, error) {
	byName := map[string]*recordingGroup{}
	var names []string
	for _, p := range paths {
		name, _ := recordingOf(p)
		g := byName[name]
		if g == nil {
			g = &recordingGroup{name: name}
			byName[name] = g
			names = append(names, name)
		}
		g.paths = append(g.paths, p)
	}
	sort.Strings(names)
	out := make([]recordingGroup, 0, len(names))
	for _, n := range names {
		g := byName[n]
		sort.SliceStable(g.paths, func(i, j int) bool {
			_, a := recordingOf(g.paths[i])
			_, b := recordingOf(g.paths[j])
			return a < b
		})
		first, _ := formatOf(g.paths[0])
		for _, p := range g.paths[1:] {
			if st, _ := formatOf(p); st.name != first.name {
				return nil, fmt.Errorf("%w: recording %s mixes %s and %s files (%s and %s): rosbag2 writes one storage per recording",
					ErrUsage, n, first.name, st.name, filepath.Base(g.paths[0]), filepath.Base(p))
			}
		}
		out = append(out, *g)
	}
	return out, nil
}

// checkDuplicates refuses the same file given twice (under any name):
// it would read as a split bag whose /clock loops.
func checkDuplicates(files []string) error {
	seen := map[string]string{}
	var infos []os.FileInfo
	var names []string
	for _, p := range files {
		if prev, ok := seen[filepath.Clean(p)]; ok {
			return fmt.Errorf("%w: %s is given twice (as %s and %s)", ErrUsage, filepath.Clean(p), prev, p)
		}
		seen[filepath.Clean(p)] = p
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		for i, o := range infos {
			if os.SameFile(o, st) {
				return fmt.Errorf("%w: %s and %s are the same file", ErrUsage, names[i], p)
			}
		}
		infos, names = append(infos, st), append(names, p)
	}
	return nil
}

// resolveDir reads a bag directory: its metadata.yaml when present,
// otherwise the storage files it holds, by their split index.
func resolveDir(dir string) ([]*bagSet, error) {
	set := &bagSet{dir: dir, name: filepath.Base(filepath.Clean(dir))}
	data, err := os.ReadFile(filepath.Join(dir, "metadata.yaml"))
	if errors.Is(err, os.ErrNotExist) {
		return storageFiles(dir, nil)
	}
	if err != nil {
		return nil, fmt.Errorf("bag: %w", err)
	}
	m, err := ParseMetadata(data)
	if err != nil {
		return nil, fmt.Errorf("bag: %s: %w", filepath.Join(dir, "metadata.yaml"), err)
	}
	set.meta = m
	if len(m.RelativeFilePaths) == 0 && m.MessageCount == 0 {
		// Older writers left the list empty for a bag with no messages.
		return storageFiles(dir, m)
	}
	byPath := map[string]*FileMetadata{}
	for i := range m.Files {
		byPath[m.Files[i].Path] = &m.Files[i]
	}
	seen := map[string]bool{}
	for _, rel := range m.RelativeFilePaths {
		if seen[rel] {
			return nil, fmt.Errorf("bag: %s: %w: relative_file_paths lists %s twice", filepath.Join(dir, "metadata.yaml"), ErrMetadata, rel)
		}
		seen[rel] = true
		bf := bagFile{meta: byPath[rel]}
		bf.path, bf.missing = locate(dir, rel, m.CompressionMode == "file")
		if !bf.missing {
			if err := checkInput(bf.path); err != nil {
				return nil, err
			}
		}
		format, z := formatOf(bf.path)
		if named, ok := formatNamed(m.StorageIdentifier); ok {
			format = named
		}
		bf.storage, bf.zstd = format.name, z
		set.files = append(set.files, bf)
	}
	return []*bagSet{set}, nil
}

// locate finds a listed storage file: relative to the directory, or by
// its base name (older rosbag2 wrote paths relative to the directory's
// parent), or with the .zstd suffix of file compression.
func locate(dir, rel string, fileCompressed bool) (string, bool) {
	cands := []string{filepath.Join(dir, rel), filepath.Join(dir, filepath.Base(rel))}
	if fileCompressed && !strings.HasSuffix(rel, ".zstd") {
		cands = append(cands, filepath.Join(dir, rel+".zstd"), filepath.Join(dir, filepath.Base(rel)+".zstd"))
	}
	for _, c := range cands {
		if _, err := os.Stat(c); err == nil {
			return c, false // checkInput says what it is, if not a file
		}
	}
	return cands[0], true
}

// storageFiles reads a bag directory by the storage files it holds (no
// metadata.yaml, or one listing no file): each recording among them is a
// bagSet, in split order.
func storageFiles(dir string, meta *Metadata) ([]*bagSet, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("bag: %w", err)
	}
	var paths []string
	for _, e := range ents {
		if !e.IsDir() && isStorageFile(e.Name()) {
			p := filepath.Join(dir, e.Name())
			if err := checkInput(p); err != nil {
				return nil, err
			}
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		if meta != nil {
			return []*bagSet{{dir: dir, meta: meta, name: filepath.Base(filepath.Clean(dir))}}, nil
		}
		var exts []string
		for _, f := range storageFormats {
			exts = append(exts, f.ext)
		}
		return nil, fmt.Errorf("%w: %s has no metadata.yaml and no %s file", ErrUsage, dir, strings.Join(exts, " or "))
	}
	groups, err := groupRecordings(paths)
	if err != nil {
		return nil, err
	}
	if meta != nil && len(groups) > 1 {
		return nil, fmt.Errorf("%w: %s: metadata.yaml lists no file and the directory holds %d recordings", ErrUsage, dir, len(groups))
	}
	var sets []*bagSet
	for _, g := range groups {
		set := &bagSet{dir: dir, meta: meta, noMetadata: meta == nil, name: displayName(g.name)}
		for _, p := range g.paths {
			format, z := formatOf(p)
			set.files = append(set.files, bagFile{path: p, storage: format.name, zstd: z})
		}
		sets = append(sets, set)
	}
	return sets, nil
}
