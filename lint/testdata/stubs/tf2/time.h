#pragma once
#include <chrono>
namespace tf2
{
using Duration = std::chrono::nanoseconds;
using TimePoint = std::chrono::time_point<std::chrono::system_clock, Duration>;
static const TimePoint TimePointZero = TimePoint(Duration::zero());
Duration durationFromSec(double t_sec);
}  // namespace tf2
