package ros2msg_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/simclock/simclock/cdr"
	"github.com/simclock/simclock/ros2msg"
	"github.com/simclock/simclock/timemsg"
)

// exampleWriter serializes an example message of a schema type: two
// elements in every sequence, "ab" in every string, zero for every other
// primitive, and a distinct builtin_interfaces/Time at every Time it meets,
// remembering each Time's byte offset as an rmw would lay it out.
type exampleWriter struct {
	w       *cdr.Writer
	written []timemsg.Time
	offsets []int
}

func (e *exampleWriter) message(t *ros2msg.Type) {
	if t.Name == ros2msg.TimeType {
		e.w.Align(4)
		st := timemsg.Time{Sec: int32(1_700_000_000 + len(e.written)), Nanosec: uint32(1000*len(e.written) + 7)}
		e.offsets = append(e.offsets, len(e.w.Bytes()))
		e.written = append(e.written, st)
		e.w.Int32(st.Sec)
		e.w.Uint32(st.Nanosec)
		return
	}
	if len(t.Fields) == 0 {
		e.w.Uint8(0) // structure_needs_at_least_one_member
	}
	for i := range t.Fields {
		f := &t.Fields[i]
		n := 1
		switch f.Array {
		case ros2msg.Fixed:
			n = f.Len
		case ros2msg.Bounded:
			n = min(2, f.Len)
			e.w.Uint32(uint32(n))
		case ros2msg.Unbounded:
			n = 2
			e.w.Uint32(uint32(n))
		}
		for range n {
			e.one(f)
		}
	}
}

func (e *exampleWriter) one(f *ros2msg.Field) {
	switch f.Kind {
	case ros2msg.Message:
		e.message(f.Type)
	case ros2msg.String:
		s := "ab"
		if f.StringBound > 0 {
			s = s[:min(len(s), f.StringBound)]
		}
		e.w.String(s)
	case ros2msg.WString:
		e.w.Uint32(0)
	default:
		switch f.Kind.Size() {
		case 1:
			e.w.Uint8(0)
		case 2:
			e.w.Uint16(0)
		case 4:
			e.w.Uint32(0)
		case 8:
			e.w.Uint64(0)
		}
	}
}

// A stamped type of each package shipped beside the core ones decodes
// from CDR, and Times finds every builtin_interfaces/Time where the
// upstream definition puts it (paths written out here by hand from the
// .msg files), with the values and offsets serialized.
func TestShippedStampedTypesRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name  string
		paths []string // every Time in serialization order; sequences hold two elements
	}{
		{"control_msgs/msg/JointTrajectoryControllerState", []string{"header.stamp"}},
		{"control_msgs/msg/DynamicJointState", []string{"header.stamp"}},
		{"control_msgs/msg/MultiDOFStateStamped", []string{"header.stamp"}},
		{"vision_msgs/msg/Detection2DArray", []string{"header.stamp", "detections[].header.stamp", "detections[].header.stamp"}},
		{"vision_msgs/msg/Detection3DArray", []string{"header.stamp", "detections[].header.stamp", "detections[].header.stamp"}},
		{"ackermann_msgs/msg/AckermannDriveStamped", []string{"header.stamp"}},
		{"nav2_msgs/msg/Costmap", []string{"header.stamp", "metadata.map_load_time", "metadata.update_time"}},
		{"nav2_msgs/msg/ParticleCloud", []string{"header.stamp"}},
		{"action_msgs/msg/GoalStatusArray", []string{"status_list[].goal_info.stamp", "status_list[].goal_info.stamp"}},
		{"rcl_interfaces/msg/Log", []string{"stamp"}},
		{"rcl_interfaces/msg/ParameterEvent", []string{"stamp"}},
		{"statistics_msgs/msg/MetricsMessage", []string{"window_start", "window_stop"}},
		{"map_msgs/msg/OccupancyGridUpdate", []string{"header.stamp"}},
		{"pcl_msgs/msg/PolygonMesh", []string{"header.stamp", "cloud.header.stamp"}},
		{"radar_msgs/msg/RadarTracks", []string{"header.stamp"}},
		{"radar_msgs/msg/RadarScan", []string{"header.stamp"}},
		{"gps_msgs/msg/GPSFix", []string{"header.stamp", "status.header.stamp"}}, // float64 time is not a Time
		{"nav_2d_msgs/msg/Path2D", []string{"header.stamp"}},
		{"dwb_msgs/msg/LocalPlanEvaluation", []string{"header.stamp"}}, // time_offsets are Durations
		{"ros_gz_interfaces/msg/Contacts", []string{"header.stamp",
			"contacts[].wrenches[].header.stamp", "contacts[].wrenches[].header.stamp",
			"contacts[].wrenches[].header.stamp", "contacts[].wrenches[].header.stamp"}},
		{"ros_gz_interfaces/msg/WorldControl", []string{"run_to_sim_time"}},
		{"geographic_msgs/msg/GeoPath", []string{"header.stamp", "poses[].header.stamp", "poses[].header.stamp"}},
		{"moveit_msgs/msg/DisplayTrajectory", []string{
			"trajectory[].joint_trajectory.header.stamp", "trajectory[].multi_dof_joint_trajectory.header.stamp",
			"trajectory[].joint_trajectory.header.stamp", "trajectory[].multi_dof_joint_trajectory.header.stamp",
			"trajectory_start.joint_state.header.stamp", "trajectory_start.multi_dof_joint_state.header.stamp",
			"trajectory_start.attached_collision_objects[].object.header.stamp",
			"trajectory_start.attached_collision_objects[].detach_posture.header.stamp",
			"trajectory_start.attached_collision_objects[].object.header.stamp",
			"trajectory_start.attached_collision_objects[].detach_posture.header.stamp"}},
		{"octomap_msgs/msg/OctomapWithPose", []string{"header.stamp", "octomap.header.stamp"}},
		{"object_recognition_msgs/msg/RecognizedObjectArray", []string{"header.stamp",
			"objects[].header.stamp", "objects[].point_clouds[].header.stamp", "objects[].point_clouds[].header.stamp", "objects[].pose.header.stamp",
			"objects[].header.stamp", "objects[].point_clouds[].header.stamp", "objects[].point_clouds[].header.stamp", "objects[].pose.header.stamp"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ros2msg.ParseShipped(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			e := exampleWriter{w: cdr.NewWriter(1024)}
			e.message(s.Root)
			data := e.w.Bytes()
			if len(e.written) != len(tc.paths) {
				t.Fatalf("the definition holds %d Times, want %d (%v)", len(e.written), len(tc.paths), tc.paths)
			}
			var got []ros2msg.TimeField
			if err := s.Times(data, func(tf ros2msg.TimeField) { got = append(got, tf) }); err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.paths) {
				t.Fatalf("Times found %d, want %d: %+v", len(got), len(tc.paths), got)
			}
			for i, tf := range got {
				header := strings.HasSuffix(tc.paths[i], "header.stamp")
				if tf.Path != tc.paths[i] || tf.Time != e.written[i] || tf.Offset != e.offsets[i] || tf.Header != header {
					t.Errorf("Time %d = {%s %v offset %d header %v}, want {%s %v offset %d header %v}",
						i, tf.Path, tf.Time, tf.Offset, tf.Header, tc.paths[i], e.written[i], e.offsets[i], header)
				}
			}
			v, err := s.Decode(data)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			// The first Time, read back through the decoded value.
			first := strings.Split(strings.ReplaceAll(tc.paths[0], "[]", ""), ".")
			cur := v
			for _, name := range first {
				next, ok := cur[name].(ros2msg.Value)
				if !ok {
					if a, isArray := cur[name].([]any); isArray && len(a) > 0 {
						next, ok = a[0].(ros2msg.Value)
					}
				}
				if !ok {
					t.Fatalf("decoded %s: no message at %q in %v", tc.paths[0], name, cur)
				}
				cur = next
			}
			if cur["sec"] != e.written[0].Sec || cur["nanosec"] != e.written[0].Nanosec {
				t.Errorf("decoded %s = %v, want %v", tc.paths[0], cur, e.written[0])
			}
			// Cut anywhere inside the last Time, the payload is an error, never a short answer.
			if _, err := s.Decode(data[:e.offsets[len(e.offsets)-1]+4]); err == nil {
				t.Error("Decode of a truncated payload succeeded")
			}
		})
	}
}

