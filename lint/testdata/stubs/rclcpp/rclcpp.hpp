// Stand-in for rclcpp, for syntax checks of lint test sources (see README.md).
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>
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
  static Time max(rcl_clock_type_t clock_type = RCL_SYSTEM_TIME);
};

class Clock
{
public:
  using SharedPtr = std::shared_ptr<Clock>;
  explicit Clock(rcl_clock_type_t clock_type = RCL_SYSTEM_TIME);
  Time now() const;
  rcl_clock_type_t get_clock_type() const;
};

class ParameterValue
{
public:
  ParameterValue() = default;
  template<class T>
  explicit ParameterValue(const T &) {}
};

class Parameter
{
public:
  Parameter() = default;
  template<class T>
  Parameter(const std::string & name, const T &) : name_(name) {}
  bool as_bool() const {return false;}
  double as_double() const {return 0.0;}
  int64_t as_int() const {return 0;}
  const std::string & get_name() const {return name_;}

private:
  std::string name_;
};

class NodeOptions
{
public:
  NodeOptions & parameter_overrides(const std::vector<Parameter> &) {return *this;}
  NodeOptions & arguments(const std::vector<std::string> &) {return *this;}
};

struct Logger {};

template<class M>
class Publisher
{
public:
  using SharedPtr = std::shared_ptr<Publisher>;
  void publish(const M &) {}
};

class Node
{
public:
  using SharedPtr = std::shared_ptr<Node>;
  explicit Node(const std::string &, const NodeOptions & = NodeOptions()) {}
  virtual ~Node() = default;
  template<class T>
  T declare_parameter(const std::string &, const T & value) {return value;}
  Parameter get_parameter(const std::string & name) const {return Parameter(name, 0);}
  void set_parameter(const Parameter &) {}
  Logger get_logger() const {return Logger{};}
  Time now() const;
  Clock::SharedPtr get_clock();
};

bool ok();
}  // namespace rclcpp

#define RCLCPP_INFO(logger, ...) ((void)(logger), std::printf(__VA_ARGS__))
