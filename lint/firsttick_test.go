//go:build cgo

package lint

import (
	"strings"
	"testing"

	"github.com/simclock/simclock/rules"
)

// TestR29ZeroedByKeywordSubscription: a velocity that only a subscription's
// callback sets, registered with callback=self.on_cmd, is still 0 at the
// first tick, so the integration gets R29's zeroed form (handedTo reads the
// keyword argument); its twin, set by a timer registered the same way,
// keeps the dt form.
func TestR29ZeroedByKeywordSubscription(t *testing.T) {
	dir := simTimePackage(t, "odom", `from geometry_msgs.msg import Twist
from rclpy.node import Node


class KeywordOdom(Node):
    def __init__(self):
        super().__init__('keyword_odom')
        self.vx = 0.0
        self.x = 0.0
        self.last = self.get_clock().now()
        self.create_subscription(Twist, 'cmd_vel', callback=self.on_cmd, qos_profile=10)
        self.create_timer(0.02, self.update)

    def on_cmd(self, msg):
        self.vx = msg.linear.x

    def update(self):
        now = self.get_clock().now()
        dt = (now - self.last).nanoseconds * 1e-9
        self.last = now
        self.x += self.vx * dt


class KeywordTimer(Node):
    def __init__(self):
        super().__init__('keyword_timer')
        self.vx = 0.0
        self.x = 0.0
        self.last = self.get_clock().now()
        self.create_timer(0.05, callback=self.plan)
        self.create_timer(0.02, self.update)

    def plan(self):
        self.vx = 0.5

    def update(self):
        now = self.get_clock().now()
        dt = (now - self.last).nanoseconds * 1e-9
        self.last = now
        self.x += self.vx * dt
`)
	const zeroed = "multiplied by a value still 0 then"
	res, err := Run(t.Context(), []string{dir}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]string{}
	for _, f := range res.Findings {
		if f.Rule() == rules.R29 {
			got[f.Line] = f.Message
		}
	}
	if m, ok := got[19]; !ok || !strings.Contains(m, zeroed) {
		t.Errorf("line 19 (subscription registered with callback=): want R29's zeroed form, got %q (all %+v)", m, res.Findings)
	}
	if m, ok := got[38]; !ok || strings.Contains(m, zeroed) || !strings.Contains(m, "does not guard against it") {
		t.Errorf("line 38 (timer registered with callback=): want R29's dt form, got %q (all %+v)", m, res.Findings)
	}
}
