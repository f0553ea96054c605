//go:build cgo && linux && !nodds

package ddsc

/*
#cgo CFLAGS: -DDDS_NDEBUG -O2
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"strings"
	"sync"
	"time"
	"unsafe"
)

var loadMu sync.Mutex // serialises Load; the C side loads at most once

// Load opens the first of paths that is a usable libddsc. Names without a
// slash are searched like any shared library (LD_LIBRARY_PATH first).
// Once a library is loaded, Load returns nil at once.
func Load(paths []string) error {
	loadMu.Lock()
	defer loadMu.Unlock()
	le := &LoadError{}
	var buf [512]C.char
	for _, p := range paths {
		cp := C.CString(p)
		rc := C.sc_load(cp, &buf[0], C.size_t(len(buf)))
		C.free(unsafe.Pointer(cp))
		if rc == 0 {
			return nil
		}
		le.Tried = append(le.Tried, p)
		le.Errs = append(le.Errs, C.GoString(&buf[0]))
	}
	return le
}

func check(op string, rc C.int32_t) error {
	if rc >= 0 {
		return nil
	}
	return &RetcodeError{Op: op, Code: int32(rc), Msg: C.GoString(C.sc_strretcode(rc))}
}

func entity(op string, rc C.int32_t) (Entity, error) {
	if err := check(op, rc); err != nil {
		return 0, err
	}
	return Entity(rc), nil
}

// CreateDomain creates domain with a Cyclone configuration string (XML
// fragments and file:// URIs separated by commas). A *RetcodeError with
// RetcodePreconditionNotMet means the domain already exists in this process.
func CreateDomain(domain uint32, config string) (Entity, error) {
	cc := C.CString(config)
	defer C.free(unsafe.Pointer(cc))
	return entity("dds_create_domain", C.sc_create_domain(C.uint32_t(domain), cc))
}

// CreateParticipant creates a participant on domain with USER_DATA userData.
func CreateParticipant(domain uint32, userData string) (Entity, error) {
	cu := C.CString(userData)
	defer C.free(unsafe.Pointer(cu))
	return entity("dds_create_participant", C.sc_create_participant(C.uint32_t(domain), cu))
}

// Delete deletes e and its children.
func Delete(e Entity) error { return check("dds_delete", C.sc_delete(C.int32_t(e))) }

// CreateTopic creates topic name carrying opaque payloads of typeName.
func CreateTopic(pp Entity, name, typeName string) (Entity, Sertype, error) {
	cn, ct := C.CString(name), C.CString(typeName)
	defer C.free(unsafe.Pointer(cn))
	defer C.free(unsafe.Pointer(ct))
	var st C.uintptr_t
	e, err := entity("dds_create_topic_sertype", C.sc_create_topic(C.int32_t(pp), cn, ct, &st))
	return e, Sertype(st), err
}

func createEndpoint(op string, pp, topic Entity, writer bool, q QoS, userData string) (Entity, error) {
	cu := C.CString(userData)
	defer C.free(unsafe.Pointer(cu))
	return entity(op, C.sc_create_endpoint(C.int32_t(pp), C.int32_t(topic), cbool(writer),
		cbool(q.Reliable), cbool(q.TransientLocal), C.int32_t(q.Depth), cu))
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// CreateWriter creates a data writer on topic.
func CreateWriter(pp, topic Entity, q QoS, userData string) (Entity, error) {
	return createEndpoint("dds_create_writer", pp, topic, true, q, userData)
}

// CreateReader creates a data reader on topic whose status mask is
// DATA_AVAILABLE only, ready for NewWaiter.
func CreateReader(pp, topic Entity, q QoS, userData string) (Entity, error) {
	return createEndpoint("dds_create_reader", pp, topic, false, q, userData)
}

// GUID returns the DDS GUID of e.
func GUID(e Entity) ([16]byte, error) {
	var g [16]byte
	err := check("dds_get_guid", C.sc_get_guid(C.int32_t(e), (*C.uint8_t)(unsafe.Pointer(&g[0]))))
	return g, err
}

// Write publishes data (CDR, header included) on writer w, whose topic's
// sertype is st.
func Write(w Entity, st Sertype, data []byte) error {
	var p unsafe.Pointer
	if len(data) > 0 {
		p = unsafe.Pointer(&data[0])
	}
	return check("dds_writecdr", C.sc_write(C.int32_t(w), C.uintptr_t(st), p, C.uint32_t(len(data))))
}

// Take removes one sample from reader r. ok is false when none is queued.
func Take(r Entity) (t Taken, ok bool, err error) {
	var (
		sd    C.uintptr_t
		size  C.uint32_t
		valid C.int
		pub   C.uint64_t
		ts    C.int64_t
	)
	rc := C.sc_take(C.int32_t(r), &sd, &size, &valid, &pub, &ts)
	if rc <= 0 {
		return Taken{}, false, check("dds_takecdr", rc)
	}
	t = Taken{Valid: valid != 0, PubHandle: uint64(pub), SourceTimestamp: int64(ts)}
	var p unsafe.Pointer
	if size > 0 {
		t.Data = make([]byte, size)
		p = unsafe.Pointer(&t.Data[0])
	}
	C.sc_copy_free(sd, p, size)
	return t, true, nil
}

// A Batch is reusable scratch space for TakeBatch.
type Batch struct {
	out  [BatchMax]C.struct_sc_taken
	slab [4096]byte
}

// BatchMax is the most samples TakeBatch takes at once.
const BatchMax = 16

// TakeBatch removes up to maxN samples (at most BatchMax) from reader r
// in one cgo call and appends them to dst. The payloads of one call share
// one allocation. full reports that it took maxN, so more samples may be
// queued.
func TakeBatch(r Entity, b *Batch, maxN int, dst []Taken) (_ []Taken, full bool, err error) {
	maxN = min(max(maxN, 1), BatchMax)
	// &b.slab, not &b.slab[0]: for an element's address cgo's pointer
	// check is given the whole array as an interface value, which copies
	// the 4 KB slab to a new heap object on every call (runtime.convTnoptr):
	// 2 MB/s of garbage at 500 samples/s and a copy on every sample's path.
	into := unsafe.Pointer(&b.slab)
	n := C.sc_take_batch(C.int32_t(r), &b.out[0], C.uint32_t(maxN), into, C.uint32_t(len(b.slab)))
	if n <= 0 {
		return dst, false, check("dds_takecdr", n)
	}
	used := 0
	for i := range int(n) {
		o := &b.out[i]
		if o.sd == 0 {
			used = max(used, int(o.off+o.size))
		}
	}
	slab := make([]byte, used)
	copy(slab, b.slab[:used])
	for i := range int(n) {
		o := &b.out[i]
		t := Taken{Valid: o.valid != 0, PubHandle: uint64(o.pub_handle), SourceTimestamp: int64(o.src_ts)}
		switch {
		case o.sd != 0:
			t.Data = make([]byte, o.size)
			C.sc_copy_free(o.sd, unsafe.Pointer(unsafe.SliceData(t.Data)), o.size) // not &t.Data[0]: see above
		case o.size > 0:
			t.Data = slab[o.off : o.off+o.size : o.off+o.size]
		}
		dst = append(dst, t)
	}
	return dst, int(n) == maxN, nil
}

// MatchedPublications returns the instance handles of the writers matched
// with reader r.
func MatchedPublications(r Entity) ([]uint64, error) {
	handles := make([]uint64, 16)
	for {
		n := C.sc_matched_publications(C.int32_t(r), (*C.uint64_t)(unsafe.Pointer(&handles[0])), C.uint32_t(len(handles)))
		if err := check("dds_get_matched_publications", n); err != nil {
			return nil, err
		}
		if int(n) <= len(handles) {
			return handles[:n], nil
		}
		handles = make([]uint64, n)
	}
}

// PublicationGUID returns the GUID of the writer with handle in reader r.
func PublicationGUID(r Entity, handle uint64) ([16]byte, error) {
	var g [16]byte
	err := check("dds_get_matched_publication_data",
		C.sc_publication_guid(C.int32_t(r), C.uint64_t(handle), (*C.uint8_t)(unsafe.Pointer(&g[0]))))
	return g, err
}

// MatchedSubscriptions returns how many readers writer w currently matches.
func MatchedSubscriptions(w Entity) (int, error) {
	n := C.sc_matched_subscriptions_count(C.int32_t(w))
	if err := check("dds_get_publication_matched_status", n); err != nil {
		return 0, err
	}
	return int(n), nil
}

// NewWaiter creates a waitset on which Wait reports data on reader r, and
// a guard condition that Trigger sets to end a Wait.
func NewWaiter(pp, r Entity) (ws, guard Entity, err error) {
	var w, g C.int32_t
	if err := check("dds_create_waitset", C.sc_waiter_create(C.int32_t(pp), C.int32_t(r), &w, &g)); err != nil {
		return 0, 0, err
	}
	return Entity(w), Entity(g), nil
}

// Wait blocks the calling thread until r has data, the guard is
// triggered, or timeout passes. Waking for data re-arms the reader's
// DATA_AVAILABLE status.
func Wait(ws, r Entity, timeout time.Duration) (WaitResult, error) {
	rc := C.sc_wait(C.int32_t(ws), C.int32_t(r), C.int64_t(timeout))
	if err := check("dds_waitset_wait", rc); err != nil {
		return WaitTimeout, err
	}
	return WaitResult(rc), nil
}

// Trigger sets the guard condition, waking a Wait.
func Trigger(guard Entity) error {
	return check("dds_set_guardcondition", C.sc_trigger(C.int32_t(guard)))
}

// Untrigger resets the guard condition.
func Untrigger(guard Entity) error {
	return check("dds_set_guardcondition", C.sc_untrigger(C.int32_t(guard)))
}

// NewWaitSet creates a waitset owned by the library, so that readers of
// any participant can join it, with a guard condition that Trigger sets
// to end a WaitSetWait.
func NewWaitSet() (ws, guard Entity, err error) {
	var w, g C.int32_t
	if err := check("dds_create_waitset", C.sc_waitset_new(&w, &g)); err != nil {
		return 0, 0, err
	}
	return Entity(w), Entity(g), nil
}

// WaitSetAttach makes WaitSetWait report reader r when it has data.
func WaitSetAttach(ws, r Entity) error {
	return check("dds_waitset_attach", C.sc_waitset_attach(C.int32_t(ws), C.int32_t(r)))
}

// WaitSetDetach undoes WaitSetAttach.
func WaitSetDetach(ws, r Entity) error {
	return check("dds_waitset_detach", C.sc_waitset_detach(C.int32_t(ws), C.int32_t(r)))
}

// WaitSetWait blocks the calling thread until a reader attached to ws has
// data, the guard is triggered (woken; WaitSetWait resets it) or timeout
// passes (negative: no timeout). It writes the readers with data to
// readers, their DATA_AVAILABLE status re-armed, and returns how many;
// readers beyond len(readers) stay triggered for the next wait.
func WaitSetWait(ws, guard Entity, timeout time.Duration, readers []Entity) (n int, woken bool, err error) {
	var w C.int
	var p *C.int32_t
	if len(readers) > 0 {
		p = (*C.int32_t)(unsafe.Pointer(&readers[0]))
	}
	rc := C.sc_waitset_wait(C.int32_t(ws), C.int32_t(guard), C.int64_t(timeout), p, C.uint32_t(len(readers)), &w)
	if err := check("dds_waitset_wait", rc); err != nil {
		return 0, false, err
	}
	return int(rc), w != 0, nil
}

// CreateBuiltinReader creates a reader on the builtin topic b. Its
// samples are taken with TakeEndpoint or TakeParticipant.
func CreateBuiltinReader(pp Entity, b Builtin) (Entity, error) {
	return entity("dds_create_reader(builtin)", C.sc_create_builtin_reader(C.int32_t(pp), C.int32_t(b)))
}

// TakeEndpoint takes one DCPSPublication (writers true) or
// DCPSSubscription sample from r. ok is false when none is queued.
func TakeEndpoint(r Entity, writers bool) (s EndpointSample, ok bool, err error) {
	var e C.struct_sc_endpoint
	rc := C.sc_take_endpoint(C.int32_t(r), cbool(writers), &e)
	if rc <= 0 {
		return s, false, check("dds_take(endpoint)", rc)
	}
	defer C.sc_endpoint_free(&e)
	s = EndpointSample{Key: [16]byte(C.GoBytes(unsafe.Pointer(&e.key[0]), 16)),
		Participant: [16]byte(C.GoBytes(unsafe.Pointer(&e.participant_key[0]), 16)),
		Alive:       e.alive != 0, Topic: goString(e.topic_name), Type: goString(e.type_name)}
	if e.user_data != nil {
		s.UserData = C.GoBytes(unsafe.Pointer(e.user_data), C.int(e.user_data_len))
	}
	if e.partitions != nil && e.n_partitions > 0 {
		names := C.GoBytes(unsafe.Pointer(e.partitions), C.int(e.partitions_len))
		s.Partitions = strings.Split(strings.TrimSuffix(string(names), "\x00"), "\x00")
	}
	q := &e.qos
	s.QoS = EndpointQoS{Reliability: int32(q.reliability), Durability: int32(q.durability),
		HistoryKind: int32(q.history_kind), HistoryDepth: int32(q.history_depth),
		Deadline: int64(q.deadline), Lifespan: int64(q.lifespan),
		LivelinessKind: int32(q.liveliness_kind), LeaseDuration: int64(q.lease_duration),
		Ownership: int32(q.ownership), OwnershipStrength: int32(q.ownership_strength),
		DestinationOrder: int32(q.destination_order)}
	for i := range int(q.n_data_representation) {
		s.QoS.DataRepresentation = append(s.QoS.DataRepresentation, int16(q.data_representation[i]))
	}
	return s, true, nil
}

// TakeParticipant takes one DCPSParticipant sample from r. ok is false
// when none is queued.
func TakeParticipant(r Entity) (s ParticipantSample, ok bool, err error) {
	var p C.struct_sc_participant
	rc := C.sc_take_participant(C.int32_t(r), &p)
	if rc <= 0 {
		return s, false, check("dds_take(participant)", rc)
	}
	defer C.sc_participant_free(&p)
	s = ParticipantSample{Key: [16]byte(C.GoBytes(unsafe.Pointer(&p.key[0]), 16)), Alive: p.alive != 0,
		Process: goString(p.process_name), PID: goString(p.pid), Host: goString(p.hostname)}
	if p.user_data != nil {
		s.UserData = C.GoBytes(unsafe.Pointer(p.user_data), C.int(p.user_data_len))
	}
	return s, true, nil
}

func goString(s *C.char) string {
	if s == nil {
		return ""
	}
	return C.GoString(s)
}
