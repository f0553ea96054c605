//go:build !cgo || !linux || nodds

package ddsc

import "time"

// Load reports ErrNoCgo: this build cannot call C.
func Load(paths []string) error { return ErrNoCgo }

// CreateDomain reports ErrNoCgo.
func CreateDomain(domain uint32, config string) (Entity, error) { return 0, ErrNoCgo }

// CreateParticipant reports ErrNoCgo.
func CreateParticipant(domain uint32, userData string) (Entity, error) { return 0, ErrNoCgo }

// Delete reports ErrNoCgo.
func Delete(e Entity) error { return ErrNoCgo }

// CreateTopic reports ErrNoCgo.
func CreateTopic(pp Entity, name, typeName string) (Entity, Sertype, error) { return 0, 0, ErrNoCgo }

// CreateWriter reports ErrNoCgo.
func CreateWriter(pp, topic Entity, q QoS, userData string) (Entity, error) { return 0, ErrNoCgo }

// CreateReader reports ErrNoCgo.
func CreateReader(pp, topic Entity, q QoS, userData string) (Entity, error) { return 0, ErrNoCgo }

// GUID reports ErrNoCgo.
func GUID(e Entity) ([16]byte, error) { return [16]byte{}, ErrNoCgo }

// Write reports ErrNoCgo.
func Write(w Entity, st Sertype, data []byte) error { return ErrNoCgo }

// Take reports ErrNoCgo.
func Take(r Entity) (Taken, bool, error) { return Taken{}, false, ErrNoCgo }

// Batch is reusable scratch space for TakeBatch.
type Batch struct{}

// TakeBatch reports ErrNoCgo.
func TakeBatch(r Entity, b *Batch, maxN int, dst []Taken) ([]Taken, bool, error) {
	return dst, false, ErrNoCgo
}

// BatchMax is the most samples TakeBatch takes at once.
const BatchMax = 16

// MatchedPublications reports ErrNoCgo.
func MatchedPublications(r Entity) ([]uint64, error) { return nil, ErrNoCgo }

// PublicationGUID reports ErrNoCgo.
func PublicationGUID(r Entity, handle uint64) ([16]byte, error) { return [16]byte{}, ErrNoCgo }

// MatchedSubscriptions reports ErrNoCgo.
func MatchedSubscriptions(w Entity) (int, error) { return 0, ErrNoCgo }

// NewWaiter reports ErrNoCgo.
func NewWaiter(pp, r Entity) (ws, guard Entity, err error) { return 0, 0, ErrNoCgo }

// Wait reports ErrNoCgo.
func Wait(ws, r Entity, timeout time.Duration) (WaitResult, error) { return WaitTimeout, ErrNoCgo }

// Trigger reports ErrNoCgo.
func Trigger(guard Entity) error { return ErrNoCgo }

// Untrigger reports ErrNoCgo.
func Untrigger(guard Entity) error { return ErrNoCgo }

// NewWaitSet reports ErrNoCgo.
func NewWaitSet() (ws, guard Entity, err error) { return 0, 0, ErrNoCgo }

// WaitSetAttach reports ErrNoCgo.
func WaitSetAttach(ws, r Entity) error { return ErrNoCgo }

// WaitSetDetach reports ErrNoCgo.
func WaitSetDetach(ws, r Entity) error { return ErrNoCgo }

// WaitSetWait reports ErrNoCgo.
func WaitSetWait(ws, guard Entity, timeout time.Duration, readers []Entity) (int, bool, error) {
	return 0, false, ErrNoCgo
}

// CreateBuiltinReader reports ErrNoCgo.
func CreateBuiltinReader(pp Entity, b Builtin) (Entity, error) { return 0, ErrNoCgo }

// TakeEndpoint reports ErrNoCgo.
func TakeEndpoint(r Entity, writers bool) (EndpointSample, bool, error) {
	return EndpointSample{}, false, ErrNoCgo
}

// TakeParticipant reports ErrNoCgo.
func TakeParticipant(r Entity) (ParticipantSample, bool, error) {
	return ParticipantSample{}, false, ErrNoCgo
}
