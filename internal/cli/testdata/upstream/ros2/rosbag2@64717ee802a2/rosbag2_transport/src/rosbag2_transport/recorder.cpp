# Excerpt of rosbag2_transport/src/rosbag2_transport/recorder.cpp in github.com/ros2/rosbag2 at commit 64717ee802a29b15acdcecd36f3f8ef286ad18b8 (jazzy).
# Licence: Apache-2.0 (the file's own header is kept below). docs/troubleshooting.md quotes
# the messages on these lines; TestTroubleshootingQuotes checks every quote against them.
# Each line is NUMBER|TEXT, NUMBER being the line's number in the upstream file.
1|// Copyright 2018 Open Source Robotics Foundation, Inc.
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
471|    RCLCPP_INFO(
472|      node->get_logger(),
473|      "use_sim_time set, waiting for /clock before starting recording...");
474|    while (rclcpp::ok() && stop_discovery_ == false) {
475|      if (node->get_clock()->wait_until_started(record_options_.topic_polling_interval)) {
