import rclpy
from rclpy.node import Node
from rclpy.duration import Duration
from rclpy.time import Time


class Tracker(Node):
    def __init__(self):
        super().__init__('tracker')
        self.declare_parameter('use_simulated_time', True)
        self.window = Duration(seconds=2)
        self.last_seen = Time()
        self.prev = self.get_clock().now()
        self.distance = 0.0
        self.timer = self.create_timer(0.5, self.on_timer)

    def on_timer(self):
        now = self.get_clock().now()
        if now.nanoseconds == 0 or now.nanoseconds < self.window.nanoseconds:
            return
        since = now - self.window
        tf = self.buffer.lookup_transform('map', 'base_link', since)
        if now - self.last_seen > Duration(seconds=5):
            self.get_logger().warn('stale')
        dt = (now - self.prev).nanoseconds / 1e9
        if dt < 0:
            return
        self.distance += 0.5 * dt
        self.prev = now
        return tf, Time(0, 500000000)

    def on_msg(self, msg):
        self.last_seen = Time.from_msg(msg.header.stamp)


def main():
    rclpy.init(args=['--ros-args', '-p', 'use_sim_time:=true'])  # on the simulator's clock
    rclpy.spin(Tracker())


# Launched on the simulator's clock (use_sim_time:=true) by the bringup package.
