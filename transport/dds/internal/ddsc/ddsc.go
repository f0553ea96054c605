// Package ddsc is the DDS transport's only door to C: a small set of
// calls into Cyclone DDS 0.10 (libddsc), and a raw-bytes type so that
// payloads cross the boundary as opaque CDR, exactly as rmw_cyclonedds
// does it. (The only other C in simclock is lint's tree-sitter parser;
// deps_test.go keeps it so.)
//
// # Why cgo plus dlopen, and not purego
//
// ROS 2's wire conventions need a custom ddsi_sertype: rmw_cyclonedds
// registers ROS types at run time with tables of C callbacks (from_ser,
// to_ser, free, ...) that Cyclone calls on its own receive threads for
// every sample. With purego those callbacks would be Go functions entered
// from foreign threads per sample, their struct layouts (which change with
// Cyclone's DDS_HAS_SHM build option) would be hand-copied offsets, and
// malformed data could not be delivered raw: Cyclone's default sertype
// validates and silently drops it. So the callbacks are C, compiled by cgo
// against the installed headers, which checks every layout and prototype.
//
// What purego would have bought is kept: the C side does not link libddsc.
// It dlopens it on first use (libddsc.so.0 first, so a sourced ROS 2
// install's LD_LIBRARY_PATH wins; then Debian's libddsc.so.0debian; then
// /opt/ros/*/lib) and calls every function through a dlsym'd pointer. The
// simclock binary therefore starts, and every non-DDS command works, on a
// machine without Cyclone; only asking for DDS reports what to install.
// Building with cgo needs the headers (apt-get install cyclonedds-dev);
// CGO_ENABLED=0 builds, and builds with -tags nodds on a machine without
// the headers, get a stub whose every call returns ErrNoCgo.
//
// The boundary runs Go to C only: no C-to-Go callbacks, no cgo.Handle.
// A goroutine blocks in dds_waitset_wait and a guard condition wakes it.
//
// Caveat: the layouts are those of the headers built against (Debian's
// 0.10.2). A ROS-vendored libddsc of the same 0.10 series and build
// options is compatible; a different series is refused when a symbol is
// missing, and is otherwise untested.
package ddsc

import (
	"errors"
	"fmt"
	"strings"
)

// Entity is a Cyclone DDS entity handle (dds_entity_t).
type Entity int32

// Sertype is the address of a topic's C sertype, needed to write on it.
// It is an opaque number to Go.
type Sertype uintptr

// ErrNoCgo is returned by every call of a binary built with
// CGO_ENABLED=0, or with the nodds build tag (for machines without the
// Cyclone DDS headers).
var ErrNoCgo = errors.New("this simclock was built without cgo (CGO_ENABLED=0) or with -tags nodds, so it cannot load libddsc")

// Retcode values of Cyclone DDS used by callers.
const (
	RetcodePreconditionNotMet = -4 // DDS_RETCODE_PRECONDITION_NOT_MET
)

// A RetcodeError is a failed DDS call.
type RetcodeError struct {
	Op   string
	Code int32
	Msg  string
}

// Error names the call and Cyclone's description of the code.
func (e *RetcodeError) Error() string {
	return fmt.Sprintf("ddsc: %s: %s (%d)", e.Op, e.Msg, e.Code)
}

// A LoadError lists every library tried and why each failed.
type LoadError struct {
	Tried []string
	Errs  []string
}

// Error lists every library tried, one per line.
func (e *LoadError) Error() string {
	var b strings.Builder
	b.WriteString("ddsc: cannot load libddsc:")
	for i := range e.Tried {
		fmt.Fprintf(&b, "\n  %s: %s", e.Tried[i], e.Errs[i])
	}
	return b.String()
}

// QoS is what an endpoint asks for: KEEP_LAST Depth (KEEP_ALL when Depth
// is negative), reliability and durability. Data representation is always
// XCDR1 only.
type QoS struct {
	Depth          int32
	Reliable       bool
	TransientLocal bool
}
