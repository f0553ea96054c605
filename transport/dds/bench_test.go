package dds_test

// Benchmarks of /clock over DDS between two processes on loopback, side
// by side with Cyclone's ddsperf on the same configuration and payload
// size. The second process is this test binary re-executed as a peer
// (SIMCLOCK_BENCH_PEER=pong|sink) using the same dds transport and the
// same Notify/Take path as simclock monitor.
//
//	go test -run '^$' -bench . -benchtime 20000x ./transport/dds

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/timesource"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/dds"
)

const (
	domainBenchRTT    = 66
	domainBenchRate   = 67
	domainBenchInProc = 68
	pongTopic         = "/clock_pong"
)

func init() {
	// Re-executed as a benchmark peer: serve, then exit.
	if mode := os.Getenv("SIMCLOCK_BENCH_PEER"); mode != "" {
		os.Exit(benchPeer(mode))
	}
}

// benchPeer is the second process: "pong" echoes every /clock on
// /clock_pong; "sink" counts /clock messages and prints the count on
// each stop marker (sec = -1). It exits when stdin closes.
func benchPeer(mode string) int {
	domain, _ := strconv.Atoi(os.Getenv("ROS_DOMAIN_ID"))
	tr, err := dds.Open(context.Background(), dds.Config{Domain: uint32(domain), URI: os.Getenv("CYCLONEDDS_URI")})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer tr.Close() //nolint:errcheck // exiting
	ctx, cancel := context.WithCancel(context.Background())
	go func() { io.Copy(io.Discard, os.Stdin); cancel() }() //nolint:errcheck // EOF ends the peer
	q := transport.QoS{Depth: 1000, Reliability: transport.Reliable}
	sub, err := tr.Subscribe(timemsg.ClockTopic, timemsg.ClockTypeName, q)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	switch mode {
	case "pong":
		pub, err := tr.Publisher(pongTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println("ready")
		transport.Receive(ctx, sub, func(s transport.Sample) { pub.Publish(ctx, s.Data) }) //nolint:errcheck // ends with stdin
	case "sink":
		fmt.Println("ready")
		n := 0
		transport.Receive(ctx, sub, func(s transport.Sample) { //nolint:errcheck // ends with stdin
			if int32(binary.LittleEndian.Uint32(s.Data[4:8])) == -1 {
				fmt.Printf("count %d\n", n)
				n = 0
				return
			}
			n++
		})
	}
	return 0
}

// startPeer runs this binary as a benchmark peer and waits for "ready".
func startPeer(b *testing.B, mode string, domain int) (lines *bufio.Scanner) {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(peerEnv(&testing.T{}, domain), "SIMCLOCK_BENCH_PEER="+mode)
	cmd.Env = append(cmd.Env, "CYCLONEDDS_URI="+loopbackURI(b))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stdin.Close(); cmd.Wait() }) //nolint:errcheck // peer exits on EOF
	sc := bufio.NewScanner(stdout)
	if !sc.Scan() || sc.Text() != "ready" {
		b.Fatalf("benchmark peer did not start: %q", sc.Text())
	}
	return sc
}

// ddsperfSeconds is how long a ddsperf baseline runs: 5 s, or 1 s when
// the benchmark only checks that it still runs (-benchtime 1x).
func ddsperfSeconds(t testing.TB) int {
	if b, ok := t.(*testing.B); ok && b.N < 100 {
		return 1
	}
	return 5
}

// ddsperfResult is ddsperf ping/pong's round trip in one trigger mode.
type ddsperfResult struct {
	meanUs, medianUs float64
	err              error
}

