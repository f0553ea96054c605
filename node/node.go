// Package node provides a ROS 2 node for Go: a name, a ROS clock driven
// by a /clock time source when use_sim_time is on, timers on the ROS,
// steady or system clock (or any clock the program holds, CreateTimerOn),
// and publishers and subscriptions on a transport, all dispatched by one
// executor; and rclcpp's and rclpy's wait_for_message (WaitForMessage),
// which needs no executor.
package node

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/timesource"
	"github.com/simclock/simclock/transport"
)

// UseSimTimeParam is the parameter that switches a node to sim time.
const UseSimTimeParam = "use_sim_time"

// ErrParameterType rejects a parameter value of the wrong type, as rclcpp
// does for a non-bool use_sim_time.
var ErrParameterType = errors.New("wrong parameter type")

// ErrUnknownParameter rejects a parameter the node does not declare.
var ErrUnknownParameter = errors.New("parameter not declared")

// ErrClosed is returned by CreateTimerOn on a closed node.
var ErrClosed = errors.New("node closed")

// ErrNilClock rejects a timer on a nil clock, as rclcpp's create_timer
// rejects a null clock.
var ErrNilClock = errors.New("clock is nil")

// ErrUnstartedTimer is the warning given (once per node) when a timer is
// created on the ROS clock while sim time is on and no /clock has come:
// the timer's first deadline is its period in sim time, so it first fires
// when /clock passes it, at once if the first /clock is later (R23).
var ErrUnstartedTimer = errors.New("timer created before the first /clock")

// Options configures a node. The zero value is use_sim_time=false.
type Options struct {
	// UseSimTime is the initial value of use_sim_time.
	UseSimTime bool
	// OnWarning receives the node's warnings, each kind once: the time
	// source's (malformed /clock, several publishers) and the node's own
	// (a ROS timer created while sim time has not started, ErrUnstartedTimer).
	OnWarning func(error)
	// BeforeClock, when set, sees each /clock value before the time
	// source applies it and may veto it (see timesource.Options).
	BeforeClock func(simclock.Time[simclock.ROS]) bool
	// ClockQoS overrides the /clock subscription's QoS, as rclcpp's
	// qos_overrides./clock parameters do; nil means KEEP_LAST 1,
	// BEST_EFFORT, VOLATILE (R16).
	ClockQoS *transport.QoS
	// TimeSource, when set, is a time source the node shares with other
	// nodes of the process instead of creating its own: one /clock
	// subscription, and one store per message for all their clocks (see
	// simclock.ROSClock.Share). use_sim_time is then the shared time
	// source's (UseSimTime is ignored), and OnWarning, BeforeClock and
	// ClockQoS are its own. Close detaches the node's clock and leaves the
	// time source open.
	TimeSource *timesource.TimeSource
	// Namespace is the node's namespace; "" means "/". A relative
	// namespace is taken relative to "/".
	Namespace string
}

// A Node is one ROS 2 node. Its methods are safe for concurrent use.
type Node struct {
	name      string
	namespace string
	exec      *executor.Executor
	tr        transport.Transport
	ownTr     bool // tr is a node view of the caller's transport, closed with the node
	clock     *simclock.ROSClock
	ts        *timesource.TimeSource
	ownTS     bool // ts was created by New, and is closed by Close

	ros, steady, system *timer.Queue

	onWarning func(error)

	mu           sync.Mutex // mu guards the fields below
	removes      []func()
	warnedTimers bool
	others       []clockQueue // CreateTimerOn's queues, one per clock
	closed       bool
}

// clockQueue is the timer queue of a clock the caller gave CreateTimerOn.
type clockQueue struct {
	clock any
	q     *timer.Queue
}

