package fastpeer

import (
	"crypto/sha256"
	_ "embed" // the typed peer's C++ source
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

//go:embed cpp/typed/diagnostics.cpp
var diagnosticsSource []byte

// diagnosticsTypes are the types the diagnostics peer's generated code is
// made from: DiagnosticArray and every type it refers to.
var diagnosticsTypes = []string{
	"builtin_interfaces/msg/Time",
	"std_msgs/msg/Header",
	"diagnostic_msgs/msg/KeyValue",
	"diagnostic_msgs/msg/DiagnosticStatus",
	"diagnostic_msgs/msg/DiagnosticArray",
}

// rosidlAdapter converts one .msg file to the .idl rosidl generates from
// it, with rosidl_adapter's own converter (Debian's python3-rosidl):
// argv package_dir package_name msg/Name.msg output_dir.
const rosidlAdapter = `import pathlib, sys
from rosidl_adapter.msg import convert_msg_to_idl
convert_msg_to_idl(pathlib.Path(sys.argv[1]).resolve(), sys.argv[2], pathlib.Path(sys.argv[3]), pathlib.Path(sys.argv[4]))
`

var typedBuild cachedBuild

// BuildDiagnostics returns the path of the peer that can read
// diagnostic_msgs/msg/DiagnosticArray (Node.Subscribe), building it on
// first use: the .msg files (definition returns each type's, such as
// ros2msg.ShippedDefinition, the upstream files) are converted to IDL by
// rosidl_adapter, the IDL to C++ by fastddsgen -typeros2, and that code
// compiled with the peer. The binary is cached like Build's. It skips
// (fails under CI) when g++, Fast DDS, fastddsgen or python3-rosidl is
// missing.
func BuildDiagnostics(t testing.TB, definition func(name string) (string, bool)) string {
	t.Helper()
	Build(t) // skips without g++ or Fast DDS
	return typedBuild.get(t, "Fast DDS diagnostics peer", func() (string, string, error) { return compileDiagnostics(definition) })
}

const typedHint = "apt-get install fastddsgen python3-rosidl (scripts/deps.sh does)"

// python returns a Python interpreter that has rosidl_adapter: Debian's
// first (a pyenv or venv python3 on PATH does not see Debian's modules).
func python() (string, error) {
	var errs []string
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		out, err := exec.Command(p, "-c", "import rosidl_adapter.msg").CombinedOutput()
		if err == nil {
			return p, nil
		}
		errs = append(errs, fmt.Sprintf("%s: %v %s", p, err, firstLine(string(out))))
	}
	return "", fmt.Errorf("no python3 with rosidl_adapter (%s)", strings.Join(errs, "; "))
}

func compileDiagnostics(definition func(string) (string, bool)) (path, skip string, err error) {
	gen, err := exec.LookPath("fastddsgen")
	if err != nil {
		return "", "no fastddsgen: " + typedHint, nil
	}
	py, err := python()
	if err != nil {
		return "", err.Error() + ": " + typedHint, nil
	}
	genVersion, _ := exec.Command(gen, "-version").CombinedOutput()
	gxxVersion, err := exec.Command("g++", "--version").Output()
	if err != nil {
		return "", "", fmt.Errorf("g++ --version: %w", err)
	}
	h := sha256.New()
	parts := [][]byte{source, diagnosticsSource, genVersion, gxxVersion, fastDDSVersion(), []byte(rosidlAdapter)}
	msgs := map[string]string{}
	for _, name := range diagnosticsTypes {
		def, ok := definition(name)
		if !ok {
			return "", "", fmt.Errorf("no definition of %s", name)
		}
		msgs[name] = def
		parts = append(parts, []byte(name), []byte(def))
	}
	for _, p := range parts {
		h.Write(p)
		h.Write([]byte{0})
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "simclock", "fastpeer-diagnostics-"+hex.EncodeToString(h.Sum(nil))[:16])
	bin := filepath.Join(dir, "fastpeer-diagnostics")
	if _, err := os.Stat(bin); err == nil {
		return bin, "", nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", err
	}
	work, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", "", err
	}
	defer os.RemoveAll(work)
	run := func(name string, args ...string) error {
		cmd := exec.Command(name, args...)
		cmd.Dir = work
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return nil
	}
	var sources []string
	for _, name := range diagnosticsTypes {
		pkg, typ := splitType(name)
		if err := os.MkdirAll(filepath.Join(work, "msg", pkg, "msg"), 0o755); err != nil {
			return "", "", err
		}
		if err := os.WriteFile(filepath.Join(work, "msg", pkg, "msg", typ+".msg"), []byte(msgs[name]), 0o644); err != nil {
			return "", "", err
		}
		idlDir := filepath.Join("idl", pkg, "msg")
		if err := os.MkdirAll(filepath.Join(work, idlDir), 0o755); err != nil {
			return "", "", err
		}
		if err := run(py, "-c", rosidlAdapter, filepath.Join("msg", pkg), pkg, "msg/"+typ+".msg", idlDir); err != nil {
			return "", "", err
		}
	}
	for _, name := range diagnosticsTypes {
		pkg, typ := splitType(name)
		out := filepath.Join("gen", pkg, "msg")
		if err := os.MkdirAll(filepath.Join(work, out), 0o755); err != nil {
			return "", "", err
		}
		if err := run(gen, "-replace", "-typeros2", "-I", "idl", "-d", out, filepath.Join("idl", pkg, "msg", typ+".idl")); err != nil {
			return "", "", err
		}
		sources = append(sources, filepath.Join(out, typ+".cxx"), filepath.Join(out, typ+"PubSubTypes.cxx"))
	}
	if err := os.WriteFile(filepath.Join(work, "peer.cpp"), source, 0o644); err != nil {
		return "", "", err
	}
	if err := os.WriteFile(filepath.Join(work, "diagnostics.cpp"), diagnosticsSource, 0o644); err != nil {
		return "", "", err
	}
	tmp := filepath.Join(work, "fastpeer-diagnostics")
	args := append([]string{"-std=c++17", "-O1", "-Wall", "-Wextra", "-I", "gen", "-o", tmp, "diagnostics.cpp"}, sources...)
	if err := run("g++", append(args, linkFlags...)...); err != nil {
		return "", "", err
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", "", err
	}
	return bin, "", nil
}

