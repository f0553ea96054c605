//go:build cgo

package lint

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// flake8 returns a command that runs flake8 with the import-order plugin
// ament_flake8 depends on, or skips the test when there is none.
func flake8(t *testing.T) []string {
	t.Helper()
	for _, cmd := range [][]string{{"flake8"}, {"/usr/bin/python3", "-m", "flake8"}, {"python3", "-m", "flake8"}} {
		out, err := exec.Command(cmd[0], append(cmd[1:], "--version")...).Output()
		if err == nil && strings.Contains(string(out), "flake8-import-order") {
			return cmd
		}
	}
	t.Skip("flake8 with flake8-import-order is not installed (Debian python3-flake8 and python3-flake8-import-order; scripts/deps.sh installs them)")
	return nil
}

// TestFixPassesAmentFlake8 checks that the files --fix writes pass flake8
// with ament_flake8's configuration, as `colcon test` runs it: the import
// of ClockType that the R5/R6 fix adds goes where the google import order
// wants it, whatever imports the file has.
func TestFixPassesAmentFlake8(t *testing.T) {
	cmd := flake8(t)
	config, err := filepath.Abs("testdata/ament_flake8.ini")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"stdlib_first.py": `import math

from rclpy.node import Node
from rclpy.time import Time


class Tracker(Node):

    def __init__(self):
        super().__init__('tracker')
        self.last_seen = Time()

    def on_timer(self):
        age = self.get_clock().now() - self.last_seen
        return math.fabs(age.nanoseconds)
`,
		"many_rclpy.py": `import rclpy
from rclpy.duration import Duration
from rclpy.node import Node
from rclpy.time import Time
from std_msgs.msg import Header


class Watch(Node):

    def __init__(self):
        super().__init__('watch')
        self.last = Time(seconds=0)
        self.header = Header()

    def stale(self):
        return self.get_clock().now() - self.last > Duration(seconds=1)


def main():
    rclpy.init()
`,
		"only_time.py": `import time

from rclpy.time import Time


class Stamp:

    def __init__(self, node):
        self.node = node
        self.first = Time()
        self.wall = time.time()

    def later(self):
        return self.node.get_clock().now() > self.first
`,
		"has_clock.py": `from rclpy.clock import Clock
from rclpy.node import Node
from rclpy.time import Time


class Clocked(Node):

    def __init__(self):
        super().__init__('clocked')
        self.clock = Clock()
        self.since = Time()

    def elapsed(self):
        return self.get_clock().now() - self.since
`,
		"local_after.py": `from my_pkg.helpers import scale
from rclpy.node import Node
from rclpy.time import Time
from sensor_msgs.msg import Imu


class Fused(Node):

    def __init__(self):
        super().__init__('fused')
        self.prev = Time()
        self.imu = Imu()

    def on_imu(self, msg):
        return scale(self.get_clock().now() - self.prev)
`,
	}
	dir := writeFiles(t, files)
	check := func(when string) {
		c := exec.Command(cmd[0], append(cmd[1:], "--config", config, ".")...)
		c.Dir = dir
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("flake8 %s --fix: %v\n%s", when, err, out)
		}
	}
	check("before")
	res, n := lintAndFix(t, dir, Config{})
	if n != len(files) {
		t.Fatalf("%d findings fixed, want one per file (%d): %+v", n, len(files), res.Findings)
	}
	check("after")
	again, err := Run(t.Context(), []string{dir}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range again.Findings {
		t.Errorf("still reported after --fix: %s:%d %s %s", filepath.Base(f.File), f.Line, f.Rule(), f.Message)
	}
}

// TestNoFixThatChangesMeaning checks that a SYSTEM_TIME time read from the
// wall clock is not given the ROS clock type by --fix: under sim time the
// result would be a wall-clock deadline the simulation reaches only when
// it says so. The finding stands, without edits.
func TestNoFixThatChangesMeaning(t *testing.T) {
	src := `import time

from rclpy.node import Node
from rclpy.time import Time


class Deadline(Node):

    def __init__(self):
        super().__init__('deadline')
        self.deadline = Time(seconds=time.time() + 5.0)

    def expired(self):
        return self.get_clock().now() > self.deadline
`
	res, err := Source("deadline.py", []byte(src), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 || res.Findings[0].Rule().String() != "R6" {
		t.Fatalf("findings = %+v, want one R6", res.Findings)
	}
	if len(res.Findings[0].Edits) != 0 {
		t.Errorf("a fix is offered for a wall-clock deadline: %+v", res.Findings[0].Edits)
	}
}
