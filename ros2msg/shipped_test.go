package ros2msg_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/simclock/simclock/ros2msg"
)

// Every shipped definition parses on its own, dependencies included.
func TestEveryShippedTypeParses(t *testing.T) {
	types := ros2msg.ShippedTypes()
	if len(types) < 120 {
		t.Fatalf("%d shipped types; the common interface packages have more than 120", len(types))
	}
	for _, name := range types {
		if _, err := ros2msg.ParseShipped(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// The types a doctor or a bag report samples most carry their stamps where
// the definitions put them.
func TestShippedStampedTypes(t *testing.T) {
	for _, tc := range []struct {
		name     string
		hasTime  bool
		withText string
	}{
		{"sensor_msgs/msg/Imu", true, "std_msgs/Header header"},
		{"sensor_msgs/msg/LaserScan", true, "float32 angle_min"},
		{"nav_msgs/msg/Odometry", true, "child_frame_id"},
		{"tf2_msgs/msg/TFMessage", true, "geometry_msgs/TransformStamped[] transforms"},
		{"rosgraph_msgs/msg/Clock", true, "builtin_interfaces/Time clock"},
		{"std_msgs/msg/String", false, "string data"},
		{"diagnostic_msgs/msg/DiagnosticArray", true, "DiagnosticStatus[] status"},
		{"visualization_msgs/msg/MarkerArray", true, "Marker[] markers"},
	} {
		def, ok := ros2msg.ShippedDefinition(tc.name)
		if !ok || !strings.Contains(def, tc.withText) {
			t.Errorf("%s: shipped %v, definition lacks %q", tc.name, ok, tc.withText)
			continue
		}
		s, err := ros2msg.ParseShipped(tc.name)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if s.Root.HasTime() != tc.hasTime {
			t.Errorf("%s: HasTime = %v, want %v", tc.name, s.Root.HasTime(), tc.hasTime)
		}
	}
}

// A type that is not shipped is unknown, never guessed.
func TestParseShippedUnknown(t *testing.T) {
	_, err := ros2msg.ParseShipped("my_robot_msgs/msg/Thing")
	if !errors.Is(err, ros2msg.ErrUnknownType) {
		t.Fatalf("err = %v, want ErrUnknownType", err)
	}
}

// A recorded schema that names a common type without defining it takes the
// shipped definition; a recorded definition still wins over the shipped one.
func TestShippedDefinitionsFillGaps(t *testing.T) {
	s, err := ros2msg.Parse("my_msgs/msg/Tagged", []byte("sensor_msgs/Imu imu\nuint8 tag\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Root.HasTime() {
		t.Fatal("the Imu's header stamp was not found through the shipped definition")
	}
	own, err := ros2msg.Parse("my_msgs/msg/Tagged", []byte("sensor_msgs/Imu imu\n=====\nMSG: sensor_msgs/Imu\nuint8 x\n"))
	if err != nil {
		t.Fatal(err)
	}
	if own.Root.HasTime() {
		t.Fatal("the recorded sensor_msgs/Imu (no stamp) lost to the shipped one")
	}
}
