package bag

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/foxglove/mcap/go/mcap"
	"gopkg.in/yaml.v3"
)

// BagInfo is what "ros2 bag info" prints about one recording.
type BagInfo struct {
	// Name is the recording's (as InspectAll names it).
	Name string
	// Files are the storage files, as metadata.yaml lists them or as
	// given.
	Files []string
	// Bytes is the bag's size: every file of a bag directory (as rosbag2
	// counts it, metadata.yaml included), or the storage files given.
	Bytes     int64
	StorageID string
	// ROSDistro is the distribution that recorded the bag; "" when the bag
	// does not say (before Iron).
	ROSDistro string
	StartNS   int64
	// DurationNS is the time from the first message to the last.
	DurationNS int64
	Messages   int64
	// Topics are in the order metadata.yaml lists them, or the storage
	// gives them.
	Topics []TopicMetadata
	// FromMetadata: the figures are metadata.yaml's, as "ros2 bag info
	// DIR" prints them, without reading the storage files.
	FromMetadata bool
}

// Info returns what "ros2 bag info" prints about each recording among
// paths (grouped as InspectAll groups them). A bag directory with a
// metadata.yaml is described by it, as ros2 bag info does, without
// reading its storage files; storage files are read (message counts and
// times, topics; no message is decoded).
func Info(ctx context.Context, paths []string) ([]*BagInfo, error) {
	sets, err := resolveAll(paths)
	if err != nil {
		return nil, err
	}
	var out []*BagInfo
	for _, set := range sets {
		bi, err := setInfo(ctx, set)
		if err != nil {
			return out, err
		}
		out = append(out, bi)
	}
	return out, nil
}

func setInfo(ctx context.Context, set *bagSet) (*BagInfo, error) {
	bi := &BagInfo{Name: set.name}
	if m := set.meta; m != nil {
		bi.FromMetadata = true
		bi.Files, bi.StorageID, bi.ROSDistro = m.RelativeFilePaths, m.StorageIdentifier, m.ROSDistro
		bi.StartNS, bi.DurationNS, bi.Messages, bi.Topics = m.StartingTimeNS, m.DurationNS, m.MessageCount, m.Topics
		bi.Bytes = dirSize(set.dir)
		return bi, nil
	}
	byTopic := map[string]int{}
	start, end := int64(math.MaxInt64), int64(math.MinInt64)
	s := &sink{
		onChannel: func(c *channel) {
			if _, ok := byTopic[c.Topic]; !ok {
				byTopic[c.Topic] = len(bi.Topics)
				qos, _ := ParseQoSProfiles(c.OfferedQoS)
				bi.Topics = append(bi.Topics, TopicMetadata{Name: c.Topic, Type: c.Type, SerializationFormat: c.MessageEncoding, QoS: qos})
			}
		},
		onMessage: func(c *channel, m *message) error {
			bi.Topics[byTopic[c.Topic]].MessageCount++
			bi.Messages++
			start, end = min(start, m.LogTime), max(end, m.LogTime)
			return nil
		},
	}
	storages := readers{}
	defer storages.close()
	for _, f := range set.files {
		bi.Files = append(bi.Files, filepath.Base(f.path))
		bi.StorageID = f.storage
		fi := FileInfo{Path: f.path}
		if err := readBagFile(ctx, storages.of(f), f, &fi, s); err != nil {
			return bi, err
		}
		if st, err := os.Stat(f.path); err == nil {
			bi.Bytes += st.Size()
		}
		if format, _ := formatNamed(f.storage); bi.ROSDistro == "" && format.distro != nil {
			bi.ROSDistro = format.distro(f, &fi)
		}
	}
	if bi.Messages > 0 {
		bi.StartNS, bi.DurationNS = start, end-start
	}
	return bi, nil
}

// dirSize sums the sizes of the regular files of a directory, as rosbag2
// counts a bag's size (rcutils_calculate_directory_size).
func dirSize(dir string) int64 {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	var n int64
	for _, e := range ents {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			n += info.Size()
		}
	}
	return n
}

// sqliteDistro is the ros_distro of a sqlite3 file's schema table
// (Iron on), which its reader gives as the library.
func sqliteDistro(_ bagFile, fi *FileInfo) string { return fi.Library }

// mcapDistro is mcapROSDistro of a file not compressed whole.
func mcapDistro(f bagFile, _ *FileInfo) string {
	if f.zstd {
		return ""
	}
	return mcapROSDistro(f.path)
}

// mcapROSDistro returns the ros_distro of the "rosbag2" metadata record
// rosbag2 writes into its MCAP files (Iron on), or its older ROS_DISTRO
// key; "" when there is none.
func mcapROSDistro(path string) (distro string) {
	defer func() {
		if recover() != nil {
			distro = ""
		}
	}()
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return ""
	}
	info := summary(f, st.Size())
	if info == nil {
		return ""
	}
	if _, err := f.Seek(0, 0); err != nil {
		return ""
	}
	mr, err := mcap.NewReader(f)
	if err != nil {
		return ""
	}
	for _, mi := range info.MetadataIndexes {
		if mi.Name != "rosbag2" {
			continue
		}
		md, err := mr.GetMetadata(mi.Offset)
		if err != nil {
			continue
		}
		if d := md.Metadata["ROS_DISTRO"]; d != "" {
			distro = d
		}
		var m struct {
			ROSDistro string `yaml:"ros_distro"`
		}
		if yaml.Unmarshal([]byte(md.Metadata["serialized_metadata"]), &m) == nil && m.ROSDistro != "" {
			distro = m.ROSDistro
		}
	}
	return distro
}

// IsServiceEvent says whether a topic carries service events (service
// introspection, Iron on), as rosbag2 tells them apart: a name ending in
// /_service_event and a type pkg/srv/Name_Event.
func IsServiceEvent(topic, typ string) bool {
	const post, typPost = "/_service_event", "_Event"
	return len(topic) > len(post) && strings.HasSuffix(topic, post) &&
		len(typ) > len(typPost) && strings.Contains(typ, "/srv/") && strings.HasSuffix(typ, typPost)
}

// ServiceName returns the service of a service-event topic
// ("/add_two_ints/_service_event" → "/add_two_ints") and its type
// ("example_interfaces/srv/AddTwoInts_Event" → "example_interfaces/srv/AddTwoInts").
func ServiceName(topic, typ string) (string, string) {
	return strings.TrimSuffix(topic, "/_service_event"), strings.TrimSuffix(typ, "_Event")
}
