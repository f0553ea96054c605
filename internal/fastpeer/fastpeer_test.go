package fastpeer

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// field is one field of a ROS type description (type_description_interfaces
// Field), as rosidl_generator_type_description serializes it.
type field struct {
	name           string
	typeID         int // FieldType constant
	capacity       int // array size
	stringCapacity int // bounded string size
	nested         string
}

// FieldType ids used below (type_description_interfaces/msg/FieldType).
const (
	nestedType     = 1
	uint8Type      = 3
	int32Type      = 6
	uint32Type     = 7
	int64Type      = 8
	doubleType     = 11
	boolType       = 15
	byteType       = 16
	stringType     = 17
	boundedString  = 21
	uint8Array     = 51 // ROS "char[16]" is uint8 in IDL
	doubleArray    = 59
	nestedSequence = 145
	int64Sequence  = 152
	doubleSequence = 155
	boolSequence   = 159
	byteSequence   = 160 // ROS "byte" is octet
	stringSequence = 161
)

// descriptions are the Jazzy definitions of every type the peer uses and
// of the types they reference (default values play no part in the hash).
var descriptions = map[string][]field{
	"builtin_interfaces/msg/Time": {{"sec", int32Type, 0, 0, ""}, {"nanosec", uint32Type, 0, 0, ""}},
	"std_msgs/msg/Header": {{"stamp", nestedType, 0, 0, "builtin_interfaces/msg/Time"},
		{"frame_id", stringType, 0, 0, ""}},
	"std_msgs/msg/String":     {{"data", stringType, 0, 0, ""}},
	"rosgraph_msgs/msg/Clock": {{"clock", nestedType, 0, 0, "builtin_interfaces/msg/Time"}},
	"geometry_msgs/msg/Quaternion": {{"x", doubleType, 0, 0, ""}, {"y", doubleType, 0, 0, ""},
		{"z", doubleType, 0, 0, ""}, {"w", doubleType, 0, 0, ""}},
	"geometry_msgs/msg/Vector3": {{"x", doubleType, 0, 0, ""}, {"y", doubleType, 0, 0, ""}, {"z", doubleType, 0, 0, ""}},
	"sensor_msgs/msg/Imu": {
		{"header", nestedType, 0, 0, "std_msgs/msg/Header"},
		{"orientation", nestedType, 0, 0, "geometry_msgs/msg/Quaternion"},
		{"orientation_covariance", doubleArray, 9, 0, ""},
		{"angular_velocity", nestedType, 0, 0, "geometry_msgs/msg/Vector3"},
		{"angular_velocity_covariance", doubleArray, 9, 0, ""},
		{"linear_acceleration", nestedType, 0, 0, "geometry_msgs/msg/Vector3"},
		{"linear_acceleration_covariance", doubleArray, 9, 0, ""},
	},
	"rmw_dds_common/msg/Gid": {{"data", uint8Array, 16, 0, ""}},
	"rcl_interfaces/msg/Log": {{"stamp", nestedType, 0, 0, "builtin_interfaces/msg/Time"}, {"level", uint8Type, 0, 0, ""},
		{"name", stringType, 0, 0, ""}, {"msg", stringType, 0, 0, ""}, {"file", stringType, 0, 0, ""},
		{"function", stringType, 0, 0, ""}, {"line", uint32Type, 0, 0, ""}},
	"rcl_interfaces/msg/ParameterEvent": {{"stamp", nestedType, 0, 0, "builtin_interfaces/msg/Time"},
		{"node", stringType, 0, 0, ""}, {"new_parameters", nestedSequence, 0, 0, "rcl_interfaces/msg/Parameter"},
		{"changed_parameters", nestedSequence, 0, 0, "rcl_interfaces/msg/Parameter"},
		{"deleted_parameters", nestedSequence, 0, 0, "rcl_interfaces/msg/Parameter"}},
	"rcl_interfaces/msg/Parameter": {{"name", stringType, 0, 0, ""},
		{"value", nestedType, 0, 0, "rcl_interfaces/msg/ParameterValue"}},
	"rcl_interfaces/msg/ParameterValue": {{"type", uint8Type, 0, 0, ""}, {"bool_value", boolType, 0, 0, ""},
		{"integer_value", int64Type, 0, 0, ""}, {"double_value", doubleType, 0, 0, ""},
		{"string_value", stringType, 0, 0, ""}, {"byte_array_value", byteSequence, 0, 0, ""},
		{"bool_array_value", boolSequence, 0, 0, ""}, {"integer_array_value", int64Sequence, 0, 0, ""},
		{"double_array_value", doubleSequence, 0, 0, ""}, {"string_array_value", stringSequence, 0, 0, ""}},
	"rmw_dds_common/msg/NodeEntitiesInfo": {
		{"node_namespace", boundedString, 0, 256, ""},
		{"node_name", boundedString, 0, 256, ""},
		{"reader_gid_seq", nestedSequence, 0, 0, "rmw_dds_common/msg/Gid"},
		{"writer_gid_seq", nestedSequence, 0, 0, "rmw_dds_common/msg/Gid"},
	},
	"rmw_dds_common/msg/ParticipantEntitiesInfo": {
		{"gid", nestedType, 0, 0, "rmw_dds_common/msg/Gid"},
		{"node_entities_info_seq", nestedSequence, 0, 0, "rmw_dds_common/msg/NodeEntitiesInfo"},
	},
	"geometry_msgs/msg/Transform": {{"translation", nestedType, 0, 0, "geometry_msgs/msg/Vector3"},
		{"rotation", nestedType, 0, 0, "geometry_msgs/msg/Quaternion"}},
	"geometry_msgs/msg/TransformStamped": {{"header", nestedType, 0, 0, "std_msgs/msg/Header"},
		{"child_frame_id", stringType, 0, 0, ""}, {"transform", nestedType, 0, 0, "geometry_msgs/msg/Transform"}},
	"tf2_msgs/msg/TFMessage":       {{"transforms", nestedSequence, 0, 0, "geometry_msgs/msg/TransformStamped"}},
	"diagnostic_msgs/msg/KeyValue": {{"key", stringType, 0, 0, ""}, {"value", stringType, 0, 0, ""}},
	"diagnostic_msgs/msg/DiagnosticStatus": {{"level", byteType, 0, 0, ""}, {"name", stringType, 0, 0, ""},
		{"message", stringType, 0, 0, ""}, {"hardware_id", stringType, 0, 0, ""},
		{"values", nestedSequence, 0, 0, "diagnostic_msgs/msg/KeyValue"}},
	"diagnostic_msgs/msg/DiagnosticArray": {{"header", nestedType, 0, 0, "std_msgs/msg/Header"},
		{"status", nestedSequence, 0, 0, "diagnostic_msgs/msg/DiagnosticStatus"}},
}

