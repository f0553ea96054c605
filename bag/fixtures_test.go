package bag

import (
	"maps"
	"path/filepath"
	"testing"
)

// The bag directories of testdata/rosbag2 (README.md there): one per
// metadata.yaml version and per ROS 2 distribution, written by rosbag2's
// own writer of that version or built from its source. Each is read as a
// user would and checked, exactly, against its metadata.yaml.
var metadataFixtures = []struct {
	dir     string
	version int
	distro  string // ros_distro as written (version 8 on)
	storage string
	files   int // storage files listed
	// perFile: the files: list is present (version 5 on)
	perFile bool
	custom  map[string]string
	// noQoS names a topic recorded with no offered QoS profile.
	noQoS string
	// service: a service-event topic is among the topics.
	service bool
}{
	{dir: "dashing_v1", version: 1, storage: "sqlite3", files: 1},
	{dir: "eloquent_v2", version: 2, storage: "sqlite3", files: 1},
	{dir: "rolling2020_v3", version: 3, storage: "sqlite3", files: 1},
	{dir: "foxy_v4", version: 4, storage: "sqlite3", files: 1},
	{dir: "galactic_v4", version: 4, storage: "sqlite3", files: 1},
	{dir: "humble_v5", version: 5, storage: "sqlite3", files: 1, perFile: true},
	{dir: "rolling2022_v6", version: 6, storage: "mcap", files: 1, perFile: true, noQoS: "topic1"},
	{dir: "iron_v7", version: 7, storage: "mcap", files: 1, perFile: true},
	{dir: "rolling2023_v8", version: 8, storage: "mcap", files: 1, perFile: true, service: true},
	{dir: "jazzy_v9", version: 9, distro: "jazzy", storage: "mcap", files: 1, perFile: true, service: true,
		custom: map[string]string{"robot": "turtlebot4"}},
	{dir: "jazzy_v9_sqlite3", version: 9, distro: "jazzy", storage: "sqlite3", files: 1, perFile: true, service: true},
	{dir: "jazzy_v9_no_qos", version: 9, distro: "jazzy", storage: "mcap", files: 1, perFile: true, noQoS: "topic1"},
	{dir: "jazzy_v9_split", version: 9, distro: "jazzy", storage: "sqlite3", files: 3, perFile: true},
	{dir: "kilted_v9", version: 9, distro: "kilted", storage: "mcap", files: 1, perFile: true},
	{dir: "rolling_v9", version: 9, distro: "rolling", storage: "mcap", files: 1, perFile: true},
}

// TestMetadataFixtures reads every metadata version and distribution's
// bag directory exactly.
func TestMetadataFixtures(t *testing.T) {
	seen := map[int]bool{}
	for _, fx := range metadataFixtures {
		t.Run(fx.dir, func(t *testing.T) {
			m := checkBagDir(t, filepath.Join("testdata", "rosbag2", fx.dir))
			seen[m.Version] = true
			if m.Version != fx.version || m.ROSDistro != fx.distro || m.StorageIdentifier != fx.storage ||
				len(m.RelativeFilePaths) != fx.files || (len(m.Files) > 0) != fx.perFile || !maps.Equal(m.CustomData, fx.custom) {
				t.Errorf("read version %d, distro %q, storage %s, %d files, files: %v, custom_data %v", m.Version, m.ROSDistro,
					m.StorageIdentifier, len(m.RelativeFilePaths), len(m.Files) > 0, m.CustomData)
			}
			service := false
			for _, tm := range m.Topics {
				service = service || filepath.Base(tm.Name) == "_service_event"
				switch {
				case tm.Name == fx.noQoS:
					if len(tm.QoS) != 0 {
						t.Errorf("topic %s: %d QoS profiles, want none", tm.Name, len(tm.QoS))
					}
				case fx.version >= 4:
					if len(tm.QoS) == 0 {
						t.Fatalf("topic %s: no QoS profile", tm.Name)
					}
					// Every recorder here saw a reliable publisher of known liveliness.
					if q := tm.QoS[0]; q.Reliability != "reliable" || q.Liveliness != "automatic" ||
						q.Durability != "volatile" && q.Durability != "transient_local" || q.History == "" {
						t.Errorf("topic %s: QoS %+v", tm.Name, q)
					}
				}
			}
			if service != fx.service {
				t.Errorf("service-event topics: %v, want %v", service, fx.service)
			}
		})
	}
	for v := 1; v <= MaxMetadataVersion; v++ {
		if !seen[v] {
			t.Errorf("no fixture of metadata version %d", v)
		}
	}
}
