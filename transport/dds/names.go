package dds

import (
	"fmt"
	"strings"
)

// TopicName maps a ROS topic name to its DDS name: "/clock" becomes
// "rt/clock". A relative name is taken as relative to the root namespace.
func TopicName(rosTopic string) (string, error) {
	t := strings.TrimPrefix(rosTopic, "/")
	if t == "" || strings.HasSuffix(t, "/") || strings.Contains(t, "//") {
		return "", fmt.Errorf("dds: invalid ROS topic name %q", rosTopic)
	}
	return "rt/" + t, nil
}

// TypeName maps a ROS type name to its DDS name:
// "rosgraph_msgs/msg/Clock" becomes "rosgraph_msgs::msg::dds_::Clock_".
func TypeName(rosType string) (string, error) {
	parts := strings.Split(rosType, "/")
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return "", fmt.Errorf("dds: invalid ROS type name %q: want package/msg/Name", rosType)
	}
	return parts[0] + "::" + parts[1] + "::dds_::" + parts[2] + "_", nil
}

// typeHashes are the Jazzy type hashes (RIHS01) of the types simclock
// publishes, sent as endpoint USER_DATA "typehash=...;" like rmw does.
var typeHashes = map[string]string{
	"rosgraph_msgs/msg/Clock":         "RIHS01_692f7a66e93a3c83e71765d033b60349ba68023a8c689a79e48078bcb5c58564",
	"builtin_interfaces/msg/Time":     "RIHS01_b106235e25a4c5ed35098aa0a61a3ee9c9b18d197f398b0e4206cea9acf9c197",
	"builtin_interfaces/msg/Duration": "RIHS01_e8d009f659816f758b75334ee1a9ca5b5c0b859843261f14c7f937349599d93b",
	"std_msgs/msg/Header":             "RIHS01_f49fb3ae2cf070f793645ff749683ac6b06203e41c891e17701b1cb597ce6a01",
	"std_msgs/msg/String":             "RIHS01_df668c740482bbd48fb39d76a70dfd4bd59db1288021743503259e948f6b1a18",
	// doctor publishes /diagnostics; the tests' nodes broadcast tf.
	"diagnostic_msgs/msg/DiagnosticArray": "RIHS01_5a8a36efb05fb25070fa0fb3810290c0e6cd4862b54a8fb975a1ee8dc55a333e",
	"tf2_msgs/msg/TFMessage":              "RIHS01_e369d0f05a23ae52508854b66f6aa0437f3449d652e8cbf22d5abe85d020f087",
}

// endpointUserData returns the USER_DATA of an endpoint carrying rosType:
// the type hash when known, empty otherwise (which ROS accepts).
func endpointUserData(rosType string) string {
	if h, ok := typeHashes[rosType]; ok {
		return "typehash=" + h + ";"
	}
	return ""
}
