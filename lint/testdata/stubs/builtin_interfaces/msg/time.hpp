#pragma once
#include <cstdint>
namespace builtin_interfaces::msg
{
struct Time
{
  int32_t sec{0};
  uint32_t nanosec{0};
  // rosidl generates these for every message: fields compared, no clock type.
  bool operator==(const Time & other) const {return sec == other.sec && nanosec == other.nanosec;}
  bool operator!=(const Time & other) const {return !(*this == other);}
};
struct Duration
{
  int32_t sec{0};
  uint32_t nanosec{0};
};
}  // namespace builtin_interfaces::msg
