package cli

import (
	"crypto/sha256"
	"database/sql"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/simclock/simclock/timemsg"
)

// fileState is what a command must leave unchanged in a bag's directory.
type fileState struct {
	sum   [sha256.Size]byte
	mode  fs.FileMode
	mtime time.Time
}

func snapshotDir(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		st := fileState{mode: info.Mode(), mtime: info.ModTime()}
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			st.sum = sha256.Sum256(data)
		}
		out[p] = st
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(target)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// writeWALBag leaves in dir a rosbag2 sqlite3 bag in WAL mode whose -wal
// file holds the messages (never checkpointed), as a recorder killed
// mid-recording leaves it: the copy is taken while the writer is open.
func writeWALBag(t *testing.T, dir string, n int) string {
	t.Helper()
	work := t.TempDir()
	src := filepath.Join(work, "wal_0.db3")
	db, err := sql.Open("sqlite", src)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, q := range []string{
		"PRAGMA journal_mode=WAL",
		"PRAGMA wal_autocheckpoint=0",
		"CREATE TABLE topics(id INTEGER PRIMARY KEY,name TEXT NOT NULL,type TEXT NOT NULL,serialization_format TEXT NOT NULL,offered_qos_profiles TEXT NOT NULL)",
		"CREATE TABLE messages(id INTEGER PRIMARY KEY,topic_id INTEGER NOT NULL,timestamp INTEGER NOT NULL, data BLOB NOT NULL)",
		"INSERT INTO topics VALUES (1, '/clock', 'rosgraph_msgs/msg/Clock', 'cdr', '')",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for i := range n {
		v := int64(100+i) * int64(10*time.Millisecond)
		c := timemsg.Clock{Clock: timemsg.Time{Sec: int32(v / 1e9), Nanosec: uint32(v % 1e9)}}
		if _, err := db.Exec("INSERT INTO messages (topic_id, timestamp, data) VALUES (1, ?, ?)", 1_764_000_000_000_000_000+v, timemsg.MarshalClock(c)); err != nil {
			t.Fatal(err)
		}
	}
	if st, err := os.Stat(src + "-wal"); err != nil || st.Size() == 0 {
		t.Fatalf("no -wal content: %v", err)
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		data, err := os.ReadFile(src + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "wal_0.db3"+suffix), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "wal_0.db3")
}

// zstdFile writes path compressed whole into dst, as rosbag2's file
// compression does.
func zstdFile(t *testing.T, path, dst string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	if err := os.WriteFile(dst, enc.EncodeAll(data, nil), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Reading never writes: every bag command, in every output format, over
// a copy of each kind of bag (a WAL-mode .db3 with its -shm and -wal, one
// whose -wal holds transactions never checkpointed, MCAP, file-compressed,
// bag directories of sqlite3, MCAP and a split bag, and metadata.yaml
// given by name) leaves every file byte-identical, with its mode and
// modification time, and adds or removes none.
func TestBagCommandsNeverWrite(t *testing.T) {
	root := t.TempDir()
	bags := filepath.Join(root, "bags")
	for _, d := range []string{"galactic_v4", "jazzy_v9", "jazzy_v9_split", "dashing_v1"} {
		copyTree(t, filepath.Join("..", "..", "bag", "testdata", "rosbag2", d), filepath.Join(bags, d))
	}
	copyTree(t, "testdata/bag/sqlite3", filepath.Join(bags, "sqlite3"))
	if err := os.MkdirAll(filepath.Join(bags, "files"), 0o755); err != nil {
		t.Fatal(err)
	}
	copyTree(t, hazardsBag, filepath.Join(bags, "files", "hazards.mcap"))
	zstdFile(t, hazardsBag, filepath.Join(bags, "files", "hazards.mcap.zstd"))
	walBag := writeWALBag(t, filepath.Join(bags, "files"), 50)
	inputs := [][]string{
		{filepath.Join(bags, "galactic_v4")},
		{filepath.Join(bags, "galactic_v4", "talker.db3")},
		{filepath.Join(bags, "jazzy_v9")},
		{filepath.Join(bags, "jazzy_v9", "metadata.yaml")},
		{filepath.Join(bags, "jazzy_v9", "jazzy_v9_0.mcap")},
		{filepath.Join(bags, "jazzy_v9_split")},
		{filepath.Join(bags, "dashing_v1")},
		{filepath.Join(bags, "sqlite3")},
		{filepath.Join(bags, "files", "hazards.mcap")},
		{filepath.Join(bags, "files", "hazards.mcap.zstd")},
		{walBag},
	}
	out := filepath.Join(root, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	commands := [][]string{
		{"bag", "inspect"},
		{"bag", "inspect", "--format", "json", "--decode-all"},
		{"bag", "inspect", "--svg", filepath.Join(out, "t.svg"), "--html", filepath.Join(out, "t.html")},
		{"bag", "inspect", "--no-crc", "--window", "1"},
		{"bag", "info"},
		{"bag", "info", "--format", "json"},
	}
	before := snapshotDir(t, bags)
	check := func(what string) {
		t.Helper()
		after := snapshotDir(t, bags)
		for p, st := range before {
			got, ok := after[p]
			switch {
			case !ok:
				t.Errorf("%s removed %s", what, p)
			case got != st:
				t.Errorf("%s changed %s: %+v, was %+v", what, p, got, st)
			}
		}
		for p := range after {
			if _, ok := before[p]; !ok {
				t.Errorf("%s added %s", what, p)
			}
		}
	}
	for _, in := range inputs {
		for _, cmd := range commands {
			args := append(append([]string{}, cmd...), in...)
			_, errOut, code := runSimclock(t, args...)
			if code == ExitUsage || strings.Contains(errOut, "panic") {
				t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
			}
			check(strings.Join(args, " "))
		}
		args := append([]string{"bag", "clock", "--transport", "inproc", "--rate", "50", "--hz", "5"}, in...)
		_, errOut, code := virtualRun(t, nil, 0).run(args...)
		if code != ExitOK {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
		check(strings.Join(args, " "))
	}
	// The -wal's messages are read, not lost to an immutable open.
	stdout, errOut, _ := runSimclock(t, "bag", "inspect", "--format", "json", walBag)
	if !strings.Contains(stdout, `"kind":"clock","present":true,"messages":50,`) {
		t.Errorf("WAL bag: want its 50 /clock messages; stderr %q, stdout:\n%s", errOut, stdout)
	}
	if len(before) < 20 {
		t.Fatalf("only %d files checked", len(before))
	}
}
