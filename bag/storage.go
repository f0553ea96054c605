package bag

import (
	"context"
	"strings"
)

// A channel is one recorded topic of one storage file, described the same
// way whatever the storage: the analysis sees channels and messages, never
// MCAP records or sqlite3 rows.
type channel struct {
	Topic string
	Type  string // ROS type, "pkg/msg/Type"
	// SchemaEncoding is the encoding of Definition: "ros2msg" (or
	// "ros2idl"); empty when the storage holds no definition for the type.
	SchemaEncoding string
	Definition     []byte
	// Fallback is true when Definition is not from the bag but from the
	// definitions shipped for common interface packages.
	Fallback        bool
	MessageEncoding string // serialization format, "cdr"
	OfferedQoS      string // offered_qos_profiles YAML, one entry per publisher

	// tally is what inspect counts for the channel (its topic and
	// publisher stream), found once (tally.topic) instead of looked up
	// for every message.
	tally *chanTally
}

// A message is one recorded message. Data aliases a buffer that is reused
// once the sink returns.
type message struct {
	LogTime     int64 // the recorder's receive time, ns
	PublishTime int64 // the publisher's send time, ns (0 when not recorded)
	Data        []byte
}

// A sink receives what a storage reads, in file order.
type sink struct {
	// onChannel, when set, is called once for each channel of a file,
	// before its messages.
	onChannel func(c *channel)
	// onMessage receives every message that is not known to be damaged.
	onMessage func(c *channel, m *message) error
	// onSkip, when set, is called when messages are skipped (a damaged
	// chunk): what comes after is not continuous with what came before.
	onSkip func()
	// progress, when set, is called with the bytes of the current file
	// consumed so far.
	progress func(done int64)
	// noCRC skips the integrity checks (chunk CRCs, lz4 checksums).
	noCRC bool
}

func (s *sink) progressDone(n int64) {
	if s.progress != nil {
		s.progress(n)
	}
}

// A storage reads one file of a bag into a sink: every storage plugin of
// rosbag2 that simclock reads (MCAP, sqlite3) is one. It is not safe for
// concurrent use, and may be reused for the next file.
type storage interface {
	read(ctx context.Context, path string, fi *FileInfo, s *sink) error
	close()
}

// A storageFormat is one storage plugin of rosbag2 that simclock reads.
// Adding a format is a file implementing storage plus its entry in
// storageFormats: resolving paths, listing a directory, file compression
// and reading all go through this table.
type storageFormat struct {
	// name is the plugin's storage_identifier in metadata.yaml: "mcap".
	name string
	// ext is its files' extension: ".mcap".
	ext string
	// open returns a reader for the format, reused for each of its files.
	open func() storage
	// summary, when set, reads a file's message count and first and last
	// log times from its summary without reading its messages; ok is
	// false when the file does not say.
	summary func(path string) (s fileSummary, ok bool)
	// inflate returns the check of a file of the format compressed whole
	// as it inflates (zstdfile.go): its first bytes, then its framing, so
	// that garbage stops at once.
	inflate func() inflateCheck
	// distro, when set, returns the ROS distribution that wrote a file,
	// from what reading it gave (fi) or from the file; "" when neither
	// says (simclock bag info).
	distro func(f bagFile, fi *FileInfo) string
}

// fileSummary is what a file's summary says of its messages.
type fileSummary struct {
	messages   uint64
	start, end int64 // log times of the first and last message, ns
}

// storageFormats are the storages simclock reads. The first is the one a
// file of no known extension is tried as (its reader says clearly when
// the file is not of its format).
var storageFormats = []storageFormat{
	{name: "mcap", ext: ".mcap", open: func() storage { return newMCAPReader() }, summary: mcapSummary,
		inflate: func() inflateCheck { return &mcapInflate{} }, distro: mcapDistro},
	{name: "sqlite3", ext: ".db3", open: func() storage { return sqliteReader{} },
		inflate: func() inflateCheck { return &sqliteInflate{} }, distro: sqliteDistro},
}

// formatNamed returns the storage format of a storage_identifier.
func formatNamed(name string) (storageFormat, bool) {
	for _, f := range storageFormats {
		if f.name == name {
			return f, true
		}
	}
	return storageFormat{}, false
}

// formatOf says which storage a file name is, by its extension (after
// .zstd, the suffix of file compression).
func formatOf(name string) (f storageFormat, compressed bool) {
	base := strings.ToLower(name)
	compressed = strings.HasSuffix(base, ".zstd")
	base = strings.TrimSuffix(base, ".zstd")
	for _, f := range storageFormats {
		if strings.HasSuffix(base, f.ext) {
			return f, compressed
		}
	}
	return storageFormats[0], compressed
}

// isStorageFile reports whether a file name has the extension of a
// storage format, compressed whole or not.
func isStorageFile(name string) bool {
	n := strings.TrimSuffix(strings.ToLower(name), ".zstd")
	for _, f := range storageFormats {
		if strings.HasSuffix(n, f.ext) {
			return true
		}
	}
	return false
}

// readers holds one reader per storage format, opened on first use.
type readers map[string]storage

// of returns the reader of f's storage.
func (r readers) of(f bagFile) storage {
	st, ok := r[f.storage]
	if !ok {
		format, _ := formatNamed(f.storage)
		st = format.open()
		r[f.storage] = st
	}
	return st
}

func (r readers) close() {
	for _, st := range r {
		st.close()
	}
}

// readAll reads every file of set into s, stopping at the first error.
func readAll(ctx context.Context, set *bagSet, s *sink) error {
	rd := readers{}
	defer rd.close()
	for _, f := range set.files {
		fi := FileInfo{Path: f.path}
		if err := readBagFile(ctx, rd.of(f), f, &fi, s); err != nil {
			return err
		}
	}
	return nil
}
