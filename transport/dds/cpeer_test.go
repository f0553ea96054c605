package dds_test

// Interoperability with a peer no one here wrote: a plain C program built
// against the installed Cyclone DDS with an idlc-generated
// rosgraph_msgs::msg::dds_::Clock_ (testdata/cpeer), and Cyclone's own
// ddsperf, all on the loopback-only configuration.

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/simclock/simclock/internal/testdomain"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
)

var domainDDSPerf = testdomain.ID(65)

// requireTool skips when a program is missing and CI is unset.
func requireTool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("CI is set and %s is missing (apt-get install cyclonedds-tools gcc): %v", name, err)
	}
	t.Skipf("%s is not installed (apt-get install cyclonedds-tools gcc): %v", name, err)
	return ""
}

// buildCPeer compiles testdata/cpeer with idlc and gcc into a temp dir.
func buildCPeer(t testing.TB) string {
	t.Helper()
	idlc, gcc := requireTool(t, "idlc"), requireTool(t, "gcc")
	dir := t.TempDir()
	// scripts/bench's repetitions (one process each) build it once.
	if cache := os.Getenv("SIMCLOCK_BENCH_CACHE"); cache != "" {
		dir = filepath.Join(cache, "cpeer")
		if _, err := os.Stat(filepath.Join(dir, "clock_peer")); err == nil {
			return filepath.Join(dir, "clock_peer")
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	src, err := filepath.Abs("testdata/cpeer")
	if err != nil {
		t.Fatal(err)
	}
	run := func(name string, args ...string) {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
	}
	run(idlc, "-o", dir, filepath.Join(src, "Clock.idl"))
	bin := filepath.Join(dir, "clock_peer")
	run(gcc, "-O2", "-DDDS_NDEBUG", "-I", dir, "-o", bin, filepath.Join(src, "clock_peer.c"), filepath.Join(dir, "Clock.c"), "-lddsc", "-lpthread")
	return bin
}

// peerEnv is this environment minus ROS and Cyclone settings, plus the
// loopback configuration and domain.
func peerEnv(t testing.TB, domain int) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ROS_") && !strings.HasPrefix(kv, "CYCLONEDDS_") {
			env = append(env, kv)
		}
	}
	return append(env, "CYCLONEDDS_URI="+loopbackURI(t), "ROS_DOMAIN_ID="+strconv.Itoa(domain))
}

func TestCPeerInterop(t *testing.T) {
	requireDDS(t)
	peer := buildCPeer(t)
	tr := open(t, domainCPeer)

	t.Run("R9/C_publishes_simclock_receives", func(t *testing.T) {
		sub, err := tr.Subscribe(timemsg.ClockTopic, timemsg.ClockTypeName, transport.QoS{Depth: 100, Reliability: transport.BestEffort})
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close() //nolint:errcheck // test cleanup
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, peer, "pub", "20")
		cmd.Env = peerEnv(t, domainCPeer)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var got []transport.Sample
		recvCtx, stop := context.WithCancel(ctx)
		go func() { cmd.Wait(); stop() }()                                                 //nolint:errcheck // exit status checked through ProcessState
		transport.Receive(recvCtx, sub, func(s transport.Sample) { got = append(got, s) }) //nolint:errcheck // ends with the peer
		for {
			s, ok := sub.Take()
			if !ok {
				break
			}
			got = append(got, s)
		}
		if !cmd.ProcessState.Success() {
			t.Fatalf("clock_peer pub: %v\n%s", cmd.ProcessState, out.String())
		}
		if len(got) < 15 {
			t.Fatalf("received %d of 20 clocks from the C peer", len(got))
		}
		for _, s := range got {
			c, err := timemsg.UnmarshalClock(s.Data)
			if err != nil {
				t.Fatalf("C peer sample % x: %v", s.Data, err)
			}
			i := int(c.Clock.Sec) - 1000
			want := timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time{Sec: int32(1000 + i), Nanosec: uint32(1000 * i)}})
			if !bytes.Equal(s.Data, want) || i < 0 || i >= 20 {
				t.Errorf("C peer sample % x, want % x (00 01 00 00, sec, nanosec little endian)", s.Data, want)
			}
			if s.Publisher == "" || s.SourceTimestamp == 0 {
				t.Errorf("sample lacks publisher %q or source timestamp %d", s.Publisher, s.SourceTimestamp)
			}
		}
	})

	t.Run("R9/simclock_publishes_C_receives", func(t *testing.T) {
		pub, err := tr.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
		if err != nil {
			t.Fatal(err)
		}
		defer pub.Close() //nolint:errcheck // test cleanup
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, peer, "sub", "5")
		cmd.Env = peerEnv(t, domainCPeer)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string, 100)
		go func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		var got []string
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case l, ok := <-lines:
				if !ok {
					lines = nil
					break
				}
				got = append(got, l)
				continue
			case <-tick.C:
			}
			if lines == nil {
				break
			}
			c := timemsg.Clock{Clock: timemsg.Time{Sec: int32(2000 + i), Nanosec: uint32(i)}}
			if err := pub.Publish(ctx, timemsg.MarshalClock(c)); err != nil {
				t.Fatalf("Publish: %v", err)
			}
		}
		if err := cmd.Wait(); err != nil {
			t.Fatalf("clock_peer sub: %v\n%s", err, stderr.String())
		}
		if len(got) != 5 {
			t.Fatalf("C peer printed %q, want 5 clocks", got)
		}
		re := regexp.MustCompile(`^clock (\d+) (\d+)$`)
		for _, l := range got {
			m := re.FindStringSubmatch(l)
			if m == nil {
				t.Fatalf("C peer line %q", l)
			}
			sec, _ := strconv.Atoi(m[1])
			nsec, _ := strconv.Atoi(m[2])
			if sec < 2000 || nsec != sec-2000 {
				t.Errorf("C peer received sec %d nanosec %d; simclock sent {2000+i, i}", sec, nsec)
			}
		}
	})
}

// TestDDSPerfLoopback checks that Cyclone's own ddsperf runs ping/pong
// with the same loopback configuration (the benchmark's baseline).
func TestDDSPerfLoopback(t *testing.T) {
	requireDDS(t)
	ddsperf := requireTool(t, "ddsperf")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dom := strconv.Itoa(domainDDSPerf)
	pong := exec.CommandContext(ctx, ddsperf, "-D", "4", "-i", dom, "pong")
	pong.Env = peerEnv(t, domainDDSPerf)
	if err := pong.Start(); err != nil {
		t.Fatal(err)
	}
	defer pong.Wait()         //nolint:errcheck // ends by -D
	defer pong.Process.Kill() //nolint:errcheck // may have exited
	ping := exec.CommandContext(ctx, ddsperf, "-D", "3", "-i", dom, "ping", "size", "12")
	ping.Env = peerEnv(t, domainDDSPerf)
	out, err := ping.CombinedOutput()
	if err != nil {
		t.Fatalf("ddsperf ping: %v\n%s", err, out)
	}
	re := regexp.MustCompile(`size 12 mean ([0-9.]+)us .* cnt (\d+)`)
	m := re.FindSubmatch(out)
	if m == nil {
		t.Fatalf("ddsperf ping reported no round trips over loopback:\n%s", out)
	}
	t.Logf("ddsperf ping/pong, 12-byte payload: mean round trip %sus over %s round trips", m[1], m[2])
}
