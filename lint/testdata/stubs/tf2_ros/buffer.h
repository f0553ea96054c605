#pragma once
#include <string>
#include <rclcpp/rclcpp.hpp>
#include <tf2/time.h>
namespace geometry_msgs::msg
{
struct TransformStamped
{
  std_msgs::msg::Header header;
};
}  // namespace geometry_msgs::msg
namespace tf2_ros
{
class Buffer
{
public:
  geometry_msgs::msg::TransformStamped lookupTransform(
    const std::string & target, const std::string & source, const tf2::TimePoint & time) const;
  geometry_msgs::msg::TransformStamped lookupTransform(
    const std::string & target, const std::string & source, const rclcpp::Time & time,
    const rclcpp::Duration timeout = rclcpp::Duration(0, 0)) const;
};
}  // namespace tf2_ros