func individual(name string) string {
	var fs []string
	for _, f := range descriptions[name] {
		fs = append(fs, fmt.Sprintf(`{"name": %q, "type": {"type_id": %d, "capacity": %d, "string_capacity": %d, "nested_type_name": %q}}`,
			f.name, f.typeID, f.capacity, f.stringCapacity, f.nested))
	}
	return fmt.Sprintf(`{"type_name": %q, "fields": [%s]}`, name, strings.Join(fs, ", "))
}

// typeHash computes the RIHS01 hash of a type as
// rosidl_generator_type_description's calculate_type_hash does: SHA-256
// of the JSON of the type and its sorted referenced types, default values
// removed, separators ", " and ": ".
func typeHash(name string) string {
	refs := map[string]bool{}
	queue := []string{name}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, f := range descriptions[n] {
			if f.nested != "" && !refs[f.nested] {
				refs[f.nested] = true
				queue = append(queue, f.nested)
			}
		}
	}
	var sorted []string
	for r := range refs {
		sorted = append(sorted, r)
	}
	slices.Sort(sorted)
	var rs []string
	for _, r := range sorted {
		rs = append(rs, individual(r))
	}
	doc := fmt.Sprintf(`{"type_description": %s, "referenced_type_descriptions": [%s]}`, individual(name), strings.Join(rs, ", "))
	return fmt.Sprintf("RIHS01_%x", sha256.Sum256([]byte(doc)))
}

