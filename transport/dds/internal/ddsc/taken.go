package ddsc

// Taken is one sample removed from a reader.
type Taken struct {
	Data            []byte // payload, encapsulation header included; nil when !Valid
	Valid           bool   // false for samples that only carry a state change
	PubHandle       uint64 // the writer's instance handle in this reader
	SourceTimestamp int64  // ns since the Unix epoch
}

// WaitResult says why Wait returned.
type WaitResult int

// Wait results.
const (
	WaitTimeout WaitResult = iota // nothing happened before the timeout
	WaitData                      // the reader has data
	WaitGuard                     // the guard condition was triggered
)
