# Excerpt of rclcpp/src/rclcpp/clock.cpp in github.com/ros2/rclcpp at commit 985e320de3a3549d5bc674876c79a5531bf301c2 (jazzy).
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
104|  const auto this_clock_type = get_clock_type();
105|  if (until.get_clock_type() != this_clock_type) {
106|    throw std::runtime_error("until's clock type does not match this clock's type");
107|  }
108|  bool time_source_changed = false;
