package clockstream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
)

// Errors a Sample may carry.
var (
	// ErrMalformed marks a payload that does not decode as a Clock.
	ErrMalformed = errors.New("malformed /clock message")
	// ErrNotNormalized marks a Clock whose nanosec is 1e9 or more (R8).
	ErrNotNormalized = timemsg.ErrNotNormalized
)

// A Sample is one /clock message as an observer met it.
type Sample struct {
	// At is when it was received (live) or logged (bag), on the observer's
	// monotonic axis.
	At time.Duration
	// Publisher identifies the sender; empty when unknown.
	Publisher transport.PublisherID
	// Value is the /clock value in nanoseconds; meaningful when Err is nil.
	Value int64
	// Err is nil, or wraps ErrMalformed or ErrNotNormalized.
	Err error
}

// Decode makes the Sample of a serialized rosgraph_msgs/Clock payload
// (CDR header included) received at at from pub. It reads the payload
// with timemsg.DecodeClock, as a node's time source does, so what a node
// refuses (a negative sec as well as bytes that do not decode) is
// malformed here too, and a nanosec of 1e9 or more is not normalised.
//
// Decode itself is small enough to inline, so that the Sample is built in
// its caller's frame: a bag's /clock messages are decoded one by one, and
// a Sample returned from a call was copied through the stack in a way
// that stalls the processor (half of the decode's time in bag inspect's
// profile).
func Decode(at time.Duration, pub transport.PublisherID, data []byte) Sample {
	v, err := decodeValue(data)
	return Sample{At: at, Publisher: pub, Value: v, Err: err}
}

// decodeValue is the value of a Sample and its error (then 0).
func decodeValue(data []byte) (int64, error) {
	ns, err := timemsg.DecodeClock(data)
	switch {
	case err == nil:
		return ns, nil
	case errors.Is(err, timemsg.ErrNotNormalized):
		return 0, err
	}
	return 0, fmt.Errorf("%w: %w", ErrMalformed, err)
}

// Encode appends the serialized Clock message carrying value (ns) to dst.
// It is the one place simclock builds a /clock message: a value below 0 or
// past what the message's int32 seconds carry is an error wrapping
// simclock.ErrOutOfRange, never a wrap.
func Encode(dst []byte, value time.Duration) ([]byte, error) {
	m, err := timemsg.FromDuration(value)
	if err != nil || value < 0 {
		return dst, fmt.Errorf("clockstream: /clock value %d ns: %w", int64(value), simclock.ErrOutOfRange)
	}
	return timemsg.AppendClock(dst, timemsg.Clock{Clock: timemsg.Time(m)}), nil
}

// A Source yields samples in receive order.
type Source interface {
	// Next returns the next sample, or io.EOF after the last one.
	Next(ctx context.Context) (Sample, error)
}

// A Message is one recorded /clock message: what a bag reader yields.
type Message struct {
	At        time.Duration // log time
	Publisher transport.PublisherID
	Data      []byte // serialized payload, CDR header included
}

// FromMessages adapts an iterator of recorded messages (a bag's /clock
// channel, in log-time order) to a Source. A non-nil error from the
// iterator ends the Source with that error.
func FromMessages(seq iter.Seq2[Message, error]) Source {
	next, stop := iter.Pull2(seq)
	return &pullSource{next: func() (Sample, error) {
		m, err, ok := next()
		switch {
		case !ok:
			stop()
			return Sample{}, io.EOF
		case err != nil:
			stop()
			return Sample{}, err
		}
		return Decode(m.At, m.Publisher, m.Data), nil
	}}
}

// FromSamples adapts a slice of samples to a Source.
func FromSamples(samples []Sample) Source {
	i := 0
	return &pullSource{next: func() (Sample, error) {
		if i == len(samples) {
			return Sample{}, io.EOF
		}
		i++
		return samples[i-1], nil
	}}
}

// FromSchedule yields what s would publish, as if received the moment it
// was sent by publisher pub: a simulator without a transport. Dropped
// ticks are not received.
func FromSchedule(s *Schedule, pub transport.PublisherID) Source {
	return &pullSource{next: func() (Sample, error) {
		for {
			t, ok := s.Next()
			if !ok {
				return Sample{}, io.EOF
			}
			if !t.Dropped {
				return Sample{At: t.Wall, Publisher: pub, Value: int64(t.Sim)}, nil
			}
		}
	}}
}

type pullSource struct{ next func() (Sample, error) }

func (p *pullSource) Next(ctx context.Context) (Sample, error) {
	if err := ctx.Err(); err != nil {
		return Sample{}, err
	}
	return p.next()
}

// Analyze runs an Analyzer with cfg over every sample of src and returns
// its totals at the last sample. The error is src's, if it failed (the
// totals then cover the samples before it).
func Analyze(ctx context.Context, src Source, cfg Config) (Totals, error) {
	var a *Analyzer
	var last time.Duration
	for {
		s, err := src.Next(ctx)
		if err != nil {
			if a == nil {
				a = NewAnalyzer(cfg, 0)
			}
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return a.Totals(last), err
		}
		if a == nil {
			a = NewAnalyzer(cfg, s.At)
		}
		a.Observe(s)
		last = s.At
	}
}
