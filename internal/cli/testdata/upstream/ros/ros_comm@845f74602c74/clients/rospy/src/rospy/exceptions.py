# Excerpt of clients/rospy/src/rospy/exceptions.py in github.com/ros/ros_comm at commit 845f74602c7464e08ef5ac6fd9e26c97d0fe42c9 (noetic-devel).
# Licence: BSD-3-Clause (the file's own header is kept below). docs/troubleshooting.md quotes
# the messages on these lines; TestTroubleshootingQuotes checks every quote against them.
# Each line is NUMBER|TEXT, NUMBER being the line's number in the upstream file.
1|# Software License Agreement (BSD License)
2|#
3|# Copyright (c) 2008, Willow Garage, Inc.
4|# All rights reserved.
5|#
6|# Redistribution and use in source and binary forms, with or without
7|# modification, are permitted provided that the following conditions
8|# are met:
9|#
10|#  * Redistributions of source code must retain the above copyright
11|#    notice, this list of conditions and the following disclaimer.
12|#  * Redistributions in binary form must reproduce the above
13|#    copyright notice, this list of conditions and the following
14|#    disclaimer in the documentation and/or other materials provided
15|#    with the distribution.
16|#  * Neither the name of Willow Garage, Inc. nor the names of its
17|#    contributors may be used to endorse or promote products derived
18|#    from this software without specific prior written permission.
19|#
20|# THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS
21|# "AS IS" AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT
22|# LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS
23|# FOR A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE
24|# COPYRIGHT OWNER OR CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT,
25|# INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING,
26|# BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES;
27|# LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER
28|# CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT
29|# LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN
30|# ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE
31|# POSSIBILITY OF SUCH DAMAGE.
32|#
33|# Revision $Id$
69|        self.time = time
70|        """The amount of time in seconds."""
71|        super(ROSTimeMovedBackwardsException, self).__init__("ROS time moved backwards")
72|
73|class ROSInternalException(Exception):
