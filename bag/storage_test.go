package bag

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/foxglove/mcap/go/mcap"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/klauspost/compress/zstd"

	"github.com/simclock/simclock/rules"
	"github.com/simclock/simclock/rules/rulestest"
)

// db3Options shape a generated sqlite3 bag.
type db3Options struct {
	definitions bool // Iron-era message_definitions table
	zstdMessage bool // compression_mode: message
}

// writeDB3 writes a sqlite3 bag with the schema rosbag2 writes (Humble's
// topics/messages/schema/metadata tables, plus Iron's
// message_definitions when asked).
func writeDB3(t testing.TB, path string, o db3Options, topics []genTopic, msgs []genMsg) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec("CREATE TABLE schema(schema_version INTEGER PRIMARY KEY,ros_distro TEXT NOT NULL)")
	exec("INSERT INTO schema VALUES (4, 'iron')")
	exec("CREATE TABLE metadata(id INTEGER PRIMARY KEY,metadata_version INTEGER NOT NULL,metadata TEXT NOT NULL)")
	exec("CREATE TABLE topics(id INTEGER PRIMARY KEY,name TEXT NOT NULL,type TEXT NOT NULL,serialization_format TEXT NOT NULL,offered_qos_profiles TEXT NOT NULL,type_description_hash TEXT NOT NULL)")
	exec("CREATE TABLE messages(id INTEGER PRIMARY KEY,topic_id INTEGER NOT NULL,timestamp INTEGER NOT NULL, data BLOB NOT NULL)")
	exec("CREATE INDEX timestamp_idx ON messages (timestamp ASC)")
	if o.definitions {
		exec("CREATE TABLE message_definitions(id INTEGER PRIMARY KEY,topic_type TEXT NOT NULL,encoding TEXT NOT NULL,encoded_message_definition TEXT NOT NULL,type_description TEXT NOT NULL,type_description_hash TEXT NOT NULL)")
	}
	ids := map[string]int{}
	for i, tp := range topics {
		qos := tp.qos
		if qos == "" {
			qos = qosV9
		}
		exec("INSERT INTO topics VALUES (?, ?, ?, 'cdr', ?, '')", i+1, tp.topic, tp.typ, qos)
		if o.definitions {
			exec("INSERT INTO message_definitions VALUES (?, ?, ?, ?, '', '')", i+1, tp.typ, tp.encoding, tp.schema)
		}
		ids[tp.topic] = i + 1
	}
	var enc *zstd.Encoder
	if o.zstdMessage {
		enc, _ = zstd.NewWriter(nil)
		defer enc.Close()
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		data := m.data
		if enc != nil {
			data = enc.EncodeAll(data, nil)
		}
		if _, err := tx.Exec("INSERT INTO messages (topic_id, timestamp, data) VALUES (?, ?, ?)", ids[m.topic], m.log, data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// metadataYAML writes the metadata.yaml rosbag2 writes (in the layout of
// testdata/rosbag2, which comes from rosbag2's writer) for files holding
// msgs (split by file): offered_qos_profiles as YAML text before version
// 9, as a sequence from version 9 on.
func metadataYAML(version int, storage, compression string, files []string, perFile [][]genMsg, topics []genTopic) string {
	var b strings.Builder
	total := 0
	counts := map[string]int{}
	start, end := int64(1<<62), int64(0)
	for _, ms := range perFile {
		total += len(ms)
		for _, m := range ms {
			counts[m.topic]++
			start, end = min(start, m.log), max(end, m.log)
		}
	}
	fmt.Fprintf(&b, "rosbag2_bagfile_information:\n  version: %d\n  storage_identifier: %s\n", version, storage)
	fmt.Fprintf(&b, "  duration:\n    nanoseconds: %d\n  starting_time:\n    nanoseconds_since_epoch: %d\n  message_count: %d\n", end-start, start, total)
	b.WriteString("  topics_with_message_count:\n")
	for _, tp := range topics {
		qos := strings.ReplaceAll(tp.qos, "\n", "\\n")
		if tp.qos == "" {
			qos = "- history: 1\\n  depth: 1\\n  reliability: 2\\n  durability: 2\\n  deadline:\\n    sec: 0\\n    nsec: 0\\n  lifespan:\\n    sec: 0\\n    nsec: 0\\n  liveliness: 1\\n  liveliness_lease_duration:\\n    sec: 0\\n    nsec: 0\\n  avoid_ros_namespace_conventions: false"
		}
		if version >= 9 {
			seq := tp.qos
			if seq == "" {
				seq = qosV9
			}
			qos = "\n          " + strings.ReplaceAll(seq, "\n", "\n          ")
		} else {
			qos = ` "` + qos + `"`
		}
		fmt.Fprintf(&b, "    - topic_metadata:\n        name: %s\n        type: %s\n        serialization_format: cdr\n        offered_qos_profiles:%s\n        type_description_hash: \"\"\n      message_count: %d\n", tp.topic, tp.typ, qos, counts[tp.topic])
	}
	mode := ""
	format := ""
	if compression != "" {
		mode, format = compression, "zstd"
	}
	fmt.Fprintf(&b, "  compression_format: \"%s\"\n  compression_mode: \"%s\"\n  relative_file_paths:\n", format, mode)
	for _, f := range files {
		fmt.Fprintf(&b, "    - %s\n", f)
	}
	if version >= 5 {
		b.WriteString("  files:\n")
		for i, f := range files {
			s, e := int64(0), int64(0)
			if len(perFile[i]) > 0 {
				s, e = perFile[i][0].log, perFile[i][len(perFile[i])-1].log
			}
			fmt.Fprintf(&b, "    - path: %s\n      starting_time:\n        nanoseconds_since_epoch: %d\n      duration:\n        nanoseconds: %d\n      message_count: %d\n", f, s, e-s, len(perFile[i]))
		}
	}
	if version >= 6 {
		b.WriteString("  custom_data: ~\n")
	}
	if version >= 8 {
		b.WriteString("  ros_distro: jazzy\n")
	}
	return b.String()
}

func writeText(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// hazardMsgs is the simBag with planted hazards: a zero stamp and a wall
// stamp in /range.
func hazardMsgs() []genMsg {
	return modify(simBag(100*sec, 3), func(i int, m *genMsg) bool {
		switch {
		case m.topic == "/range" && m.log == wall+105*ms*10+ms:
			*m = rangeMsg(m.log, 0)
		case m.topic == "/range" && m.log == wall+205*ms*10+ms:
			*m = rangeMsg(m.log, m.log)
		}
		return true
	})
}

// comparable strips what legitimately differs between storages.
func comparable(r *Report) *Report {
	c := *r
	c.Files, c.Bag, c.Series = nil, nil, nil
	c.Topics = slices.Clone(r.Topics)
	for i := range c.Topics {
		c.Topics[i].Encoding, c.Topics[i].Definition = "", ""
	}
	c.Findings = slices.Clone(r.Findings)
	for i := range c.Findings {
		c.Findings[i].Examples = slices.Clone(c.Findings[i].Examples)
		for j := range c.Findings[i].Examples {
			c.Findings[i].Examples[j].File = ""
		}
	}
	return &c
}

// TestSQLiteSameAsMCAP: one recording written as MCAP and as sqlite3
// (with definitions, without them, with message compression) gives the
// same report: the analysis does not know the storage.
func TestSQLiteSameAsMCAP(t *testing.T) {
	msgs := hazardMsgs()
	topics := []genTopic{clockTopic, rangeTopic}
	want, err := Inspect(context.Background(), []string{writeFile(t, bagBytes(t, writerModes["zstd"], topics, msgs))}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if byCode(want)[CodeZeroStamp] == 0 || byCode(want)[CodeTimeBase] == 0 {
		t.Fatalf("planted hazards not found in MCAP: %v", codes(want))
	}
	for _, o := range []db3Options{{definitions: true}, {}, {definitions: true, zstdMessage: true}} {
		t.Run(fmt.Sprintf("%+v", o), func(t *testing.T) {
			dir := t.TempDir()
			writeDB3(t, filepath.Join(dir, "bag_0.db3"), o, topics, msgs)
			comp := ""
			if o.zstdMessage {
				comp = "message"
			}
			writeText(t, filepath.Join(dir, "metadata.yaml"), metadataYAML(9, "sqlite3", comp, []string{"bag_0.db3"}, [][]genMsg{msgs}, topics))
			got, err := Inspect(context.Background(), []string{dir}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(comparable(want), comparable(got), cmpopts.EquateEmpty()); d != "" {
				t.Errorf("sqlite3 report differs from MCAP (-mcap +sqlite3):\n%s", d)
			}
			wantDef := DefinitionBag
			if !o.definitions {
				wantDef = DefinitionShipped // sensor_msgs/Range, rosgraph_msgs/Clock are shipped
			}
			for _, tp := range got.Topics {
				if tp.Topic == "/range" && tp.Definition != wantDef {
					t.Errorf("/range definition from %q, want %q", tp.Definition, wantDef)
				}
			}
			if got.Files[0].Storage != "sqlite3" || got.Bag == nil || got.Bag.Metadata.Version != 9 {
				t.Errorf("file %+v bag %+v", got.Files[0], got.Bag)
			}
		})
	}
}

// TestUnknownTypeNotGuessed: a sqlite3 bag (no definitions) with a type
// nobody ships reports it as unknown and reads nothing from it.
func TestUnknownTypeNotGuessed(t *testing.T) {
	custom := genTopic{"/custom", "my_pkg/msg/Stamped", "ros2msg", rangeSchema, ""}
	msgs := []genMsg{clockMsg(wall, 100*sec), {"/custom", wall + ms, rangeMsg(0, 0).data}}
	p := filepath.Join(t.TempDir(), "x_0.db3")
	writeDB3(t, p, db3Options{}, []genTopic{clockTopic, custom}, msgs)
	rep, err := Inspect(context.Background(), []string{p}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := byCode(rep)
	if c[CodeUnknownSchema] != 1 || c[CodeZeroStamp] != 0 {
		t.Errorf("findings %v: want unknown_schema for /custom and no zero_stamp guessed", c)
	}
}

// TestBagDirectory: directories are read as ros2 bag info reads them.
func TestBagDirectory(t *testing.T) {
	msgs := hazardMsgs()
	topics := []genTopic{clockTopic, rangeTopic}
	half := len(msgs) / 2
	parts := [][]genMsg{msgs[:half], msgs[half:]}
	for _, version := range []int{4, 5, 6, 7, 8, 9} {
		for _, storage := range []string{"mcap", "sqlite3"} {
			t.Run(fmt.Sprintf("v%d/%s", version, storage), func(t *testing.T) {
				dir := t.TempDir()
				var names []string
				for i, part := range parts {
					name := fmt.Sprintf("run_%d.mcap", i)
					if storage == "sqlite3" {
						name = fmt.Sprintf("run_%d.db3", i)
						writeDB3(t, filepath.Join(dir, name), db3Options{definitions: true}, topics, part)
					} else {
						writeBag(t, filepath.Join(dir, name), writerModes["chunked"], topics, part)
					}
					names = append(names, name)
				}
				writeText(t, filepath.Join(dir, "metadata.yaml"), metadataYAML(version, storage, "", names, parts, topics))
				rep, err := Inspect(context.Background(), []string{dir}, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if rep.Messages != int64(len(msgs)) || len(rep.Files) != 2 || byCode(rep)[CodeMetadata] != 0 {
					t.Errorf("%d messages in %d files, findings %v", rep.Messages, len(rep.Files), codes(rep))
				}
				if rep.Clock.BackwardJumps != 0 {
					t.Errorf("files read out of order: %d backward jumps", rep.Clock.BackwardJumps)
				}
				// Reading metadata.yaml itself is the same.
				again, err := Inspect(context.Background(), []string{filepath.Join(dir, "metadata.yaml")}, Options{})
				if err != nil || again.Messages != rep.Messages {
					t.Errorf("via metadata.yaml: %v, %d messages", err, again.Messages)
				}
			})
		}
	}
}

// TestBagDirectoryDisagreement: a missing file and wrong counts are
// reported with both counts, and the files present are still read.
func TestBagDirectoryDisagreement(t *testing.T) {
	msgs := hazardMsgs()
	topics := []genTopic{clockTopic, rangeTopic}
	dir := t.TempDir()
	writeDB3(t, filepath.Join(dir, "run_0.db3"), db3Options{definitions: true}, topics, msgs)
	meta := metadataYAML(9, "sqlite3", "", []string{"run_0.db3", "run_1.db3"}, [][]genMsg{msgs, msgs[:10]}, topics)
	writeText(t, filepath.Join(dir, "metadata.yaml"), meta)
	rep, err := Inspect(context.Background(), []string{dir}, Options{})
	if !errors.Is(err, ErrMissingFile) || !strings.Contains(err.Error(), "run_1.db3") {
		t.Fatalf("got %v, want ErrMissingFile naming run_1.db3", err)
	}
	if rep.Messages != int64(len(msgs)) || rep.Complete {
		t.Errorf("%d messages read, complete %v", rep.Messages, rep.Complete)
	}
	f := findingOf(rep, CodeMetadata)
	if f == nil || !strings.Contains(fmt.Sprint(f.Examples), "run_1.db3: listed in metadata.yaml, missing") {
		t.Errorf("metadata finding %+v", f)
	}

	// Counts that disagree: both shown.
	writeText(t, filepath.Join(dir, "metadata.yaml"), metadataYAML(9, "sqlite3", "", []string{"run_0.db3"}, [][]genMsg{msgs[:len(msgs)-3]}, topics))
	rep, err = Inspect(context.Background(), []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f = findingOf(rep, CodeMetadata)
	want := fmt.Sprintf("run_0.db3: metadata.yaml says %d messages, the file holds %d", len(msgs)-3, len(msgs))
	if f == nil || f.Severity != SeverityError || !strings.Contains(fmt.Sprint(f.Examples), want) {
		t.Errorf("metadata finding %+v, want %q", f, want)
	}
}

// byCode returns finding code -> count.
func byCode(r *Report) map[rules.Code]int64 {
	out := map[rules.Code]int64{}
	for _, f := range r.Findings {
		out[f.Code] += f.Count
	}
	return out
}

func findingOf(r *Report, code rules.Code) *rules.Finding {
	for i := range r.Findings {
		if r.Findings[i].Code == code {
			return &r.Findings[i]
		}
	}
	return nil
}

// TestUsageErrors: inputs that are not one bag.
func TestUsageErrors(t *testing.T) {
	p := writeFile(t, bagBytes(t, writerModes["chunked"], []genTopic{clockTopic, rangeTopic}, simBag(0, 1)))
	link := filepath.Join(t.TempDir(), "other_0.mcap")
	if err := os.Symlink(p, link); err != nil {
		t.Fatal(err)
	}
	d1, d2 := t.TempDir(), t.TempDir()
	for name, paths := range map[string][]string{
		"same file twice":    {p, p},
		"same file by link":  {p, link},
		"two directories":    {d1, d2},
		"directory and file": {d1, p},
		"empty directory":    {d1},
	} {
		rep, err := Inspect(context.Background(), paths, Options{})
		if !errors.Is(err, ErrUsage) || rep != nil {
			t.Logf("%s: %v", name, err)
			t.Errorf("%s: got %v, want ErrUsage and no report", name, err)
		}
	}
}

// TestDirectoryWithoutMetadata: a recording cut before metadata.yaml was
// written is read in split order, and says so.
func TestDirectoryWithoutMetadata(t *testing.T) {
	msgs := simBag(100*sec, 3)
	dir := t.TempDir()
	n := len(msgs) / 11
	for i := range 11 { // run_10 sorts after run_9, not after run_1
		part := msgs[i*n : min((i+1)*n, len(msgs))]
		if i == 10 {
			part = msgs[i*n:]
		}
		writeBag(t, filepath.Join(dir, fmt.Sprintf("run_%d.mcap", i)), writerModes["noindex"], []genTopic{clockTopic, rangeTopic}, part)
	}
	rep, err := Inspect(context.Background(), []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Messages != int64(len(msgs)) || rep.Clock.BackwardJumps != 0 || byCode(rep)[CodeNoMetadata] != 1 {
		t.Errorf("%d messages, %d backward jumps, findings %v", rep.Messages, rep.Clock.BackwardJumps, codes(rep))
	}
}

// TestFileCompression: compression_mode file (.mcap.zstd, .db3.zstd),
// in a directory and given alone.
func TestFileCompression(t *testing.T) {
	msgs := hazardMsgs()
	topics := []genTopic{clockTopic, rangeTopic}
	want, err := Inspect(context.Background(), []string{writeFile(t, bagBytes(t, writerModes["chunked"], topics, msgs))}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, storage := range []string{"mcap", "sqlite3"} {
		dir := t.TempDir()
		name := "run_0.mcap"
		if storage == "sqlite3" {
			name = "run_0.db3"
			writeDB3(t, filepath.Join(dir, name), db3Options{definitions: true}, topics, msgs)
		} else {
			writeBag(t, filepath.Join(dir, name), writerModes["chunked"], topics, msgs)
		}
		zstdFile(t, filepath.Join(dir, name))
		writeText(t, filepath.Join(dir, "metadata.yaml"), metadataYAML(9, storage, "file", []string{name + ".zstd"}, [][]genMsg{msgs}, topics))
		for _, input := range []string{dir, filepath.Join(dir, name+".zstd")} {
			got, err := Inspect(context.Background(), []string{input}, Options{})
			if err != nil {
				t.Fatalf("%s: %v", input, err)
			}
			if d := cmp.Diff(comparable(want), comparable(got), cmpopts.EquateEmpty()); d != "" {
				t.Errorf("%s differs (-plain +compressed):\n%s", input, d)
			}
			if got.Files[0].FileCompression != "zstd" {
				t.Errorf("%s: file %+v", input, got.Files[0])
			}
		}
	}
}

// zstdFile replaces path by path.zstd, as rosbag2's file compression does.
func zstdFile(t testing.TB, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := zstd.NewWriter(nil)
	writeText(t, path+".zstd", string(enc.EncodeAll(data, nil)))
	enc.Close()
	os.Remove(path)
}

// TestFlippedBit: one flipped bit inside a chunk with a CRC is damage
// (its offset named, its messages counted and skipped), never a hazard;
// --no-crc reads it as it is.
func TestFlippedBit(t *testing.T) {
	msgs := simBag(100*sec, 4)
	topics := []genTopic{clockTopic, rangeTopic}
	for _, mode := range []string{"chunked", "zstd", "lz4", "noindex"} {
		t.Run(mode, func(t *testing.T) {
			wo := writerModes[mode]
			wo.IncludeCRC = true
			data := bagBytes(t, wo, topics, msgs)
			clean, err := Inspect(context.Background(), []string{writeFile(t, data)}, Options{})
			if err != nil || len(clean.Findings) != 0 {
				t.Fatalf("clean bag: %v %v", err, codes(clean))
			}
			// Flip one bit in the middle of the records of the third chunk.
			off, n := nthChunk(t, data, 2)
			bad := slices.Clone(data)
			bad[off+9+n*2/3] ^= 0x10
			rep, err := Inspect(context.Background(), []string{writeFile(t, bad)}, Options{})
			if !errors.Is(err, ErrDamaged) {
				t.Fatalf("got %v, want ErrDamaged", err)
			}
			dmg := rep.Files[0].Damaged
			if len(dmg) != 1 || dmg[0].Offset != int64(off) {
				t.Fatalf("damaged %+v, want one chunk at byte %d", dmg, off)
			}
			if dmg[0].Messages <= 0 || rep.Messages+rep.Skipped != int64(len(msgs)) {
				t.Errorf("%d messages read + %d skipped, want %d", rep.Messages, rep.Skipped, len(msgs))
			}
			for _, f := range rep.Findings {
				if f.Code != CodeDamagedChunk {
					t.Errorf("finding %s from a damaged bag: %s", f.Code, f.Message)
				}
			}
			if !strings.Contains(findingOf(rep, CodeDamagedChunk).Examples[0].Detail, fmt.Sprintf("byte %d", off)) {
				t.Errorf("damage example %+v does not name byte %d", findingOf(rep, CodeDamagedChunk).Examples[0], off)
			}
			if mode == "chunked" {
				_, err := Inspect(context.Background(), []string{writeFile(t, bad)}, Options{NoCRC: true})
				if errors.Is(err, ErrDamaged) {
					t.Errorf("--no-crc still checked the CRC")
				}
			}
		})
	}
}

// nthChunk returns the offset and content length of the n-th chunk record.
func nthChunk(t testing.TB, data []byte, n int) (int, int) {
	t.Helper()
	off := 8
	for off+9 <= len(data) {
		l := int(binary.LittleEndian.Uint64(data[off+1:]))
		if mcap.OpCode(data[off]) == mcap.OpChunk {
			if n == 0 {
				return off, l
			}
			n--
		}
		off += 9 + l
	}
	t.Fatal("not enough chunks")
	return 0, 0
}

// TestChecksDocumented: every check is complete, has its own code and is
// written out in docs/rules.md.
func TestChecksDocumented(t *testing.T) {
	rulestest.CheckDocumented(t, Checks())
	for _, c := range Checks() {
		if err := c.Validate(); err != nil {
			t.Error(err)
		}
	}
}

// TestStampsOnlyBeforeFirstClock: sim-time stamps recorded only before
// the first /clock are before_first_clock, not time_base_mismatch.
func TestStampsOnlyBeforeFirstClock(t *testing.T) {
	var msgs []genMsg
	for i := range 5 {
		msgs = append(msgs, rangeMsg(wall+int64(i)*10*ms, 100*sec+int64(i)*10*ms))
	}
	msgs = append(msgs, simBag(101*sec, 1)...)
	for i := range msgs[5:] {
		msgs[5+i].log += sec
	}
	msgs = slices.DeleteFunc(msgs, func(m genMsg) bool { return m.topic == "/range" && m.log >= wall+sec })
	rep, err := Inspect(context.Background(), []string{writeFile(t, bagBytes(t, writerModes["chunked"], []genTopic{clockTopic, rangeTopic}, msgs))}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := byCode(rep)
	if c[CodeTimeBase] != 0 || c[CodeBeforeFirstClock] != 5 {
		t.Errorf("findings %v: want before_first_clock ×5 and no time_base_mismatch", c)
	}
}

// db3File writes msgs as x_0.db3 (rosbag2's schema with message
// definitions, /clock and /range) in a temporary directory and returns its
// path and bytes, for tests that damage a copy.
func db3File(t *testing.T, msgs []genMsg) (string, []byte) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "x_0.db3")
	writeDB3(t, p, db3Options{definitions: true}, []genTopic{clockTopic, rangeTopic}, msgs)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return p, data
}

// TestSQLiteTruncated: a cut .db3 gives an error and a partial report.
func TestSQLiteTruncated(t *testing.T) {
	_, data := db3File(t, simBag(100*sec, 20))
	for _, cut := range []int{10, 100, len(data) / 2, len(data) - 4096} {
		q := filepath.Join(t.TempDir(), "cut_0.db3")
		writeText(t, q, string(data[:cut]))
		rep, err := Inspect(context.Background(), []string{q}, Options{})
		if !errors.Is(err, ErrTruncated) || rep == nil || rep.Complete {
			t.Errorf("cut at %d: %v, want ErrTruncated and a partial report", cut, err)
			continue
		}
		if cut >= len(data)/2 && rep.Messages == 0 {
			t.Errorf("cut at %d of %d: nothing read: %v", cut, len(data), err)
		}
	}
	if _, err := Inspect(context.Background(), []string{writeDB3Text(t, "not a database at all, just text")}, Options{}); !errors.Is(err, ErrNotSQLite) {
		t.Errorf("text .db3: %v", err)
	}
}

func writeDB3Text(t testing.TB, text string) string {
	p := filepath.Join(t.TempDir(), "t_0.db3")
	writeText(t, p, text)
	return p
}

// TestDecimator: the kept points are every stride-th, the stride doubling
// whenever maxPoints are held.
func TestDecimator(t *testing.T) {
	for _, n := range []int{0, 1, maxPoints, maxPoints + 1, 5*maxPoints + 7, 40000} {
		var d decimator
		for i := range n {
			d.add(Point{LogNS: int64(i)})
		}
		stride := int64(1)
		for int64(n) > stride*maxPoints {
			stride *= 2
		}
		var want []Point
		for i := int64(0); i < int64(n); i += stride {
			want = append(want, Point{LogNS: i})
		}
		if d := cmp.Diff(want, d.points(), cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%d points (-want +got):\n%s", n, d)
		}
	}
}