// New creates a node on exec and tr. Its ROS clock reads exec's system
// clock while sim time is off, so a virtual-time executor gives the node
// virtual time. name and opts.Namespace must be valid ROS names
// (ValidateName, NormalizeNamespace). When tr can scope endpoints to
// nodes (transport.NodeScoper, as the DDS transport does), the node's
// publishers and subscriptions, its /clock reader included, are announced
// under its name, so ROS 2 graph tools list it.
func New(name string, exec *executor.Executor, tr transport.Transport, opts Options) (*Node, error) {
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	ns, err := NormalizeNamespace(opts.Namespace)
	if err != nil {
		return nil, fmt.Errorf("node %s: %w", name, err)
	}
	ownTr := false
	if s, ok := tr.(transport.NodeScoper); ok {
		view, err := s.ForNode(name, ns)
		if err != nil {
			return nil, fmt.Errorf("node %s: %w", name, err)
		}
		tr, ownTr = view, true
	}
	n := &Node{
		name:      name,
		namespace: ns,
		exec:      exec,
		tr:        tr,
		ownTr:     ownTr,
		clock:     simclock.NewROSClockOn(exec.System(), exec.Steady()),
		onWarning: opts.OnWarning,
	}
	n.ts, n.ownTS = opts.TimeSource, opts.TimeSource == nil
	if n.ownTS {
		n.ts = timesource.New(tr, exec.Subscribe, timesource.Options{OnWarning: opts.OnWarning, BeforeApply: opts.BeforeClock, QoS: opts.ClockQoS})
	}
	n.ts.AttachClock(n.clock)
	n.ros = timer.NewQueue[simclock.ROS](n.clock)
	n.steady = timer.NewQueue(exec.Steady())
	n.system = timer.NewQueue(exec.System())
	for _, q := range []*timer.Queue{n.ros, n.steady, n.system} {
		exec.AddQueue(q)
	}
	if !n.ownTS {
		return n, nil // use_sim_time is the shared time source's
	}
	if err := n.ts.SetUseSimTime(opts.UseSimTime); err != nil {
		n.Close()
		return nil, fmt.Errorf("node %s: %w", name, err)
	}
	return n, nil
}

// Name returns the node's name.
func (n *Node) Name() string { return n.name }

// Namespace returns the node's namespace ("/" for the root).
func (n *Node) Namespace() string { return n.namespace }

// FullName returns the node's fully qualified name, "/ns/name".
func (n *Node) FullName() string { return strings.TrimSuffix(n.namespace, "/") + "/" + n.name }

// Clock returns the node's ROS clock (rclpy's get_clock()).
func (n *Node) Clock() *simclock.ROSClock { return n.clock }

// Now returns the node's ROS time: 0 with sim time on before the first
// /clock (R16, R26).
func (n *Node) Now() simclock.Time[simclock.ROS] { return n.clock.Now() }

// TimeSource returns the node's time source.
func (n *Node) TimeSource() *timesource.TimeSource { return n.ts }

// UseSimTime returns the use_sim_time parameter.
func (n *Node) UseSimTime() bool { return n.ts.UseSimTime() }

// SetUseSimTime sets the use_sim_time parameter, applied at once (as rclpy
// does).
func (n *Node) SetUseSimTime(on bool) error { return n.ts.SetUseSimTime(on) }

// SetParameter sets a declared parameter. The node declares only
// use_sim_time, which must be a bool.
func (n *Node) SetParameter(name string, value any) error {
	if name != UseSimTimeParam {
		return fmt.Errorf("node %s: %q: %w", n.name, name, ErrUnknownParameter)
	}
	on, ok := value.(bool)
	if !ok {
		return fmt.Errorf("node %s: %s must be a bool, not %T: %w", n.name, name, value, ErrParameterType)
	}
	return n.SetUseSimTime(on)
}

// A TimerOption sets one of rcl's timer options (rcl_timer_init2) on a
// timer the node creates.
type TimerOption func(*timerOptions)

type timerOptions struct {
	autostart bool
}

// Autostart sets rcl's autostart option (default true). With false the
// timer is created canceled and first fires one period after Reset, as
// rclpy's create_timer(..., autostart=False) and rclcpp's create_timer
// and create_wall_timer with autostart = false do.
func Autostart(on bool) TimerOption { return func(o *timerOptions) { o.autostart = on } }

