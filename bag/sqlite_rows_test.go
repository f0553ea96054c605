package bag

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// inspectBothWays inspects paths reading the messages of .db3 files from
// SQLite directly and through database/sql, and fails unless both give
// the same report and error.
func inspectBothWays(t *testing.T, paths []string) (*Report, error) {
	t.Helper()
	defer func() { sqliteDirect = true }()
	sqliteDirect = false
	want, werr := Inspect(context.Background(), paths, Options{Window: 1e9})
	sqliteDirect = true
	got, gerr := Inspect(context.Background(), paths, Options{Window: 1e9})
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("%v: the direct reading gives another report than database/sql's (-sql +direct):\n%s", paths, d)
	}
	if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
		t.Errorf("%v: error %v read directly, %v through database/sql", paths, gerr, werr)
	}
	return got, gerr
}

// Messages read from SQLite directly are what database/sql reads: on
// the real bags and on rows of types rosbag2 never writes (a topic id as
// text, a timestamp as a real, data as text, an integer or NULL), which
// go to database/sql's conversions from the first such row on, errors
// included.
func TestSQLiteDirectAsDatabaseSQL(t *testing.T) {
	dirs, err := filepath.Glob("testdata/rosbag2/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range append(dirs, "../internal/cli/testdata/bag/sqlite3") {
		if files, _ := filepath.Glob(filepath.Join(d, "*.db3")); len(files) > 0 {
			inspectBothWays(t, []string{d})
		}
	}

	clock, rng := clockMsg(wall, 50*sec), rangeMsg(wall+ms, 50*sec)
	for _, tc := range []struct {
		name     string
		rows     []string // VALUES of messages (topic_id, timestamp, data)
		messages int64    // read before the end or the error
		fails    bool
	}{
		{"unusual types", []string{"1, $log, $clock", "'2', $log+1000000, $range", "1, 5.0, $clock",
			"2, $log+3000000, 'text'", "2, $log+4000000, 42", "2, $log+5000000, NULL", "1, $log+6000000, $clock"}, 7, false},
		{"topic id not a number", []string{"1, $log, $clock", "2, $log+1000000, $range", "'x', $log+2000000, $clock", "1, $log+3000000, $clock"}, 2, true},
		{"timestamp NULL", []string{"1, $log, $clock", "1, NULL, $clock"}, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "b_0.db3")
			db, err := sql.Open("sqlite", p)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range []string{
				"CREATE TABLE topics(id INTEGER PRIMARY KEY, name TEXT, type TEXT, serialization_format TEXT, offered_qos_profiles TEXT)",
				"CREATE TABLE messages(id INTEGER PRIMARY KEY, topic_id, timestamp, data)", // no affinity: values keep their types
			} {
				if _, err := db.Exec(q); err != nil {
					t.Fatal(err)
				}
			}
			for i, tp := range []genTopic{clockTopic, rangeTopic} {
				if _, err := db.Exec("INSERT INTO topics VALUES (?, ?, ?, 'cdr', ?)", i+1, tp.topic, tp.typ, qosV9); err != nil {
					t.Fatal(err)
				}
			}
			for _, r := range tc.rows {
				q := "INSERT INTO messages (topic_id, timestamp, data) VALUES (" + r + ")"
				q = strings.NewReplacer("$log", "1764000000000000000", "$clock", "?1", "$range", "?2").Replace(q)
				if _, err := db.Exec(q, clock.data, rng.data); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			db.Close()
			rep, err := inspectBothWays(t, []string{p})
			if rep.Files[0].Messages != tc.messages || (err != nil) != tc.fails {
				t.Errorf("%d messages read, want %d; error %v", rep.Files[0].Messages, tc.messages, err)
			}
		})
	}
}

// A .db3 damaged in its messages gives the same report and error read
// directly as through database/sql: SQLite's error in the middle of the
// messages sends the rest to database/sql, which meets it at the same
// row and words it as before. Every page after the first is overwritten
// in turn (with 0xff, as a bad sector reads; with zeros, as a hole).
func TestSQLiteDirectAsDatabaseSQLOnDamage(t *testing.T) {
	_, data := db3File(t, simBag(100*sec, 20))
	const page = 4096
	q := filepath.Join(t.TempDir(), "bad_0.db3")
	var midway int // damage met after some messages were read
	for off := page; off < len(data); off += page {
		for _, b := range []byte{0xff, 0} {
			bad := slices.Clone(data)
			for i := off; i < off+page; i++ {
				bad[i] = b
			}
			if err := os.WriteFile(q, bad, 0o644); err != nil {
				t.Fatal(err)
			}
			rep, err := inspectBothWays(t, []string{q})
			if err != nil && rep != nil && len(rep.Files) == 1 && rep.Files[0].Messages > 0 {
				midway++
			}
		}
	}
	if midway == 0 {
		t.Errorf("no damaged page was met after the first message: the test reads no damage midway")
	}
	t.Logf("%d pages, damage met midway %d times", len(data)/page, midway)
}
