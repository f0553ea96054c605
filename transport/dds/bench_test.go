package dds_test

// Benchmarks of /clock over DDS between two processes on loopback, each
// measured against baselines that do the same work, interleaved: every
// iteration of b.Loop is one round of equal-length segments, simclock's
// own, then the same exchange between two C programs written against
// Cyclone's C API with an idlc-generated rosgraph_msgs Clock and the same
// QoS (testdata/cpeer, "the C pong"), then (for latency) Cyclone's ddsperf.
// A load spike on the shared machine lands on one or two segments of one
// round, not on one side of the comparison; each round gives one ratio
// per baseline, and the metrics are the median, min and max of those
// per-round ratios.
//
// simclock's side is this test binary re-executed as a peer
// (SIMCLOCK_BENCH_PEER=pong|sink) using the same dds transport and the
// same receive path as simclock monitor (transport.Receive).
//
//	go test -run '^$' -bench ClockRoundTrip -benchtime 3x ./transport/dds   # 3 rounds
//	SIMCLOCK_DOMAIN_OFFSET=40 go test ...  # beside another run on this machine

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
	"github.com/simclock/simclock/internal/benchround"
	"github.com/simclock/simclock/internal/testdomain"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/timesource"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/dds"
)

// Domain ids of the benchmarks (plus SIMCLOCK_DOMAIN_OFFSET), one per
// pair of processes so that no segment sees another's traffic.
var (
	domainBenchRTT    = testdomain.ID(66)
	domainBenchRate   = testdomain.ID(67)
	domainBenchInProc = testdomain.ID(68)
	domainBenchCRTT   = testdomain.ID(64)
	domainBenchCRate  = testdomain.ID(69)
	domainBenchNode   = testdomain.ID(74) // not 73: TestDiscoveryConfigsAccepted uses 70..73
)

const pongTopic = "/clock_pong"

// segment is the length of one benchmark segment. ddsperf prints its
// first report after 2 s, so every segment lasts 2 s.
const segment = 2 * time.Second

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
	if mode == "nodepong" {
		return nodePong(ctx, tr)
	}
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

