// Package bag reads rosbag2 recordings in MCAP and finds the time hazards
// in them, for "simclock bag inspect" and "simclock bag clock".
//
// # Reading
//
// Inspect reads the files of one bag (a split bag is all of its files,
// ordered by their first message). A file whose summary section holds a
// chunk index is read chunk by chunk in log-time order ("indexed"); a file
// without one, or a truncated file, is read linearly. Chunks may be
// uncompressed, zstd or lz4. Schemas are parsed with package ros2msg; a
// topic whose schema is not ros2msg/cdr, or does not parse, is reported
// (unknown_schema) and skipped, never fatal. A truncated or corrupt file
// stops reading with a *ReadError naming the file, the byte offset and
// the record; the report of everything before it is returned with it,
// including the complete messages of a chunk cut by the end of the file
// (uncompressed, or zstd up to its last complete block).
// Memory stays flat: one chunk at a time, and plotted series are
// decimated to a few thousand points.
//
// # Hazards
//
// With /clock in the bag, stamps are compared with the latest /clock
// value recorded before the message; without it (the report says so,
// no_clock), with the recorder's log time. Finding codes, by severity:
//
//	error   read_error          the file is truncated or corrupt; the report covers what came before
//	error   clock_backward      /clock goes back (looped or restarted recording); R14, R22
//	error   clock_type          /clock carries another type than rosgraph_msgs/msg/Clock; R9
//	error   clock_window        /clock values ≤ W: now − W is negative or zero; R25, R27
//	error   zero_stamp          a Time field equal to 0: uninitialised time; R10, R29
//	error   time_base_mismatch  stamps more than BaseTolerance from the reference: system-time
//	                            stamps in a sim-time bag, or the reverse; R3, R30
//	error   window_negative     stamp − W < 0 (rclpy raises); R4, R27
//	error   window_zero         stamp − W == 0 (tf2 reads 0 as "latest"); R25, R27, R28
//	warning clock_gap           no /clock for more than N nominal periods of log time
//	warning clock_stall         /clock repeats one value for more than N periods (paused)
//	warning clock_jump_forward  /clock leaps more than N nominal steps without a gap; R22, R23
//	warning clock_publishers    /clock had several publishers when recorded (its offered QoS list); R18
//	warning before_first_clock  messages recorded before the first /clock; R16, R26
//	warning future_stamp        stamps ahead of the reference by more than FutureTolerance
//	warning non_monotonic_stamp stamps going backwards within a topic (array elements excluded)
//	warning not_normalized      nanosec ≥ 1e9; R8
//	warning unknown_schema      a topic that cannot be decoded; skipped
//	warning decode_error        messages that do not decode with their schema
//	info    no_clock            the bag has no /clock
//
// zero_stamp, time_base_mismatch, window_negative and window_zero are
// errors for stamps (std_msgs/Header stamps and fields named *stamp) and
// warnings for other Time fields, which may hold 0 or distant times on
// purpose.
//
// The nominal /clock period and value step are the medians over the first
// 200 /clock messages. The real-time factor is the sum of forward /clock
// steps over the log time they span; rtf_min and rtf_max are its extremes
// over successive windows of at least one second of log time.
//
// # JSON lines
//
// "simclock bag inspect --format json" writes one JSON object per line,
// each with a "kind" field; Report.JSONLines gives every line after the
// first. Fields are only ever added, never renamed. Times are integer
// nanoseconds (fields ending _ns), since the Unix epoch for log times.
//
//	{"kind":"env","schema":1,"version":VERSION,"command":"bag inspect","files":[...],
//	 "window_ns":W,"gap_periods":N,"base_tolerance_ns":B,"future_tolerance_ns":F}
//	{"kind":"file","path":P,"bytes":N,"indexed":B,"profile":"ros2","library":L,"chunks":N,
//	 "messages":N,"compression":["none"|"zstd"|"lz4"],"error":E?}           one per file
//	{"kind":"clock","present":B,"messages":N,"first_ns":V,"last_ns":V,"first_log_ns":T,
//	 "last_log_ns":T,"rate_hz":F,"period_ns":N,"step_ns":N,"rtf":F,"rtf_min":F,"rtf_max":F,"backward_jumps":N,
//	 "forward_jumps":N,"gaps":N,"stalls":N,"sim_time_log":B,"publishers":N}
//	{"kind":"topic","topic":T,"type":TYPE,"encoding":"ros2msg","messages":N,"bytes":N,
//	 "first_log_ns":T,"last_log_ns":T,"rate_hz":F,"before_first_clock":N,"publishers":N,"decoded":B,
//	 "decode_errors":N,"time_fields":[{"field":"header.stamp","header":B,"count":N,"zero":N,
//	 "min_ns":V,"max_ns":V,"non_monotonic":N,"other_base":N,"future":N,"max_lead_ns":N,
//	 "reference":"clock"|"log","window_negative":N,"window_zero":N}]}        one per topic
//	{"kind":"finding","severity":"error"|"warning"|"info","code":C,"rule":"R10,R29"?,
//	 "topic":T?,"field":F?,"count":N,"message":M,"examples":[{"log_ns":T,"value_ns":V,
//	 "ref_ns":V?,"detail":D?,"index":N,"file":F?,"element":N?,"before_ns":V?}]}  most severe first
//	{"kind":"summary","files":N,"messages":N,"bytes":N,"topics":N,"start_log_ns":T,
//	 "end_log_ns":T,"errors":N,"warnings":N,"infos":N,"complete":B}
//
// # Playing /clock
//
// Span gives a bag's log-time axis; "simclock bag clock" publishes /clock
// along it with package clockstream's Player, the one producer of /clock.
//
// # /clock analysis
//
// A bag's /clock channel read in log-time order is a clockstream.Source:
// clockstream.FromMessages adapts an iterator of (log time, publisher,
// payload), and clockstream.Analyze gives the words monitor and doctor use
// (gap, pause, backward and forward jump, RTF, publishers).
package bag
