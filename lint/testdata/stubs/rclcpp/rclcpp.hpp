#pragma once
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>
#include <builtin_interfaces/msg/time.hpp>
#include <std_msgs/msg/header.hpp>

enum rcl_clock_type_t { RCL_CLOCK_UNINITIALIZED = 0, RCL_ROS_TIME, RCL_SYSTEM_TIME, RCL_STEADY_TIME };

namespace rclcpp
{
class Duration
{
public:
  Duration(int32_t seconds, uint32_t nanoseconds);
  template<class Rep, class Period>
  Duration(const std::chrono::duration<Rep, Period> & d);  // NOLINT: implicit, as upstream
  static Duration from_seconds(double seconds);
  static Duration from_nanoseconds(int64_t nanoseconds);
  static Duration max();
  double seconds() const;
  int64_t nanoseconds() const;
  template<class D = std::chrono::nanoseconds>
  D to_chrono() const;
  bool operator==(const Duration & rhs) const;
  bool operator!=(const Duration & rhs) const;
  bool operator<(const Duration & rhs) const;
  bool operator<=(const Duration & rhs) const;
  bool operator>(const Duration & rhs) const;
  bool operator>=(const Duration & rhs) const;
  Duration operator+(const Duration & rhs) const;
  Duration operator-(const Duration & rhs) const;
  Duration operator*(double scale) const;
};

class Time
{
public:
  Time(int32_t seconds, uint32_t nanoseconds, rcl_clock_type_t clock_type = RCL_SYSTEM_TIME);
  explicit Time(int64_t nanoseconds = 0, rcl_clock_type_t clock_type = RCL_SYSTEM_TIME);
  Time(const builtin_interfaces::msg::Time & time_msg, rcl_clock_type_t clock_type = RCL_ROS_TIME);  // NOLINT
  Time & operator=(const builtin_interfaces::msg::Time & time_msg);
  operator builtin_interfaces::msg::Time() const;  // NOLINT
  bool operator==(const Time & rhs) const;
  bool operator!=(const Time & rhs) const;
  bool operator<(const Time & rhs) const;
  bool operator<=(const Time & rhs) const;
  bool operator>(const Time & rhs) const;
  bool operator>=(const Time & rhs) const;
  Time operator+(const Duration & rhs) const;
  Duration operator-(const Time & rhs) const;
  Time operator-(const Duration & rhs) const;
  Time & operator+=(const Duration & rhs);
  Time & operator-=(const Duration & rhs);
  int64_t nanoseconds() const;
  double seconds() const;
  rcl_clock_type_t get_clock_type() const;
};

class Clock
{
public:
  using SharedPtr = std::shared_ptr<Clock>;
  explicit Clock(rcl_clock_type_t clock_type = RCL_SYSTEM_TIME);
  Time now() const;
  rcl_clock_type_t get_clock_type() const;
};

class Parameter
{
public:
  double as_double() const;
  int64_t as_int() const;
};

class Node
{
public:
  using SharedPtr = std::shared_ptr<Node>;
  explicit Node(const std::string & name);
  virtual ~Node();
  Time now() const;
  Clock::SharedPtr get_clock();
  double declare_parameter(const std::string & name, double default_value);
  Parameter get_parameter(const std::string & name) const;
};
}  // namespace rclcpp
