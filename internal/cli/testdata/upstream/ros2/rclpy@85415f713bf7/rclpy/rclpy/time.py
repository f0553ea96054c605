# Excerpt of rclpy/rclpy/time.py in github.com/ros2/rclpy at commit 85415f713bf7f03152799496dc4287a75df1fc36 (jazzy).
# Licence: Apache-2.0 (the file's own header is kept below). docs/troubleshooting.md quotes
# the messages on these lines; TestTroubleshootingQuotes checks every quote against them.
# Each line is NUMBER|TEXT, NUMBER being the line's number in the upstream file.
1|# Copyright 2018 Open Source Robotics Foundation, Inc.
2|#
3|# Licensed under the Apache License, Version 2.0 (the "License");
4|# you may not use this file except in compliance with the License.
5|# You may obtain a copy of the License at
6|#
7|#     http://www.apache.org/licenses/LICENSE-2.0
8|#
9|# Unless required by applicable law or agreed to in writing, software
10|# distributed under the License is distributed on an "AS IS" BASIS,
11|# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
12|# See the License for the specific language governing permissions and
13|# limitations under the License.
99|        if isinstance(other, Time):
100|            if self.clock_type != other.clock_type:
101|                raise TypeError("Can't subtract times with different clock types")
102|            try:
103|                return Duration(nanoseconds=(self.nanoseconds - other.nanoseconds))
110|                    clock_type=self.clock_type)
111|            except ValueError as e:
112|                raise ValueError('Subtraction leads to negative time.') from e
113|        else:
114|            return NotImplemented
117|        if isinstance(other, Time):
118|            if self.clock_type != other.clock_type:
119|                raise TypeError("Can't compare times with different clock types")
120|            return self.nanoseconds == other.nanoseconds
121|        return NotImplemented
