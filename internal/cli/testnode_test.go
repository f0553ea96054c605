package cli

// A small Go program built on package node, for the doctor tests: the test
// binary re-runs itself with SIMCLOCK_TEST_NODE set and becomes one (or
// several) ROS nodes on real DDS that publish a stamped topic.

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/simclock/simclock/cdr"
	"github.com/simclock/simclock/executor"
	"github.com/simclock/simclock/node"
	"github.com/simclock/simclock/timer"
	"github.com/simclock/simclock/transport"
	"github.com/simclock/simclock/transport/dds"
)

// Environment of a test node:
//
//	SIMCLOCK_TEST_NODE      node name; with SIMCLOCK_TEST_NODES=N, N nodes
//	                        name_0..name_N-1 sharing one participant
//	SIMCLOCK_TEST_NS        namespace
//	SIMCLOCK_TEST_SIM_TIME  "1": use_sim_time on
//	SIMCLOCK_TEST_TOPIC     stamped topic to publish (sensor_msgs/msg/Temperature), none if empty
//	SIMCLOCK_TEST_STAMP     "node" (node.Now()), "wall" (system time), "zero",
//	                        or a Go duration added to node.Now() ("-30s")
//	SIMCLOCK_TEST_RATE      publications per second (default 20)
//	SIMCLOCK_TEST_CLOCK_QOS "reliable_transient_local": a /clock reader no
//	                        volatile writer serves
const testNodeEnv = "SIMCLOCK_TEST_NODE"

// TemperatureType is a stamped type of the common interface packages.
const temperatureType = "sensor_msgs/msg/Temperature"

func testNodeMain() int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := runTestNode(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "test node:", err)
		return 1
	}
	return 0
}

func runTestNode(ctx context.Context) error {
	cfg, _, err := dds.ConfigFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	tr, err := dds.Open(ctx, cfg)
	if err != nil {
		return err
	}
	defer tr.Close() //nolint:errcheck // exiting
	exec := executor.New(executor.Config{})
	defer exec.Close() //nolint:errcheck // exiting
	count := 1
	if s := os.Getenv("SIMCLOCK_TEST_NODES"); s != "" {
		if count, err = strconv.Atoi(s); err != nil {
			return err
		}
	}
	rate := 20.0
	if s := os.Getenv("SIMCLOCK_TEST_RATE"); s != "" {
		if rate, err = strconv.ParseFloat(s, 64); err != nil {
			return err
		}
	}
	opts := node.Options{UseSimTime: os.Getenv("SIMCLOCK_TEST_SIM_TIME") == "1", Namespace: os.Getenv("SIMCLOCK_TEST_NS")}
	if os.Getenv("SIMCLOCK_TEST_CLOCK_QOS") == "reliable_transient_local" {
		opts.ClockQoS = &transport.QoS{Depth: 1, Reliability: transport.Reliable, Durability: transport.TransientLocal}
	}
	for i := range count {
		name := os.Getenv(testNodeEnv)
		topic := os.Getenv("SIMCLOCK_TEST_TOPIC")
		if count > 1 {
			name = fmt.Sprintf("%s_%d", name, i)
			if topic != "" {
				topic = fmt.Sprintf("%s_%d", topic, i)
			}
		}
		n, err := node.New(name, exec, tr, opts)
		if err != nil {
			return err
		}
		defer n.Close() //nolint:errcheck // exiting
		if topic == "" {
			continue
		}
		pub, err := n.Publisher(topic, temperatureType, transport.QoS{Depth: 10, Reliability: transport.Reliable})
		if err != nil {
			return err
		}
		mode := os.Getenv("SIMCLOCK_TEST_STAMP")
		stamp := stamper(n, mode)
		if _, err := n.CreateWallTimer(time.Duration(float64(time.Second)/rate), func(timer.Info) {
			s := stamp()
			if s == 0 && mode != "zero" {
				return // a careful node waits for its clock to start (R11)
			}
			pub.Publish(ctx, temperature(s, 21.5)) //nolint:errcheck // best effort
		}); err != nil {
			return err
		}
	}
	fmt.Println("ready")
	if err := exec.Spin(ctx); err != nil && ctx.Err() == nil {
		return err
	}
	return nil
}

func stamper(n *node.Node, mode string) func() int64 {
	switch mode {
	case "", "node":
		return func() int64 { return n.Now().Nanoseconds() }
	case "wall":
		return func() int64 { return time.Now().UnixNano() }
	case "zero":
		return func() int64 { return 0 }
	}
	off, err := time.ParseDuration(strings.TrimSpace(mode))
	if err != nil {
		panic("SIMCLOCK_TEST_STAMP: " + err.Error())
	}
	return func() int64 {
		if now := n.Now().Nanoseconds(); now != 0 {
			return now + int64(off)
		}
		return 0
	}
}

// temperature encodes a sensor_msgs/msg/Temperature.
func temperature(stampNs int64, celsius float64) []byte {
	w := cdr.NewWriter(48)
	w.Int32(int32(stampNs / 1e9))
	w.Uint32(uint32(stampNs % 1e9))
	w.String("probe")
	w.Float64(celsius)
	w.Float64(0.01)
	return w.Bytes()
}
