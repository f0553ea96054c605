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
