package cli

// simclock doctor on tf, between real processes: Fast DDS nodes made as
// rmw_fastrtps_cpp makes them (internal/fastpeer) broadcasting transforms
// as tf2_ros's broadcasters do, and a Go node on Cyclone DDS. Nothing here
// times anything: the tests wait for rounds with deadlines that only bound
// a hang.

import (
	"context"
	"github.com/simclock/simclock/internal/testdomain"
	"strings"
	"testing"
	"time"

	"github.com/simclock/simclock/doctor"
	"github.com/simclock/simclock/internal/fastpeer"
)

// Domain ids of these tests.
var (
	domainDoctorTF        = testdomain.ID(123)
	domainDoctorTFOldData = testdomain.ID(124)
)

func (r doctorRun) transform(parent, child, publisher string) (doctor.TransformReport, bool) {
	for _, t := range r.transforms {
		if t.Parent == parent && t.Child == child && t.Publisher == publisher {
			return t, true
		}
	}
	return doctor.TransformReport{}, false
}

// A sim-time graph whose tf is broken three ways at once: a laser driver
// on wall time, wheel transforms stamped 3 s late, and map→odom broadcast
// by a Fast DDS AMCL and by a Go localization node on Cyclone DDS; beside
// a healthy robot_state_publisher with a static transform.
func TestDoctorTF(t *testing.T) {
	requireDDSCLI(t)
	bin := buildSimclock(t, t.TempDir())
	d := domainDoctorTF
	ctx, cancel := context.WithTimeout(context.Background(), 3*hang)
	defer cancel()
	peer := fastpeer.Start(ctx, t, d, fastpeer.WithNodes(
		fastpeer.Node{Name: "/sim/gazebo", Clock: &fastpeer.ClockPublisher{Start: 1000 * time.Second, Step: 10 * time.Millisecond, Rate: 100}},
		fastpeer.Node{Name: "/robot/robot_state_publisher", UseSimTime: true,
			TF: &fastpeer.TFBroadcaster{Dynamic: []string{"odom:base_link"}, Static: []string{"base_link:imu_link"}, Rate: 20}},
		fastpeer.Node{Name: "/robot/wheels", UseSimTime: true,
			TF: &fastpeer.TFBroadcaster{Dynamic: []string{"base_link:wheel"}, Offset: -3 * time.Second, Rate: 20}},
		fastpeer.Node{Name: "/robot/laser_driver", TF: &fastpeer.TFBroadcaster{Dynamic: []string{"base_link:laser"}, Stamp: fastpeer.StampWall, Rate: 20}},
		fastpeer.Node{Name: "/robot/amcl", UseSimTime: true, TF: &fastpeer.TFBroadcaster{Dynamic: []string{"map:odom"}, Rate: 20}},
	))
	startTestNode(t, d, "localization", "SIMCLOCK_TEST_NS=/robot", "SIMCLOCK_TEST_SIM_TIME=1", "SIMCLOCK_TEST_TF=map:odom")
	w := startDoctorWatch(t, bin, ddsEnv(t, d), "--interval", "500ms")
	r := w.await("every tf finding", func(r doctorRun) bool {
		_, lag := r.finding(doctor.CodeTFLag, "/robot/wheels")
		_, wall := r.finding(doctor.CodeTFWallStamps, "/robot/laser_driver")
		dup, ok := r.finding(doctor.CodeTFMultiplePublishers, "")
		static, st := r.transform("base_link", "imu_link", "/robot/robot_state_publisher")
		return lag && wall && ok && strings.Contains(dup.Message, "/robot/localization") && st && static.Samples > 0
	})
	if err := peer.CheckLoopback(); err != nil {
		t.Error(err)
	}
	f, _ := r.finding(doctor.CodeTFLag, "/robot/wheels")
	if !strings.Contains(f.Message, "transform base_link→wheel on /tf lags /clock: median ") || f.Topic != "/tf" {
		t.Errorf("tf_lag: %+v", f)
	}
	wheel, _ := r.transform("base_link", "wheel", "/robot/wheels")
	// Stamped 3 s behind the last /clock its node received: at least 3 s
	// behind /clock when written, less a /clock period.
	if wheel.Lag == nil || wheel.Lag.P50 < 2_980_000_000 || wheel.Base != "sim" || wheel.Static {
		t.Errorf("base_link→wheel: %+v, lag %+v", wheel, wheel.Lag)
	}
	f, _ = r.finding(doctor.CodeTFWallStamps, "/robot/laser_driver")
	if !strings.Contains(f.Message, "stamps the transform base_link→laser on /tf with wall time") {
		t.Errorf("tf_wall_stamps: %+v", f)
	}
	f, _ = r.finding(doctor.CodeTFMultiplePublishers, "")
	if !strings.Contains(f.Message, "2 nodes publish the transform map→odom: /robot/amcl (/tf), /robot/localization (/tf)") {
		t.Errorf("tf_multiple_publishers: %+v", f)
	}
	// The healthy broadcaster: on /clock's time base, on time (its median
	// lag is a /clock period or so; the machine's load makes the rest).
	odom, ok := r.transform("odom", "base_link", "/robot/robot_state_publisher")
	if !ok || odom.Base != "sim" || odom.Lag == nil || odom.Lag.P50 > int64(time.Second) {
		t.Errorf("odom→base_link: %+v, lag %+v", odom, odom.Lag)
	}
	// The static transform, sent once to transient-local readers: read,
	// listed as static, never judged.
	imu, _ := r.transform("base_link", "imu_link", "/robot/robot_state_publisher")
	if !imu.Static || imu.Topic != "/tf_static" || imu.Lag != nil {
		t.Errorf("base_link→imu_link: %+v", imu)
	}
	for _, f := range r.findings {
		if f.Code == doctor.CodeWallStamps || f.Code == doctor.CodeStaleStamps || f.Code == doctor.CodeZeroStamps {
			t.Errorf("tf judged as a plain stamped topic: %+v", f)
		}
	}
	if loc, ok := r.transform("map", "odom", "/robot/localization"); !ok || loc.Base != "sim" {
		t.Errorf("the Cyclone broadcaster's map→odom: %+v", loc)
	}
	w.interrupt()
}

