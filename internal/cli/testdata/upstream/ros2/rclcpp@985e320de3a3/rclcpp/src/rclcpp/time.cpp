# Excerpt of rclcpp/src/rclcpp/time.cpp in github.com/ros2/rclcpp at commit 985e320de3a3549d5bc674876c79a5531bf301c2 (jazzy).
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
74|{
75|  if (time_msg.sec < 0) {
76|    throw std::runtime_error("cannot store a negative time point in rclcpp::Time");
77|  }
78|
111|{
112|  if (rcl_time_.clock_type != rhs.rcl_time_.clock_type) {
113|    throw std::runtime_error("can't compare times with different time sources");
114|  }
115|
179|{
180|  if (rcl_time_.clock_type != rhs.rcl_time_.clock_type) {
181|    throw std::runtime_error(
182|            std::string("can't subtract times with different time sources [") +
183|            std::to_string(rcl_time_.clock_type) + " != " +
184|            std::to_string(rhs.rcl_time_.clock_type) + "]");
185|  }
186|
207|
208|  return Time(rcl_time_.nanoseconds - rhs.nanoseconds(), rcl_time_.clock_type);
209|}
210|
211|int64_t
