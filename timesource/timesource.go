// Package timesource drives ROS clocks from /clock, as rclpy's and
// rclcpp's TimeSource do (R16-R18).
//
// With use_sim_time on, a TimeSource subscribes to /clock (KEEP_LAST 1,
// BEST_EFFORT, VOLATILE), enables the ROS-time override on every attached
// clock, and sets each message as the override value. The attached clocks
// share one override cell (simclock.ROSClock.Share), so a message costs
// one store however many clocks follow it, and each clock's jump
// callbacks still see exactly the jumps rcl gives them. Before the first
// message the clocks read 0. A clock attached later gets the last value at
// once. Turning use_sim_time off disables the override, so the clocks read
// system time again; the stored value is kept, as in rclpy, so turning it
// back on resumes from the last /clock received.
//
// Unlike rclpy and rclcpp, a TimeSource refuses what it cannot trust: a
// message that does not decode, whose sec is negative (upstream's callback
// raises or throws) or whose nanosec is not below 1e9 (upstream adds it)
// is counted and dropped, never applied; timemsg.DecodeClock is the rule. It also notices when more than one
// publisher feeds /clock (R18).
package timesource

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/transport"
)

// SubscribeFunc hands a subscription to whoever dispatches its samples
// (normally an executor) and returns a function that stops dispatching.
type SubscribeFunc func(sub transport.Subscription, handle func(transport.Sample)) (remove func())

// Options configures a TimeSource. The zero value is usable.
type Options struct {
	// Topic is the clock topic; it defaults to "/clock".
	Topic string
	// QoS defaults to transport.ClockSubscriptionQoS.
	QoS *transport.QoS
	// OnWarning, when set, is called once per kind of problem: the first
	// malformed message, the first time a second publisher is seen.
	OnWarning func(error)
	// BeforeApply, when set, sees every well-formed /clock value before
	// it is applied and may veto it by returning false (the message is
	// then counted as received, not applied). The experiments use it to
	// end a run exactly at a given sim time.
	BeforeApply func(simclock.Time[simclock.ROS]) bool
}

// Problems a TimeSource reports through Options.OnWarning and Stats.
var (
	// ErrMalformedClock marks a /clock message that was dropped.
	ErrMalformedClock = errors.New("malformed /clock message dropped")
	// ErrMultiplePublishers marks a /clock topic fed by more than one
	// publisher (R18).
	ErrMultiplePublishers = errors.New("more than one /clock publisher")
)

// Stats counts what a TimeSource received.
type Stats struct {
	Received  uint64 // messages taken from /clock
	Applied   uint64 // messages set on the clocks (a BeforeApply veto makes Received exceed Applied+Malformed)
	Malformed uint64 // messages dropped because they did not decode
	// LastMalformed is the decode error of the last dropped message.
	LastMalformed error
	// Senders lists the distinct publishers seen in samples, sorted.
	Senders []transport.PublisherID
}

// A TimeSource feeds /clock to ROS clocks. Its methods are safe for
// concurrent use; Handle is normally called by the executor.
type TimeSource struct {
	tr        transport.Transport
	subscribe SubscribeFunc
	opts      Options

	// setMu serialises SetUseSimTime and AttachClock, which release mu
	// while they enable clocks and subscribe: without it a concurrent
	// "off" could find no subscription yet (and close a nil one) or leak
	// the "on" one, and a clock attached meanwhile could be left in the
	// other state.
	setMu sync.Mutex

	// cell is the clock whose override cell the attached clocks share:
	// the time source sets it, they read it.
	cell *simclock.ROSClock

	mu            sync.Mutex // mu guards the fields below
	clocks        []*simclock.ROSClock
	active        bool
	last          simclock.Time[simclock.ROS]
	received      bool
	sub           transport.Subscription
	removeSub     func()
	stats         Stats
	warnedBad     bool
	warnedSenders bool
}

// New returns a time source with use_sim_time off that will subscribe on
// tr and hand its subscription to subscribe.
func New(tr transport.Transport, subscribe SubscribeFunc, opts Options) *TimeSource {
	if opts.Topic == "" {
		opts.Topic = timemsg.ClockTopic
	}
	if opts.QoS == nil {
		q := transport.ClockSubscriptionQoS
		opts.QoS = &q
	}
	return &TimeSource{tr: tr, subscribe: subscribe, opts: opts, cell: simclock.NewROSClock()}
}

// AttachClock makes c follow this time source: it gets the last /clock
// value (0 before the first) and the current use_sim_time state (R17).
func (ts *TimeSource) AttachClock(c *simclock.ROSClock) {
	ts.setMu.Lock() // so a concurrent SetUseSimTime cannot leave c in the other state
	defer ts.setMu.Unlock()
	ts.mu.Lock()
	ts.clocks = append(ts.clocks, c)
	ts.mu.Unlock()
	c.Share(ts.cell) // c's callbacks see it take the last value, then the state
}