// nodePong is a node with use_sim_time: a time source on a real-time
// executor applies /clock to its ROS clock, and a jump callback (Post,
// on the executor's thread, right after the clock moved) publishes the
// clock's new reading on /clock_pong. Against the C ping it measures
// /clock into a node's clock with the sender held equal: the C ping
// sends to it and to the C pong alike.
func nodePong(ctx context.Context, tr transport.Transport) int {
	pub, err := tr.Publisher(pongTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	e := executor.New(executor.Config{})
	defer e.Close() //nolint:errcheck // exiting
	ts := timesource.New(tr, e.Subscribe, timesource.Options{})
	defer ts.Close() //nolint:errcheck // exiting
	c := simclock.NewROSClock()
	ts.AttachClock(c)
	if err := ts.SetUseSimTime(true); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	buf := make([]byte, 0, timemsg.ClockSize)
	_, err = c.OnJump(simclock.AnyJump, simclock.JumpCallbacks{Post: func(simclock.TimeJump) {
		m, err := timemsg.ClockFrom(c.Now())
		if err != nil {
			return // beyond a Time message: the ping times out on a lost echo
		}
		buf = timemsg.AppendClock(buf[:0], m)
		pub.Publish(ctx, buf) //nolint:errcheck // the ping times out on a lost echo
	}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("ready")
	e.Spin(ctx) //nolint:errcheck // ends with stdin
	return 0
}

// A peer is a benchmark process driven through its stdin and stdout.
type peer struct {
	stdin io.WriteCloser
	lines *bufio.Scanner
	pid   int
}

// start runs cmd as a peer and waits for its "ready" line; the peer ends
// when the benchmark does (its stdin closes).
func startProc(b *testing.B, cmd *exec.Cmd) *peer {
	b.Helper()
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
	p := &peer{stdin: stdin, lines: bufio.NewScanner(stdout), pid: cmd.Process.Pid}
	if !p.lines.Scan() || p.lines.Text() != "ready" {
		b.Fatalf("benchmark peer %s did not start: %q", cmd.Path, p.lines.Text())
	}
	return p
}

// ask sends one command line and returns the fields of the reply, whose
// first field must be want.
func (p *peer) ask(b *testing.B, cmd, want string) []string {
	b.Helper()
	if _, err := fmt.Fprintln(p.stdin, cmd); err != nil {
		b.Fatal(err)
	}
	if !p.lines.Scan() {
		b.Fatalf("peer gave no reply to %q", cmd)
	}
	f := strings.Fields(p.lines.Text())
	if len(f) < 2 || f[0] != want {
		b.Fatalf("peer replied %q to %q", p.lines.Text(), cmd)
	}
	return f
}

// startPeer runs this binary as a simclock benchmark peer.
func startPeer(b *testing.B, mode string, domain int) *peer {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(peerEnv(b, domain), "SIMCLOCK_BENCH_PEER="+mode)
	return startProc(b, cmd)
}

// startCPeer runs the C peer (testdata/cpeer) in a benchmark mode.
func startCPeer(b *testing.B, bin, mode string, domain int) *peer {
	b.Helper()
	cmd := exec.Command(bin, mode)
	cmd.Env = peerEnv(b, domain)
	return startProc(b, cmd)
}

// ddsperfPing runs ddsperf ping for one segment against the ddsperf pong
// already running on domainDDSPerf, with 12-byte payloads in waitset mode
// (how simclock and the C peer wait), back to back (rate "") or at a rate
// ("500Hz"), and returns the median latency it reports in µs. ddsperf
// reports half the round trip, (now - ping time) / 2 (process_pong in
// ddsperf.c), so this compares with a one-way median.
func ddsperfPing(b *testing.B, rate string) float64 {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	args := []string{"-D", strconv.Itoa(int(segment / time.Second)), "-i", strconv.Itoa(domainDDSPerf), "ping"}
	if rate != "" {
		args = append(args, rate)
	}
	ping := exec.CommandContext(ctx, "ddsperf", append(args, "size", "12", "waitset")...)
	ping.Env = peerEnv(b, domainDDSPerf)
	out, err := ping.CombinedOutput()
	if err != nil {
		b.Fatalf("ddsperf ping: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`size 12 mean [0-9.]+us min [0-9.]+us 50% ([0-9.]+)us`).FindAllSubmatch(out, -1)
	if len(m) == 0 {
		b.Fatalf("ddsperf printed no latency:\n%s", out)
	}
	us, _ := strconv.ParseFloat(string(m[len(m)-1][1]), 64)
	return us
}

// startDDSPerfPong runs ddsperf's pong in waitset mode for the whole
// benchmark.
func startDDSPerfPong(b *testing.B) {
	b.Helper()
	requireTool(b, "ddsperf")
	pong := exec.Command("ddsperf", "-i", strconv.Itoa(domainDDSPerf), "pong", "waitset")
	pong.Env = peerEnv(b, domainDDSPerf)
	if err := pong.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { pong.Process.Kill(); pong.Wait() }) //nolint:errcheck // killed
}

// rounds collects one ratio per round against each baseline.
type rounds struct {
	values map[string][]float64 // metric → one value per round
}

func (r *rounds) add(metric string, v float64) {
	if r.values == nil {
		r.values = map[string][]float64{}
	}
	r.values[metric] = append(r.values[metric], v)
}

// report reports, for each metric, the median over the rounds, and for
// each ratio also its min and max (metric_min, metric_max).
func (r *rounds) report(b *testing.B) {
	for metric, vs := range r.values {
		s := slices.Clone(vs)
		slices.Sort(s)
		b.ReportMetric((s[(len(s)-1)/2]+s[len(s)/2])/2, metric)
		if strings.HasPrefix(metric, "ratio_") {
			b.ReportMetric(s[0], metric+"_min")
			b.ReportMetric(s[len(s)-1], metric+"_max")
		}
	}
	b.ReportMetric(0, "ns/op") // an iteration is a round of segments, not an operation
}

// BenchmarkClockRoundTrip measures /clock round trips between two
// processes (publish, the peer echoes on /clock_pong, take); one-way
// latency is half, which is what ddsperf reports too. It runs back to
// back and paced at 500 Hz (a /clock rate). Each round has three 2 s
// segments, in alternating order: simclock to a simclock peer, the C
// ping to the C pong, ddsperf ping to ddsperf pong (waitset mode). The
// metrics: oneway_median_us (simclock), c_oneway_median_us and
// ddsperf_oneway_median_us, the medians over the rounds of each
// segment's median; ratio_c and ratio_ddsperf, the median over the rounds
// of simclock's one-way median divided by the baseline's in the same
// round, with _min and _max.
//
// The "node" variants receive the echo the way a node with use_sim_time
// does: a time source on a real-time executor applies it to a ROS clock,
// with the benchmark goroutine spinning the executor until the clock
// reads it; paced at 500 Hz, it also waits for the next send in the
// executor's wait set (see pause), as a node publishing /clock from a
// steady timer does. They also run a fourth segment with the sender held equal:
// the C ping sends to a simclock node (nodePong: a time source on an
// executor applies /clock to a ROS clock, whose jump callback echoes the
// clock's new reading), and ratio_cping_node_c is its round trip over the
// C ping's to the C pong in the same round, ratio_cping_node_ddsperf its
// one-way latency over ddsperf's: what a simulator written in C sees of
// a simclock node.
//
// publish_us and c_write_us are the median time Publish and the C ping's
// dds_write took (from before serialising to the call's return).
// switches/roundtrip and c_switches/roundtrip are the context switches
// of every thread of this process and of the C ping over their segment,
// per round trip (from /proc/PID/task/*/status): the wake-ups each side
// pays. c_pong_switches/roundtrip counts the C pong's over the C ping's
// segment, and node_switches/roundtrip (node variants) the simclock
// node's over the C ping's segment to it: the wake-ups of the two
// receiving sides with the sender held equal. SIMCLOCK_BENCH_PONG=c makes simclock's segment use the C pong
// instead of a simclock peer, which isolates simclock's sending and
// receiving side. resends counts the pings of simclock's segment sent
// again because no echo came for 5 to 10 s (see roundTrip),
// roundtrip_max_ms its longest round trip, and foreign_echoes the echoes of /clock values
// it did not send (another process publishing /clock on the domain, whose
// echoes can push ours out of the keep-last histories): 0, a few ms and 0
// on a machine of its own.
func BenchmarkClockRoundTrip(b *testing.B) {
	requireDDS(b)
	cpeer := buildCPeer(b)
	b.Run("back_to_back", func(b *testing.B) { benchRoundTrip(b, cpeer, 0, "", false) })
	b.Run("500Hz", func(b *testing.B) { benchRoundTrip(b, cpeer, 2*time.Millisecond, "500Hz", false) })
	b.Run("back_to_back/node", func(b *testing.B) { benchRoundTrip(b, cpeer, 0, "", true) })
	b.Run("500Hz/node", func(b *testing.B) { benchRoundTrip(b, cpeer, 2*time.Millisecond, "500Hz", true) })
}

func benchRoundTrip(b *testing.B, cpeer string, every time.Duration, rate string, node bool) {
	cpong := startCPeer(b, cpeer, "pong", domainBenchCRTT)
	cping := startCPeer(b, cpeer, "ping", domainBenchCRTT) // ready once matched with the pong
	startDDSPerfPong(b)
	domain := domainBenchRTT
	if os.Getenv("SIMCLOCK_BENCH_PONG") == "c" { // diagnosis: simclock's side against the C pong
		domain = domainBenchCRTT
	} else {
		startPeer(b, "pong", domainBenchRTT)
	}
	rt := newRoundTripper(b, node, domain, 5*time.Second, benchResends)
	defer rt.close()
	// The node variants also have the C ping send to a simclock node
	// (nodePong), the sender held equal.
	var nping, npong *peer
	if node {
		npong = startPeer(b, "nodepong", domainBenchNode)
		nping = startCPeer(b, cpeer, "ping", domainBenchNode)
	}

	var r rounds
	round := benchround.FirstRound() // the order alternates between repetitions too
	for b.Loop() {
		var own, c, perf, cNode, ownSwitches, cSwitches, cPongSwitches, nodeSwitches, ownWrite, cWrite, longest float64
		resent, echoes := rt.resends, rt.echoes()
		var foreign float64
		steps := []func(){
			func() {
				before := contextSwitches(os.Getpid())
				var n int
				own, n = rt.segment(b, every)
				own, ownWrite, longest = own/2/1e3, rt.write/1e3, float64(rt.longest.Microseconds())/1e3
				// Echoes of no ping of this segment: another process
				// publishes /clock on the domain (the bench pong echoes
				// it), which can push our echo out of a keep-last history.
				if x := rt.echoes() - echoes - n - (rt.resends - resent); x > 0 {
					foreign = float64(x)
					b.Logf("%d echoes of /clock values this benchmark did not send: another process publishes /clock on domain %d (a run beside the test suite shares its domains, see internal/testdomain)", x, domain)
				}
				ownSwitches = float64(contextSwitches(os.Getpid())-before) / float64(n)
			},
			func() {
				before, beforePong := contextSwitches(cping.pid), contextSwitches(cpong.pid)
				f := cping.ask(b, fmt.Sprintf("run %g %d", segment.Seconds(), every.Microseconds()), "rtt")
				ns, _ := strconv.ParseFloat(f[2], 64)
				c = ns / 2 / 1e3
				if len(f) > 3 {
					w, _ := strconv.ParseFloat(f[3], 64)
					cWrite = w / 1e3
				}
				if n, _ := strconv.ParseFloat(f[1], 64); n > 0 {
					cSwitches = float64(contextSwitches(cping.pid)-before) / n
					cPongSwitches = float64(contextSwitches(cpong.pid)-beforePong) / n
				}
			},
			func() { perf = ddsperfPing(b, rate) },
		}
		if nping != nil {
			steps = append(steps, func() {
				before := contextSwitches(npong.pid)
				f := nping.ask(b, fmt.Sprintf("run %g %d", segment.Seconds(), every.Microseconds()), "rtt")
				ns, _ := strconv.ParseFloat(f[2], 64)
				cNode = ns / 2 / 1e3
				if n, _ := strconv.ParseFloat(f[1], 64); n > 0 {
					nodeSwitches = float64(contextSwitches(npong.pid)-before) / n
				}
			})
		}
		if round%2 == 1 {
			slices.Reverse(steps)
		}
		for _, step := range steps {
			step()
		}
		round++
		r.add("oneway_median_us", own)
		r.add("c_oneway_median_us", c)
		r.add("ddsperf_oneway_median_us", perf)
		r.add("ratio_c", own/c)
		r.add("ratio_ddsperf", own/perf)
		r.add("switches/roundtrip", ownSwitches)
		r.add("c_switches/roundtrip", cSwitches)
		r.add("c_pong_switches/roundtrip", cPongSwitches)
		r.add("publish_us", ownWrite)
		r.add("c_write_us", cWrite)
		r.add("resends", float64(rt.resends-resent))
		r.add("foreign_echoes", foreign)
		r.add("roundtrip_max_ms", longest)
		if nping != nil {
			r.add("cping_node_oneway_median_us", cNode)
			r.add("ratio_cping_node_c", cNode/c)
			r.add("ratio_cping_node_ddsperf", cNode/perf)
			r.add("node_switches/roundtrip", nodeSwitches)
		}
	}
	r.report(b)
}

// A roundTripper makes simclock's round trips: publish /clock, and wait
// for the echo either on a subscription (transport.Waiter, in the waitset
// on this goroutine's thread, as the C ping and ddsperf's waitset mode
// do) or in a node's clock (the executor spinning until the clock reads
// the echoed time).
type roundTripper struct {
	pub   transport.Publisher
	sub   transport.Subscription
	e     *executor.Executor
	ts    *timesource.TimeSource
	clock *simclock.ROSClock
	buf   []byte
	next  int32 // the /clock seconds of the next round trip: increasing, as a time source wants

	ctx      context.Context // ends with close
	stop     func()
	watch    sync.WaitGroup
	progress atomic.Int64    // round trips completed
	inFlight atomic.Bool     // a round trip is under way
	writes   []time.Duration // how long each Publish of the segment took
	write    float64         // their median, ns
	longest  time.Duration   // the segment's longest round trip

	// The watchdog ends the current round trip's wait (attempt) when it
	// made no progress for a whole tick of its patience (5 s); the round
	// trip then sends its ping again.
	attemptMu sync.Mutex
	attempt   context.Context
	expire    context.CancelFunc
	resends   int // pings sent again, since the start
	taken     int // echoes taken from sub (without a node)
	// maxResends is how many times a round trip sends its ping again
	// before giving up.
	maxResends int
}

// benchResends is how many times a benchmark round trip sends its ping
// again, 5 s apart, before the benchmark gives up on it.
const benchResends = 5

// newRoundTripper opens domain and waits for the pong to match; the
// watchdog ends a wait that made no progress for patience (5 s in the
// benchmarks), and a round trip then sends its ping again, up to
// maxResends times (benchResends).
func newRoundTripper(b testing.TB, node bool, domain int, patience time.Duration, maxResends int) *roundTripper {
	tr := open(b, domain)
	pub, err := tr.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
	if err != nil {
		b.Fatal(err)
	}
	rt := &roundTripper{pub: pub, buf: make([]byte, 0, timemsg.ClockSize), next: 1000, maxResends: maxResends}
	var matched func() bool
	if node {
		rt.e = executor.New(executor.Config{})
		q := transport.QoS{Depth: 10, Reliability: transport.Reliable}
		rt.ts = timesource.New(tr, rt.e.Subscribe, timesource.Options{Topic: pongTopic, QoS: &q})
		rt.clock = simclock.NewROSClock()
		rt.ts.AttachClock(rt.clock)
		if err := rt.ts.SetUseSimTime(true); err != nil {
			b.Fatal(err)
		}
		matched = func() bool { return len(rt.ts.Publishers()) > 0 }
	} else {
		rt.sub, err = tr.Subscribe(pongTopic, timemsg.ClockTypeName, transport.QoS{Depth: 10, Reliability: transport.Reliable})
		if err != nil {
			b.Fatal(err)
		}
		matched = func() bool { return len(rt.sub.MatchedPublishers()) > 0 }
	}
	deadline := time.Now().Add(20 * time.Second)
	for !matched() || pub.MatchedSubscriptions() == 0 {
		if time.Now().After(deadline) {
			b.Fatal("peer did not match")
		}
		time.Sleep(5 * time.Millisecond)
	}
	// A watchdog ends a round trip that never completes. It replaces a
	// timeout per round trip: arming a timer wakes the Go runtime's
	// poller thread, a cost that neither simclock's receive path nor the
	// C ping has.
	var ctx context.Context
	ctx, rt.stop = context.WithCancel(context.Background())
	rt.ctx = ctx
	rt.attempt, rt.expire = context.WithCancel(ctx)
	rt.watch.Go(func() {
		tick := time.NewTicker(patience)
		defer tick.Stop()
		last := int64(-1)
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if n := rt.progress.Load(); n == last && rt.inFlight.Load() {
					rt.attemptMu.Lock()
					rt.expire()
					rt.attemptMu.Unlock()
				} else {
					last = n
				}
			}
		}
	})
	for range 1000 { // warm up
		rt.roundTrip(b)
	}
	return rt
}

func (rt *roundTripper) close() {
	rt.stop()
	rt.watch.Wait()
	if rt.e != nil {
		rt.ts.Close() //nolint:errcheck // benchmark teardown
		rt.e.Close()  //nolint:errcheck // idem
	}
}

// segment makes round trips for one segment, one every `every` (0: back
// to back), and returns their median in ns and their number; rt.write is
// the median time their Publish took.
func (rt *roundTripper) segment(b *testing.B, every time.Duration) (float64, int) {
	rt.writes = rt.writes[:0]
	rt.longest = 0
	rtts := make([]time.Duration, 0, 4096)
	start := time.Now()
	end, next := start.Add(segment), start
	for time.Now().Before(end) {
		if every > 0 {
			next = next.Add(every)
			rt.pause(b, next)
		}
		t0 := time.Now()
		rt.roundTrip(b)
		rtts = append(rtts, time.Since(t0))
		rt.longest = max(rt.longest, rtts[len(rtts)-1])
	}
	slices.Sort(rtts)
	slices.Sort(rt.writes)
	rt.write = float64(rt.writes[len(rt.writes)/2].Nanoseconds())
	return float64(rtts[len(rtts)/2].Nanoseconds()), len(rtts)
}

// pause waits until t. A node waits as its executor does between timer
// callbacks, in the wait set on its own thread with the timer's timeout
// (what a simclock node publishing /clock from a steady timer does, and
// the C ping's clock_nanosleep): a Go timer would wake the runtime's
// netpoller thread, at millisecond granularity, and that thread another
// to spin (runtime.ready's wakep) before the ping goes out. Without a
// node the ping has no wait set to wait in and sleeps on a Go timer.
func (rt *roundTripper) pause(b *testing.B, t time.Time) {
	if rt.e == nil {
		time.Sleep(time.Until(t))
		return
	}
	for d := time.Until(t); d > 0; d = time.Until(t) {
		if _, err := rt.e.SpinOnce(rt.ctx, d); err != nil {
			b.Fatal(err)
		}
	}
}

// contextSwitches is the number of context switches, voluntary and not,
// of every thread of process pid so far (0 where /proc cannot tell).
func contextSwitches(pid int) int64 {
	dir := fmt.Sprintf("/proc/%d/task", pid)
	tasks, _ := os.ReadDir(dir)
	var n int64
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/status")
		if err != nil {
			continue
		}
		for line := range strings.Lines(string(b)) {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.HasSuffix(k, "ctxt_switches") {
				x, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				n += x
			}
		}
	}
	return n
}

// roundTrip publishes one ping and waits for its echo. When the watchdog
// finds no progress for its patience (5 s), it sends the ping again
// (counted in rt.resends, logged with what the receiving side had seen)
// and keeps waiting, up to rt.maxResends times: a benchmark on a loaded
// machine reports a stall or a lost sample instead of aborting the run.
func (rt *roundTripper) roundTrip(b testing.TB) {
	rt.inFlight.Store(true)
	defer func() { rt.progress.Add(1); rt.inFlight.Store(false) }()
	sec := rt.next
	rt.next++
	rt.buf = timemsg.AppendClock(rt.buf[:0], timemsg.Clock{Clock: timemsg.Time{Sec: sec}})
	start := time.Now()
	for sent := 0; ; sent++ {
		ctx := rt.attemptContext()
		t0 := time.Now()
		if err := rt.pub.Publish(rt.ctx, rt.buf); err != nil {
			b.Fatal(err)
		}
		if sent == 0 {
			rt.writes = append(rt.writes, time.Since(t0))
		}
		err := rt.awaitEcho(ctx, sec)
		if err == nil {
			if sent > 0 {
				b.Logf("pong for ping %d came %v after the first send", sec, time.Since(start).Round(time.Millisecond))
			}
			return
		}
		if rt.ctx.Err() != nil || sent == rt.maxResends {
			b.Fatalf("no pong for ping %d in %v, sent %d times (%s): %v", sec, time.Since(start).Round(time.Millisecond), sent+1, rt.seen(), err)
		}
		rt.resends++
		b.Logf("no pong for ping %d after %v (%s): sending it again", sec, time.Since(start).Round(time.Millisecond), rt.seen())
	}
}

// attemptContext returns the context of the current wait, a new one when
// the watchdog ended the last.
func (rt *roundTripper) attemptContext() context.Context {
	rt.attemptMu.Lock()
	defer rt.attemptMu.Unlock()
	if rt.attempt.Err() != nil {
		rt.attempt, rt.expire = context.WithCancel(rt.ctx)
	}
	return rt.attempt
}

// awaitEcho waits for the echo of ping sec: in the node's clock, or on
// the subscription.
func (rt *roundTripper) awaitEcho(ctx context.Context, sec int32) error {
	if rt.e != nil {
		want := int64(sec) * 1e9
		return rt.e.SpinUntil(ctx, func() bool { return rt.clock.Now().Nanoseconds() >= want })
	}
	for {
		if err := rt.sub.(transport.Waiter).Wait(ctx); err != nil {
			return err
		}
		for {
			s, ok := rt.sub.Take()
			if !ok {
				break
			}
			rt.taken++
			if int32(binary.LittleEndian.Uint32(s.Data[4:8])) == sec {
				return nil
			}
		}
	}
}

// echoes is the number of echoes received so far.
func (rt *roundTripper) echoes() int {
	if rt.ts != nil {
		return int(rt.ts.Stats().Received)
	}
	return rt.taken
}

// seen describes what the receiving side has seen, for a stuck round trip.
func (rt *roundTripper) seen() string {
	if rt.ts == nil {
		return fmt.Sprintf("%d publishers matched", len(rt.sub.MatchedPublishers()))
	}
	st := rt.ts.Stats()
	return fmt.Sprintf("time source received %d, clock at %v, %d publishers matched", st.Received, rt.clock.Now(), len(rt.ts.Publishers()))
}

// BenchmarkClockRate publishes /clock as fast as a reliable writer
// (keep-last 1000) accepts to a peer process, which reads with
// transport.Receive as a monitor does, and reports what the peer received
// per second. Each round has two 2 s segments in alternating order:
// simclock to a simclock peer, and the C peer's flood to the C sink (the
// same type, QoS and one write per sample). ratio_c is simclock's rate
// over the C pair's in the same round (higher is better): median, _min
// and _max over the rounds.
func BenchmarkClockRate(b *testing.B) {
	requireDDS(b)
	cpeer := buildCPeer(b)
	sink := startPeer(b, "sink", domainBenchRate)
	csink := startCPeer(b, cpeer, "sink", domainBenchCRate)
	cflood := startCPeer(b, cpeer, "flood", domainBenchCRate) // ready once matched with the sink
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
	count := func(p *peer) float64 {
		if !p.lines.Scan() {
			b.Fatal("sink gave no count")
		}
		f := strings.Fields(p.lines.Text())
		if len(f) != 2 || f[0] != "count" {
			b.Fatalf("sink said %q", p.lines.Text())
		}
		n, _ := strconv.ParseFloat(f[1], 64)
		return n
	}
	var r rounds
	round := benchround.FirstRound() // the order alternates between repetitions too
	var sec int32
	for b.Loop() {
		var own, c float64
		steps := []func(){
			func() {
				end := time.Now().Add(segment)
				for time.Now().Before(end) {
					sec = (sec + 1) & 0x3fffffff
					buf = timemsg.AppendClock(buf[:0], timemsg.Clock{Clock: timemsg.Time{Sec: sec}})
					if err := pub.Publish(ctx, buf); err != nil {
						b.Fatal(err)
					}
				}
				if err := pub.Publish(ctx, timemsg.AppendClock(buf[:0], timemsg.Clock{Clock: timemsg.Time{Sec: -1}})); err != nil {
					b.Fatal(err)
				}
				own = count(sink) / segment.Seconds()
			},
			func() {
				cflood.ask(b, fmt.Sprintf("run %g", segment.Seconds()), "sent")
				c = count(csink) / segment.Seconds()
			},
		}
		if round%2 == 1 {
			slices.Reverse(steps)
		}
		for _, step := range steps {
			step()
		}
		round++
		r.add("received_msgs/s", own)
		r.add("c_msgs/s", c)
		r.add("ratio_c", own/c)
	}
	r.report(b)
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
