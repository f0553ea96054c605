// Stand-in for nav2_util, for syntax checks of lint test sources (see ../README.md).
#pragma once
#include <string>
#include <rclcpp/rclcpp.hpp>

namespace nav2_util
{
inline void declare_parameter_if_not_declared(
  rclcpp::Node *, const std::string &, const rclcpp::ParameterValue &) {}
}  // namespace nav2_util
