package bag

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// realDirs holds real rosbag2 bag directories (sqlite3 and MCAP) from
// ROS 2's own test resources (shared/bags/rosbag2-dirs/README.md); CI has
// shared/ beside the clone.
const realDirs = "../../shared/bags/rosbag2-dirs"

// TestRealBagDirectories reads every real bag directory and checks counts,
// times and topics against its metadata.yaml, as rosbag2 wrote it; each
// storage file given alone reads the same.
func TestRealBagDirectories(t *testing.T) {
	realDirs := realDirs
	if d := os.Getenv("SIMCLOCK_SHARED"); d != "" { // shared/ elsewhere than beside the clone
		realDirs = filepath.Join(d, "bags", "rosbag2-dirs")
	}
	if _, err := os.Stat(realDirs); err != nil {
		t.Skipf("real bag directories not available: %v", err)
	}
	ents, err := os.ReadDir(realDirs)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		n++
		dir := filepath.Join(realDirs, e.Name())
		t.Run(e.Name(), func(t *testing.T) { checkBagDir(t, dir) })
	}
	if n < 6 {
		t.Errorf("%d real bag directories, want the 6 of the README", n)
	}
}

// checkBagDir reads a bag directory and checks what it holds against its
// metadata.yaml, exactly: counts, times, topics and types, each file's
// count, no finding but no_clock (and unknown_schema for the test_msgs
// types of sqlite3 bags, which hold no definitions); each storage file
// given alone reads the same. It returns the parsed metadata.
func checkBagDir(t *testing.T, dir string) *Metadata {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "metadata.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseMetadata(data)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Inspect(context.Background(), []string{dir}, Options{DecodeAll: true})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Complete || rep.Messages != m.MessageCount || rep.Bag == nil || rep.Bag.Metadata == nil {
		t.Errorf("complete=%v messages=%d, metadata.yaml says %d", rep.Complete, rep.Messages, m.MessageCount)
	}
	if m.MessageCount > 0 && (rep.StartLogNS != m.StartingTimeNS || rep.EndLogNS-rep.StartLogNS != m.DurationNS) {
		t.Errorf("log times %d + %d, metadata.yaml says %d + %d", rep.StartLogNS, rep.EndLogNS-rep.StartLogNS, m.StartingTimeNS, m.DurationNS)
	}
	byTopic := map[string]TopicReport{}
	for _, tr := range rep.Topics {
		byTopic[tr.Topic] = tr
	}
	for _, tm := range m.Topics {
		tr, ok := byTopic[tm.Name]
		if !ok || tr.Messages != tm.MessageCount || tr.Type != tm.Type {
			t.Errorf("topic %s: %+v, metadata.yaml says %s ×%d", tm.Name, tr, tm.Type, tm.MessageCount)
		}
		if len(tm.QoS) > 0 && tr.Publishers != len(tm.QoS) {
			t.Errorf("topic %s: %d publishers, metadata.yaml has %d offered QoS profiles", tm.Name, tr.Publishers, len(tm.QoS))
		}
	}
	if len(rep.Topics) != len(m.Topics) {
		t.Errorf("%d topics, metadata.yaml lists %d", len(rep.Topics), len(m.Topics))
	}
	for _, f := range rep.Findings {
		t.Logf("%s %s %s ×%d: %s", f.Severity, f.Code, f.Topic, f.Count, f.Message)
		switch {
		case f.Code == CodeNoClock:
		case f.Code == CodeUnknownSchema && m.StorageIdentifier == "sqlite3": // test_msgs types are not shipped
		default:
			t.Errorf("unexpected finding %s: %s", f.Code, f.Message)
		}
	}
	if len(rep.Files) != len(m.RelativeFilePaths) && !(m.MessageCount == 0 && len(rep.Files) == 1) {
		t.Errorf("%d files read, metadata.yaml lists %d", len(rep.Files), len(m.RelativeFilePaths))
	}
	perFile := map[string]FileMetadata{}
	for _, f := range m.Files {
		perFile[filepath.Base(f.Path)] = f
	}
	for _, fi := range rep.Files {
		alone, err := Inspect(context.Background(), []string{fi.Path}, Options{})
		if err != nil || alone.Messages != fi.Messages {
			t.Errorf("%s alone: %v, %d messages, want %d", fi.Path, err, alone.Messages, fi.Messages)
			continue
		}
		if f, ok := perFile[filepath.Base(fi.Path)]; ok {
			if alone.Messages != f.MessageCount || f.MessageCount > 0 &&
				(alone.StartLogNS != f.StartingTimeNS || alone.EndLogNS-alone.StartLogNS != f.DurationNS) {
				t.Errorf("%s: %d messages from %d for %d ns, metadata.yaml's files: says %d from %d for %d ns", fi.Path,
					alone.Messages, alone.StartLogNS, alone.EndLogNS-alone.StartLogNS, f.MessageCount, f.StartingTimeNS, f.DurationNS)
			}
		}
	}
	if len(m.Files) > 0 && len(m.Files) != len(rep.Files) {
		t.Errorf("metadata.yaml's files: lists %d files, %d were read", len(m.Files), len(rep.Files))
	}
	return m
}