// TestTypeHashes recomputes the hashes the peer sends in USER_DATA.
// The algorithm (rosidl_generator_type_description's __init__.py) is
// first checked against hashes captured from real Jazzy graphs.
func TestTypeHashes(t *testing.T) {
	known := map[string]string{
		"builtin_interfaces/msg/Time": "RIHS01_b106235e25a4c5ed35098aa0a61a3ee9c9b18d197f398b0e4206cea9acf9c197",
		"std_msgs/msg/Header":         "RIHS01_f49fb3ae2cf070f793645ff749683ac6b06203e41c891e17701b1cb597ce6a01",
		"std_msgs/msg/String":         "RIHS01_df668c740482bbd48fb39d76a70dfd4bd59db1288021743503259e948f6b1a18",
		// As recorded in rosbag2's own test bag topics_and_services.mcap.
		"rcl_interfaces/msg/Log": "RIHS01_e28ce254ca8abc06abf92773b74602cdbf116ed34fbaf294fb9f81da9f318eac",
		// As ros2 topic info -v prints it for /tf on Jazzy, and a Jazzy
		// bag's metadata.yaml records it (third-party captures).
		"tf2_msgs/msg/TFMessage": "RIHS01_e369d0f05a23ae52508854b66f6aa0437f3449d652e8cbf22d5abe85d020f087",
		// As third-party ROS 2 clients carry it for /diagnostics.
		"diagnostic_msgs/msg/DiagnosticArray": "RIHS01_5a8a36efb05fb25070fa0fb3810290c0e6cd4862b54a8fb975a1ee8dc55a333e",
	}
	for name, want := range known {
		if got := typeHash(name); got != want {
			t.Errorf("typeHash(%s) = %s, want %s", name, got, want)
		}
	}
	// Every RosType in peer.cpp: {"ros/type", "dds::type", "RIHS01_..."}.
	re := regexp.MustCompile(`\{"([a-z_]+/msg/[A-Za-z]+)",\s*"([a-z_:A-Z]+)",\s*"(RIHS01_[0-9a-f]{64})"\}`)
	found := re.FindAllStringSubmatch(string(source), -1)
	if len(found) < 3 {
		t.Fatalf("found %d RosType constants in peer.cpp, want at least 3", len(found))
	}
	for _, m := range found {
		ros, ddsName, hash := m[1], m[2], m[3]
		if _, ok := descriptions[ros]; !ok {
			t.Errorf("peer.cpp uses %s: add its description to this test", ros)
			continue
		}
		if got := typeHash(ros); got != hash {
			t.Errorf("peer.cpp: %s has hash %s, the type description gives %s", ros, hash, got)
		}
		parts := strings.Split(ros, "/")
		if want := parts[0] + "::" + parts[1] + "::dds_::" + parts[2] + "_"; ddsName != want {
			t.Errorf("peer.cpp: %s has DDS type name %s, want %s", ros, ddsName, want)
		}
	}
}