func timerConfig(opts []TimerOption) timerOptions {
	o := timerOptions{autostart: true}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// CreateTimer creates a timer on the node's ROS clock (R19), as
// create_timer does by default.
func (n *Node) CreateTimer(period time.Duration, callback func(timer.Info), opts ...TimerOption) (*timer.Timer, error) {
	o := timerConfig(opts)
	if o.autostart && n.UseSimTime() && !n.ts.FirstClockReceived() && n.onWarning != nil {
		n.mu.Lock()
		first := !n.warnedTimers
		n.warnedTimers = true
		n.mu.Unlock()
		if first {
			n.onWarning(fmt.Errorf("node %s: %w: it first fires when /clock passes %v of sim time (R23)", n.name, ErrUnstartedTimer, period))
		}
	}
	return n.ros.New(period, callback, o.autostart)
}

// CreateWallTimer creates a timer on the steady clock, as rclcpp's
// create_wall_timer does.
func (n *Node) CreateWallTimer(period time.Duration, callback func(timer.Info), opts ...TimerOption) (*timer.Timer, error) {
	return n.steady.New(period, callback, timerConfig(opts).autostart)
}

// CreateSystemTimer creates a timer on the system clock.
func (n *Node) CreateSystemTimer(period time.Duration, callback func(timer.Info), opts ...TimerOption) (*timer.Timer, error) {
	return n.system.New(period, callback, timerConfig(opts).autostart)
}

// CreateTimerOn creates a timer on clock, any clock the caller holds, as
// rclcpp's create_timer(node, clock, period, callback, group, autostart)
// (rclcpp/include/rclcpp/create_timer.hpp) and rclpy's
// create_timer(period, callback, clock=clock) (rclpy/rclpy/node.py) do: a
// ROS clock the program drives itself with SetROSTimeOverride, another
// node's clock, a second virtual clock. Timers on a *simclock.ROSClock
// follow its jumps (R22). The node's executor dispatches the timer and
// Close takes it off; the timers of one clock share one queue. On the
// node's own ROS clock CreateTimerOn is CreateTimer (its R23 warning
// included), on the executor's steady clock CreateWallTimer, on its system
// clock CreateSystemTimer. A nil clock is ErrNilClock, a closed node
// ErrClosed, a negative period timer.ErrNegativePeriod.
//
// The executor sleeps until the earliest deadline, read on each timer's
// own clock, so the clock must run at the pace of the executor's steady
// clock or say when it jumps: a ROS clock does (its jumps wake the
// executor). In virtual time that means a clock driven by the executor's
// fake (exec.Steady(), exec.System(), a ROS clock built on them with
// simclock.NewROSClockOn) or a ROS clock with sim time on.
func CreateTimerOn[K simclock.Kind](n *Node, clock simclock.Clock[K], period time.Duration, callback func(timer.Info), opts ...TimerOption) (*timer.Timer, error) {
	if v := reflect.ValueOf(clock); !v.IsValid() || (v.Kind() == reflect.Pointer && v.IsNil()) {
		return nil, fmt.Errorf("node %s: create timer: %w", n.name, ErrNilClock)
	}
	switch {
	case sameClock(clock, n.clock):
		return n.CreateTimer(period, callback, opts...)
	case sameClock(clock, n.exec.Steady()):
		return n.CreateWallTimer(period, callback, opts...)
	case sameClock(clock, n.exec.System()):
		return n.CreateSystemTimer(period, callback, opts...)
	}
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return nil, fmt.Errorf("node %s: create timer: %w", n.name, ErrClosed)
	}
	var q *timer.Queue
	for _, o := range n.others {
		if sameClock(o.clock, clock) {
			q = o.q
			break
		}
	}
	if q == nil {
		q = timer.NewQueue(clock)
		n.others = append(n.others, clockQueue{clock: clock, q: q})
		n.exec.AddQueue(q)
	}
	n.mu.Unlock()
	return q.New(period, callback, timerConfig(opts).autostart)
}

// sameClock reports whether a and b are the same clock: equal interface
// values, and never a panic for a clock type that is not comparable.
func sameClock(a, b any) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return a == b
}

// CreateRate returns a rate of hz on the node's ROS clock.
func (n *Node) CreateRate(hz float64) (*timer.Rate[simclock.ROS], error) {
	return timer.NewRate[simclock.ROS](n.clock, hz)
}

// Publisher creates a publisher on the node's transport.
func (n *Node) Publisher(topic, typeName string, qos transport.QoS) (transport.Publisher, error) {
	return n.tr.Publisher(topic, typeName, qos)
}

// Subscribe creates a subscription whose samples the executor hands to
// handle.
func (n *Node) Subscribe(topic, typeName string, qos transport.QoS, handle func(transport.Sample)) (transport.Subscription, error) {
	sub, err := n.tr.Subscribe(topic, typeName, qos)
	if err != nil {
		return nil, err
	}
	remove := n.exec.Subscribe(sub, handle)
	n.mu.Lock()
	n.removes = append(n.removes, func() { remove(); sub.Close() })
	n.mu.Unlock()
	return sub, nil
}

// Close stops the node's timers, subscriptions and time source, and
// withdraws the node from the graph. It does not close the transport.
func (n *Node) Close() error {
	n.mu.Lock()
	removes := n.removes
	n.removes = nil
	n.mu.Unlock()
	for _, r := range removes {
		r()
	}
	var err error
	if n.ownTS {
		err = n.ts.Close()
	} else {
		n.ts.DetachClock(n.clock)
	}
	n.mu.Lock()
	n.closed = true
	queues := []*timer.Queue{n.ros, n.steady, n.system}
	for _, o := range n.others {
		queues = append(queues, o.q)
	}
	n.others = nil
	n.mu.Unlock()
	for _, q := range queues {
		if q != nil {
			n.exec.RemoveQueue(q)
			q.Close()
		}
	}
	if n.ownTr {
		err = errors.Join(err, n.tr.Close())
	}
	return err
}