// /clock jumps back 100 s every 4 s (a looped recording): a Fast DDS
// driver that keeps its own time once started stamps ahead of /clock
// after each jump, and is named for it.
func TestDoctorTFOldData(t *testing.T) {
	requireDDSCLI(t)
	bin := buildSimclock(t, t.TempDir())
	d := domainDoctorTFOldData
	ctx, cancel := context.WithTimeout(context.Background(), 3*hang)
	defer cancel()
	peer := fastpeer.Start(ctx, t, d, fastpeer.WithNodes(
		fastpeer.Node{Name: "/sim/looped_bag", Clock: &fastpeer.ClockPublisher{Start: 1000 * time.Second, Step: 10 * time.Millisecond,
			Rate: 100, JumpEvery: 400, Jump: -100 * time.Second}},
		fastpeer.Node{Name: "/robot/driver", UseSimTime: true,
			TF: &fastpeer.TFBroadcaster{Dynamic: []string{"base_link:laser"}, Stamp: fastpeer.StampFreeRun, Rate: 20}},
	))
	startTestNode(t, d, "odometry", "SIMCLOCK_TEST_NS=/robot", "SIMCLOCK_TEST_SIM_TIME=1", "SIMCLOCK_TEST_TF=odom:base_link")
	w := startDoctorWatch(t, bin, ddsEnv(t, d), "--interval", "500ms")
	r := w.await("tf_old_data", func(r doctorRun) bool {
		_, ok := r.finding(doctor.CodeTFOldData, "/robot/driver")
		return ok
	})
	if err := peer.CheckLoopback(); err != nil {
		t.Error(err)
	}
	f, _ := r.finding(doctor.CodeTFOldData, "/robot/driver")
	for _, want := range []string{"/clock went back from ", "/robot/driver keeps stamping the transform base_link→laser on /tf on the old timeline",
		"TF_OLD_DATA"} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("tf_old_data: %q lacks %q", f.Message, want)
		}
	}
	if _, ok := r.finding(doctor.CodeClockBackward, "/sim/looped_bag"); !ok {
		t.Errorf("no clock_backward:\n%s", r.raw)
	}
	if tr, ok := r.transform("base_link", "laser", "/robot/driver"); !ok || tr.OldTimeline == 0 {
		t.Errorf("base_link→laser: %+v", tr)
	}
	// The Go node on Cyclone DDS follows its clock back: its transform is
	// read and on /clock's time base.
	if tr, ok := r.transform("odom", "base_link", "/robot/odometry"); !ok || tr.Sim == 0 {
		t.Errorf("odom→base_link of the Cyclone node: %+v", tr)
	}
	w.interrupt()
}
