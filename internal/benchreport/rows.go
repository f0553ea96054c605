package benchreport

// Rows are the figures the README states, each measured against a
// baseline in the same run. Adding a figure is one line here (and, for a
// new package or benchtime, nothing else): scripts/bench runs it and the
// README table grows a row.
//
// Ratio is Bench's Metric divided by Base's BaseMetric; when Base is
// empty, Metric is a ratio the benchmark computes itself against a
// baseline it runs alongside (ddsperf, a raw read).
var Rows = []Row{
	{Figure: "ROS clock Now(), sim time on, 1 reader ÷ atomic load", Pkg: ".", Bench: "BenchmarkNowOverride/readers=1/ros_override", Metric: "ns/op", Base: "BenchmarkNowOverride/readers=1/atomic.Int64", BaseMetric: "ns/op", Benchtime: "200000x"},
	{Figure: "the same, 8 readers ÷ atomic load", Pkg: ".", Bench: "BenchmarkNowOverride/readers=8/ros_override", Metric: "ns/op", Base: "BenchmarkNowOverride/readers=8/atomic.Int64", BaseMetric: "ns/op", Benchtime: "200000x"},
	{Figure: "/clock applied to 1 clock, 1 000 timers ÷ atomic store", Pkg: "./timesource", Bench: "BenchmarkIngest/clocks=1/timers=1000", Metric: "ns/op", Base: "BenchmarkIngest/baseline=atomic_store", BaseMetric: "ns/op", Benchtime: "0.2s"},
	{Figure: "/clock applied to 100 clocks, 100 000 timers ÷ atomic store", Pkg: "./timesource", Bench: "BenchmarkIngest/clocks=100/timers=100000", Metric: "ns/op", Base: "BenchmarkIngest/baseline=atomic_store", BaseMetric: "ns/op", Show: "updates/s", ShowBase: "updates/s", Target: "≥ 5 M updates/s", Benchtime: "0.2s"},
	{Figure: "/clock applied to 100 clocks, 100 000 timers ÷ 1 clock", Pkg: "./timesource", Bench: "BenchmarkIngest/clocks=100/timers=100000", Metric: "ns/op", Base: "BenchmarkIngest/clocks=1/timers=1000", BaseMetric: "ns/op", Target: "≤ 1 (O(1))", Benchtime: "0.2s"},
	{Figure: "timer dispatch, 100 000 timers, per callback ÷ bare container/heap pop+push", Pkg: "./executor", Bench: "BenchmarkDispatch/timers=100000", Metric: "ns/callback", Base: "BenchmarkDispatch/baseline=container_heap/timers=100000", BaseMetric: "ns/callback", Target: "≤ 3", Benchtime: "2000x"},
	{Figure: "`bag inspect`, 100 MB chunked: speed ÷ raw read of the file (higher is better)", Pkg: "./bag", Bench: "BenchmarkInspect/chunked/inspect", Metric: "raw-ratio", Show: "MB/s", Benchtime: "3x"},
	{Figure: "`bag inspect`, 100 MB of small messages: speed ÷ the mcap library's own read loop (higher is better)", Pkg: "./bag", Bench: "BenchmarkSmallMessages", Metric: "lib-ratio", Show: "inspect-MB/s", ShowBase: "lib-MB/s", Benchtime: "3x"},
	{Figure: "`lint`, generated files: time ÷ plain read of the files", Pkg: "./lint", Bench: "BenchmarkLint/lint", Metric: "x_read", Show: "files/s", Benchtime: "3x"},
	{Figure: "`lint`, 3 000 files shaped like autoware.universe: time ÷ plain read of the files", Pkg: "./lint", Bench: "BenchmarkLintReal/lint", Metric: "x_read", Show: "files/s", Benchtime: "3x"},
	{Figure: "/clock analysis (rate, gaps, pauses, jumps, RTF) per message ÷ decoding it alone", Pkg: "./clockstream", Bench: "BenchmarkAnalyzerObserve", Metric: "ns/op", Base: "BenchmarkDecode", BaseMetric: "ns/op", Benchtime: "200000x"},
	{Figure: "/clock one-way latency over DDS, back to back ÷ ddsperf waitset", Pkg: "./transport/dds", Bench: "BenchmarkClockRoundTrip/back_to_back", Metric: "ratio_waitset", Show: "oneway_median_us", ShowBase: "ddsperf_waitset_oneway_median_us", Target: "≤ 1.3", Benchtime: "3000x"},
	{Figure: "/clock one-way latency over DDS, 500 Hz ÷ ddsperf waitset", Pkg: "./transport/dds", Bench: "BenchmarkClockRoundTrip/500Hz", Metric: "ratio_waitset", Show: "oneway_median_us", ShowBase: "ddsperf_waitset_oneway_median_us", Target: "≤ 1.3", Benchtime: "3000x"},
	{Figure: "/clock one-way latency over DDS to a node's clock (time source on an executor), back to back ÷ ddsperf waitset", Pkg: "./transport/dds", Bench: "BenchmarkClockRoundTrip/back_to_back/node", Metric: "ratio_waitset", Show: "oneway_median_us", ShowBase: "ddsperf_waitset_oneway_median_us", Target: "≤ 1.3", Benchtime: "3000x"},
	{Figure: "sustained /clock rate, reliable, received by a transport.Receive loop ÷ ddsperf throughput mode (higher is better)", Pkg: "./transport/dds", Bench: "BenchmarkClockRate", Metric: "ratio_ddsperf", Show: "received_msgs/s", ShowBase: "ddsperf_msgs/s", Benchtime: "200000x"},
	{Figure: "`simclock doctor`, 50-node graph: time to a full report ÷ discovery alone", Pkg: "./internal/cli", Bench: "BenchmarkDoctorReport50Nodes", Metric: "report/discovery", Show: "s/report", ShowBase: "s/discovery", Benchtime: "3x"},
	{Figure: "`simclock doctor` watching 100 topics at 100 Hz: CPU ÷ `simclock monitor` alone", Pkg: "./internal/cli", Bench: "BenchmarkDoctorWatch100Topics", Metric: "cpu-ratio", Show: "doctor-cpu-s", ShowBase: "monitor-cpu-s", Benchtime: "1x"},
}
