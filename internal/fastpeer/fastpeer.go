// Package fastpeer builds and runs, for tests, a ROS 2 peer that simclock
// did not write: a small C++ program on eProsima Fast DDS 2.9 (Debian's
// libfastrtps-dev) that plays ROS 2 Jazzy nodes the way rmw_fastrtps_cpp
// does. Its source is cpp/peer.cpp; docs/fastdds-peer.md says what it
// emulates.
//
// Tests call Build once (it compiles the peer with g++ into a cache
// directory keyed by the source, so later runs reuse it) and Start for
// every peer process. A Peer reports what it does as Events, one per line
// the program prints ("clock node=/n sec=1 nanosec=2 publisher=..."), and
// is stopped when the test ends.
//
// Every peer is loopback-only: builtin transports off, one UDPv4 transport
// whitelisted to 127.0.0.1, unicast locators and initial peers on
// 127.0.0.1, no multicast, no shared memory. CheckLoopback verifies it
// from the peer's own report and from the operating system's socket table.
package fastpeer

import (
	"bufio"
	"context"
	"crypto/sha256"
	_ "embed" // the peer's C++ source
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

//go:embed cpp/peer.cpp
var source []byte

// compileFlags are the g++ arguments besides input and output.
var compileFlags = []string{"-std=c++17", "-O2", "-Wall", "-Wextra"}

// linkFlags name the Fast DDS libraries.
var linkFlags = []string{"-lfastrtps", "-lfastcdr", "-lpthread"}

// probeHeader is the header whose absence means Fast DDS is not installed.
const probeHeader = "fastdds/dds/domain/DomainParticipant.hpp"

var build cachedBuild

// A cachedBuild compiles one peer binary once per test process.
type cachedBuild struct {
	once sync.Once
	path string
	skip string // why the peer cannot be built here; empty when it was built
	err  error
}

// get compiles on first use and returns the binary's path; it skips t with
// the reason when the tools are missing (fails under CI, which must have
// them) and fails t when compiling fails. what names the peer in messages.
func (b *cachedBuild) get(t testing.TB, what string, compile func() (path, skip string, err error)) string {
	t.Helper()
	b.once.Do(func() { b.path, b.skip, b.err = compile() })
	if b.skip != "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and the %s cannot be built: %s", what, b.skip)
		}
		t.Skipf("%s not built: %s", what, b.skip)
	}
	if b.err != nil {
		t.Fatalf("building the %s: %v", what, b.err)
	}
	return b.path
}

// Build returns the path of the compiled peer, compiling it on first use.
// The binary is cached under the user cache directory (or the temporary
// directory) by a hash of the source, the flags and the compiler's
// version, so only a changed peer is recompiled. Build skips the test with
// the install command when g++ or the Fast DDS headers are missing, unless
// the environment variable CI is set: then it fails.
func Build(t testing.TB) string {
	t.Helper()
	return build.get(t, "Fast DDS peer", compile)
}

const installHint = "apt-get install g++ libfastrtps-dev (scripts/deps.sh does)"

func compile() (path, skip string, err error) {
	gxx, err := exec.LookPath("g++")
	if err != nil {
		return "", "no g++: " + installHint, nil
	}
	probe := exec.Command(gxx, "-std=c++17", "-E", "-x", "c++", "-o", os.DevNull, "-")
	probe.Stdin = strings.NewReader("#include <" + probeHeader + ">\n")
	if out, err := probe.CombinedOutput(); err != nil {
		return "", fmt.Sprintf("no Fast DDS headers (<%s>: %v, %s): %s", probeHeader, err,
			firstLine(string(out)), installHint), nil
	}
	version, err := exec.Command(gxx, "--version").Output()
	if err != nil {
		return "", "", fmt.Errorf("g++ --version: %w", err)
	}
	h := sha256.New()
	for _, part := range [][]byte{source, []byte(strings.Join(compileFlags, " ")),
		[]byte(strings.Join(linkFlags, " ")), version, fastDDSVersion()} {
		h.Write(part)
		h.Write([]byte{0})
	}
	key := hex.EncodeToString(h.Sum(nil))[:16]
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "simclock", "fastpeer-"+key)
	bin := filepath.Join(dir, "fastpeer")
	if _, err := os.Stat(bin); err == nil {
		return bin, "", nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", err
	}
	// Source and binary under private names, then a rename: test binaries
	// of several packages may build at once.
	srcFile, err := os.CreateTemp(dir, "peer-*.cpp")
	if err != nil {
		return "", "", err
	}
	src := srcFile.Name()
	defer os.Remove(src)
	_, err = srcFile.Write(source)
	if cerr := srcFile.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", "", err
	}
	tmp, err := os.CreateTemp(dir, "fastpeer-*.tmp")
	if err != nil {
		return "", "", err
	}
	tmp.Close() //nolint:errcheck // only its name is used
	defer os.Remove(tmp.Name())
	args := append(append(append([]string{}, compileFlags...), "-o", tmp.Name(), src), linkFlags...)
	if out, err := exec.Command(gxx, args...).CombinedOutput(); err != nil {
		return "", "", fmt.Errorf("g++ %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	if err := os.Rename(tmp.Name(), bin); err != nil {
		return "", "", err
	}
	return bin, "", nil
}

