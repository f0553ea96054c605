package bag

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// realBagDir holds real rosbag2 recordings from ROS 2's own test
// resources (shared/bags/rosbag2/README.md); CI has shared/ beside the clone.
const realBagDir = "../../shared/bags/rosbag2"

func realBags(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(realBagDir); err != nil {
		t.Skipf("real bags not available: %v", err)
	}
	return realBagDir
}

// TestRealBags reads every real bag, fully decodes every message of every
// schema (DecodeAll) and checks the Time fields found, with their paths.
func TestRealBags(t *testing.T) {
	dir := realBags(t)
	type field struct {
		topic, path string
		count       int64
	}
	cases := []struct {
		files    []string
		messages int64
		fields   []field
	}{
		{[]string{"talker.mcap"}, 20, []field{{"/rosout", "stamp", 10}}},
		{[]string{"cdr_test_0.mcap"}, 7, nil},
		{[]string{"topics_and_services.mcap"}, 13, []field{
			// All six service events are on /add_two_ints; /add_two_ints2 has a channel and no messages.
			{"/add_two_ints/_service_event", "info.stamp", 6}, {"/parameter_events", "stamp", 7}}},
		{[]string{"only_services.mcap"}, 12, []field{{"/add_two_ints/_service_event", "info.stamp", 12}}},
		{[]string{"test_bag_for_seek_0.mcap"}, 5, nil},
		{[]string{"multiple_files_2.mcap", "multiple_files_0.mcap", "multiple_files_1.mcap"}, 1324 + 1324 + 529, nil},
	}
	seen := map[string]bool{}
	for _, tc := range cases {
		t.Run(tc.files[0], func(t *testing.T) {
			var paths []string
			for _, f := range tc.files {
				paths = append(paths, filepath.Join(dir, f))
				seen[f] = true
			}
			rep, err := Inspect(context.Background(), paths, Options{DecodeAll: true})
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Complete || rep.Messages != tc.messages {
				t.Errorf("complete=%v messages=%d, want %d", rep.Complete, rep.Messages, tc.messages)
			}
			for _, f := range rep.Findings {
				t.Logf("%s %s %s %s x%d: %s", f.Severity, f.Code, f.Topic, f.Field, f.Count, f.Message)
				switch f.Code {
				case CodeNoClock:
				default:
					t.Errorf("unexpected finding %s on %s %s: %s %+v", f.Code, f.Topic, f.Field, f.Message, f.Examples)
				}
			}
			if rep.Clock.Present || rep.Count(SeverityInfo) != 1 {
				t.Errorf("want exactly the no_clock finding")
			}
			var got []field
			for _, tr := range rep.Topics {
				if !tr.Decoded || tr.DecodeErrs != 0 {
					t.Errorf("topic %s (%s): decoded=%v decode errors=%d", tr.Topic, tr.Type, tr.Decoded, tr.DecodeErrs)
				}
				for _, tf := range tr.TimeFields {
					got = append(got, field{tr.Topic, tf.Field, tf.Count})
					want := "log"
					if tr.Type == "rcl_interfaces/msg/Log" {
						want = "none" // system time by design: otherClocks
					}
					if tf.Reference != want || tf.Zero != 0 || tf.OtherBase != 0 {
						t.Errorf("%s %s: %+v", tr.Topic, tf.Field, tf)
					}
				}
			}
			if len(got) != len(tc.fields) {
				t.Fatalf("time fields %v, want %v", got, tc.fields)
			}
			for i := range got {
				if got[i] != tc.fields[i] {
					t.Errorf("time field %d = %v, want %v", i, got[i], tc.fields[i])
				}
			}
			if len(tc.files) == 3 && (rep.Files[0].Path != paths[1] || rep.Files[2].Path != paths[0]) {
				t.Errorf("split bag read in the wrong order: %v", rep.Files)
			}
		})
	}
	// Every real bag is covered.
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if filepath.Ext(e.Name()) == ".mcap" && !seen[e.Name()] {
			t.Errorf("real bag %s is not in the test", e.Name())
		}
	}
}

// TestRealTalkerStamp checks a value against the interop notes (1.4):
// /rosout in talker.mcap decodes to stamp 1585866235.112130688, which is
// the system clock's (otherClocks): not compared with any reference.
func TestRealTalkerStamp(t *testing.T) {
	dir := realBags(t)
	rep, err := Inspect(context.Background(), []string{filepath.Join(dir, "talker.mcap")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range rep.Topics {
		if tr.Topic == "/rosout" {
			if tf := tr.TimeFields[0]; tf.MinNS != 1585866235112130688 || tf.Reference != "none" || tf.OtherClock != "system" {
				t.Errorf("/rosout stamp min %d, reference %q, clock %q; want 1585866235112130688, none, system", tf.MinNS, tf.Reference, tf.OtherClock)
			}
			return
		}
	}
	t.Error("no /rosout topic")
}
