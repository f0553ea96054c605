package graph

import "strings"

// ROSTopic maps a DDS topic name to its ROS name: "rt/clock" gives
// "/clock". Other names (services "rq/", "rr/", and plain DDS topics)
// give "".
func ROSTopic(ddsTopic string) string {
	if rest, ok := strings.CutPrefix(ddsTopic, "rt/"); ok && rest != "" {
		return "/" + rest
	}
	return ""
}

// ROSType maps a DDS type name to its ROS name:
// "rosgraph_msgs::msg::dds_::Clock_" gives "rosgraph_msgs/msg/Clock".
// Names not in that form give "".
func ROSType(ddsType string) string {
	parts := strings.Split(ddsType, "::")
	if len(parts) != 4 || parts[2] != "dds_" || !strings.HasSuffix(parts[3], "_") || len(parts[3]) < 2 {
		return ""
	}
	return parts[0] + "/" + parts[1] + "/" + strings.TrimSuffix(parts[3], "_")
}

// UserDataValue returns the value of key in a ROS USER_DATA string of
// "key=value;" pairs ("enclave=/;typehash=RIHS01_...;"), and whether it
// is there.
func UserDataValue(userData []byte, key string) (string, bool) {
	for kv := range strings.SplitSeq(string(userData), ";") {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.TrimSpace(k) == key {
			return v, true
		}
	}
	return "", false
}
