# Excerpt of tf2_ros_py/tf2_ros/buffer.py in github.com/ros2/geometry2 at commit 646342c6164e837d69460e3d28e7a025396544f6 (jazzy).
# Licence: BSD-3-Clause (the file's own header is kept below). docs/troubleshooting.md quotes
# the messages on these lines; TestTroubleshootingQuotes checks every quote against them.
# Each line is NUMBER|TEXT, NUMBER being the line's number in the upstream file.
1|# Copyright (c) 2008, Willow Garage, Inc.
2|# All rights reserved.
3|#
4|# Redistribution and use in source and binary forms, with or without
5|# modification, are permitted provided that the following conditions are met:
6|#
7|#     * Redistributions of source code must retain the above copyright
8|#       notice, this list of conditions and the following disclaimer.
9|#     * Redistributions in binary form must reproduce the above copyright
10|#       notice, this list of conditions and the following disclaimer in the
11|#       documentation and/or other materials provided with the distribution.
12|#     * Neither the name of the Willow Garage, Inc. nor the names of its
13|#       contributors may be used to endorse or promote products derived from
14|#       this software without specific prior written permission.
15|#
16|# THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS"
17|# AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
18|# IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE
19|# ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT OWNER OR CONTRIBUTORS BE
20|# LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR
21|# CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF
22|# SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS
23|# INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN
24|# CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE)
25|# ARISING IN ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE
26|# POSSIBILITY OF SUCH DAMAGE.
106|
107|    def time_jump_callback(self, time_jump: TimeJump):
108|        rclpy.logging.get_logger("tf2_buffer").warning("Detected jump back in time. Clearing tf buffer.")
109|        self.clear()
110|
