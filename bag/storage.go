package bag

import (
	"context"
)

// A channel is one recorded topic of one storage file, described the same
// way whatever the storage: the analysis sees channels and messages, never
// MCAP records or sqlite3 rows.
type channel struct {
	Topic string
	Type  string // ROS type, "pkg/msg/Type"
	// SchemaEncoding is the encoding of Definition: "ros2msg" (or
	// "ros2idl"); empty when the storage holds no definition for the type.
	SchemaEncoding string
	Definition     []byte
	// Fallback is true when Definition is not from the bag but from the
	// definitions shipped for common interface packages.
	Fallback        bool
	MessageEncoding string // serialization format, "cdr"
	OfferedQoS      string // offered_qos_profiles YAML, one entry per publisher
}

// A message is one recorded message. Data aliases a buffer that is reused
// once the sink returns.
type message struct {
	LogTime     int64 // the recorder's receive time, ns
	PublishTime int64 // the publisher's send time, ns (0 when not recorded)
	Data        []byte
}

// A sink receives what a storage reads, in file order.
type sink struct {
	// onChannel, when set, is called once for each channel of a file,
	// before its messages.
	onChannel func(c *channel)
	// onMessage receives every message that is not known to be damaged.
	onMessage func(c *channel, m *message) error
	// onSkip, when set, is called when messages are skipped (a damaged
	// chunk): what comes after is not continuous with what came before.
	onSkip func()
	// progress, when set, is called with the bytes of the current file
	// consumed so far.
	progress func(done int64)
	// noCRC skips the integrity checks (chunk CRCs, lz4 checksums).
	noCRC bool
}

func (s *sink) progressDone(n int64) {
	if s.progress != nil {
		s.progress(n)
	}
}

// A storage reads one file of a bag into a sink: every storage plugin of
// rosbag2 that simclock reads (MCAP, sqlite3) is one. It is not safe for
// concurrent use, and may be reused for the next file.
type storage interface {
	read(ctx context.Context, path string, fi *FileInfo, s *sink) error
	close()
}