// fastDDSVersion identifies the installed library (its resolved file
// name, such as libfastrtps.so.2.9.1), so an upgrade rebuilds the peer.
func fastDDSVersion() []byte {
	for _, dir := range []string{"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib", "/usr/local/lib"} {
		if p, err := filepath.EvalSymlinks(filepath.Join(dir, "libfastrtps.so")); err == nil {
			return []byte(p)
		}
	}
	return nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// A QoS names DDS policies as ROS does: Reliability "reliable" or
// "best_effort", Durability "volatile" or "transient_local". Empty fields
// keep the default.
type QoS struct {
	Reliability string
	Durability  string
}

// A ClockPublisher publishes rosgraph_msgs/msg/Clock on /clock: Start,
// then Start+Step, ... at Rate messages per wall second (Count messages,
// or until stopped when Count is 0). Its QoS defaults to ros_gz_bridge's:
// reliable, volatile, keep last 10.
type ClockPublisher struct {
	Start, Step time.Duration
	Rate        float64
	Count       int
	QoS         QoS
	// Topic is where it publishes (resolved against the node's
	// namespace); defaults to /clock. A bridge or relay publishes
	// /robot1/clock.
	Topic string
	// Malformed sends 8-byte payloads (the CDR header and the seconds)
	// that do not decode as a Clock.
	Malformed bool
	// Every JumpEvery messages (when JumpEvery > 0) the value jumps by
	// Jump: backward when Jump < 0, as a looped recording does at each
	// loop.
	JumpEvery int
	Jump      time.Duration
	// From StallAt messages on (when StallAt > 0) the value stands still
	// while messages keep coming: a paused simulator.
	StallAt int
}

// A Stamp is the time base of a stamped topic's header stamps.
type Stamp string

// The stamp bases a node can use.
const (
	// StampSim is the node's ROS time with use_sim_time: the last /clock it
	// received, or 0 before the first, as rclcpp's now().
	StampSim Stamp = "sim"
	// StampWall is the system clock, what a node without use_sim_time uses.
	StampWall Stamp = "wall"
	// StampZero is a stamp of 0, a driver that never sets it.
	StampZero Stamp = "zero"
	// StampFreeRun is the first /clock the node received plus the wall
	// time since: a node that keeps its own time once started, and does
	// not follow /clock back (tf only).
	StampFreeRun Stamp = "freerun"
)

// A TFBroadcaster publishes tf2_msgs/msg/TFMessage as tf2_ros's
// broadcasters do: Dynamic transforms ("parent:child") all in one message
// on /tf at Rate per wall second (reliable, volatile, keep last 100), and
// Static ones once on /tf_static (reliable, transient local, keep last
// 1), stamped from Stamp plus Offset. A sim or freerun node publishes
// nothing before its first /clock.
type TFBroadcaster struct {
	Dynamic, Static []string
	Stamp           Stamp
	Offset          time.Duration
	Rate            float64
	// Topic is the dynamic topic (the static one is Topic + "_static");
	// defaults to /tf.
	Topic string
}

// An ImuPublisher publishes sensor_msgs/msg/Imu on Topic (resolved
// against the node's namespace) at Rate per wall second, stamped from
// Stamp plus Offset.
type ImuPublisher struct {
	Topic   string
	Stamp   Stamp
	Offset  time.Duration
	Rate    float64
	FrameID string
	QoS     QoS
}

// A Node is one ROS node of the peer.
type Node struct {
	// Name is the fully qualified node name, such as "/robot/imu_driver".
	Name string
	// UseSimTime makes the node subscribe to /clock as rclcpp's TimeSource
	// does with use_sim_time on: keep last 1, best effort, volatile, unless
	// ClockReader says otherwise (to provoke a QoS mismatch).
	UseSimTime  bool
	ClockReader QoS
	// ClockTopic is the topic its time source reads, as after
	// --ros-args -r /clock:=/robot1/clock; defaults to /clock.
	ClockTopic string
	// ClockPartition puts its /clock reader's subscriber in a DDS
	// partition, as a Fast DDS XML profile for the topic can (rmw itself
	// sets none).
	ClockPartition string
	// RclcppEndpoints adds what rclcpp gives every node: /rosout and
	// /parameter_events writers and a /parameter_events reader, with a
	// wall-stamped log line and use_sim_time parameter event at start.
	RclcppEndpoints bool
	Clock           *ClockPublisher
	Imu             *ImuPublisher
	TF              *TFBroadcaster
	// Subscribe lists subscriptions read through generated code, with
	// rclcpp's default QoS (reliable, volatile, keep last 10): a peer
	// built with their types (BuildDiagnostics) and WithBinary.
	Subscribe []Subscription
}

// A Subscription is a topic (resolved against the node's namespace) and
// its ROS type.
type Subscription struct {
	Topic, Type string
}

// An Option configures Start.
type Option func(*config)

type config struct {
	bin      string
	nodes    []Node
	xtypes   bool
	rawNames bool
	duration time.Duration
	args     []string
}

// WithNodes adds nodes to the peer, in order.
func WithNodes(nodes ...Node) Option {
	return func(c *config) { c.nodes = append(c.nodes, nodes...) }
}

// WithXTypes makes the peer behave like a plain Fast DDS application
// rather than rmw_fastrtps: its /clock type carries a registered XTypes
// TypeObject and its endpoints announce TypeInformation, which Cyclone DDS
// 0.10.2 rejects.
func WithXTypes() Option { return func(c *config) { c.xtypes = true } }

// WithRawNames makes the peer take node names and topics as given, with
// control characters and of any length: what a hostile or broken peer
// announces, for testing what graph tools print.
func WithRawNames() Option { return func(c *config) { c.rawNames = true } }

// WithBinary runs the peer built at bin (BuildDiagnostics's) instead of
// Build's.
func WithBinary(bin string) Option { return func(c *config) { c.bin = bin } }

// WithDuration makes the peer exit by itself after d.
func WithDuration(d time.Duration) Option { return func(c *config) { c.duration = d } }

// WithArgs appends raw command-line arguments (see cpp/peer.cpp's usage).
func WithArgs(args ...string) Option { return func(c *config) { c.args = append(c.args, args...) } }

// seconds formats d as exact decimal seconds, as the peer parses them.
func seconds(d time.Duration) string {
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	return fmt.Sprintf("%s%d.%09d", sign, d/time.Second, d%time.Second)
}

func rate(r float64) string { return strconv.FormatFloat(r, 'g', -1, 64) }

// Args returns the peer's command line for domain and opts.
func Args(domain int, opts ...Option) []string {
	var c config
	for _, o := range opts {
		o(&c)
	}
	args := []string{"--domain", strconv.Itoa(domain)}
	if c.xtypes {
		args = append(args, "--xtypes")
	}
	if c.rawNames {
		args = append(args, "--raw-names")
	}
	if c.duration > 0 {
		args = append(args, "--duration", seconds(c.duration))
	}
	for _, n := range c.nodes {
		args = append(args, "--node", n.Name)
		if n.RclcppEndpoints {
			args = append(args, "--rclcpp-endpoints")
		}
		if n.UseSimTime {
			args = append(args, "--use-sim-time")
			args = appendQoS(args, "--clock-reader-", n.ClockReader)
			if n.ClockTopic != "" {
				args = append(args, "--clock-reader-topic", n.ClockTopic)
			}
			if n.ClockPartition != "" {
				args = append(args, "--clock-reader-partition", n.ClockPartition)
			}
		}
		if p := n.Clock; p != nil {
			args = append(args, "--pub-clock", "--clock-start", seconds(p.Start))
			if p.Step != 0 {
				args = append(args, "--clock-step", seconds(p.Step))
			}
			if p.Rate > 0 {
				args = append(args, "--clock-rate", rate(p.Rate))
			}
			if p.Count > 0 {
				args = append(args, "--clock-count", strconv.Itoa(p.Count))
			}
			args = appendQoS(args, "--clock-", p.QoS)
			if p.Topic != "" {
				args = append(args, "--clock-topic", p.Topic)
			}
			if p.Malformed {
				args = append(args, "--clock-malformed")
			}
			if p.JumpEvery > 0 {
				args = append(args, "--clock-jump-every", strconv.Itoa(p.JumpEvery), "--clock-jump", seconds(p.Jump))
			}
			if p.StallAt > 0 {
				args = append(args, "--clock-stall-at", strconv.Itoa(p.StallAt))
			}
		}
		if p := n.Imu; p != nil {
			args = append(args, "--pub-imu", p.Topic)
			if p.Stamp != "" {
				args = append(args, "--stamp", string(p.Stamp))
			}
			if p.Offset != 0 {
				args = append(args, "--stamp-offset", seconds(p.Offset))
			}
			if p.Rate > 0 {
				args = append(args, "--imu-rate", rate(p.Rate))
			}
			if p.FrameID != "" {
				args = append(args, "--frame-id", p.FrameID)
			}
			if p.QoS.Reliability != "" {
				args = append(args, "--imu-reliability", p.QoS.Reliability)
			}
		}
		for _, sub := range n.Subscribe {
			args = append(args, "--sub", sub.Topic, sub.Type)
		}
		if p := n.TF; p != nil {
			for _, tf := range p.Dynamic {
				args = append(args, "--pub-tf", tf)
			}
			for _, tf := range p.Static {
				args = append(args, "--pub-tf-static", tf)
			}
			if p.Topic != "" {
				args = append(args, "--tf-topic", p.Topic)
			}
			if p.Stamp != "" {
				args = append(args, "--tf-stamp", string(p.Stamp))
			}
			if p.Offset != 0 {
				args = append(args, "--tf-stamp-offset", seconds(p.Offset))
			}
			if p.Rate > 0 {
				args = append(args, "--tf-rate", rate(p.Rate))
			}
		}
	}
	return append(args, c.args...)
}

func appendQoS(args []string, prefix string, q QoS) []string {
	if q.Reliability != "" {
		args = append(args, prefix+"reliability", q.Reliability)
	}
	if q.Durability != "" {
		args = append(args, prefix+"durability", q.Durability)
	}
	return args
}

// An Event is one line the peer printed: "kind key=value ...".
type Event struct {
	Kind   string
	Fields map[string]string
	Line   string
}

// ParseEvent reads one line of the peer's output.
func ParseEvent(line string) Event {
	words := strings.Fields(line)
	e := Event{Fields: make(map[string]string), Line: line}
	if len(words) == 0 {
		return e
	}
	e.Kind = words[0]
	for _, w := range words[1:] {
		k, v, _ := strings.Cut(w, "=")
		e.Fields[k] = v
	}
	return e
}

// Get returns field key, or "" when absent.
func (e Event) Get(key string) string { return e.Fields[key] }

// Int returns field key as an integer, or an error naming the line.
func (e Event) Int(key string) (int64, error) {
	v, err := strconv.ParseInt(e.Fields[key], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("fastpeer: %q: field %s: %w", e.Line, key, err)
	}
	return v, nil
}

// Time returns the event's sec and nanosec fields as nanoseconds.
func (e Event) Time() (int64, error) {
	sec, err := e.Int("sec")
	if err != nil {
		return 0, err
	}
	nsec, err := e.Int("nanosec")
	if err != nil {
		return 0, err
	}
	return sec*1e9 + nsec, nil
}

// ErrExited reports that the peer exited while a caller waited for an
// event.
var ErrExited = errors.New("fastpeer: peer exited")

// A Peer is one running peer process.
type Peer struct {
	// Args is the command line the peer was started with.
	Args []string
	cmd  *exec.Cmd

	mu      sync.Mutex // mu guards the fields below
	events  []Event
	changed chan struct{} // closed and replaced when events grows or the peer exits
	exited  bool
	killed  bool // by Kill, on purpose
	waitErr error
	stderr  strings.Builder

	done chan struct{} // closed when the output reader and Wait are finished
}

// Start runs a peer in DDS domain domain and waits until it has created
// its endpoints (its "ready" line). The peer runs in an empty directory
// with ROS, Fast DDS and Cyclone variables removed from its environment,
// and is stopped when the test ends (or by Stop).
func Start(ctx context.Context, t testing.TB, domain int, opts ...Option) *Peer {
	t.Helper()
	var c config
	for _, o := range opts {
		o(&c)
	}
	bin := c.bin
	if bin == "" {
		bin = Build(t)
	}
	p := &Peer{Args: Args(domain, opts...), changed: make(chan struct{}), done: make(chan struct{})}
	p.cmd = exec.Command(bin, p.Args...)
	p.cmd.Dir = t.TempDir() // no DEFAULT_FASTRTPS_PROFILES.xml can be picked up
	p.cmd.Env = cleanEnv(domain)
	p.cmd.Stderr = &lockedWriter{mu: &p.mu, w: &p.stderr}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("fastpeer: %v", err)
	}
	go p.read(stdout)
	t.Cleanup(func() {
		if err := p.Stop(); err != nil {
			t.Errorf("fastpeer %s: %v", strings.Join(p.Args, " "), err)
		}
	})
	if _, err := p.WaitFor(ctx, func(e Event) bool { return e.Kind == "ready" }); err != nil {
		t.Fatalf("fastpeer %s did not get ready: %v\nstderr:\n%s", strings.Join(p.Args, " "), err, p.Stderr())
	}
	return p
}

