//go:build cgo

package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/simclock/simclock/rules"
)

// A file linted alone (pre-commit passes files one by one) is judged by
// its package on disk: a launch file of the package that sets use_sim_time
// makes R27 fail the run; without one, R27 is info.
func TestR27SimTimeFromPackageOnDisk(t *testing.T) {
	const node = `#include <rclcpp/rclcpp.hpp>

class Window : public rclcpp::Node
{
public:
  Window() : Node("window") {}
  rclcpp::Time recent() const { return now() - rclcpp::Duration::from_seconds(1.0); }
};

rclcpp::Time report(const Window & w) { return w.recent(); }
`
	for _, tc := range []struct {
		name   string
		launch string
		want   rules.Severity
	}{
		{"sim launch", "parameters=[{'use_sim_time': True}]\n", rules.Warning},
		{"no sim time", "parameters=[{'rate': 10.0}]\n", rules.Info},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range map[string]string{
				"package.xml":          "<package format=\"3\"><name>window</name></package>\n",
				"launch/sim.launch.py": tc.launch,
				"src/window.cpp":       node,
			} {
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := Run(t.Context(), []string{filepath.Join(dir, "src", "window.cpp")}, Config{RosDistro: "kilted"})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Findings) != 1 || res.Findings[0].Rule() != rules.R27 || res.Findings[0].Severity != tc.want {
				t.Fatalf("findings %+v, want one R27 at %v", res.Findings, tc.want)
			}
		})
	}
}

// What turns use_sim_time on, in the spellings of launch, parameter, shell
// and source files, and what does not: false, a comment, another name.
func TestSetsSimTime(t *testing.T) {
	for _, tc := range []struct {
		file, src string
		want      bool
	}{
		{"p.yaml", "n:\n  ros__parameters:\n    use_sim_time: true\n", true},
		{"p.yaml", "n:\n  ros__parameters:\n    use_sim_time: True  # sim\n", true},
		{"p.yaml", "n:\n  ros__parameters:\n    use_sim_time: false\n", false},
		{"p.yaml", "n:\n  ros__parameters:\n    # use_sim_time: true\n    rate: 1\n", false},
		// A launch argument is evidence unless this file gives it only a
		// false default: then nothing here turns sim time on.
		{"p.yaml", "launch:\n- arg: {name: use_sim_time, default: 'false'}\n- node: {param: [{name: use_sim_time, value: $(var use_sim_time)}]}\n", false},
		{"p.yaml", "launch:\n- arg: {name: use_sim_time, default: 'true'}\n- node: {param: [{name: use_sim_time, value: $(var use_sim_time)}]}\n", true},
		{"a.launch.py", "use_sim_time = LaunchConfiguration('use_sim_time', default='false')\nNode(parameters=[{'use_sim_time': use_sim_time}])\n", false},
		{"a.launch.py", "sim = LaunchConfiguration('sim', default='true')\nNode(parameters=[{'use_sim_time': sim}])\n", true},
		{"a.launch.py", "DeclareLaunchArgument('use_sim_time', default_value='false')\nNode(parameters=[{'use_sim_time': LaunchConfiguration('use_sim_time')}])\n", false},
		{"a.launch.py", "Node(parameters=[{'use_sim_time': LaunchConfiguration('use_sim_time')}])\n", true},
		{"l.launch.xml", "<arg name=\"use_sim_time\" default=\"false\"/>\n<param name=\"use_sim_time\" value=\"$(var use_sim_time)\"/>\n", false},
		{"l.launch.xml", "<arg name=\"sim\" default=\"true\"/>\n<param name=\"use_sim_time\" value=\"$(var sim)\"/>\n", true},
		{"a.launch.py", "parameters=[{'use_sim_time': True}]\n", true},
		{"a.launch.py", "parameters=[{'use_sim_time': False}]\n", false},
		{"a.launch.py", "parameters=[{\"use_sim_time\": use_sim_time}]\n", true},
		{"a.launch.py", "SetParameter(name='use_sim_time', value=LaunchConfiguration('use_sim_time'))\n", true},
		{"a.launch.py", "DeclareLaunchArgument('use_sim_time', default_value='false', description='true in the simulator')\n", false},
		{"a.launch.py", "x = 1  # set use_sim_time when simulating\n", false},
		{"n.py", "self.declare_parameter('use_sim_time', False)\n", false},
		{"n.py", "sim = self.get_parameter('use_sim_time').value\n", true},
		// A node that reads it but declares it false by default expects
		// wall time unless told otherwise (round 8).
		{"n.py", "if not self.has_parameter('use_sim_time'):\n    self.declare_parameter('use_sim_time', False)\nsim = self.get_parameter('use_sim_time').value\n", false},
		{"n.py", "self.declare_parameter('use_sim_time', True)\nsim = self.get_parameter('use_sim_time').value\n", true},
		{"n.py", "sim = self.get_parameter_or('use_sim_time', False).value\n", false},
		{"n.cpp", "declare_parameter<bool>(\"use_sim_time\", false);\nget_parameter(\"use_sim_time\", sim_);\n", false},
		{"n.cpp", "sim_ = get_parameter_or<bool>(\"use_sim_time\", false);\nget_parameter(\"use_sim_time\", sim_);\n", false},
		{"n.cpp", "declare_parameter<bool>(\"use_sim_time\", true);\nget_parameter(\"use_sim_time\", sim_);\n", true},
		{"n.cpp", "get_parameter(\"use_sim_time\", sim_);  // declare_parameter(\"use_sim_time\", false) throws\n", true},
		{"l.launch.xml", "<param name=\"use_sim_time\" value=\"true\"/>\n", true},
		{"l.launch.xml", "<param name=\"use_sim_time\" value=\"false\"/>\n", false},
		{"l.launch.xml", "<!-- <param name=\"use_sim_time\" value=\"true\"/> -->\n", false},
		{"l.launch.xml", "<param name=\"use_sim_time\" value=\"$(var use_sim_time)\"/>\n", true},
		{"n.cpp", "// use_sim_time is set by the launch\nint x;\n", false},
		{"n.cpp", "/* declare use_sim_time\n true */ int x;\n", false},
		{"n.cpp", "rclcpp::Parameter(\"use_sim_time\", true)\n", true},
		{"n.cpp", "bool use_sim_time_ = false;\n", false},
		{"run.sh", "ros2 run pkg node --ros-args -p use_sim_time:=true\n", true},
		{"run.sh", "ros2 run pkg node --ros-args -p use_sim_time:=false\n", false},
		{"run.sh", "ros2 param set /node use_sim_time true\n", true},
	} {
		if got := setsSimTime([]byte(tc.src), tc.file) || readsSimTime([]byte(tc.src), tc.file); got != tc.want {
			t.Errorf("setsSimTime(%s: %q) = %v, want %v", tc.file, tc.src, got, tc.want)
		}
	}
}

