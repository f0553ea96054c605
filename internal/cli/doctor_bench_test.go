package cli

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/simclock/simclock/doctor"
	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/internal/testdomain"
	"github.com/simclock/simclock/transport/dds"
)

// Domain ids of the doctor benchmarks.
var (
	domainBenchReport = testdomain.ID(107)
	domainBenchWatch  = testdomain.ID(108)
)

// BenchmarkDoctorReport50Nodes measures the time from start to a complete
// report of a 50-node graph (50 nodes sharing one participant, as ROS 2
// processes do, each publishing a stamped topic at 10 Hz, plus simclock
// pub): every node listed and a classified stamp on every topic. The
// baseline, in the same run, is the time until discovery alone (a bare
// graph.Graph fed by WatchGraph) lists the 50 nodes; the ratio says what
// reading stamps and /clock adds.
//
//	flock /tmp/simclock-dds.lock go test -run XXX -bench DoctorReport50 -benchtime 3x ./internal/cli
func BenchmarkDoctorReport50Nodes(b *testing.B) {
	requireDDSBench(b)
	d, nodes := domainBenchReport, 50
	bin := buildSimclock(b, b.TempDir())
	startProcB(b, d, exec.Command(bin, "pub", "--start", "1000"))
	startTestNodesB(b, d, "n", nodes, "10")
	cfg := dds.Config{Domain: uint32(d), URI: loopbackConfigURI(b)}
	var total, base time.Duration
	for b.Loop() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		// Baseline: discovery only.
		start := time.Now()
		tr, err := dds.Open(ctx, cfg)
		if err != nil {
			b.Fatal(err)
		}
		g := graph.New()
		wctx, stop := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- tr.WatchGraph(wctx, g, 10*time.Millisecond) }()
		for len(g.Snapshot().Nodes) < nodes+1 && ctx.Err() == nil {
			time.Sleep(5 * time.Millisecond)
		}
		base += time.Since(start)
		stop()
		<-done
		tr.Close() //nolint:errcheck // benchmark
		// doctor: a complete report.
		start = time.Now()
		tr, err = dds.Open(ctx, cfg)
		if err != nil {
			b.Fatal(err)
		}
		w, err := doctor.Start(ctx, tr, doctor.Options{Poll: 10 * time.Millisecond})
		if err != nil {
			b.Fatal(err)
		}
		for ctx.Err() == nil {
			r := w.Report()
			if complete(r, nodes) {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		total += time.Since(start)
		w.Close()  //nolint:errcheck // benchmark
		tr.Close() //nolint:errcheck // benchmark
		if ctx.Err() != nil {
			b.Fatal("no complete report within 60s")
		}
		cancel()
	}
	n := float64(b.N)
	b.ReportMetric(total.Seconds()/n, "s/report")
	b.ReportMetric(base.Seconds()/n, "s/discovery")
	b.ReportMetric(total.Seconds()/base.Seconds(), "report/discovery")
	b.ReportMetric(0, "ns/op")
}

func complete(r doctor.Report, nodes int) bool {
	if len(r.Nodes) < nodes+1 || len(r.Clock) == 0 {
		return false
	}
	stamped := 0
	for _, t := range r.Topics {
		if t.Samples > 0 {
			stamped++
		}
	}
	return stamped >= nodes
}

// BenchmarkDoctorWatch100Topics measures the CPU time and peak memory of
// simclock doctor watching 100 stamped topics at 100 Hz each (100 nodes
// in one participant, plus simclock pub at 100 Hz) for 5 s, as ratios to
// simclock monitor alone on the same graph for the same time.
//
//	flock /tmp/simclock-dds.lock go test -run XXX -bench DoctorWatch100 -benchtime 1x ./internal/cli
func BenchmarkDoctorWatch100Topics(b *testing.B) {
	requireDDSBench(b)
	d, topics := domainBenchWatch, 100
	bin := buildSimclock(b, b.TempDir())
	startProcB(b, d, exec.Command(bin, "pub", "--start", "1000"))
	startTestNodesB(b, d, "hz", topics, "100")
	var cpuDoctor, cpuMonitor time.Duration
	var rssDoctor, rssMonitor int64
	for b.Loop() {
		run := func(args ...string) (time.Duration, int64) {
			cmd := exec.Command(bin, args...)
			cmd.Env = ddsEnv(b, d)
			if err := cmd.Run(); err != nil {
				var ee *exec.ExitError
				if !errors.As(err, &ee) {
					b.Fatal(err)
				}
			}
			st := cmd.ProcessState
			ru := st.SysUsage().(*syscall.Rusage)
			return st.UserTime() + st.SystemTime(), ru.Maxrss
		}
		c, m := run("monitor", "--duration", "5s", "--format", "json")
		cpuMonitor += c
		rssMonitor += m
		c, m = run("doctor", "--duration", "5s", "--format", "json")
		cpuDoctor += c
		rssDoctor += m
	}
	n := float64(b.N)
	b.ReportMetric(cpuDoctor.Seconds()/n, "doctor-cpu-s")
	b.ReportMetric(cpuMonitor.Seconds()/n, "monitor-cpu-s")
	b.ReportMetric(cpuDoctor.Seconds()/cpuMonitor.Seconds(), "cpu-ratio")
	b.ReportMetric(float64(rssDoctor)/n/1024, "doctor-maxrss-MiB")
	b.ReportMetric(float64(rssDoctor)/float64(rssMonitor), "maxrss-ratio")
	b.ReportMetric(0, "ns/op")
}

func requireDDSBench(b *testing.B) {
	b.Helper()
	if err := dds.Available(); err != nil {
		b.Skipf("Cyclone DDS is not installed: %v", err)
	}
}

func startProcB(b *testing.B, domain int, cmd *exec.Cmd) {
	b.Helper()
	cmd.Env = append(ddsEnv(b, domain), cmd.Env...)
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGINT) //nolint:errcheck // may have exited
		cmd.Wait()                         //nolint:errcheck // interrupted
	})
}

// startTestNodesB starts one process of count sim-time nodes, each
// publishing its own stamped topic at hz, and waits until a participant
// of the domain sees them all.
func startTestNodesB(b *testing.B, domain int, name string, count int, hz string) {
	b.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = []string{testNodeEnv + "=" + name, "SIMCLOCK_TEST_NODES=" + strconv.Itoa(count),
		"SIMCLOCK_TEST_SIM_TIME=1", "SIMCLOCK_TEST_TOPIC=/" + name, "SIMCLOCK_TEST_RATE=" + hz}
	startProcB(b, domain, cmd)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tr, err := dds.Open(ctx, dds.Config{Domain: uint32(domain), URI: loopbackConfigURI(b)})
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close() //nolint:errcheck // benchmark setup
	g := graph.New()
	wctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- tr.WatchGraph(wctx, g, 10*time.Millisecond) }()
	for len(g.Snapshot().Nodes) < count && ctx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	<-done
	if ctx.Err() != nil {
		b.Fatalf("the %d test nodes did not show up within 60s", count)
	}
}
