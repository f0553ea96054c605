package node_test

import (
	"context"
	"fmt"
	"time"

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
		fmt.Printf("tick at %gs (due %gs)\n", float64(info.ActualCallTime)/1e9, float64(info.ExpectedCallTime)/1e9)
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
		fmt.Printf("watchdog fired %v after start\n", time.Duration(info.ActualCallTime-start))
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
