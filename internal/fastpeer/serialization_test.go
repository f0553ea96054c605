package fastpeer

import (
	"embed"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

//go:embed cpp/check/check.cpp cpp/check/ros_types.idl
var checkFiles embed.FS

// TestSerializationMatchesFastddsgen compares the peer's hand-written CDR
// of every message it sends with the serialization Fast DDS's own code
// generator produces for the same types (cpp/check/ros_types.idl, the IDL
// rosidl_generator_dds_idl writes), over edge values: negative and
// largest times, every frame_id length modulo 8, zero to three nodes with
// and without GIDs, both booleans. It needs fastddsgen (Debian package
// fastddsgen) besides what Build needs.
func TestSerializationMatchesFastddsgen(t *testing.T) {
	Build(t) // skips without g++ or the Fast DDS headers
	gen, err := exec.LookPath("fastddsgen")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and fastddsgen is missing: %v", err)
		}
		t.Skipf("fastddsgen is not installed (%s): %v", installHint, err)
	}
	dir := t.TempDir()
	files := map[string][]byte{"peer.cpp": source}
	for _, name := range []string{"check.cpp", "ros_types.idl"} {
		b, err := checkFiles.ReadFile("cpp/check/" + name)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = b
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run(gen, "-replace", "-d", dir, "ros_types.idl")
	run("g++", "-std=c++17", "-O0", "-I", dir, "-o", "check", "check.cpp", "ros_types.cxx", "ros_typesPubSubTypes.cxx",
		"-lfastrtps", "-lfastcdr")
	cmd := exec.Command(filepath.Join(dir, "check"))
	out, err := cmd.Output()
	counts := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			t.Errorf("check printed %q", l)
			continue
		}
		if f[0] != "ok" {
			t.Errorf("%s", l)
		}
		counts[f[1]]++
	}
	if err != nil {
		t.Errorf("check: %v", err)
	}
	for _, typ := range []string{"rosgraph_msgs/msg/Clock", "sensor_msgs/msg/Imu", "rmw_dds_common/msg/ParticipantEntitiesInfo",
		"rcl_interfaces/msg/ParameterEvent", "rcl_interfaces/msg/Log", "tf2_msgs/msg/TFMessage"} {
		if counts[typ] == 0 {
			t.Errorf("no %s compared", typ)
		}
	}
}