// ddsperfLatency runs ddsperf ping/pong for ddsperfSeconds with 12-byte payloads on
// the loopback configuration, back to back (rate "") or at a rate
// ("500Hz"), in mode ("waitset" or "listener"), and returns the mean and
// median latency it reports in µs, averaged over its 1 s reports. ddsperf
// reports half the round trip, (now - ping time) / 2 (process_pong in
// ddsperf.c), so these compare with oneway_median_us.
func ddsperfLatency(t testing.TB, rate, mode string) ddsperfResult {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	env := append(peerEnv(&testing.T{}, domainDDSPerf), "CYCLONEDDS_URI="+loopbackURI(t))
	secs := ddsperfSeconds(t)
	pong := exec.CommandContext(ctx, "ddsperf", "-D", strconv.Itoa(secs+2), "-i", strconv.Itoa(domainDDSPerf), "pong", mode)
	pong.Env = env
	if err := pong.Start(); err != nil {
		return ddsperfResult{err: err}
	}
	defer pong.Wait()         //nolint:errcheck // ends by -D
	defer pong.Process.Kill() //nolint:errcheck // may have exited
	args := []string{"-D", strconv.Itoa(secs), "-i", strconv.Itoa(domainDDSPerf), "ping"}
	if rate != "" {
		args = append(args, rate)
	}
	ping := exec.CommandContext(ctx, "ddsperf", append(args, "size", "12", mode)...)
	ping.Env = env
	out, err := ping.CombinedOutput()
	if err != nil {
		return ddsperfResult{err: fmt.Errorf("ddsperf: %v\n%s", err, out)}
	}
	var r ddsperfResult
	var n int
	for _, m := range regexp.MustCompile(`size 12 mean ([0-9.]+)us min [0-9.]+us 50% ([0-9.]+)us`).FindAllSubmatch(out, -1) {
		mean, _ := strconv.ParseFloat(string(m[1]), 64)
		med, _ := strconv.ParseFloat(string(m[2]), 64)
		r.meanUs += mean
		r.medianUs += med
		n++
	}
	if n == 0 {
		return ddsperfResult{err: fmt.Errorf("ddsperf printed no latency:\n%s", out)}
	}
	r.meanUs /= float64(n)
	r.medianUs /= float64(n)
	return r
}

// BenchmarkClockRoundTrip measures /clock round trips between two
// processes (publish, peer echoes, take); one-way latency is half, which
// is what ddsperf reports too. It runs back to back and paced at 500 Hz (a
// /clock rate), and compares the median with ddsperf ping/pong run the
// same way right after, in waitset mode (how simclock waits) and listener
// mode (ddsperf's default): ratio_* = simclock one-way / ddsperf.
//
// The "node" variants receive the echo the way a node with use_sim_time
// does: a time source on a real-time executor applies it to a ROS clock
// (waiter → executor wake-up → take → decode → shared cell), with the
// benchmark goroutine spinning the executor until the clock reads it.
func BenchmarkClockRoundTrip(b *testing.B) {
	b.Run("back_to_back", func(b *testing.B) { benchRoundTrip(b, 0, "", false) })
	b.Run("500Hz", func(b *testing.B) { benchRoundTrip(b, 2*time.Millisecond, "500Hz", false) })
	b.Run("back_to_back/node", func(b *testing.B) { benchRoundTrip(b, 0, "", true) })
}

