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
//	SIMCLOCK_TEST_TF        "parent:child": broadcast that transform on /tf at
//	                        SIMCLOCK_TEST_RATE, stamped as SIMCLOCK_TEST_STAMP says
//	SIMCLOCK_TEST_TF_STATIC "parent:child": send it once on /tf_static
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
		if err := broadcastTF(ctx, n, rate); err != nil {
			return err
		}
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

// tfType is what tf2_ros broadcasts.
const tfType = "tf2_msgs/msg/TFMessage"

// broadcastTF broadcasts SIMCLOCK_TEST_TF on /tf and SIMCLOCK_TEST_TF_STATIC
// on /tf_static with tf2_ros's QoS, as its TransformBroadcaster (reliable,
// volatile, keep last 100) and StaticTransformBroadcaster (reliable,
// transient local, keep last 1) do.
func broadcastTF(ctx context.Context, n *node.Node, rate float64) error {
	mode := os.Getenv("SIMCLOCK_TEST_STAMP")
	stamp := stamper(n, mode)
	if pair := os.Getenv("SIMCLOCK_TEST_TF_STATIC"); pair != "" {
		parent, child, _ := strings.Cut(pair, ":")
		pub, err := n.Publisher("/tf_static", tfType, transport.QoS{Depth: 1, Reliability: transport.Reliable,
			Durability: transport.TransientLocal})
		if err != nil {
			return err
		}
		if err := pub.Publish(ctx, tfMessage(stamp(), parent, child)); err != nil {
			return err
		}
	}
	pair := os.Getenv("SIMCLOCK_TEST_TF")
	if pair == "" {
		return nil
	}
	parent, child, _ := strings.Cut(pair, ":")
	pub, err := n.Publisher("/tf", tfType, transport.QoS{Depth: 100, Reliability: transport.Reliable})
	if err != nil {
		return err
	}
	_, err = n.CreateWallTimer(time.Duration(float64(time.Second)/rate), func(timer.Info) {
		s := stamp()
		if s == 0 && mode != "zero" {
			return
		}
		pub.Publish(ctx, tfMessage(s, parent, child)) //nolint:errcheck // best effort
	})
	return err
}

// tfMessage encodes a tf2_msgs/msg/TFMessage of one transform.
func tfMessage(stampNs int64, parent, child string) []byte {
	w := cdr.NewWriter(96)
	w.Uint32(1)
	w.Int32(int32(stampNs / 1e9))
	w.Uint32(uint32(stampNs % 1e9))
	w.String(parent)
	w.String(child)
	for _, v := range []float64{0.1, 0, 0, 0, 0, 0, 1} {
		w.Float64(v)
	}
	return w.Bytes()
}