func splitType(name string) (pkg, typ string) {
	parts := strings.Split(name, "/")
	return parts[0], parts[len(parts)-1]
}

// A DiagnosticArray is one diagnostic_msgs/msg/DiagnosticArray the peer
// took, as its generated code decoded it.
type DiagnosticArray struct {
	Node      string // the peer node that read it
	Seq       int
	Stamp     int64 // header.stamp, ns
	FrameID   string
	Publisher string // the writer's GID, hex
	Status    []DiagnosticStatus
}

// A DiagnosticStatus is one diagnostic_msgs/msg/DiagnosticStatus.
type DiagnosticStatus struct {
	Level                     byte
	Name, Message, HardwareID string
	Values                    []KeyValue
}

// A KeyValue is one diagnostic_msgs/msg/KeyValue.
type KeyValue struct{ Key, Value string }

// Value returns the value of key, or "" and false.
func (s DiagnosticStatus) Value(key string) (string, bool) {
	for _, kv := range s.Values {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return "", false
}

// DiagnosticArrays returns the arrays the peer has reported so far
// ("diagnostics", "diagnostic_status" and "diagnostic_value" events), in
// order; an array whose lines are not all printed yet is left out.
func (p *Peer) DiagnosticArrays() ([]DiagnosticArray, error) {
	var out []DiagnosticArray
	bySeq := map[string]int{}
	var errs []error
	unpct := func(e Event, key string) string {
		v, err := url.PathUnescape(e.Get(key))
		if err != nil {
			errs = append(errs, fmt.Errorf("fastpeer: %q: field %s: %w", e.Line, key, err))
		}
		return v
	}
	counts := map[string][2]int{} // statuses announced, values announced (per array)
	for _, e := range p.Events() {
		switch e.Kind {
		case "diagnostics":
			sec, err1 := e.Int("sec")
			nsec, err2 := e.Int("nanosec")
			n, err3 := e.Int("statuses")
			seq, err4 := e.Int("seq")
			if err := errors.Join(err1, err2, err3, err4); err != nil {
				return nil, err
			}
			bySeq[e.Get("seq")] = len(out)
			out = append(out, DiagnosticArray{Node: e.Get("node"), Seq: int(seq), Stamp: sec*1e9 + nsec,
				FrameID: unpct(e, "frame_id"), Publisher: e.Get("publisher")})
			counts[e.Get("seq")] = [2]int{int(n), 0}
		case "diagnostic_status":
			i, ok := bySeq[e.Get("seq")]
			level, err := e.Int("level")
			if !ok || err != nil {
				return nil, fmt.Errorf("fastpeer: %q: no array, or %v", e.Line, err)
			}
			nv, err := e.Int("values")
			if err != nil {
				return nil, err
			}
			out[i].Status = append(out[i].Status, DiagnosticStatus{Level: byte(level), Name: unpct(e, "name"),
				Message: unpct(e, "message"), HardwareID: unpct(e, "hardware_id"), Values: make([]KeyValue, 0, nv)})
			c := counts[e.Get("seq")]
			c[1] += int(nv)
			counts[e.Get("seq")] = c
		case "diagnostic_value":
			i, ok := bySeq[e.Get("seq")]
			si, err := e.Int("status")
			if !ok || err != nil || int(si) >= len(out[i].Status) {
				return nil, fmt.Errorf("fastpeer: %q: no such array or status", e.Line)
			}
			st := &out[i].Status[si]
			st.Values = append(st.Values, KeyValue{Key: unpct(e, "key"), Value: unpct(e, "value")})
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	// Keep the arrays printed in full.
	complete := out[:0]
	for _, a := range out {
		c := counts[strconv.Itoa(a.Seq)]
		values := 0
		for _, st := range a.Status {
			values += len(st.Values)
		}
		if len(a.Status) == c[0] && values == c[1] {
			complete = append(complete, a)
		}
	}
	return complete, nil
}
