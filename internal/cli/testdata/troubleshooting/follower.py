import rclpy
from rclpy.duration import Duration
from rclpy.node import Node
from rclpy.time import Time
from tf2_ros import Buffer, TransformListener


class Follower(Node):
    def __init__(self):
        super().__init__('follower')
        self.buffer = Buffer()
        self.listener = TransformListener(self.buffer, self)
        self.last_seen = Time()
        self.create_timer(0.1, self.on_timer)

    def on_timer(self):
        now = self.get_clock().now()
        past = now - Duration(seconds=1.0)
        t = self.buffer.lookup_transform('map', 'base_link', past)
        if now - self.last_seen > Duration(seconds=5.0):
            self.get_logger().warn('no fresh transform')
        self.last_seen = Time.from_msg(t.header.stamp)


def main():
    rclpy.init(args=['--ros-args', '-p', 'use_sim_time:=true'])  # on the simulator's clock
    rclpy.spin(Follower())


# Run on the simulator's clock: ros2 run ... --ros-args -p use_sim_time:=true