func TestArgs(t *testing.T) {
	got := Args(130, WithDuration(1500*time.Millisecond), WithXTypes(), WithNodes(
		Node{Name: "/sim/gazebo", Clock: &ClockPublisher{Start: 1700000000*time.Second + 5, Step: 10 * time.Millisecond,
			Rate: 100, Count: 3, QoS: QoS{Reliability: "best_effort"}}},
		Node{Name: "/robot/imu", UseSimTime: true, ClockReader: QoS{Reliability: "reliable"}, RclcppEndpoints: true,
			Imu: &ImuPublisher{Topic: "imu", Stamp: StampWall, Offset: -2 * time.Second, Rate: 12.5, FrameID: "base"}},
	))
	want := "--domain 130 --xtypes --duration 1.500000000 " +
		"--node /sim/gazebo --pub-clock --clock-start 1700000000.000000005 --clock-step 0.010000000 --clock-rate 100 " +
		"--clock-count 3 --clock-reliability best_effort " +
		"--node /robot/imu --rclcpp-endpoints --use-sim-time --clock-reader-reliability reliable " +
		"--pub-imu imu --stamp wall --stamp-offset -2.000000000 --imu-rate 12.5 --frame-id base"
	if strings.Join(got, " ") != want {
		t.Errorf("Args:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
}

func TestParseEvent(t *testing.T) {
	e := ParseEvent("clock node=/robot/imu sec=12 nanosec=500 publisher=0102")
	if e.Kind != "clock" || e.Get("node") != "/robot/imu" || e.Get("publisher") != "0102" {
		t.Errorf("ParseEvent: %+v", e)
	}
	if ns, err := e.Time(); err != nil || ns != 12_000_000_500 {
		t.Errorf("Time() = %d, %v; want 12000000500", ns, err)
	}
	if _, err := ParseEvent("clock sec=x").Time(); err == nil {
		t.Error("Time() of sec=x: no error")
	}
	if e := ParseEvent(""); e.Kind != "" || len(e.Fields) != 0 {
		t.Errorf("ParseEvent(\"\") = %+v", e)
	}
}

func TestDiscoveryPort(t *testing.T) {
	// Domain 0, index 0 is the well-known 7410; each index adds 2, each
	// domain 250.
	for _, c := range []struct{ domain, index, want int }{{0, 0, 7410}, {0, 1, 7412}, {130, 0, 39910}, {232, 31, 65472}} {
		if got := DiscoveryPort(c.domain, c.index); got != c.want {
			t.Errorf("DiscoveryPort(%d, %d) = %d, want %d", c.domain, c.index, got, c.want)
		}
	}
}

// FuzzParseEvent: any line parses without panic, the kind is the first
// word and every later word is a field (or an empty-valued key).
func FuzzParseEvent(f *testing.F) {
	for _, s := range []string{"clock node=/a sec=1 nanosec=2 publisher=00", "ready", "", " x=", "a b=c=d",
		"remote kind=writer user_data=typehash=RIHS01_00;"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		e := ParseEvent(line)
		words := strings.Fields(line)
		if len(words) == 0 {
			if e.Kind != "" || len(e.Fields) != 0 {
				t.Fatalf("ParseEvent(%q) = %+v", line, e)
			}
			return
		}
		if e.Kind != words[0] || e.Line != line {
			t.Fatalf("ParseEvent(%q): kind %q", line, e.Kind)
		}
		for _, w := range words[1:] {
			k, _, _ := strings.Cut(w, "=")
			if _, ok := e.Fields[k]; !ok {
				t.Fatalf("ParseEvent(%q): field %q missing", line, k)
			}
		}
		e.Time() //nolint:errcheck // must not panic
	})
}

// TestPeerUsageErrors: bad command lines stop the peer before it joins any
// domain, with exit status 2 and a message naming the problem.
func TestPeerUsageErrors(t *testing.T) {
	bin := Build(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--bogus"}, "unknown option --bogus"},
		{[]string{"--domain", "233"}, "domain must be 0 to 232"},
		{[]string{"--node", "/a/"}, "invalid node name /a/"},
		{[]string{"--node", "/r/n", "--pub-imu", "~/../x", "--stamp", "wall"}, "invalid topic name ~/../x (resolved to /r/n/../x)"},
		{[]string{"--node", "/n", "--pub-imu", "imu"}, "--stamp sim needs --use-sim-time"},
		{[]string{"--node", "/n", "--pub-clock", "--clock-start", "1.0000000001"}, "more than 9 decimals"},
		{[]string{"--node", "/n", "--use-sim-time", "--clock-reader-reliability", "sometimes"}, "reliability must be reliable or best_effort"},
		{[]string{"--clock-rate"}, "missing value after --clock-rate"},
		{[]string{"--node", "/n", "--pub-tf", "odom"}, "--pub-tf wants PARENT:CHILD, not odom"},
		{[]string{"--node", "/n", "--pub-tf", "a:b", "--tf-stamp", "freerun"}, "--tf-stamp freerun needs --use-sim-time"},
		{[]string{"--node", "/n", "--use-sim-time", "--pub-tf", "a:b", "--tf-stamp", "later"}, "a stamp must be sim, wall, zero or freerun"},
	} {
		cmd := exec.Command(bin, c.args...)
		cmd.Dir = t.TempDir()
		cmd.Env = cleanEnv(139)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 {
			t.Errorf("fastpeer %v: %v, want exit status 2\n%s", c.args, err, out)
		}
		if !strings.Contains(string(out), c.want) {
			t.Errorf("fastpeer %v printed %q, want it to say %q", c.args, out, c.want)
		}
		if strings.Contains(string(out), "config ") {
			t.Errorf("fastpeer %v created a participant before refusing its arguments", c.args)
		}
	}
}
