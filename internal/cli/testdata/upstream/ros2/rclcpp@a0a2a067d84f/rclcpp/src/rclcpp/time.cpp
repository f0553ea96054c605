# Excerpt of rclcpp/src/rclcpp/time.cpp in github.com/ros2/rclcpp at commit a0a2a067d84fd6a38ab4f71b691d51ca5aa97ba5 (rolling).
# Licence: Apache-2.0 (the file's own header is kept below). docs/troubleshooting.md quotes
# the messages on these lines; TestTroubleshootingQuotes checks every quote against them.
# Each line is NUMBER|TEXT, NUMBER being the line's number in the upstream file.
1|// Copyright 2017 Open Source Robotics Foundation, Inc.
2|//
3|// Licensed under the Apache License, Version 2.0 (the "License");
4|// you may not use this file except in compliance with the License.
5|// You may obtain a copy of the License at
6|//
7|//     http://www.apache.org/licenses/LICENSE-2.0
8|//
9|// Unless required by applicable law or agreed to in writing, software
10|// distributed under the License is distributed on an "AS IS" BASIS,
11|// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
12|// See the License for the specific language governing permissions and
13|// limitations under the License.
62|{
63|  if (nanoseconds < 0) {
64|    throw std::runtime_error("cannot store a negative time point in rclcpp::Time");
65|  }
66|
210|  }
211|
212|  return Time(rcl_time_.nanoseconds - rhs.nanoseconds(), rcl_time_.clock_type);
213|}
214|
