//go:build soak

package doctor_test

// A soak test of doctor --watch --diagnostics on a 100-node graph, in
// virtual time: hours of watching in minutes, the same on every machine.
// Run it with
//
//	go test -tags soak -run TestSoak -v -timeout 2h ./doctor
//
// (SIMCLOCK_SOAK_ROUNDS sets N, default 360: the heap after N rounds of
// one second is compared with the heap after 10N; SIMCLOCK_SOAK_PROFILE=DIR
// writes both heap profiles there, for go tool pprof -diff_base). It is not
// part of the suite: it reports figures, and fails only when memory grows.
// TestReaderFollowsWriters is the suite's deterministic check of the same.

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/simclock/simclock/doctor"
	"github.com/simclock/simclock/graph"
	"github.com/simclock/simclock/transport"
)

// soakGraph is a graph of processes (participants) of nodes, each node
// following /clock and publishing an Imu topic, some broadcasting a
// transform; one process at a time is restarted (new GUIDs, and every
// other time new names).
type soakGraph struct {
	h       *harness
	next    uint32 // the next participant number
	procs   []soakProc
	restart int
	sim     graph.GUID
}

type soakProc struct {
	guid  graph.GUID
	nodes []soakNode
}

type soakNode struct {
	imu, tf  graph.GUID // tf is zero for nodes that broadcast none
	imuTopic string     // DDS topic
	parent   string
	child    string
	reader   graph.GUID
	name, ns string
}

func guid(participant uint32, entity byte) graph.GUID {
	var g graph.GUID
	binary.BigEndian.PutUint32(g[0:4], participant)
	g[4] = 0x50
	g[15] = entity
	if entity == 0 {
		g[14], g[15] = 1, 0xc1
	}
	return g
}

// addProc starts a process of nodes nodes in slot (a namespace), its
// node names those of generation gen/2.
func (s *soakGraph) addProc(slot, nodes, gen int) {
	p := soakProc{guid: guid(s.next, 0)}
	g := s.h.w.Graph()
	g.SetParticipant(graph.Participant{GUID: p.guid, Enclave: "/"}, true)
	info := graph.ParticipantEntitiesInfo{GID: p.guid}
	for i := range nodes {
		n := soakNode{ns: fmt.Sprintf("/robot%d", slot), name: fmt.Sprintf("node%d_g%d", i, gen/2),
			imu: guid(s.next, byte(3+4*i)), reader: guid(s.next, byte(4+4*i))}
		n.imuTopic = fmt.Sprintf("rt%s/%s/imu", n.ns, n.name)
		eps := []graph.Endpoint{
			{GUID: n.reader, Kind: graph.Reader, DDSTopic: doctor.ClockDDSTopic, DDSType: doctor.ClockDDSType, QoS: graph.DefaultReaderQoS},
			{GUID: n.imu, Kind: graph.Writer, DDSTopic: n.imuTopic, DDSType: "sensor_msgs::msg::dds_::Imu_", QoS: graph.DefaultWriterQoS},
		}
		if i == 0 {
			n.tf, n.parent, n.child = guid(s.next, byte(5+4*i)), "base_link", fmt.Sprintf("sensor_%d", slot)
			eps = append(eps, graph.Endpoint{GUID: n.tf, Kind: graph.Writer, DDSTopic: "rt/tf", DDSType: doctor.TFDDSType, QoS: graph.DefaultWriterQoS})
		}
		ni := graph.NodeEntitiesInfo{Namespace: n.ns, Name: n.name}
		for _, e := range eps {
			e.Participant = p.guid
			g.SetEndpoint(e, true)
			if e.Kind == graph.Writer {
				ni.Writers = append(ni.Writers, e.GUID)
			} else {
				ni.Readers = append(ni.Readers, e.GUID)
			}
		}
		info.Nodes = append(info.Nodes, ni)
		p.nodes = append(p.nodes, n)
	}
	g.SetDiscoveryInfo(info)
	s.next++
	if slot < len(s.procs) {
		s.procs[slot] = p
	} else {
		s.procs = append(s.procs, p)
	}
}

