//go:build cgo

package lint

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/simclock/simclock/rules"
)

// TestR27GoalResultSaysWhy: a window in the result callback of an action
// goal the node sent is info on every distribution, and the message says
// why; the same window in the feedback callback still fails the run.
func TestR27GoalResultSaysWhy(t *testing.T) {
	dir := simTimePackage(t, "goals", `from rclpy.duration import Duration
from rclpy.node import Node


class Goals(Node):
    def send(self, goal):
        self.client.send_goal_async(goal, feedback_callback=self.on_feedback).add_done_callback(self.on_response)

    def on_response(self, future):
        future.result().get_result_async().add_done_callback(self.on_result)

    def on_result(self, future):
        self.last = self.get_clock().now() - Duration(seconds=6.0)

    def on_feedback(self, msg):
        self.last = self.get_clock().now() - Duration(seconds=6.0)
`)
	checkR27InfoBesideWarning(t, dir, 13, "result callback", "reached only from the result callback of an action goal this node sent", 16, "feedback callback")
}

// TestR27OnRequestSaysWhy: a window in a service server's callback is info
// on every distribution, and the message says why; the same window in a
// timer callback still fails the run.
func TestR27OnRequestSaysWhy(t *testing.T) {
	dir := simTimePackage(t, "srv", `from rclpy.duration import Duration
from rclpy.node import Node
from std_srvs.srv import Trigger


class Srv(Node):
    def __init__(self):
        super().__init__('srv')
        self.create_service(Trigger, 'capture', self.on_capture)
        self.create_timer(1.0, self.on_timer)

    def on_capture(self, req, resp):
        self.last = self.get_clock().now() - Duration(seconds=0.1)
        return resp

    def on_timer(self):
        self.last = self.get_clock().now() - Duration(seconds=0.1)
`)
	checkR27InfoBesideWarning(t, dir, 13, "service callback", "runs on request, after the first /clock", 17, "timer callback")
}

// checkR27InfoBesideWarning lints dir on every distribution and wants R27
// at info on infoLine (the callback named infoWhat), its message giving
// reason, and R27 as a warning on warnLine (warnWhat), where the same
// window still fails the run.
func checkR27InfoBesideWarning(t *testing.T, dir string, infoLine int, infoWhat, reason string, warnLine int, warnWhat string) {
	t.Helper()
	for _, distro := range Distros {
		res, err := Run(t.Context(), []string{dir}, Config{RosDistro: distro})
		if err != nil {
			t.Fatal(err)
		}
		got := map[int]bool{}
		for _, f := range res.Findings {
			if f.Rule() != rules.R27 {
				continue
			}
			got[f.Line] = true
			switch f.Line {
			case infoLine:
				if f.Severity != rules.Info || !strings.Contains(f.Message, reason) {
					t.Errorf("%s: %s: got %s %q, want info with the reason", distro, infoWhat, f.Severity, f.Message)
				}
			case warnLine:
				if f.Severity != rules.Warning {
					t.Errorf("%s: %s: got %s %q, want a warning", distro, warnWhat, f.Severity, f.Message)
				}
			}
		}
		if !got[infoLine] || !got[warnLine] {
			t.Errorf("%s: want R27 on lines %d and %d, got %+v", distro, infoLine, warnLine, res.Findings)
		}
	}
}

// simTimePackage writes a package named name whose parameters set
// use_sim_time (so its code runs on sim time, docs/rules.md "Runs on sim
// time") and one Python file, name/name.py, holding src; it returns the
// package's directory.
func simTimePackage(t *testing.T, name, src string) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "package.xml"), "<package format=\"3\"><name>"+name+"</name></package>\n")
	writeFile(t, filepath.Join(dir, "config", "sim.yaml"), "/**:\n  ros__parameters:\n    use_sim_time: true\n")
	writeFile(t, filepath.Join(dir, name, name+".py"), src)
	return dir
}
