#include <rclcpp/rclcpp.hpp>
#include <tf2_ros/buffer.h>

class Tracker : public rclcpp::Node {
public:
  Tracker() : Node("tracker", rclcpp::NodeOptions().parameter_overrides({{"use_sim_time", true}})), buffer_(get_clock()) {
    last_ = rclcpp::Clock(RCL_SYSTEM_TIME).now();
    timer_ = create_wall_timer(std::chrono::milliseconds(100), [this] { tick(); });
  }
private:
  void tick() {
    rclcpp::Time now = get_clock()->now();
    auto age = now - last_;
    auto tf = buffer_.lookupTransform("map", "base_link", now - rclcpp::Duration::from_seconds(1.0));
    last_ = now;
    (void)age; (void)tf;
  }
  tf2_ros::Buffer buffer_;
  rclcpp::Time last_;
  rclcpp::TimerBase::SharedPtr timer_;
};

// Run on the simulator's clock: ros2 run ... --ros-args -p use_sim_time:=true