// cleanEnv is this process's environment without anything that could
// point a DDS library elsewhere than loopback, plus ROS_DOMAIN_ID.
func cleanEnv(domain int) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "ROS_") || strings.HasPrefix(k, "RMW_") || strings.HasPrefix(k, "FASTRTPS_") ||
			strings.HasPrefix(k, "FASTDDS_") || strings.HasPrefix(k, "CYCLONEDDS_") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "ROS_DOMAIN_ID="+strconv.Itoa(domain))
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

func (p *Peer) read(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		e := ParseEvent(sc.Text())
		p.mu.Lock()
		p.events = append(p.events, e)
		close(p.changed)
		p.changed = make(chan struct{})
		p.mu.Unlock()
	}
	io.Copy(io.Discard, stdout) //nolint:errcheck // drain after a scanner error
	err := p.cmd.Wait()
	p.mu.Lock()
	p.exited, p.waitErr = true, err
	close(p.changed)
	p.mu.Unlock()
	close(p.done)
}

// PID returns the peer's process id.
func (p *Peer) PID() int { return p.cmd.Process.Pid }

// Events returns every event so far.
func (p *Peer) Events() []Event {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Event(nil), p.events...)
}

// Select returns the events so far for which match is true.
func (p *Peer) Select(match func(Event) bool) []Event {
	var out []Event
	for _, e := range p.Events() {
		if match(e) {
			out = append(out, e)
		}
	}
	return out
}

