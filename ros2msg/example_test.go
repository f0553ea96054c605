package ros2msg_test

import (
	"fmt"

	"github.com/simclock/simclock/cdr"
	"github.com/simclock/simclock/ros2msg"
)

// Parse a schema as rosbag2 stores it and find the Header stamp of a
// message with Times.
func ExampleSchema_Times() {
	text := "std_msgs/Header header\nfloat64 range\n" +
		"================================================================================\n" +
		"MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id\n"
	s, err := ros2msg.Parse("sensor_msgs/msg/Range", []byte(text))
	if err != nil {
		fmt.Println(err)
		return
	}
	w := cdr.NewWriter(32)
	w.Int32(125) // header.stamp.sec
	w.Uint32(500000000)
	w.String("laser")
	w.Float64(2.5)
	err = s.Times(w.Bytes(), func(tf ros2msg.TimeField) {
		fmt.Println(tf.Path, tf.Time, "header:", tf.Header)
	})
	fmt.Println("err:", err)
	// Output:
	// header.stamp {sec: 125, nanosec: 500000000} header: true
	// err: <nil>
}

// Decode a whole payload into a Value.
func ExampleSchema_Decode() {
	s, _ := ros2msg.Parse("std_msgs/msg/String", []byte("string data\n"))
	v, err := s.Decode([]byte{0, 1, 0, 0, 3, 0, 0, 0, 'h', 'i', 0})
	fmt.Println(v["data"], err)
	// Output: hi <nil>
}

// A schema error names the type, the line and the problem.
func ExampleParse_error() {
	_, err := ros2msg.Parse("pkg/msg/Bad", []byte("int32 ok\nint32[x] broken\n"))
	fmt.Println(err)
	// Output: ros2msg: pkg/Bad line 2 "int32[x] broken": invalid message definition: bad array length in "int32[x]"
}
