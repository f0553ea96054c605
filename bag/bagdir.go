package bag

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// Errors of the bag given, before any file is read.
var (
	// ErrUsage reports inputs that do not make one bag: the same file
	// twice, a directory beside files, two directories, no storage file.
	ErrUsage = errors.New("bag: not one bag")
	// ErrMissingFile reports a storage file that metadata.yaml lists and
	// the directory lacks.
	ErrMissingFile = errors.New("listed file is missing")
)

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
	dir   string
	meta  *Metadata
	files []bagFile
	// noMetadata is set for a directory without metadata.yaml, whose
	// storage files were found by name.
	noMetadata bool
}

// resolve turns the paths given into the files of one bag: one bag
// directory (or its metadata.yaml), or storage files given one by one
// (a split bag is all of them, ordered by their first message when their
// summaries say).
func resolve(paths []string) (*bagSet, error) {
	var dirs, files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		switch {
		case err == nil && st.IsDir():
			dirs = append(dirs, p)
		case err == nil && filepath.Base(p) == "metadata.yaml":
			dirs = append(dirs, filepath.Dir(p))
		default:
			files = append(files, p) // a missing file is reported when read
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
	for _, p := range orderFiles(files) {
		format, z := formatOf(p)
		set.files = append(set.files, bagFile{path: p, storage: format.name, zstd: z})
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
		format, z := formatOf(bf.path)
		if named, ok := formatNamed(m.StorageIdentifier); ok {
			format = named
		}
		bf.storage, bf.zstd = format.name, z
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
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return c, false
		}
	}
	return cands[0], true
}

// splitIndex finds the index of a split bag's file: name_3.mcap.
var splitIndex = func() *regexp.Regexp {
	var exts []string
	for _, f := range storageFormats {
		exts = append(exts, regexp.QuoteMeta(f.ext))
	}
	return regexp.MustCompile(`_(\d+)(` + strings.Join(exts, "|") + `)(\.zstd)?$`)
}()

// findStorageFiles lists the storage files of a directory without usable
// metadata, in split order (name_0, name_1, ... name_10).
func findStorageFiles(set *bagSet) error {
	ents, err := os.ReadDir(set.dir)
	if err != nil {
		return fmt.Errorf("bag: %w", err)
	}
	var names []string
	for _, e := range ents {
		if !e.IsDir() && isStorageFile(e.Name()) {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		if set.meta != nil {
			return nil
		}
		var exts []string
		for _, f := range storageFormats {
			exts = append(exts, f.ext)
		}
		return fmt.Errorf("%w: %s has no metadata.yaml and no %s file", ErrUsage, set.dir, strings.Join(exts, " or "))
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
		format, z := formatOf(n)
		set.files = append(set.files, bagFile{path: filepath.Join(set.dir, n), storage: format.name, zstd: z})
	}
	return nil
}

// orderFiles sorts the files of a split bag by their first message time
// when every file's summary gives it (MCAP), and keeps the given order
// otherwise.
func orderFiles(paths []string) []string {
	type ft struct {
		path  string
		start int64
	}
	var fts []ft
	for _, p := range paths {
		format, z := formatOf(p)
		if z || format.summary == nil {
			return paths
		}
		s, ok := format.summary(p)
		if !ok || s.messages == 0 {
			return paths
		}
		fts = append(fts, ft{p, s.start})
	}
	sort.SliceStable(fts, func(i, j int) bool { return fts[i].start < fts[j].start })
	out := make([]string, len(fts))
	for i, f := range fts {
		out[i] = f.path
	}
	return out
}

// decompressFile inflates a file compressed whole with zstd
// (compression_mode: file) into a temporary file, which the caller
// removes: both storages need random access. On a decompression error
// the temporary file holds what decompressed, and is returned with it. Memory stays at the
// decoder's window.
func decompressFile(path string) (string, error) {
	in, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("bag: %w", err)
	}
	defer in.Close()
	z, err := zstd.NewReader(in, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true))
	if err != nil {
		return "", fmt.Errorf("bag: %s: zstd: %w", path, err)
	}
	defer z.Close()
	format, _ := formatOf(path)
	out, err := os.CreateTemp("", "simclock-bag-*"+format.ext)
	if err != nil {
		return "", fmt.Errorf("bag: %w", err)
	}
	if _, err := io.Copy(out, z); err != nil {
		// Keep what decompressed: the report covers it.
		out.Close()
		return out.Name(), &ReadError{Path: path, Offset: -1, Record: "zstd file compression", Err: fmt.Errorf("%w: %v", ErrCorrupt, err)}
	}
	if err := out.Close(); err != nil {
		os.Remove(out.Name())
		return "", fmt.Errorf("bag: %w", err)
	}
	return out.Name(), nil
}