// Stderr returns what the peer wrote on stderr so far.
func (p *Peer) Stderr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// WaitFor returns the first event, from the start of the peer's output,
// for which match is true, waiting for it until ctx is done or the peer
// exits (ErrExited).
func (p *Peer) WaitFor(ctx context.Context, match func(Event) bool) (Event, error) {
	seen := 0
	for {
		p.mu.Lock()
		events, changed, exited := p.events[seen:], p.changed, p.exited
		seen = len(p.events)
		p.mu.Unlock()
		for _, e := range events {
			if match(e) {
				return e, nil
			}
		}
		if exited {
			return Event{}, ErrExited
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return Event{}, fmt.Errorf("fastpeer: waiting for an event: %w", ctx.Err())
		}
	}
}

// WaitCount waits until n events match, and returns them.
func (p *Peer) WaitCount(ctx context.Context, n int, match func(Event) bool) ([]Event, error) {
	var got []Event
	_, err := p.WaitFor(ctx, func(e Event) bool {
		if match(e) {
			got = append(got, e)
		}
		return len(got) >= n
	})
	return got, err
}

// Kill ends the peer with SIGKILL, as a crashing simulator ends: no
// goodbye on the network, so others notice only when its lease runs out.
// It waits for the process; Stop then reports no error for it.
func (p *Peer) Kill() {
	p.mu.Lock()
	p.killed = true
	p.mu.Unlock()
	p.cmd.Process.Kill() //nolint:errcheck // it may have just exited
	<-p.done
}

// Stop ends the peer with SIGTERM (SIGKILL after 10 s) and waits for it.
// It reports an error if the peer had failed or did not shut down
// cleanly; calling it again returns the same result.
func (p *Peer) Stop() error {
	p.mu.Lock()
	exited := p.exited
	p.mu.Unlock()
	if !exited {
		p.cmd.Process.Signal(syscall.SIGTERM) //nolint:errcheck // it may have just exited
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			p.cmd.Process.Kill() //nolint:errcheck // it may have just exited
			<-p.done
			return fmt.Errorf("did not stop within 10 s of SIGTERM")
		}
	}
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.waitErr != nil && !p.killed {
		return fmt.Errorf("%w\nstderr:\n%s", p.waitErr, p.stderr.String())
	}
	return nil
}
