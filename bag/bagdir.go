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

	"github.com/foxglove/mcap/go/mcap"
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
	storage string // "mcap" or "sqlite3"
	zstd    bool   // compressed whole (compression_mode: file)
	meta    *FileMetadata
	missing bool // listed in metadata.yaml, absent
}

// A bagSet is what the user gave, resolved: the files of one bag and, for
// a bag directory, its metadata.
type bagSet struct {
	dir   string
	meta  *Metadata
	files []bagFile
	// noMetadata is set for a directory without metadata.yaml, whose
	// storage files were found by name.
	noMetadata bool
}

// storageOf says which storage a file name is: .db3 is sqlite3, anything
// else MCAP (whose reader says clearly when a file is not MCAP).
func storageOf(name string) (storage string, compressed bool) {
	base := strings.ToLower(name)
	compressed = strings.HasSuffix(base, ".zstd")
	base = strings.TrimSuffix(base, ".zstd")
	if strings.HasSuffix(base, ".db3") {
		return "sqlite3", compressed
	}
	return "mcap", compressed
}

// resolve turns the paths given into the files of one bag: one bag
// directory (or its metadata.yaml), or storage files given one by one
// (a split bag is all of them, ordered by their first message when their
// summaries say).
func resolve(paths []string) (*bagSet, error) {
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
	set := &bagSet{}
	var mcaps []string
	for _, p := range files {
		st, z := storageOf(p)
		if st == "mcap" && !z {
			mcaps = append(mcaps, p)
		}
	}
	if len(mcaps) == len(files) {
		files = orderFiles(files)
	}
	for _, p := range files {
		st, z := storageOf(p)
		set.files = append(set.files, bagFile{path: p, storage: st, zstd: z})
	}
	return set, nil
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
func resolveDir(dir string) (*bagSet, error) {
	set := &bagSet{dir: dir}
	data, err := os.ReadFile(filepath.Join(dir, "metadata.yaml"))
	if errors.Is(err, os.ErrNotExist) {
		set.noMetadata = true
		return set, findStorageFiles(set)
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
		return set, findStorageFiles(set)
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
		bf.storage, bf.zstd = storageOf(bf.path)
		if m.StorageIdentifier == "sqlite3" || m.StorageIdentifier == "mcap" {
			bf.storage = m.StorageIdentifier
		}
		set.files = append(set.files, bf)
	}
	return set, nil
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

var splitIndex = regexp.MustCompile(`_(\d+)\.(mcap|db3)(\.zstd)?$`)

// findStorageFiles lists the storage files of a directory without usable
// metadata, in split order (name_0, name_1, ... name_10).
func findStorageFiles(set *bagSet) error {
	ents, err := os.ReadDir(set.dir)
	if err != nil {
		return fmt.Errorf("bag: %w", err)
	}
	var names []string
	for _, e := range ents {
		n := strings.ToLower(e.Name())
		if !e.IsDir() && (strings.HasSuffix(n, ".mcap") || strings.HasSuffix(n, ".db3") ||
			strings.HasSuffix(n, ".mcap.zstd") || strings.HasSuffix(n, ".db3.zstd")) {
			if err := checkInput(filepath.Join(set.dir, e.Name())); err != nil {
				return err
			}
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		if set.meta != nil {
			return nil
		}
		return fmt.Errorf("%w: %s has no metadata.yaml and no .mcap or .db3 file", ErrUsage, set.dir)
	}
	idx := func(n string) int {
		if m := splitIndex.FindStringSubmatch(n); m != nil {
			if i, err := strconv.Atoi(m[1]); err == nil {
				return i
			}
		}
		return -1
	}
	sort.SliceStable(names, func(i, j int) bool {
		if a, b := idx(names[i]), idx(names[j]); a != b {
			return a < b
		}
		return names[i] < names[j]
	})
	for _, n := range names {
		p := filepath.Join(set.dir, n)
		st, z := storageOf(n)
		set.files = append(set.files, bagFile{path: p, storage: st, zstd: z})
	}
	return nil
}

// orderFiles sorts the MCAP files of a split bag by their first message
// time when every file's summary gives it, and keeps the given order
// otherwise.
func orderFiles(paths []string) []string {
	type ft struct {
		path  string
		start uint64
	}
	var fts []ft
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return paths
		}
		st, err := f.Stat()
		var info *mcap.Info
		if err == nil && !st.IsDir() {
			info = summary(f, st.Size())
		}
		f.Close()
		if info == nil || info.Statistics == nil || info.Statistics.MessageCount == 0 {
			return paths
		}
		fts = append(fts, ft{p, info.Statistics.MessageStartTime})
	}
	sort.SliceStable(fts, func(i, j int) bool { return fts[i].start < fts[j].start })
	out := make([]string, len(fts))
	for i, f := range fts {
		out[i] = f.path
	}
	return out
}
