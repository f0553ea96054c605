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
// their offered QoS (YAML text of rmw enum integers before version 9, a
// YAML sequence of words in 9, the Jazzy to Rolling form; either is read
// at any version, as rosbag2 does), compression_mode/compression_format,
// custom_data and ros_distro. testdata/rosbag2 holds a bag directory of
// every version and distribution, from rosbag2's own writer. A listed file that is missing, or
// counts that disagree with the files, give metadata_mismatch with both
// counts; a directory without metadata.yaml (a recorder that crashed) is
// read in split order (no_metadata). Storage files are grouped by
// recording as rosbag2's SequentialWriter names them (NAME_0, NAME_1, ...
// of the recording NAME, in index order; a file not so named is a
// recording of its own): a folder of several recordings, or the files of
// several given together, are several recordings, which InspectAll
// reports each on its own and Inspect refuses; a recording whose files
// are of two storages is refused. The same file given twice is a usage
// error (ErrUsage), not a split bag. A path that does not exist or is not a
// regular file or a directory (a named pipe, whose open would block until
// a writer came; a device; "-") is refused before anything is opened
// (ErrInput). A canceled context stops reading between chunks, files and
// every few thousand rows, and is returned as it is: never as damage.
//
// The analysis never sees the storage: each storage reads a file into one
// sink of channels and messages (storage.go). The storages are one table,
// storageFormats ({name, extension, reader, summary, inflation check,
// distribution}), through which paths are resolved, recordings grouped,
// directories listed, files inflated and bags described: a new format is a
// file implementing storage and its entry there. MCAP files with a chunk
// index are read chunk by chunk in log-time order, others linearly;
// chunks may be uncompressed, zstd or lz4. sqlite3 (.db3) files are read
// with modernc.org/sqlite, SQLite itself translated to Go: no cgo, so the
// CGO_ENABLED=0 build keeps the feature, and it is the same SQLite that
// wrote the bag (file format, WAL, integrity checks), maintained against
// upstream releases; the mattn/go-sqlite3 alternative needs cgo. The
// messages table, the bulk of the work, is read through SQLite's own
// interface on a connection of its own without the driver's per-call
// mutex (package bag/internal/sqlitedirect), and anything unusual goes
// through database/sql as the rest. Reading never writes: a .db3 is opened read-only and immutable (no lock, no
// -journal, -wal or -shm file created or touched); one whose -wal holds
// transactions never checkpointed (a recorder killed in WAL mode) is read
// with them, from a private copy. Files
// compressed whole (.mcap.zstd, .db3.zstd) are inflated as a stream to a
// temporary file, checked as they come (the MCAP magic and each record's
// opcode and framing up to the closing magic; the SQLite header and its
// declared size): inflation stops at the first byte that cannot belong to
// the file, before the temporary directory comes within 256 MiB of full,
// or when the context is canceled. Messages compressed one by one
// (compression_mode: message) are inflated before the analysis.
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
// comes from the hole, and every reference that depends on /clock is
// reset there: until the next /clock, stamps are not compared with one
// from before the hole (which gave future_stamp and time_base_mismatch)
// and no message is before_first_clock (the hole may have held the first
// /clock). Options.NoCRC (--no-crc) skips these checks.
//
// The MCAP summary section is checked before it is used to read a file
// by: its CRC (rosbag2's writer stores one), its records' opcodes and
// framing, each chunk index against the chunk it points at, that no
// chunk of the data section is left out of the index, and the statistics
// against the chunk indexes. Schema and channel records are taken from
// the data as they come, the summary's standing in only for what the data
// has not given, and any disagreement is noted. A summary that fails is
// not trusted: the file is read from its data section (the data is
// trusted), FileInfo.SummaryDamage says why, the damaged_summary finding
// reports it and the report is not complete. Flipping a bit in every byte
// of the summary and footer of four real bags (19,850 flips) leaves every
// report either unchanged or marked damaged with all its real findings.
//
// A truncated or corrupt file stops reading with a *ReadError naming the
// file, the byte offset and the record (sqlite3: the table, as SQLite
// does not say where); the report of everything before it is returned
// with it, including the complete messages of an MCAP chunk cut by the
// end of the file, and the pages of a cut .db3 up to the first missing
// one. A .db3 that ends inside a page (its size not a multiple of its page
// size) is read without that page, from a private copy of the whole pages
// before it: SQLite would read its missing end as zeros.
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
// finding codes, with their severity, rules, message and fix, are listed
// by Checks and in docs/rules.md. zero_stamp, time_base_mismatch,
// window_negative and window_zero are errors for stamps (std_msgs/Header
// stamps and fields named *stamp) and warnings for other Time fields,
// which may hold 0 or distant times on purpose.
//
// Some Time fields carry another clock than the graph's by design
// (otherClocks, listed in docs/rules.md): rcl_interfaces/Log.stamp, the
// system time rcutils stamps every /rosout message with;
// sensor_msgs/TimeReference.time_ref, an external source's. They are
// counted and shown (reference "none") but judged only for
// not_normalized. Stamps going backwards are judged per publisher where
// the storage keeps publishers apart (several MCAP channels on one
// topic); rosbag2 records no publisher with a message, so on a topic
// several publishers shared (its offered QoS profiles) stamps going back
// are interleaved_stamps, information, not a hazard.
//
// # Checks
//
// Inspect reads a bag once, in a streaming pass that judges nothing: it
// counts, per topic, per Time field and for /clock, each kind of
// occurrence (zero stamps, stamps off the reference, /clock events...)
// and keeps the first examples of each (tally.go). Each kind of finding
// is then one file, check_<code>.go: its code, its entry (rules.Check:
// severity, rules, title, fix), its detector over the tally
// (rules.Detector), and how its examples read. Findings come out most
// severe first, then by code and subject (rules.Sort), the order of
// every simclock tool but lint's file order.
//
// The nominal /clock period and value step are clockstream's: the medians
// over the last 64 intervals that were not gaps, and over the last 64
// value steps that were not jumps. The real-time factor is the sum of forward /clock
// steps over the log time they span; rtf_min and rtf_max are its extremes
// over successive windows of at least one second of log time.
//
// A bag does not record who published a message (rosbag2 writes one
// MCAP channel per topic, and a sqlite3 row holds topic, time and data),
// so several /clock publishers are told apart by their values: a
// clockstream.Splitter follows the timelines the values make, and a
// stream that keeps coming back to an earlier timeline is several
// publishers interleaved (clock_publishers, with each timeline's rate and
// RTF, computed as simclock monitor computes each publisher's). One RTF
// of such a stream means nothing, so there is none: the report's RTF is
// nil, the text says why, and the plot draws each timeline apart, the
// busiest setting the scale.
//
// # JSON lines
//
// "simclock bag inspect --format json" writes the parts of a Report as
// JSON lines, one object per line with its "kind" first. Within a schema,
// fields are only ever added, never renamed ("gap_periods" is "periods"
// under its old name). Times are integer nanoseconds (fields ending _ns),
// since the Unix epoch for log times. Schema 2 writes a finding as every
// simclock tool does (rules.Finding): "code" first, and "rules", an array
// (schema 1 had "rule":"R10,R29", omitted when empty); "fix" is new.
// The clock line's real-time factors are null where schema 1 wrote 0 for
// none, and null for /clock values alternating between several
// timelines (several publishers), whose "timelines" give each its own as
// simclock monitor gives each publisher's.
//
//	{"kind":"env","schema":2,"version":VERSION,"command":"bag inspect","files":[...],
//	 "window_ns":W,"periods":N,"gap_periods":N,"base_tolerance_ns":B,"future_tolerance_ns":F}
//	{"kind":"recording","name":N,"index":I,"recordings":N,"files":[...]}  before each
//	                                     recording's lines, when the paths hold several
//	{"kind":"bag","dir":D,"metadata":{"version":N,"storage_identifier":S,
//	 "relative_file_paths":[...],"duration_ns":N,"starting_time_ns":T,"message_count":N,
//	 "topics":[{"name":T,"type":TYPE,"serialization_format":"cdr","qos":[{"history":H,
//	 "depth":N,"reliability":R,"durability":D,"liveliness":L}],"type_description_hash":H?,
//	 "message_count":N}],"compression_format":F,"compression_mode":M,"files":[{"path":P,
//	 "starting_time_ns":T,"duration_ns":N,"message_count":N}]?,"custom_data":{K:V}?,"ros_distro":D?}?,
//	 "no_metadata":B?}                                                      bag directories only
//	{"kind":"file","path":P,"bytes":N,"storage":"mcap"|"sqlite3","file_compression":"zstd"?,
//	 "indexed":B,"profile":P,"library":L,"chunks":N,"messages":N,
//	 "compression":["none"|"zstd"|"lz4"],"damaged":[{"offset":N,"messages":N,"problem":P}]?,
//	 "skipped_messages":N,"summary_damage":S?,"error":E?}                   one per file
//	{"kind":"clock","present":B,"messages":N,"first_ns":V,"last_ns":V,"first_log_ns":T,
//	 "last_log_ns":T,"rate_hz":F,"period_ns":N,"step_ns":N,"rtf":F|null,"rtf_min":F|null,
//	 "rtf_max":F|null,"backward_jumps":N,"forward_jumps":N,"gaps":N,"pauses":N,
//	 "stalls":N (= pauses, old name),"sim_time_log":B,"publishers":N,
//	 "timelines":[{"id":"timeline 1","messages":N,"rate_hz":F,"rtf":F|null,"value_ns":V}]}
//	{"kind":"topic","topic":T,"type":TYPE,"encoding":"ros2msg","messages":N,"bytes":N,
//	 "first_log_ns":T,"last_log_ns":T,"rate_hz":F,"before_first_clock":N,"publishers":N,"decoded":B,
//	 "definition":"bag"|"shipped"?,"decode_errors":N,"time_fields":[{"field":"header.stamp","header":B,"count":N,"zero":N,
//	 "min_ns":V,"max_ns":V,"non_monotonic":N,"other_base":N,"future":N,"max_lead_ns":N,
//	 "reference":"clock"|"log","window_negative":N,"window_zero":N}]}        one per topic
//	{"kind":"finding","code":C,"severity":"error"|"warning"|"info","rules":["R10","R29"],
//	 "topic":T?,"field":F?,"count":N,"message":M,"fix":F,"examples":[{"log_ns":T,"value_ns":V,
//	 "ref_ns":V?,"detail":D?,"index":N,"file":F?,"element":N?,"before_ns":V?}]?}  most severe first
//	{"kind":"summary","files":N,"messages":N,"bytes":N,"topics":N,"start_log_ns":T,
//	 "end_log_ns":T,"errors":N,"warnings":N,"infos":N,"complete":B,"skipped_messages":N}
//
// # ros2 bag info
//
// Info gives what "ros2 bag info" prints (BagInfo): from metadata.yaml for
// a bag directory, as rosbag2 does, or read from the storage files given;
// "simclock bag info" prints it in rosbag2's layout. Report.OnlyTopics
// narrows a report to some topics (bag inspect --topics).
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
