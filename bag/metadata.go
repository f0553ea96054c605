package bag

import (
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// ErrMetadata reports a metadata.yaml that cannot be read as rosbag2 bag
// metadata.
var ErrMetadata = errors.New("invalid bag metadata")

// Metadata is a bag directory's metadata.yaml, read the way "ros2 bag
// info DIR" reads it (rosbag2_storage's metadata_io), versions 1 to 9.
type Metadata struct {
	Version           int    `json:"version"`
	StorageIdentifier string `json:"storage_identifier"` // "sqlite3" or "mcap"
	// RelativeFilePaths are the storage files, in recording order.
	RelativeFilePaths []string        `json:"relative_file_paths"`
	DurationNS        int64           `json:"duration_ns"`
	StartingTimeNS    int64           `json:"starting_time_ns"`
	MessageCount      int64           `json:"message_count"`
	Topics            []TopicMetadata `json:"topics"`
	// CompressionFormat is "zstd" or ""; CompressionMode is "file",
	// "message" or "" (written upper case by older rosbag2).
	CompressionFormat string         `json:"compression_format"`
	CompressionMode   string         `json:"compression_mode"`
	Files             []FileMetadata `json:"files,omitempty"` // version 5 on
	// CustomData is what "ros2 bag record --custom-data" stored (version
	// 6 on); nil when none.
	CustomData map[string]string `json:"custom_data,omitempty"`
	ROSDistro  string            `json:"ros_distro,omitempty"` // version 8 on
}

// TopicMetadata is one entry of topics_with_message_count.
type TopicMetadata struct {
	Name                string `json:"name"`
	Type                string `json:"type"`
	SerializationFormat string `json:"serialization_format"`
	// QoS is offered_qos_profiles parsed: one profile per publisher the
	// recorder saw. Versions 4 to 8 store them as YAML text, version 9 as
	// a YAML sequence.
	QoS                 []QoSProfile `json:"qos"`
	TypeDescriptionHash string       `json:"type_description_hash,omitempty"`
	MessageCount        int64        `json:"message_count"`
}

// FileMetadata is one entry of files (metadata version 5 and later).
type FileMetadata struct {
	Path           string `json:"path"`
	StartingTimeNS int64  `json:"starting_time_ns"`
	DurationNS     int64  `json:"duration_ns"`
	MessageCount   int64  `json:"message_count"`
}

// QoSProfile is one offered QoS profile. Policies are words whatever the
// metadata version: versions before 9 store rmw enum integers, 9 strings.
type QoSProfile struct {
	History     string `json:"history"` // keep_last, keep_all, system_default, unknown
	Depth       int64  `json:"depth"`
	Reliability string `json:"reliability"` // reliable, best_effort, ...
	Durability  string `json:"durability"`  // volatile, transient_local, ...
	Liveliness  string `json:"liveliness"`
}

// rawMetadata mirrors metadata.yaml.
type rawMetadata struct {
	Info *struct {
		Version           int      `yaml:"version"`
		StorageIdentifier string   `yaml:"storage_identifier"`
		RelativeFilePaths []string `yaml:"relative_file_paths"`
		Duration          struct {
			Nanoseconds int64 `yaml:"nanoseconds"`
		} `yaml:"duration"`
		StartingTime struct {
			Nanoseconds int64 `yaml:"nanoseconds_since_epoch"`
		} `yaml:"starting_time"`
		MessageCount int64 `yaml:"message_count"`
		Topics       []struct {
			Meta struct {
				Name                string    `yaml:"name"`
				Type                string    `yaml:"type"`
				SerializationFormat string    `yaml:"serialization_format"`
				OfferedQoSProfiles  yaml.Node `yaml:"offered_qos_profiles"`
				TypeDescriptionHash string    `yaml:"type_description_hash"`
			} `yaml:"topic_metadata"`
			MessageCount int64 `yaml:"message_count"`
		} `yaml:"topics_with_message_count"`
		CompressionFormat string `yaml:"compression_format"`
		CompressionMode   string `yaml:"compression_mode"`
		Files             []struct {
			Path         string `yaml:"path"`
			StartingTime struct {
				Nanoseconds int64 `yaml:"nanoseconds_since_epoch"`
			} `yaml:"starting_time"`
			Duration struct {
				Nanoseconds int64 `yaml:"nanoseconds"`
			} `yaml:"duration"`
			MessageCount int64 `yaml:"message_count"`
		} `yaml:"files"`
		CustomData yaml.Node `yaml:"custom_data"`
		ROSDistro  string    `yaml:"ros_distro"`
	} `yaml:"rosbag2_bagfile_information"`
}

// MaxMetadataVersion is the newest metadata.yaml version read (Jazzy's).
const MaxMetadataVersion = 9

// ParseMetadata parses the text of a metadata.yaml. Errors wrap
// ErrMetadata and say what is wrong.
func ParseMetadata(data []byte) (*Metadata, error) {
	var raw rawMetadata
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMetadata, err)
	}
	in := raw.Info
	if in == nil {
		return nil, fmt.Errorf("%w: no rosbag2_bagfile_information", ErrMetadata)
	}
	if in.Version < 1 || in.Version > MaxMetadataVersion {
		return nil, fmt.Errorf("%w: version %d: this simclock reads versions 1 to %d", ErrMetadata, in.Version, MaxMetadataVersion)
	}
	m := &Metadata{Version: in.Version, StorageIdentifier: in.StorageIdentifier,
		RelativeFilePaths: in.RelativeFilePaths, DurationNS: in.Duration.Nanoseconds,
		StartingTimeNS: in.StartingTime.Nanoseconds, MessageCount: in.MessageCount,
		CompressionFormat: in.CompressionFormat, CompressionMode: strings.ToLower(in.CompressionMode),
		ROSDistro: in.ROSDistro}
	if m.StorageIdentifier == "" {
		m.StorageIdentifier = "sqlite3" // versions 1 and 2 knew no other
	}
	for _, t := range in.Topics {
		tm := TopicMetadata{Name: t.Meta.Name, Type: t.Meta.Type, SerializationFormat: t.Meta.SerializationFormat,
			TypeDescriptionHash: t.Meta.TypeDescriptionHash, MessageCount: t.MessageCount}
		if tm.Name == "" {
			return nil, fmt.Errorf("%w: a topic without a name", ErrMetadata)
		}
		qos, err := qosOf(&t.Meta.OfferedQoSProfiles)
		if err != nil {
			return nil, fmt.Errorf("%w: topic %s: %v", ErrMetadata, tm.Name, err)
		}
		tm.QoS = qos
		m.Topics = append(m.Topics, tm)
	}
	for _, f := range in.Files {
		m.Files = append(m.Files, FileMetadata{Path: f.Path, StartingTimeNS: f.StartingTime.Nanoseconds,
			DurationNS: f.Duration.Nanoseconds, MessageCount: f.MessageCount})
	}
	custom, err := customData(&in.CustomData)
	if err != nil {
		return nil, fmt.Errorf("%w: custom_data: %v", ErrMetadata, err)
	}
	m.CustomData = custom
	switch m.CompressionMode {
	case "", "none", "file", "message":
	default:
		return nil, fmt.Errorf("%w: compression_mode \"%s\": want file, message or none", ErrMetadata, in.CompressionMode)
	}
	if m.CompressionMode == "none" {
		m.CompressionMode = ""
	}
	if m.CompressionMode != "" && m.CompressionFormat != "zstd" {
		return nil, fmt.Errorf("%w: compression_format \"%s\": simclock reads zstd", ErrMetadata, m.CompressionFormat)
	}
	for _, p := range m.RelativeFilePaths {
		if p == "" || strings.Contains(p, "\x00") {
			return nil, fmt.Errorf("%w: relative_file_paths holds \"%s\"", ErrMetadata, p)
		}
	}
	return m, nil
}

