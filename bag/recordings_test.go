package bag

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestRecordingsGrouped: a folder without metadata.yaml holding two
// unrelated recordings (and a lone file) is three recordings, each read on
// its own, in split order (_2 before _10): no /clock jump between them.
// Inspect, which reads one bag, refuses it; so does a recording of two
// storages.
func TestRecordingsGrouped(t *testing.T) {
	topics := []genTopic{clockTopic, rangeTopic}
	dir := t.TempDir()
	// "sim" at /clock 100 s, 11 files; "late" at /clock 5000 s, 2 files:
	// read as one bag, /clock went back from 5000 to 100 s.
	simMsgs := simBag(100*sec, 2)
	per := (len(simMsgs) + 10) / 11
	for i := range 11 {
		part := simMsgs[min(i*per, len(simMsgs)):min((i+1)*per, len(simMsgs))]
		writeBag(t, filepath.Join(dir, "sim_"+itoa(i)+".mcap"), writerModes["chunked"], topics, part)
	}
	late := simBag(5000*sec, 1)
	writeDB3(t, filepath.Join(dir, "late_0.db3"), db3Options{definitions: true}, topics, late[:len(late)/2])
	writeDB3(t, filepath.Join(dir, "late_1.db3"), db3Options{definitions: true}, topics, late[len(late)/2:])
	writeBag(t, filepath.Join(dir, "lone.mcap"), writerModes["chunked"], topics, simBag(7*sec, 1))

	recs, err := InspectAll(context.Background(), []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range recs {
		names = append(names, r.Name)
		if r.Err != nil || !r.Report.Complete {
			t.Errorf("%s: %v", r.Name, r.Err)
		}
		if f := findingOf(r.Report, CodeClockBackward); f != nil {
			t.Errorf("%s: %s", r.Name, f.Message)
		}
	}
	if !slices.Equal(names, []string{"late", "lone", "sim"}) {
		t.Fatalf("recordings %v", names)
	}
	sim := recs[2]
	if len(sim.Files) != 11 || !strings.HasSuffix(sim.Files[2], "sim_2.mcap") || !strings.HasSuffix(sim.Files[10], "sim_10.mcap") {
		t.Errorf("split order %v", sim.Files)
	}
	if sim.Report.Messages != int64(len(simMsgs)) || recs[0].Report.Messages != int64(len(late)) {
		t.Errorf("messages %d and %d", sim.Report.Messages, recs[0].Report.Messages)
	}
	// The same files given one by one group the same way.
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	byFiles, err := InspectAll(context.Background(), files, Options{})
	if err != nil || len(byFiles) != 3 || byFiles[2].Report.Messages != sim.Report.Messages {
		t.Errorf("files one by one: %v, %d recordings", err, len(byFiles))
	}
	if _, err := Inspect(context.Background(), []string{dir}, Options{}); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "3 recordings (late, lone, sim)") {
		t.Errorf("Inspect of several recordings: %v", err)
	}
	if _, _, err := Span(context.Background(), []string{dir}); !errors.Is(err, ErrUsage) {
		t.Errorf("Span of several recordings: %v", err)
	}
	// A recording of two storages.
	if err := os.Rename(filepath.Join(dir, "late_1.db3"), filepath.Join(dir, "sim_11.db3")); err != nil {
		t.Fatal(err)
	}
	if _, err := InspectAll(context.Background(), []string{dir}, Options{}); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "recording sim mixes mcap and sqlite3") {
		t.Errorf("mixed storages: %v", err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// FuzzRecordingOf: any file name belongs to exactly one recording, with a
// name no longer than the file's, and grouping keeps every file once.
func FuzzRecordingOf(f *testing.F) {
	for _, s := range []string{"rosbag2_2024_05_01-10_00_00_0.mcap", "a_10.db3.zstd", "a_b_1.MCAP", "x.mcap", "_0.mcap",
		"a_99999999999999999999.mcap", "a_-1.mcap", "a_0", ".db3", "a_0.mcap.zstd.zstd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, base string) {
		if strings.ContainsAny(base, "/\x00") || base == "" {
			return
		}
		name, idx := recordingOf(base)
		if len(name) > len(base) || idx < -1 || name == "" {
			t.Fatalf("recordingOf(%q) = %q, %d", base, name, idx)
		}
		paths := []string{base, "other_0.mcap", base + "_0.mcap"}
		groups, err := groupRecordings(paths)
		if err != nil {
			return // two storages in one recording
		}
		n := 0
		for _, g := range groups {
			n += len(g.paths)
			if displayName(g.name) == "" && g.name != "" && !strings.HasPrefix(strings.ToLower(g.name), ".") {
				t.Fatalf("display name of %q is empty", g.name)
			}
		}
		if n != len(paths) {
			t.Fatalf("%d files grouped, want %d", n, len(paths))
		}
	})
}
