// Stand-in for rclcpp, for syntax checks of lint test sources (see README.md).
#pragma once
#include <cstdio>
#include <string>
#include <vector>

namespace rclcpp
{
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

class Node
{
public:
  explicit Node(const std::string &, const NodeOptions & = NodeOptions()) {}
  template<class T>
  T declare_parameter(const std::string &, const T & value) {return value;}
  Parameter get_parameter(const std::string & name) const {return Parameter(name, 0);}
  void set_parameter(const Parameter &) {}
  Logger get_logger() const {return Logger{};}
};
}  // namespace rclcpp

#define RCLCPP_INFO(logger, ...) ((void)(logger), std::printf(__VA_ARGS__))
