// Package bag reads rosbag2 recordings and finds the time hazards in
// them, for "simclock bag inspect" and "simclock bag clock".
//
// # Reading
//
// Inspect takes what "ros2 bag record" leaves behind: a bag directory
// (or its metadata.yaml), read the way "ros2 bag info DIR" reads it, or
// the storage files of one bag given one by one. metadata.yaml versions 1
// to 9 are read (ParseMetadata): storage identifier, relative_file_paths
// (read in that order), per-file start, duration and count, topics with
// their offered QoS (rmw enum integers before version 9, words in 9) and
// compression_mode/compression_format. A listed file that is missing, or
// counts that disagree with the files, give metadata_mismatch with both
// counts; a directory without metadata.yaml (a recorder that crashed) is
// read in split order (no_metadata). The same file given twice is a usage
// error (ErrUsage), not a split bag.
//
// The analysis never sees the storage: each storage reads a file into one
// sink of channels and messages (storage.go). MCAP files with a chunk
// index are read chunk by chunk in log-time order, others linearly;
// chunks may be uncompressed, zstd or lz4. sqlite3 (.db3) files are read
// with modernc.org/sqlite, SQLite itself translated to Go: no cgo, so the
// CGO_ENABLED=0 build keeps the feature, and it is the same SQLite that
// wrote the bag (file format, WAL, integrity checks), maintained against
// upstream releases; the mattn/go-sqlite3 alternative needs cgo. Files
// compressed whole (.mcap.zstd, .db3.zstd) are inflated to a temporary
// file first; messages compressed one by one (compression_mode: message)
// are inflated before the analysis.
//
// Schemas are parsed with package ros2msg. A type the bag does not define
// (sqlite3 bags older than Iron store no definitions) is taken from the
// definitions ros2msg ships for the common interface packages
// (TopicReport.Definition says "shipped"); any other type, or a topic
// that is not ros2msg/cdr, is reported (unknown_schema) and skipped: no
// offset is ever guessed.
//
// # Integrity
//
// Every MCAP chunk is checked before any of its messages is analysed: its
// CRC when the writer stored one (rosbag2's default writer stores none),
// the lz4 frame checksum, its size and the framing of its records. A
// chunk that fails is damage, not data: it is skipped, its byte offset
// and the count of its messages (from the chunk, or its message index)
// are in FileInfo.Damaged, the damaged_chunk finding says how many
// messages were skipped, and Inspect reads on and returns ErrDamaged.
// Steps across a skipped chunk are not judged, so no /clock gap or jump
// comes from the hole. Options.NoCRC (--no-crc) skips these checks.
//
// A truncated or corrupt file stops reading with a *ReadError naming the
// file, the byte offset and the record (sqlite3: the table, as SQLite
// does not say where); the report of everything before it is returned
// with it, including the complete messages of an MCAP chunk cut by the
// end of the file, and the pages of a cut .db3 up to the first missing
// one.
//
// Memory stays flat: chunks up to 64 MiB are read whole, one at a time
// (a few ahead when decompressing or checking CRCs on other cores);
// larger chunks, legal up to MCAP's 2^64 bytes, are read as a stream in
// two passes (verify, then analyse), one record at a time: a chunk that
// inflates to 1.1 GiB costs an 8 MiB heap. Plotted series are decimated
// to a few thousand points.
//
// # Hazards
//
// With /clock in the bag, stamps are compared with the latest /clock
// value recorded before the message (stamps recorded before the first
// /clock are before_first_clock, not on another time base); without it
// (the report says so, no_clock), with the recorder's log time. The
// finding codes, with their severity, rules, message and fix, are the
// table Checks, and are listed in docs/rules.md. zero_stamp,
// time_base_mismatch, window_negative and window_zero are errors for
// stamps (std_msgs/Header stamps and fields named *stamp) and warnings
// for other Time fields, which may hold 0 or distant times on purpose.
//
// The nominal /clock period and value step are clockstream's: the medians
// over the last 64 intervals that were not gaps, and over the last 64
// value steps that were not jumps. The real-time factor is the sum of forward /clock
// steps over the log time they span; rtf_min and rtf_max are its extremes
// over successive windows of at least one second of log time.
//
// # JSON lines
//
// "simclock bag inspect --format json" writes one JSON object per line,
// each with a "kind" field; Report.JSONLines gives every line after the
// first. Fields are only ever added, never renamed ("gap_periods" is
// "periods" under its old name). Times are integer nanoseconds (fields
// ending _ns), since the Unix epoch for log times.
//
//	{"kind":"env","schema":1,"version":VERSION,"command":"bag inspect","files":[...],
//	 "window_ns":W,"periods":N,"gap_periods":N,"base_tolerance_ns":B,"future_tolerance_ns":F}
//	{"kind":"bag","dir":D,"metadata":{"version":N,"storage_identifier":S,
//	 "relative_file_paths":[...],"duration_ns":N,"starting_time_ns":T,"message_count":N,
//	 "topics":[{"name":T,"type":TYPE,"serialization_format":"cdr","qos":[{"history":H,
//	 "depth":N,"reliability":R,"durability":D,"liveliness":L}],"type_description_hash":H?,
//	 "message_count":N}],"compression_format":F,"compression_mode":M,"files":[{"path":P,
//	 "starting_time_ns":T,"duration_ns":N,"message_count":N}]?,"ros_distro":D?}?,
//	 "no_metadata":B?}                                                      bag directories only
//	{"kind":"file","path":P,"bytes":N,"storage":"mcap"|"sqlite3","file_compression":"zstd"?,
//	 "indexed":B,"profile":P,"library":L,"chunks":N,"messages":N,
//	 "compression":["none"|"zstd"|"lz4"],"damaged":[{"offset":N,"messages":N,"problem":P}]?,
//	 "skipped_messages":N,"error":E?}                                       one per file
//	{"kind":"clock","present":B,"messages":N,"first_ns":V,"last_ns":V,"first_log_ns":T,
//	 "last_log_ns":T,"rate_hz":F,"period_ns":N,"step_ns":N,"rtf":F,"rtf_min":F,"rtf_max":F,"backward_jumps":N,
//	 "forward_jumps":N,"gaps":N,"pauses":N,"stalls":N (= pauses, old name),"sim_time_log":B,
//	 "publishers":N}
//	{"kind":"topic","topic":T,"type":TYPE,"encoding":"ros2msg","messages":N,"bytes":N,
//	 "first_log_ns":T,"last_log_ns":T,"rate_hz":F,"before_first_clock":N,"publishers":N,"decoded":B,
//	 "definition":"bag"|"shipped"?,"decode_errors":N,"time_fields":[{"field":"header.stamp","header":B,"count":N,"zero":N,
//	 "min_ns":V,"max_ns":V,"non_monotonic":N,"other_base":N,"future":N,"max_lead_ns":N,
//	 "reference":"clock"|"log","window_negative":N,"window_zero":N}]}        one per topic
//	{"kind":"finding","severity":"error"|"warning"|"info","code":C,"rule":"R10,R29"?,
//	 "topic":T?,"field":F?,"count":N,"message":M,"examples":[{"log_ns":T,"value_ns":V,
//	 "ref_ns":V?,"detail":D?,"index":N,"file":F?,"element":N?,"before_ns":V?}]}  most severe first
//	{"kind":"summary","files":N,"messages":N,"bytes":N,"topics":N,"start_log_ns":T,
//	 "end_log_ns":T,"errors":N,"warnings":N,"infos":N,"complete":B,"skipped_messages":N}
//
// # Playing /clock
//
// Span gives a bag's log-time axis; "simclock bag clock" publishes /clock
// along it with package clockstream's Player, the one producer of /clock.
//
// # /clock analysis
//
// Inspect feeds every /clock message, as it reads it, to a
// clockstream.Analyzer at its log time: the one analyser of simclock
// monitor and doctor, so the clock line and the clock_gap, clock_stall
// (a pause), clock_backward and clock_jump_forward findings use their
// words and numbers. A skipped damaged chunk is an Analyzer.Break: no gap
// or jump comes from the hole. ClockMessages gives the same stream as a
// clockstream.Source, for clockstream.Analyze.
package bag
