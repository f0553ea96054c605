# Excerpt of tf2_ros/src/buffer.cpp in github.com/ros2/geometry2 at commit 646342c6164e837d69460e3d28e7a025396544f6 (jazzy).
# Licence: BSD-3-Clause (the file's own header is kept below). docs/troubleshooting.md quotes
# the messages on these lines; TestTroubleshootingQuotes checks every quote against them.
# Each line is NUMBER|TEXT, NUMBER being the line's number in the upstream file.
1|/*
2| * Copyright (c) 2008, Willow Garage, Inc.
3| * All rights reserved.
4| *
5| * Redistribution and use in source and binary forms, with or without
6| * modification, are permitted provided that the following conditions are met:
7| *
8| *     * Redistributions of source code must retain the above copyright
9| *       notice, this list of conditions and the following disclaimer.
10| *     * Redistributions in binary form must reproduce the above copyright
11| *       notice, this list of conditions and the following disclaimer in the
12| *       documentation and/or other materials provided with the distribution.
13| *     * Neither the name of the Willow Garage, Inc. nor the names of its
14| *       contributors may be used to endorse or promote products derived from
15| *       this software without specific prior written permission.
16| *
17| * THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS"
18| * AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
19| * IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE
20| * ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT OWNER OR CONTRIBUTORS BE
21| * LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR
22| * CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF
23| * SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS
24| * INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN
25| * CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE)
26| * ARISING IN ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE
27| * POSSIBILITY OF SUCH DAMAGE.
28| */
76|    clear();
77|  } else if (jump.delta.nanoseconds < 0) {
78|    RCLCPP_WARN(getLogger(), "Detected jump back in time. Clearing TF buffer.");
79|    clear();
80|  }