// Every form of R29 says why it is info when nothing in its package puts
// it on sim time, as R26-R28 do: a timeout measured from a constructor
// baseline (round 9's evaluation found that form without the reason,
// beside R27 findings of the same file that had it).
func TestR29SaysNoSimTimeInEveryForm(t *testing.T) {
	const node = `from rclpy.node import Node


class Watch(Node):
    def __init__(self):
        super().__init__('watch')
        self.create_subscription(Image, 'camera', self.on_camera, 10)
        self.create_subscription(LaserScan, 'scan', self.on_lidar, 10)
        self.last = self.get_clock().now()
        self.prev = self.get_clock().now()
        self.total = 0.0

    def on_camera(self, msg):
        self.last = self.get_clock().now()

    def on_lidar(self, msg):
        since = self.get_clock().now() - self.last
        if since.nanoseconds > 2e9:
            self.predict()

    def on_msg(self, msg):
        now = self.get_clock().now()
        dt = (now - self.prev).nanoseconds / 1e9
        self.total += msg.data * dt
        self.prev = now
`
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "package.xml"), "<package format=\"3\"><name>watch</name></package>\n")
	writeFile(t, filepath.Join(dir, "watch", "watch.py"), node)
	res, err := Run(t.Context(), []string{dir}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	var timeout, dt bool
	for _, f := range res.Findings {
		if f.Rule() != rules.R29 {
			continue
		}
		timeout = timeout || strings.Contains(f.Message, "timeout or deadline")
		dt = dt || strings.Contains(f.Message, "does not guard against it")
		if !strings.Contains(f.Message, "so it may never run on sim time") {
			t.Errorf("line %d: R29 without the no-sim-time reason: %s", f.Line, f.Message)
		}
	}
	if !timeout || !dt {
		t.Fatalf("want an R29 of the timeout form and one of the dt form, got %+v", res.Findings)
	}
}