// second publishes one second of traffic from t (since the start):
// /clock at 100 Hz, each Imu at 10 Hz, each transform at 20 Hz.
func (s *soakGraph) second(t time.Duration) {
	h := s.h
	h.clock(doctor.ClockDDSTopic, s.sim, t, 100, 10*time.Millisecond, 10*time.Millisecond, int64(1000*time.Second+t))
	for _, p := range s.procs {
		for _, n := range p.nodes {
			q := h.src.reader(h.t, n.imuTopic, false)
			for i := range 10 {
				at := t + time.Duration(i)*100*time.Millisecond + time.Millisecond
				q.push(transport.Sample{Data: imuMsg(int64(1000*time.Second + at)), Publisher: pub(n.imu), SourceTimestamp: h.t0 + int64(at)})
			}
			if n.tf != (graph.GUID{}) {
				tq := h.src.reader(h.t, "rt/tf", false)
				for i := range 20 {
					at := t + time.Duration(i)*50*time.Millisecond + time.Millisecond
					tq.push(transport.Sample{Data: tfMsg(tfEntry{int64(1000*time.Second + at), n.parent, n.child}), Publisher: pub(n.tf),
						SourceTimestamp: h.t0 + int64(at)})
				}
			}
		}
	}
}

// cpuTime returns the CPU time this process used so far: unlike the
// wall clock, it does not count the time other work on the machine took.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// heap returns the live heap, and writes its profile to
// $SIMCLOCK_SOAK_PROFILE/name when that is set.
func heap(t *testing.T, name string) uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if dir := os.Getenv("SIMCLOCK_SOAK_PROFILE"); dir != "" {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close() //nolint:errcheck // written and synced below
		if err := pprof.WriteHeapProfile(f); err != nil {
			t.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			t.Fatal(err)
		}
		t.Logf("heap profile: %s", f.Name())
	}
	return m.HeapAlloc
}

// TestSoak watches 100 nodes in 20 processes for 10N virtual seconds
// (one process restarted every minute), reporting every second and
// encoding the report for /diagnostics, and compares the live heap after
// N and after 10N reports.
func TestSoak(t *testing.T) {
	n := 360
	if s := os.Getenv("SIMCLOCK_SOAK_ROUNDS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	h := newHarness(t, doctor.Options{})
	s := &soakGraph{h: h, next: 1, sim: guid(1000000, 2)}
	h.node(0xfe, "/sim", "gazebo", clockWriter(s.sim, doctor.ClockDDSTopic))
	for slot := range 20 {
		s.addProc(slot, 5, 0)
	}
	h.at(0)
	diag := &doctor.Diagnostics{}
	var heapN, heapEnd uint64
	var cpuFirst, cpuLast time.Duration
	var last doctor.Report
	start := time.Now()
	for round := 1; round <= 10*n; round++ {
		at := time.Duration(round-1) * time.Second
		if round%60 == 0 { // a process restarts: new GUIDs, and every other time new names
			slot := (round / 60) % 20
			s.restart++
			h.w.Graph().SetParticipant(graph.Participant{GUID: s.procs[slot].guid}, false)
			s.addProc(slot, 5, s.restart)
			h.at(at) // the watcher reads the new topics
		}
		s.second(at)
		t0 := cpuTime(t)
		last = h.at(at + time.Second)
		b, err := doctor.EncodeDiagnosticArray(doctor.DiagnosticsStamp(last, 0), "", diag.Statuses(last))
		if err != nil || len(b) == 0 {
			t.Fatal(err)
		}
		d := cpuTime(t) - t0
		switch {
		case round <= n:
			cpuFirst += d
		case round > 9*n:
			cpuLast += d
		}
		if round == n {
			heapN = heap(t, "heap-N.pprof")
		}
	}
	heapEnd = heap(t, "heap-10N.pprof")
	if last.Summary.Nodes != 101 || len(last.Transforms) != 20 || last.Summary.Errors != 0 {
		t.Errorf("the last report: %+v, %d transforms, findings %+v", last.Summary, len(last.Transforms), last.Findings)
	}
	ratio := float64(heapEnd) / float64(heapN)
	t.Logf("%d nodes, %d restarts, %d reports (%s of virtual time) in %s", last.Summary.Nodes, s.restart, 10*n,
		time.Duration(10*n)*time.Second, time.Since(start).Round(time.Second))
	t.Logf("live heap after %d reports: %.1f MiB; after %d: %.1f MiB; ratio %.3f", n, float64(heapN)/(1<<20), 10*n,
		float64(heapEnd)/(1<<20), ratio)
	t.Logf("CPU (process) for a report + /diagnostics per second of watching: %s over the first %d, %s over the last %d; ratio %.3f",
		cpuFirst/time.Duration(n), n, cpuLast/time.Duration(n), n, float64(cpuLast)/float64(cpuFirst))
	if ratio > 1.25 {
		t.Errorf("the heap grew by %.0f%% from %d to %d reports", (ratio-1)*100, n, 10*n)
	}
}
