package benchreport

// Rows are the figures the README states, each measured against a
// baseline in the same run. Adding a figure is one line here (and, for a
// new package or benchtime, nothing else): scripts/bench runs it and the
// README table grows a row.
//
// Ratio is Bench's Metric divided by Base's BaseMetric; when Base is
// empty, Metric is a ratio the benchmark computes itself against
// baselines it runs alongside, interleaved: the figure and its baselines
// alternate in short segments of equal length (internal/benchround: 2 ms
// in one process, one whole pass each for inspect and lint, 2 s between
// processes for DDS), and the metric is the median of the per-round
// ratios. Benchtime is the rounds a repetition: few, so that scripts/bench
// runs 15 repetitions in about the time 5 took with three times the
// rounds (a row that has not moved then stays inside the previous run's
// min–max with probability 0.998 instead of 0.833, InsideChance), and at
// least one: 100 of 2 ms in one process, one pass of lint and doctor's
// watch (doctor's report, 3 of a fraction of a second; inspect, 9 of 30
// to 100 ms, after an unmeasured round, benchround.Config.WarmRound: at
// one pass a repetition its ratio split by which side ran first), one
// round of 2 s segments for DDS; the sides' order alternates between
// rounds and, through benchround.FirstRoundEnv, between repetitions. The lint rows compare CPU time
// (benchround.Config.CPU): both sides run on every core, and wall time
// says how busy the shared machine was. Rows whose sides run on one
// goroutine (Now() with 1 reader, ingest, timer dispatch, /clock
// analysis) compare the CPU time of the thread that ran each segment
// (benchround.Config.ThreadCPU): wall time counts the time a loaded
// machine kept it off a core. Markdown's paragraph names them; a row that
// changes its measure changes it there too. Baselines do the same kind of work as
// the figure (rcl's clock read, a bare decode and store, a bare timer
// heap, the C pong and ddsperf, the mcap library's loop, the sqlite3
// tool, a bare tree-sitter parse), so that the ratio travels between
// machines.
var Rows = []Row{
	{Figure: "ROS clock Now(), sim time on, 1 reader ÷ rcl's read (atomic flag, atomic time) in Go", Pkg: ".", Bench: "BenchmarkNowOverride/readers=1", Metric: "ratio_rcl", Show: "fig_ns/op", ShowBase: "rcl_ns/op", Benchtime: "100x"},
	{Figure: "the same, 8 readers at once ÷ rcl's read by 8", Pkg: ".", Bench: "BenchmarkNowOverride/readers=8", Metric: "ratio_rcl", Show: "fig_ns/op", ShowBase: "rcl_ns/op", Benchtime: "100x"},
	{Figure: "/clock applied to 1 clock, 1 000 timers ÷ a bare decode, store and deadline check", Pkg: "./timesource", Bench: "BenchmarkIngest/interleaved/clocks=1", Metric: "ratio_bare", Show: "fig_ns/op", ShowBase: "bare_ns/op", Benchtime: "100x"},
	{Figure: "/clock applied to 100 clocks, 100 000 timers ÷ the same bare ingest", Pkg: "./timesource", Bench: "BenchmarkIngest/interleaved/clocks=100", Metric: "ratio_bare", Show: "updates/s", ShowBase: "bare_updates/s", Target: "≥ 5 M updates/s", Benchtime: "100x"},
	{Figure: "/clock applied to 100 clocks, 100 000 timers ÷ 1 clock, 1 000 timers", Pkg: "./timesource", Bench: "BenchmarkIngest/interleaved/clocks=100", Metric: "ratio_one", Show: "fig_ns/op", ShowBase: "one_ns/op", Target: "≤ 1 (O(1))", Benchtime: "100x"},
	{Figure: "timer dispatch, 100 000 timers, per callback ÷ a bare timer heap calling the same callbacks", Pkg: "./executor", Bench: "BenchmarkDispatchInterleaved", Metric: "ratio_bare", Show: "ns/callback", ShowBase: "bare_ns/callback", Target: "≤ 3", Benchtime: "100x"},
	{Figure: "`bag inspect`, 100 MB of 4 kB scans: speed ÷ the mcap library's read loop (higher is better)", Pkg: "./bag", Bench: "BenchmarkInspect/chunked", Metric: "lib-ratio", Show: "inspect-MB/s", ShowBase: "lib-MB/s", Benchtime: "9x"},
	{Figure: "`bag inspect`, 100 MB of small messages: speed ÷ the mcap library's read loop (higher is better)", Pkg: "./bag", Bench: "BenchmarkSmallMessages/none", Metric: "lib-ratio", Show: "inspect-MB/s", ShowBase: "lib-MB/s", Target: "≥ 0.9", Benchtime: "9x"},
	{Figure: "the same, zstd chunks (higher is better)", Pkg: "./bag", Bench: "BenchmarkSmallMessages/zstd", Metric: "lib-ratio", Show: "inspect-MB/s", ShowBase: "lib-MB/s", Target: "≥ 0.8", Benchtime: "9x"},
	{Figure: "the same, lz4 chunks (higher is better)", Pkg: "./bag", Bench: "BenchmarkSmallMessages/lz4", Metric: "lib-ratio", Show: "inspect-MB/s", ShowBase: "lib-MB/s", Target: "≥ 0.8", Benchtime: "9x"},
	{Figure: "`bag inspect`, 25 MB .db3 of small messages: time ÷ the sqlite3 tool's full scan", Pkg: "./bag", Bench: "BenchmarkInspectDB3", Metric: "x_sqlite3", Show: "inspect-MB/s", ShowBase: "sqlite3-MB/s", Target: "≤ 1.2", Benchtime: "9x"},
	{Figure: "`lint`, generated files: CPU time ÷ a bare tree-sitter parse's of the files", Pkg: "./lint", Bench: "BenchmarkLint/lint", Metric: "x_parse", Show: "files/cpu_s", ShowBase: "parse_files/cpu_s", Benchtime: "1x"},
	{Figure: "`lint`, 3 000 files shaped like autoware.universe: CPU time ÷ a bare tree-sitter parse's", Pkg: "./lint", Bench: "BenchmarkLintReal/lint", Metric: "x_parse", Show: "files/cpu_s", ShowBase: "parse_files/cpu_s", Benchtime: "1x"},
	{Figure: "/clock analysis (rate, gaps, pauses, jumps, RTF) per message ÷ decoding it alone", Pkg: "./clockstream", Bench: "BenchmarkAnalyzerInterleaved", Metric: "ratio_decode", Show: "fig_ns/op", ShowBase: "decode_ns/op", Benchtime: "100x"},
	{Figure: "/clock one-way latency over DDS, back to back ÷ the C pong", Pkg: "./transport/dds", Bench: "BenchmarkClockRoundTrip/back_to_back", Metric: "ratio_c", Show: "oneway_median_us", ShowBase: "c_oneway_median_us", Benchtime: "1x"},
	{Figure: "/clock one-way latency over DDS, back to back ÷ ddsperf (waitset)", Pkg: "./transport/dds", Bench: "BenchmarkClockRoundTrip/back_to_back", Metric: "ratio_ddsperf", Show: "oneway_median_us", ShowBase: "ddsperf_oneway_median_us", Target: "≤ 1.3", Benchtime: "1x"},
	{Figure: "/clock one-way latency over DDS, 500 Hz ÷ the C pong", Pkg: "./transport/dds", Bench: "BenchmarkClockRoundTrip/500Hz", Metric: "ratio_c", Show: "oneway_median_us", ShowBase: "c_oneway_median_us", Benchtime: "1x"},
	{Figure: "/clock one-way latency over DDS, 500 Hz ÷ ddsperf (waitset)", Pkg: "./transport/dds", Bench: "BenchmarkClockRoundTrip/500Hz", Metric: "ratio_ddsperf", Show: "oneway_median_us", ShowBase: "ddsperf_oneway_median_us", Target: "≤ 1.3", Benchtime: "1x"},
	{Figure: "/clock over DDS into a node's clock (time source on an executor), back to back ÷ the C pong", Pkg: "./transport/dds", Bench: "BenchmarkClockRoundTrip/back_to_back/node", Metric: "ratio_c", Show: "oneway_median_us", ShowBase: "c_oneway_median_us", Target: "≤ 1.1", Benchtime: "1x"},
	{Figure: "into a node's clock, back to back ÷ ddsperf (waitset)", Pkg: "./transport/dds", Bench: "BenchmarkClockRoundTrip/back_to_back/node", Metric: "ratio_ddsperf", Show: "oneway_median_us", ShowBase: "ddsperf_oneway_median_us", Target: "≤ 1.3", Benchtime: "1x"},
	{Figure: "/clock over DDS into a node's clock, 500 Hz ÷ the C pong", Pkg: "./transport/dds", Bench: "BenchmarkClockRoundTrip/500Hz/node", Metric: "ratio_c", Show: "oneway_median_us", ShowBase: "c_oneway_median_us", Target: "≤ 1.1", Benchtime: "1x"},
	{Figure: "into a node's clock, 500 Hz ÷ ddsperf (waitset)", Pkg: "./transport/dds", Bench: "BenchmarkClockRoundTrip/500Hz/node", Metric: "ratio_ddsperf", Show: "oneway_median_us", ShowBase: "ddsperf_oneway_median_us", Target: "≤ 1.3", Benchtime: "1x"},
	{Figure: "/clock from the C ping into a simclock node's clock (its jump callback echoes), back to back ÷ the C pong", Pkg: "./transport/dds", Bench: "BenchmarkClockRoundTrip/back_to_back/node", Metric: "ratio_cping_node_c", Show: "cping_node_oneway_median_us", ShowBase: "c_oneway_median_us", Target: "≤ 1.1", Benchtime: "1x"},
	{Figure: "the same, back to back ÷ ddsperf (waitset)", Pkg: "./transport/dds", Bench: "BenchmarkClockRoundTrip/back_to_back/node", Metric: "ratio_cping_node_ddsperf", Show: "cping_node_oneway_median_us", ShowBase: "ddsperf_oneway_median_us", Target: "≤ 1.3", Benchtime: "1x"},
	{Figure: "/clock from the C ping into a simclock node's clock, 500 Hz ÷ the C pong", Pkg: "./transport/dds", Bench: "BenchmarkClockRoundTrip/500Hz/node", Metric: "ratio_cping_node_c", Show: "cping_node_oneway_median_us", ShowBase: "c_oneway_median_us", Target: "≤ 1.1", Benchtime: "1x"},
	{Figure: "the same, 500 Hz ÷ ddsperf (waitset)", Pkg: "./transport/dds", Bench: "BenchmarkClockRoundTrip/500Hz/node", Metric: "ratio_cping_node_ddsperf", Show: "cping_node_oneway_median_us", ShowBase: "ddsperf_oneway_median_us", Target: "≤ 1.3", Benchtime: "1x"},
	{Figure: "sustained /clock rate, reliable, received by a transport.Receive loop ÷ the C flood to a C sink (higher is better)", Pkg: "./transport/dds", Bench: "BenchmarkClockRate", Metric: "ratio_c", Show: "received_msgs/s", ShowBase: "c_msgs/s", Benchtime: "1x"},
	{Figure: "`simclock doctor`, 10-node graph: time to a full report ÷ discovery alone", Pkg: "./internal/cli", Bench: "BenchmarkDoctorReport/nodes=10", Metric: "report/discovery", Show: "s/report", ShowBase: "s/discovery", Benchtime: "3x"},
	{Figure: "the same, 50 nodes", Pkg: "./internal/cli", Bench: "BenchmarkDoctorReport/nodes=50", Metric: "report/discovery", Show: "s/report", ShowBase: "s/discovery", Benchtime: "3x"},
	{Figure: "the same, 200 nodes", Pkg: "./internal/cli", Bench: "BenchmarkDoctorReport/nodes=200", Metric: "report/discovery", Show: "s/report", ShowBase: "s/discovery", Benchtime: "3x"},
	{Figure: "`simclock doctor` on 100 topics at 100 Hz and /clock at 1 kHz: CPU per sample ÷ `simclock monitor`'s per /clock sample", Pkg: "./internal/cli", Bench: "BenchmarkDoctorWatch100Topics", Metric: "cpu-per-sample-ratio", Show: "doctor-cpu-us/sample", ShowBase: "monitor-cpu-us/sample", Benchtime: "1x"},
}
