package cli

// simclock doctor on a mixed graph: Fast DDS nodes played by the peer of
// internal/fastpeer (as rmw_fastrtps_cpp, Jazzy's default, makes them)
// next to simclock's Cyclone DDS nodes, all on loopback.

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/simclock/simclock/doctor"
	"github.com/simclock/simclock/internal/fastpeer"
	"github.com/simclock/simclock/internal/testdomain"
	"github.com/simclock/simclock/rules"
)

// Domain ids of the mixed-graph tests.
var (
	domainDoctorMixed  = testdomain.ID(109)
	domainDoctorXTypes = testdomain.ID(110)
)

func TestDoctorMixedFastDDSGraph(t *testing.T) {
	requireDDSCLI(t)
	bin := buildSimclock(t, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	t.Run("hazards_across_vendors", func(t *testing.T) {
		d := domainDoctorMixed
		peer := fastpeer.Start(ctx, t, d, fastpeer.WithNodes(
			fastpeer.Node{Name: "/sim/gazebo", Clock: &fastpeer.ClockPublisher{Start: 1000 * time.Second, Step: 10 * time.Millisecond, Rate: 100}},
			// rclcpp's /rosout (stamped with the system clock by design) and
			// /parameter_events must not count as wall stamps.
			fastpeer.Node{Name: "/robot/imu_driver", UseSimTime: true, RclcppEndpoints: true,
				Imu: &fastpeer.ImuPublisher{Topic: "imu", Stamp: fastpeer.StampSim, Rate: 20}},
			fastpeer.Node{Name: "/robot/legacy_driver",
				Imu: &fastpeer.ImuPublisher{Topic: "legacy_imu", Stamp: fastpeer.StampWall, Rate: 20}},
			fastpeer.Node{Name: "/robot/strict", UseSimTime: true, ClockReader: fastpeer.QoS{Durability: "transient_local"}},
		))
		startSimclock(t, bin, d, "monitor", "monitor", "--format", "json")
		startTestNode(t, d, "planner", "SIMCLOCK_TEST_SIM_TIME=1", "SIMCLOCK_TEST_TOPIC=/plan/temperature")
		want := []struct {
			code        rules.Code
			node, topic string
		}{
			{doctor.CodeNodeNotOnSimTime, "/robot/legacy_driver", "/clock"},
			{doctor.CodeWallStamps, "/robot/legacy_driver", "/robot/legacy_imu"},
			{doctor.CodeClockQoSMismatch, "/robot/strict", "/clock"},
		}
		r := awaitDoctor(t, bin, d, "the mixed graph's hazards and healthy stamps", func(r doctorRun) bool {
			for _, w := range want {
				if !r.has(w.code, w.node, w.topic) {
					return false
				}
			}
			return len(r.nodes) == 6 && r.topics["/robot/imu"].Samples > 0 && r.topics["/plan/temperature"].Samples > 0
		})
		for _, f := range r.findings {
			if !slices.ContainsFunc(want, func(w struct {
				code        rules.Code
				node, topic string
			}) bool {
				return w.code == f.Code && w.node == f.Node && w.topic == f.Topic
			}) && !loadCaused(f) {
				t.Errorf("unexpected finding %+v", f)
			}
		}
		for name, vendor := range map[string]string{"/sim/gazebo": "eProsima Fast DDS", "/robot/imu_driver": "eProsima Fast DDS",
			"/planner": "Eclipse Cyclone DDS", "/simclock_monitor": "Eclipse Cyclone DDS"} {
			if got := r.nodes[name].Vendor; got != vendor {
				t.Errorf("%s: vendor %q, want %q", name, got, vendor)
			}
		}
		if n := r.nodes["/planner"]; n.ClockMatched == nil || *n.ClockMatched != 1 {
			t.Errorf("the Cyclone node's /clock reader should match the Fast DDS /clock writer: %+v", n)
		}
		if tp := r.topics["/rosout"]; tp.StampBase != "ignored" || !slices.Equal(tp.Publishers, []string{"/robot/imu_driver"}) {
			t.Errorf("/rosout = %+v", tp)
		}
		if tp := r.topics["/robot/imu"]; tp.StampBase != "sim" || tp.Type != "sensor_msgs/msg/Imu" {
			t.Errorf("/robot/imu = %+v", tp)
		}
		if len(r.clock) != 1 || r.clock[0].Node != "/sim/gazebo" || r.clock[0].QoS != "RELIABLE VOLATILE" {
			t.Errorf("clock writers = %+v", r.clock)
		}
		if err := peer.CheckLoopback(); err != nil {
			t.Error(err)
		}
	})

	t.Run("xtypes_endpoints_are_named", func(t *testing.T) {
		d := domainDoctorXTypes
		peer := fastpeer.Start(ctx, t, d, fastpeer.WithXTypes(), fastpeer.WithNodes(
			fastpeer.Node{Name: "/plain/app", Clock: &fastpeer.ClockPublisher{Start: 1000 * time.Second, Step: 10 * time.Millisecond, Rate: 50}},
		))
		r := awaitDoctor(t, bin, d, "the XTypes node", func(r doctorRun) bool {
			return r.has(doctor.CodeEndpointsNotDiscovered, "/plain/app", "")
		})
		for _, f := range r.findings {
			if f.Code == doctor.CodeEndpointsNotDiscovered && !strings.Contains(f.Message, "XTypes TypeInformation") {
				t.Errorf("the finding should name the cause: %s", f.Message)
			}
		}
		if len(r.clock) != 0 {
			t.Errorf("Cyclone DDS 0.10.2 accepted an XTypes /clock writer: %+v", r.clock)
		}
		if r.exit != 0 {
			t.Errorf("an info finding must not fail the run: exit %d", r.exit)
		}
		if err := peer.CheckLoopback(); err != nil {
			t.Error(err)
		}
	})
}