// DetachClock stops c following this time source; c keeps its state.
func (ts *TimeSource) DetachClock(c *simclock.ROSClock) {
	ts.mu.Lock()
	attached := slices.Contains(ts.clocks, c)
	ts.clocks = slices.DeleteFunc(ts.clocks, func(x *simclock.ROSClock) bool { return x == c })
	ts.mu.Unlock()
	if attached {
		c.Unshare()
	}
}

// UseSimTime reports whether sim time is on.
func (ts *TimeSource) UseSimTime() bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.active
}

// SetUseSimTime turns sim time on or off (R16, R17). Turning it on
// subscribes to /clock and enables the override on every clock; off
// unsubscribes and disables it. Setting the current state does nothing.
func (ts *TimeSource) SetUseSimTime(on bool) error {
	ts.setMu.Lock()
	defer ts.setMu.Unlock()
	ts.mu.Lock()
	if ts.active == on {
		ts.mu.Unlock()
		return nil
	}
	var sub transport.Subscription
	var removeSub func()
	if on {
		var err error
		sub, err = ts.tr.Subscribe(ts.opts.Topic, timemsg.ClockTypeName, *ts.opts.QoS)
		if err != nil {
			ts.mu.Unlock()
			return fmt.Errorf("timesource: subscribe to %s: %w", ts.opts.Topic, err)
		}
	} else {
		sub, removeSub = ts.sub, ts.removeSub
		ts.sub, ts.removeSub = nil, nil
	}
	ts.active = on
	ts.mu.Unlock()

	if on {
		ts.cell.EnableROSTimeOverride()
	} else {
		ts.cell.DisableROSTimeOverride()
	}
	if on {
		remove := ts.subscribe(sub, ts.Handle)
		ts.mu.Lock()
		ts.sub, ts.removeSub = sub, remove
		ts.mu.Unlock()
		return nil
	}
	if removeSub != nil {
		removeSub()
	}
	return sub.Close()
}

// Handle applies one /clock sample: decode, then set it on the attached
// clocks' shared cell. A sample that timemsg.DecodeClock refuses (it does
// not decode, its sec is negative or its nanosec is 1e9 or more) is
// counted and dropped. It does not allocate for a well-formed sample
// from a publisher already seen.
func (ts *TimeSource) Handle(s transport.Sample) {
	ns, err := timemsg.DecodeClock(s.Data)
	var t simclock.Time[simclock.ROS]
	if err == nil {
		t, err = simclock.TimeFromNanoseconds[simclock.ROS](ns)
	}
	// The hook runs before the lock: it may call back into the time source.
	vetoed := err == nil && ts.opts.BeforeApply != nil && !ts.opts.BeforeApply(t)
	ts.mu.Lock()
	ts.stats.Received++
	var warn error
	if s.Publisher != "" && !slices.Contains(ts.stats.Senders, s.Publisher) {
		ts.stats.Senders = append(ts.stats.Senders, s.Publisher)
		slices.Sort(ts.stats.Senders)
		if len(ts.stats.Senders) > 1 && !ts.warnedSenders {
			ts.warnedSenders = true
			warn = fmt.Errorf("timesource: %w on %s: %v", ErrMultiplePublishers, ts.opts.Topic, ts.stats.Senders)
		}
	}
	if err != nil {
		ts.stats.Malformed++
		ts.stats.LastMalformed = err
		if !ts.warnedBad {
			ts.warnedBad = true
			warn = errors.Join(warn, fmt.Errorf("timesource: %w from %q: %w", ErrMalformedClock, s.Publisher, err))
		}
	}
	if err != nil || vetoed {
		ts.mu.Unlock()
		ts.warn(warn)
		return
	}
	ts.stats.Applied++
	ts.last = t
	ts.received = true
	active := ts.active
	ts.mu.Unlock()
	ts.warn(warn)
	if !active {
		return
	}
	// Outside the lock: the clocks' jump callbacks may call back.
	ts.cell.SetROSTimeOverride(t)
}

func (ts *TimeSource) warn(err error) {
	if err != nil && ts.opts.OnWarning != nil {
		ts.opts.OnWarning(err)
	}
}

// FirstClockReceived reports whether a /clock message has been applied:
// separate state from "the clock reads > 0", so a simulation that truly
// starts at 0 can be told apart from one that has not started (R29).
func (ts *TimeSource) FirstClockReceived() bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.received
}

// Last returns the last /clock value applied (0 before the first).
func (ts *TimeSource) Last() simclock.Time[simclock.ROS] {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.last
}

// Stats returns a copy of the counters.
func (ts *TimeSource) Stats() Stats {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	s := ts.stats
	s.Senders = slices.Clone(s.Senders)
	return s
}

// Publishers lists the publishers the transport currently matches with
// the /clock subscription (nil while sim time is off). More than one is a
// fault worth reporting (R18).
func (ts *TimeSource) Publishers() []transport.PublisherID {
	ts.mu.Lock()
	sub := ts.sub
	ts.mu.Unlock()
	if sub == nil {
		return nil
	}
	return sub.MatchedPublishers()
}

// Close turns sim time off and releases the subscription.
func (ts *TimeSource) Close() error { return ts.SetUseSimTime(false) }
