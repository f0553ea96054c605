package bag

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRead feeds arbitrary bytes to the MCAP reader and the analysis: no
// panics, and every failure is a *ReadError that names an offset inside
// the input.
func FuzzRead(f *testing.F) {
	msgs := append(simBag(0, 1)[:12], rangeMsg(wall, 0))
	for _, mode := range []string{"chunked", "zstd", "lz4", "unchunked", "noindex"} {
		data := bagBytes(f, writerModes[mode], []genTopic{clockTopic, rangeTopic}, msgs)
		f.Add(data)
		f.Add(data[:len(data)/2])
	}
	// Small real rosbag2 files, when shared/ is beside the clone.
	for _, name := range []string{"test_bag_for_seek_0.mcap", "only_services.mcap"} {
		if data, err := os.ReadFile(filepath.Join(realBagDir, name)); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		set := &bagSet{files: []bagFile{{path: "fuzz.mcap", storage: "mcap"}}}
		rep, err := inspect(context.Background(), set, int64(len(data)), Options{DecodeAll: true, Window: 1},
			func(ctx context.Context, st storage, _ bagFile, fi *FileInfo, s *sink) error {
				return st.(*mcapReader).readFrom(ctx, bytes.NewReader(data), int64(len(data)), fi, s)
			})
		if rep == nil {
			t.Fatal("nil report")
		}
		for _, d := range rep.Files[0].Damaged {
			if d.Offset < 0 || d.Offset > int64(len(data)) {
				t.Fatalf("damaged chunk at %d outside the %d-byte input", d.Offset, len(data))
			}
		}
		if err == nil || errors.Is(err, ErrDamaged) {
			return
		}
		re, ok := errors.AsType[*ReadError](err)
		if !ok {
			t.Fatalf("got %T %v, want *ReadError", err, err)
		}
		if re.Offset < 0 || re.Offset > int64(len(data)) {
			t.Fatalf("offset %d outside the %d-byte input", re.Offset, len(data))
		}
	})
}

// FuzzSQLite feeds arbitrary bytes, as a .db3 file, to the sqlite3
// storage and the analysis: no panic, a report always, and every failure
// a *ReadError (a truncated or corrupt database gives the report so far).
func FuzzSQLite(f *testing.F) {
	dir := f.TempDir()
	p := filepath.Join(dir, "seed_0.db3")
	writeDB3(f, p, db3Options{definitions: true}, []genTopic{clockTopic, rangeTopic}, append(simBag(0, 1)[:30], rangeMsg(wall, 0)))
	if data, err := os.ReadFile(p); err == nil {
		f.Add(data)
		f.Add(data[:len(data)/2])
		f.Add(data[:4096])
	}
	for _, d := range []string{"sqlite3-rewriter_a/rewriter_a_0.db3", "empty_bag/empty_bag_0.db3"} {
		if data, err := os.ReadFile(filepath.Join(realDirs, d)); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "fuzz_0.db3")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		rep, err := Inspect(context.Background(), []string{p}, Options{DecodeAll: true, Window: 1})
		if rep == nil {
			t.Fatalf("nil report: %v", err)
		}
		if err == nil {
			return
		}
		if _, ok := errors.AsType[*ReadError](err); !ok {
			t.Fatalf("got %T %v, want *ReadError", err, err)
		}
	})
}

// FuzzMetadata feeds arbitrary text to the metadata.yaml parser: no
// panic, and every failure wraps ErrMetadata.
func FuzzMetadata(f *testing.F) {
	topics := []genTopic{clockTopic, rangeTopic}
	msgs := simBag(0, 1)[:20]
	for v := 1; v <= 9; v++ {
		f.Add(metadataYAML(v, "mcap", "", []string{"a_0.mcap", "a_1.mcap"}, [][]genMsg{msgs[:10], msgs[10:]}, topics))
	}
	f.Add(metadataYAML(9, "sqlite3", "file", []string{"a_0.db3.zstd"}, [][]genMsg{msgs}, topics))
	f.Add("rosbag2_bagfile_information:\n  version: 10\n")
	f.Add("rosbag2_bagfile_information: [1, 2]\n")
	for _, fx := range metadataFixtures { // every version and distribution, from rosbag2's writer
		if data, err := os.ReadFile(filepath.Join("testdata", "rosbag2", fx.dir, "metadata.yaml")); err == nil {
			f.Add(string(data))
		}
	}
	f.Add("rosbag2_bagfile_information:\n  version: 9\n  topics_with_message_count:\n    - topic_metadata:\n        name: /a\n        offered_qos_profiles: {a: 1}\n")
	f.Add("rosbag2_bagfile_information:\n  version: 9\n  custom_data: [1]\n")
	if ents, err := os.ReadDir(realDirs); err == nil {
		for _, e := range ents {
			if data, err := os.ReadFile(filepath.Join(realDirs, e.Name(), "metadata.yaml")); err == nil {
				f.Add(string(data))
			}
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseMetadata([]byte(text))
		if err != nil {
			if !errors.Is(err, ErrMetadata) {
				t.Fatalf("error %v does not wrap ErrMetadata", err)
			}
			return
		}
		if m.Version < 1 || m.Version > MaxMetadataVersion {
			t.Fatalf("accepted version %d", m.Version)
		}
	})
}
