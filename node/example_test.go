package node_test

import (
	"context"
	"fmt"
	"time"

	"github.com/simclock/simclock"
	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/node"
	"github.com/simclock/simclock/timemsg"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/inproc"
	"github.com/simclock/simclock/virtualclock"
)

// A sim-time node on a virtual-time executor: a fake simulator publishes
// /clock from 100 s; the subject's 10 Hz timer, created while its clock
// reads 0, fires once at 100 s (R23), then every 0.1 s of sim time.
func Example() {
	exec := executor.New(executor.Config{Virtual: virtualclock.New()})
	defer exec.Close()
	bus := inproc.NewBus()
	simulator, _ := node.New("simulator", exec, bus.Connect("simulator"), node.Options{})
	subject, _ := node.New("subject", exec, bus.Connect("subject"), node.Options{UseSimTime: true})
	defer simulator.Close()
	defer subject.Close()

	fmt.Println("before the first /clock:", subject.Now().Seconds())
	pub, _ := simulator.Publisher(timemsg.ClockTopic, timemsg.ClockTypeName, transport.ClockPublisherQoS)
	sim := 100 * time.Second
	simulator.CreateWallTimer(10*time.Millisecond, func(timer.Info) {
		m, _ := timemsg.FromDuration(sim)
		pub.Publish(context.Background(), timemsg.MarshalClock(timemsg.Clock{Clock: timemsg.Time(m)}))
		sim += 10 * time.Millisecond
	})
	ticks := 0
	subject.CreateTimer(100*time.Millisecond, func(info timer.Info) {
		fmt.Printf("tick at %gs (due %gs)\n", info.ActualCallTime.Seconds(), info.ExpectedCallTime.Seconds())
		if ticks++; ticks == 3 {
			exec.Stop()
		}
	})
	exec.Spin(context.Background())
	// Output:
	// before the first /clock: 0
	// tick at 100s (due 0.1s)
	// tick at 100.1s (due 100.1s)
	// tick at 100.2s (due 100.2s)
}

// A timer created with rcl's autostart option off waits, canceled, until
// Reset arms it: a one-shot watchdog, say, that starts with the first
// message.
func ExampleAutostart() {
	fake := virtualclock.New()
	exec := executor.New(executor.Config{Virtual: fake})
	defer exec.Close()
	n, _ := node.New("watchdog", exec, inproc.NewBus().Connect("watchdog"), node.Options{})
	defer n.Close()
	start := fake.SteadyNow()
	watchdog, _ := n.CreateWallTimer(2*time.Second, func(info timer.Info) {
		fmt.Printf("watchdog fired %v after start\n", time.Duration(info.ActualCallTime.Nanoseconds()-start))
		exec.Stop()
	}, node.Autostart(false))
	fmt.Println("canceled:", watchdog.IsCanceled())
	var first *timer.Timer
	first, _ = n.CreateWallTimer(time.Second, func(timer.Info) { // "the first message", once
		first.Cancel()
		watchdog.Reset()
	})
	exec.Spin(context.Background())
	// Output:
	// canceled: true
	// watchdog fired 3s after start
}

// A timer on a clock the program holds, not the node's: here a ROS clock
// a replay tool drives itself, as rclcpp's create_timer(node, clock, ...)
// takes any clock. The timer follows that clock's jumps.
func ExampleCreateTimerOn() {
	exec := executor.New(executor.Config{Virtual: virtualclock.New()})
	defer exec.Close()
	n, _ := node.New("replayer", exec, inproc.NewBus().Connect("replayer"), node.Options{})
	defer n.Close()
	replay := simclock.NewROSClockOn(exec.System(), exec.Steady())
	replay.EnableROSTimeOverride()

	node.CreateTimerOn(n, replay, time.Second, func(info timer.Info) {
		fmt.Println("tick at", info.ActualCallTime.Seconds(), "s of replay time")
	})
	for _, s := range []float64{0.5, 1, 1.5, 2.25} {
		t, _ := simclock.NewTime[simclock.ROS](s, 0)
		replay.SetROSTimeOverride(t)
		exec.SpinSome(context.Background())
	}
	// Output:
	// tick at 1 s of replay time
	// tick at 2.25 s of replay time
}

// WaitForMessage is rclcpp's and rclpy's wait_for_message: subscribe,
// wait for one message, unsubscribe; no spinning executor needed. A
// latched (TRANSIENT_LOCAL) message is there at once; on a silent topic
// the timeout is ErrNoMessage.
func ExampleWaitForMessage() {
	exec := executor.New(executor.Config{Virtual: virtualclock.New()})
	defer exec.Close()
	bus := inproc.NewBus()
	describer, _ := node.New("describer", exec, bus.Connect("describer"), node.Options{})
	defer describer.Close()
	latched := transport.QoS{Depth: 1, Durability: transport.TransientLocal}
	pub, _ := describer.Publisher("/robot_description", "std_msgs/msg/String", latched)
	pub.Publish(context.Background(), []byte("\x00\x01\x00\x00<robot/>"))

	n, _ := node.New("waiter", exec, bus.Connect("waiter"), node.Options{})
	defer n.Close()
	s, err := node.WaitForMessage(context.Background(), n, "/robot_description", "std_msgs/msg/String", latched, time.Second)
	fmt.Printf("%q %v\n", s.Data[4:], err)
	_, err = node.WaitForMessage(context.Background(), n, "/silent", "std_msgs/msg/String", transport.QoS{}, 0)
	fmt.Println(err)
	// Output:
	// "<robot/>" <nil>
	// node waiter: wait for message on /silent: no message before the timeout
}

// WaitForSample waits on a subscription the caller keeps (rclcpp's
// wait_for_message on a subscription): queued samples come one per call.
func ExampleWaitForSample() {
	exec := executor.New(executor.Config{Virtual: virtualclock.New()})
	defer exec.Close()
	bus := inproc.NewBus()
	n, _ := node.New("waiter", exec, bus.Connect("waiter"), node.Options{})
	defer n.Close()
	tr := bus.Connect("raw")
	defer tr.Close()
	sub, _ := tr.Subscribe("/chatter", "std_msgs/msg/String", transport.QoS{Depth: 10})
	defer sub.Close()
	pub, _ := n.Publisher("/chatter", "std_msgs/msg/String", transport.QoS{Depth: 10})
	for _, m := range []string{"one", "two"} {
		pub.Publish(context.Background(), []byte("\x00\x01\x00\x00"+m))
	}
	for range 3 {
		s, err := node.WaitForSample(context.Background(), n, sub, 0)
		fmt.Printf("%q %v\n", s.Data, err)
	}
	// Output:
	// "\x00\x01\x00\x00one" <nil>
	// "\x00\x01\x00\x00two" <nil>
	// "" node waiter: wait for sample: no message before the timeout
}