func benchRoundTrip(b *testing.B, every time.Duration, rate string, node bool) {
	requireDDS(b)
	startPeer(b, "pong", domainBenchRTT)
	tr := open(b, domainBenchRTT)
	pub, err := tr.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	buf := make([]byte, 0, timemsg.ClockSize)
	var (
		sub     transport.Subscription
		e       *executor.Executor
		clock   *simclock.ROSClock
		matched func() bool
	)
	if node {
		e = executor.New(executor.Config{})
		defer e.Close()
		q := transport.QoS{Depth: 10, Reliability: transport.Reliable}
		ts := timesource.New(tr, e.Subscribe, timesource.Options{Topic: pongTopic, QoS: &q})
		defer ts.Close()
		clock = simclock.NewROSClock()
		ts.AttachClock(clock)
		if err := ts.SetUseSimTime(true); err != nil {
			b.Fatal(err)
		}
		matched = func() bool { return len(ts.Publishers()) > 0 }
	} else {
		sub, err = tr.Subscribe(pongTopic, timemsg.ClockTypeName, transport.QoS{Depth: 10, Reliability: transport.Reliable})
		if err != nil {
			b.Fatal(err)
		}
		matched = func() bool { return len(sub.MatchedPublishers()) > 0 }
	}
	// A watchdog ends a round trip that never completes. It replaces a
	// timeout per round trip: arming a timer wakes the Go runtime's
	// poller thread, a cost that neither simclock's receive path nor
	// ddsperf has.
	wctx, stopWatch := context.WithCancel(ctx)
	var (
		progress atomic.Int64
		watch    sync.WaitGroup
	)
	watch.Go(func() {
		tick := time.NewTicker(2 * time.Second)
		defer tick.Stop()
		last := int64(-1)
		for {
			select {
			case <-wctx.Done():
				return
			case <-tick.C:
				if n := progress.Load(); n == last {
					stopWatch()
					return
				} else {
					last = n
				}
			}
		}
	})
	defer watch.Wait()
	defer stopWatch()
	// Round trip i carries i+2000 s: positive and increasing from the
	// warm-up (i = -1000) on, as /clock must be for a time source.
	roundTrip := func(i int) {
		defer progress.Add(1)
		sec := int32(i + 2000)
		buf = timemsg.AppendClock(buf[:0], timemsg.Clock{Clock: timemsg.Time{Sec: sec}})
		if err := pub.Publish(ctx, buf); err != nil {
			b.Fatal(err)
		}
		if node {
			want := int64(sec) * 1e9
			if err := e.SpinUntil(wctx, func() bool { return clock.Now().Nanoseconds() >= want }); err != nil {
				b.Fatalf("no pong for ping %d: %v", i, err)
			}
			return
		}
		for {
			// Wait in the waitset on this thread, as ddsperf's waitset
			// mode does (transport.Receive does the same).
			if err := sub.(transport.Waiter).Wait(wctx); err != nil {
				b.Fatalf("no pong for ping %d: %v", i, err)
			}
			for {
				s, ok := sub.Take()
				if !ok {
					break
				}
				if int32(binary.LittleEndian.Uint32(s.Data[4:8])) == sec {
					return
				}
			}
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for !matched() || pub.MatchedSubscriptions() == 0 {
		if time.Now().After(deadline) {
			b.Fatal("peer did not match")
		}
		time.Sleep(5 * time.Millisecond)
	}
	for i := range 1000 { // warm up
		roundTrip(-1000 + i)
	}
	rtts := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	i := 0
	next := time.Now()
	for b.Loop() {
		if every > 0 {
			next = next.Add(every)
			time.Sleep(time.Until(next))
		}
		t0 := time.Now()
		roundTrip(i)
		rtts = append(rtts, time.Since(t0))
		i++
	}
	b.StopTimer()
	slices.Sort(rtts)
	mean := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / 1e3
	median := float64(rtts[len(rtts)/2].Nanoseconds()) / 1e3
	if every == 0 {
		b.ReportMetric(mean, "rtt_mean_us")
	}
	b.ReportMetric(median, "rtt_median_us")
	b.ReportMetric(median/2, "oneway_median_us")
	for _, ref := range []struct {
		name string
		r    ddsperfResult
	}{{"waitset", ddsperfLatency(b, rate, "waitset")}, {"listener", ddsperfLatency(b, rate, "listener")}} {
		if ref.r.err != nil {
			b.Logf("no ddsperf %s baseline: %v", ref.name, ref.r.err)
			continue
		}
		b.ReportMetric(ref.r.medianUs, "ddsperf_"+ref.name+"_oneway_median_us")
		b.ReportMetric(median/2/ref.r.medianUs, "ratio_"+ref.name)
	}
}

// BenchmarkClockRate publishes /clock as fast as a reliable writer
// accepts to a peer process and reports what the peer received per second
// (the peer reads with transport.Receive, as a monitor does), against
// ddsperf's throughput mode with the same payload size right after:
// ratio_ddsperf = simclock's rate / ddsperf's.
func BenchmarkClockRate(b *testing.B) {
	requireDDS(b)
	lines := startPeer(b, "sink", domainBenchRate)
	tr := open(b, domainBenchRate)
	pub, err := tr.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.QoS{Depth: 1000, Reliability: transport.Reliable})
	if err != nil {
		b.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for pub.MatchedSubscriptions() == 0 {
		if time.Now().After(deadline) {
			b.Fatal("peer did not match")
		}
		time.Sleep(5 * time.Millisecond)
	}
	ctx := context.Background()
	buf := make([]byte, 0, timemsg.ClockSize)
	b.ResetTimer()
	start := time.Now()
	i := 0
	for b.Loop() {
		buf = timemsg.AppendClock(buf[:0], timemsg.Clock{Clock: timemsg.Time{Sec: int32(i & 0x3fffffff)}})
		if err := pub.Publish(ctx, buf); err != nil {
			b.Fatal(err)
		}
		i++
	}
	if err := pub.Publish(ctx, timemsg.AppendClock(buf[:0], timemsg.Clock{Clock: timemsg.Time{Sec: -1}})); err != nil {
		b.Fatal(err)
	}
	if !lines.Scan() {
		b.Fatal("sink gave no count")
	}
	elapsed := time.Since(start)
	n, _ := strconv.Atoi(regexp.MustCompile(`\d+`).FindString(lines.Text()))
	rate := float64(n) / elapsed.Seconds()
	b.ReportMetric(rate, "received_msgs/s")
	b.ReportMetric(100*float64(b.N-n)/float64(b.N), "lost_%")
	if ref, err := ddsperfThroughput(b); err != nil {
		b.Logf("no ddsperf throughput baseline: %v", err)
	} else {
		b.ReportMetric(ref, "ddsperf_msgs/s")
		b.ReportMetric(rate/ref, "ratio_ddsperf")
	}
}

// ddsperfThroughput runs ddsperf's throughput mode (pub and sub, 12-byte
// samples, reliable, keep-last 1000 as simclock's writer and reader, as
// fast as it goes) for ddsperfSeconds on the loopback
// configuration and returns the median of the subscriber's per-second
// rates.
func ddsperfThroughput(t testing.TB) (float64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	env := append(peerEnv(&testing.T{}, domainDDSPerf), "CYCLONEDDS_URI="+loopbackURI(t))
	dom := strconv.Itoa(domainDDSPerf)
	secs := ddsperfSeconds(t)
	// The same QoS as simclock's: reliable, keep-last 1000 on both sides.
	sub := exec.CommandContext(ctx, "ddsperf", "-k", "1000", "-D", strconv.Itoa(secs+1), "-i", dom, "sub")
	sub.Env = env
	var out strings.Builder
	sub.Stdout, sub.Stderr = &out, &out
	if err := sub.Start(); err != nil {
		return 0, err
	}
	pub := exec.CommandContext(ctx, "ddsperf", "-k", "1000", "-D", strconv.Itoa(secs), "-i", dom, "pub", "size", "12")
	pub.Env = env
	if b, err := pub.CombinedOutput(); err != nil {
		sub.Process.Kill() //nolint:errcheck // failing anyway
		sub.Wait()         //nolint:errcheck // idem
		return 0, fmt.Errorf("ddsperf pub: %v\n%s", err, b)
	}
	sub.Wait() //nolint:errcheck // ends by -D
	var rates []float64
	for _, m := range regexp.MustCompile(`size 12 total \d+ lost \d+ delta \d+ lost \d+ rate ([0-9.]+) kS/s`).FindAllStringSubmatch(out.String(), -1) {
		r, _ := strconv.ParseFloat(m[1], 64)
		if r > 1 { // the seconds before the publisher started and after it ended
			rates = append(rates, r*1e3)
		}
	}
	if len(rates) == 0 {
		return 0, fmt.Errorf("ddsperf sub printed no rate:\n%s", out.String())
	}
	slices.Sort(rates)
	return rates[len(rates)/2], nil
}

// BenchmarkClockRoundTripInProcess is the same round trip between two
// participants of one process (Cyclone delivers locally, no sockets): it
// isolates the cost of the Go side (waitset wake-up, Notify, Take).
func BenchmarkClockRoundTripInProcess(b *testing.B) {
	requireDDS(b)
	a, c := open(b, domainBenchInProc), open(b, domainBenchInProc)
	pub, err := a.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
	if err != nil {
		b.Fatal(err)
	}
	sub, err := a.Subscribe(pongTopic, timemsg.ClockTypeName, transport.QoS{Depth: 10, Reliability: transport.Reliable})
	if err != nil {
		b.Fatal(err)
	}
	psub, err := c.Subscribe(timemsg.ClockTopic, timemsg.ClockTypeName, transport.QoS{Depth: 10, Reliability: transport.Reliable})
	if err != nil {
		b.Fatal(err)
	}
	ppub, err := c.Publisher(pongTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() {
		transport.Receive(ctx, psub, func(s transport.Sample) { ppub.Publish(ctx, s.Data) }) //nolint:errcheck // ends with ctx
	})
	defer wg.Wait()
	defer cancel()
	for len(sub.MatchedPublishers()) == 0 || pub.MatchedSubscriptions() == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	rtts := make([]time.Duration, 0, b.N)
	buf := make([]byte, 0, timemsg.ClockSize)
	i := 0
	for b.Loop() {
		t0 := time.Now()
		buf = timemsg.AppendClock(buf[:0], timemsg.Clock{Clock: timemsg.Time{Sec: int32(i)}})
		if err := pub.Publish(ctx, buf); err != nil {
			b.Fatal(err)
		}
	wait:
		for {
			<-sub.Notify()
			for {
				s, ok := sub.Take()
				if !ok {
					break
				}
				if int(int32(binary.LittleEndian.Uint32(s.Data[4:8]))) == i {
					break wait
				}
			}
		}
		rtts = append(rtts, time.Since(t0))
		i++
	}
	slices.Sort(rtts)
	b.ReportMetric(float64(rtts[len(rtts)/2].Nanoseconds())/1e3, "rtt_median_us")
}
