package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// runInfo runs simclock bag info with args, in UTC.
func runInfo(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	r := newTestRun(t)
	r.setenv("TZ", "UTC")
	return r.run(append([]string{"bag", "info"}, args...)...)
}

// bag info prints ros2 bag info's layout (rosbag2_py's
// format_bag_metadata at Jazzy, read from its source): here for a Jazzy
// bag directory with service events, from its metadata.yaml alone.
func TestBagInfoLayout(t *testing.T) {
	out, errOut, code := runInfo(t, "../../bag/testdata/rosbag2/jazzy_v9")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	want := `
Files:             jazzy_v9_0.mcap
Bag size:          17.2 KiB
Storage id:        mcap
ROS Distro:        jazzy
Duration:          0.070653944s
Start:             Nov  7 2023 08:30:36.270074454 (1699345836.270074454)
End:               Nov  7 2023 08:30:36.340728398 (1699345836.340728398)
Messages:          2
Topic information: Topic: /events/write_split | Type: rosbag2_interfaces/msg/WriteSplitEvent | Count: 0 | Serialization Format: cdr
                   Topic: /test_topic1 | Type: test_msgs/msg/Strings | Count: 1 | Serialization Format: cdr
                   Topic: /test_topic2 | Type: test_msgs/msg/Strings | Count: 1 | Serialization Format: cdr
Service:           2
Service information: Service: /test_service1 | Type: test_msgs/srv/BasicTypes | Event Count: 4 | Serialization Format: cdr
                     Service: /test_service2 | Type: test_msgs/srv/BasicTypes | Event Count: 4 | Serialization Format: cdr

`
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
	// A split sqlite3 bag's files, given one by one, are read: the same
	// figures as its metadata.yaml says (size aside: the files alone).
	dir := "../../bag/testdata/rosbag2/jazzy_v9_split/"
	fromMeta, _, _ := runInfo(t, "--format", "json", dir)
	fromFiles, errOut, code := runInfo(t, "--format", "json", dir+"jazzy_v9_split_0.db3", dir+"jazzy_v9_split_1.db3", dir+"jazzy_v9_split_2.db3")
	if code != ExitOK {
		t.Fatalf("files: exit %d, stderr %q", code, errOut)
	}
	type line struct {
		Kind              string
		Files             []string
		StartNS           int64 `json:"start_ns"`
		DurationNS        int64 `json:"duration_ns"`
		Messages          int64
		Topics            []infoTopic
		StorageIdentifier string `json:"storage_identifier"`
		ROSDistro         string `json:"ros_distro"`
	}
	parse := func(s string) line {
		lines := strings.Split(strings.TrimSpace(s), "\n")
		var l line
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &l); err != nil {
			t.Fatal(err)
		}
		return l
	}
	a, b := parse(fromMeta), parse(fromFiles)
	a.ROSDistro, b.ROSDistro = "", "" // the schema table of these Humble files says humble
	for i := range a.Topics {
		a.Topics[i].Publishers = 0
	}
	for i := range b.Topics {
		b.Topics[i].Publishers = 0
	}
	if ja, jb := mustJSON(t, a), mustJSON(t, b); ja != jb || a.Messages != 52 {
		t.Errorf("from metadata.yaml %s\nfrom the files  %s", ja, jb)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Sizes and times as rosbag2 prints them.
func TestBagInfoFormats(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 18432: "18.0 KiB", 1536 << 10: "1.5 MiB", 5 << 40: "5.0 TiB", 3 << 50: "3072.0 TiB"} {
		if got := infoSize(n); got != want {
			t.Errorf("infoSize(%d) = %q, want %q", n, got, want)
		}
	}
	if got := infoSeconds(2_999_745_724); got != "2.999745724" {
		t.Errorf("infoSeconds: %q", got)
	}
}

// --topics narrows bag inspect to some topics: their lines and findings;
// findings on other topics are counted on stderr, not silently dropped.
func TestBagInspectTopics(t *testing.T) {
	out, errOut, code := runSimclock(t, "bag", "inspect", "--format", "json", "--topics", "/range,/nope", hazardsBag)
	if code != ExitFailure {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var v struct{ Kind, Topic string }
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatal(err)
		}
		if (v.Kind == "topic" || v.Kind == "finding") && v.Topic != "/range" && v.Topic != "" {
			t.Errorf("line of another topic: %s", l)
		}
	}
	if !strings.Contains(out, `"topic":"/range"`) || !strings.Contains(errOut, "--topics /nope: the bag has no such topic") ||
		!strings.Contains(errOut, "2 findings on other topics not shown") {
		t.Errorf("stderr %q, stdout:\n%s", errOut, out)
	}
	// Only /clock, whose findings are errors here: exit 1; only a topic
	// without any: exit 0.
	if _, _, code := runSimclock(t, "bag", "inspect", "--topics", "/clock", hazardsBag); code != ExitFailure {
		t.Errorf("--topics /clock: exit %d", code)
	}
}
