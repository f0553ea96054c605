# Excerpt of rclcpp/src/rclcpp/subscription_base.cpp in github.com/ros2/rclcpp at commit 985e320de3a3549d5bc674876c79a5531bf301c2 (jazzy).
# Licence: Apache-2.0 (the file's own header is kept below). docs/troubleshooting.md quotes
# the messages on these lines; TestTroubleshootingQuotes checks every quote against them.
# Each line is NUMBER|TEXT, NUMBER being the line's number in the upstream file.
1|// Copyright 2015 Open Source Robotics Foundation, Inc.
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
344|  RCLCPP_WARN(
345|    rclcpp::get_logger(rcl_node_get_logger_name(node_handle_.get())),
346|    "New publisher discovered on topic '%s', offering incompatible QoS. "
347|    "No messages will be sent to it. "
348|    "Last incompatible policy: %s",
349|    get_topic_name(),
350|    policy_name.c_str());