// Types of the newly shipped packages without a Time say so, and every
// package named in interfaces/README.md is listed by ShippedTypes.
func TestShippedPackagesListed(t *testing.T) {
	types := ros2msg.ShippedTypes()
	for _, name := range []string{
		"control_msgs/msg/JointTrajectoryControllerState", "control_msgs/msg/JointJog",
		"vision_msgs/msg/Detection2DArray", "ackermann_msgs/msg/AckermannDrive",
		"nav2_msgs/msg/Costmap", "nav2_msgs/msg/SpeedLimit", "action_msgs/msg/GoalStatusArray",
		"unique_identifier_msgs/msg/UUID", "lifecycle_msgs/msg/TransitionEvent",
		"rcl_interfaces/msg/Log", "rcl_interfaces/msg/ParameterEvent",
		"service_msgs/msg/ServiceEventInfo", "statistics_msgs/msg/MetricsMessage",
		"map_msgs/msg/OccupancyGridUpdate", "pcl_msgs/msg/PointIndices",
		"radar_msgs/msg/RadarScan", "gps_msgs/msg/GPSFix", "nav_2d_msgs/msg/Twist2DStamped",
		"dwb_msgs/msg/LocalPlanEvaluation", "ros_gz_interfaces/msg/Contacts",
		"geographic_msgs/msg/GeoPointStamped", "moveit_msgs/msg/PlanningScene",
		"octomap_msgs/msg/Octomap", "object_recognition_msgs/msg/TableArray",
	} {
		if _, found := slices.BinarySearch(types, name); !found {
			t.Errorf("ShippedTypes lacks %s", name)
		}
	}
	for _, name := range []string{"lifecycle_msgs/msg/TransitionEvent", "unique_identifier_msgs/msg/UUID", "ackermann_msgs/msg/AckermannDrive"} {
		s, err := ros2msg.ParseShipped(name)
		if err != nil {
			t.Fatal(err)
		}
		if s.Root.HasTime() {
			t.Errorf("%s: HasTime, but its definition holds no builtin_interfaces/Time", name)
		}
	}
}

// Packages left out (services, actions, and interface packages simclock
// does not ship) stay unknown: never guessed from a similar name.
func TestUnshippedPackagesUnknown(t *testing.T) {
	for _, name := range []string{
		"realsense2_camera_msgs/msg/Metadata",
		"autoware_auto_control_msgs/msg/AckermannControlCommand",
		"mavros_msgs/msg/State",
		"nav2_msgs/action/NavigateToPose", // actions are not shipped
		"control_msgs/msg/NoSuchState",
	} {
		if _, err := ros2msg.ParseShipped(name); !errors.Is(err, ros2msg.ErrUnknownType) {
			t.Errorf("%s: err = %v, want ErrUnknownType", name, err)
		}
	}
}
