from rclpy.node import Node
from rclpy.duration import Duration


class Ok(Node):
    def __init__(self):
        super().__init__('ok')
        self.window = Duration(seconds=2)

    def on_timer(self):
        now = self.get_clock().now()
        if now.nanoseconds <= self.window.nanoseconds:
            return None
        return now - self.window