// qosOf reads a topic's offered_qos_profiles in either of the shapes
// rosbag2 writes: YAML text holding the sequence (versions 4 to 8, and
// the MCAP channel metadata of every version) or the sequence itself
// (version 9). Like rosbag2's own reader, which tells integer policies
// from words whatever the version, it takes either shape at any version.
func qosOf(n *yaml.Node) ([]QoSProfile, error) {
	switch n.Kind {
	case 0: // absent (versions 1 to 3)
		return nil, nil
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return nil, nil
		}
		return ParseQoSProfiles(n.Value)
	case yaml.SequenceNode:
		var raw []map[string]any
		if err := n.Decode(&raw); err != nil {
			return nil, fmt.Errorf("offered_qos_profiles: %v", err)
		}
		return profilesOf(raw), nil
	}
	return nil, fmt.Errorf("offered_qos_profiles at line %d: want a sequence of QoS profiles or its YAML text", n.Line)
}

// customData reads custom_data: a map of strings, or ~ when empty.
func customData(n *yaml.Node) (map[string]string, error) {
	if n.Kind == 0 || n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil, nil
	}
	var m map[string]string
	if err := n.Decode(&m); err != nil {
		return nil, err
	}
	if len(m) == 0 {
		return nil, nil
	}
	return m, nil
}

// ParseQoSProfiles parses the YAML text of an offered_qos_profiles value
// (as metadata versions 4 to 8 and MCAP channels store it): a sequence of
// profiles whose policies are rmw enum integers (before version 9) or
// words (version 9). Empty text is no profile.
func ParseQoSProfiles(text string) ([]QoSProfile, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	var raw []map[string]any
	if err := yaml.Unmarshal([]byte(text), &raw); err != nil {
		return nil, fmt.Errorf("offered_qos_profiles: %v", err)
	}
	return profilesOf(raw), nil
}

// profilesOf turns decoded profiles into QoSProfiles.
func profilesOf(raw []map[string]any) []QoSProfile {
	out := make([]QoSProfile, 0, len(raw))
	for _, p := range raw {
		q := QoSProfile{
			History:     policy(p["history"], "system_default", "keep_last", "keep_all", "unknown"),
			Reliability: policy(p["reliability"], "system_default", "reliable", "best_effort", "unknown", "best_available"),
			Durability:  policy(p["durability"], "system_default", "transient_local", "volatile", "unknown", "best_available"),
			Liveliness:  policy(p["liveliness"], "system_default", "automatic", "manual_by_node", "manual_by_topic", "unknown", "best_available"),
		}
		if d, ok := p["depth"].(int); ok {
			q.Depth = int64(d)
		}
		out = append(out, q)
	}
	return out
}

// policy turns a QoS policy value into its word: an rmw enum integer
// indexes names, a string is kept as written.
func policy(v any, names ...string) string {
	switch x := v.(type) {
	case int:
		if x >= 0 && x < len(names) {
			return names[x]
		}
		return fmt.Sprintf("%d", x)
	case string:
		return strings.ToLower(x)
	}
	return ""
}
