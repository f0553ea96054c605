# Excerpt of tf2/src/cache.cpp in github.com/ros2/geometry2 at commit 646342c6164e837d69460e3d28e7a025396544f6 (jazzy).
# Licence: BSD-3-Clause (the file's own header is kept below). docs/troubleshooting.md quotes
# the messages on these lines; TestTroubleshootingQuotes checks every quote against them.
# Each line is NUMBER|TEXT, NUMBER being the line's number in the upstream file.
1|// Copyright 2008, Willow Garage, Inc. All rights reserved.
2|//
3|// Redistribution and use in source and binary forms, with or without
4|// modification, are permitted provided that the following conditions are met:
5|//
6|//    * Redistributions of source code must retain the above copyright
7|//      notice, this list of conditions and the following disclaimer.
8|//
9|//    * Redistributions in binary form must reproduce the above copyright
10|//      notice, this list of conditions and the following disclaimer in the
11|//      documentation and/or other materials provided with the distribution.
12|//
13|//    * Neither the name of the Willow Garage nor the names of its
14|//      contributors may be used to endorse or promote products derived from
15|//      this software without specific prior written permission.
16|//
17|// THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS"
18|// AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
19|// IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE
20|// ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE
21|// LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR
22|// CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF
23|// SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS
24|// INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN
25|// CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE)
26|// ARISING IN ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE
27|// POSSIBILITY OF SUCH DAMAGE.
78|  if (error_str) {
79|    std::stringstream ss;
80|    ss << "Lookup would require extrapolation at time " << displayTimePoint(t0) <<
81|      ", but only time " << displayTimePoint(t1) << " is in the buffer";
82|    *error_str = ss.str();
83|  }
92|  if (error_str) {
93|    std::stringstream ss;
94|    ss << "Lookup would require extrapolation into the future.  Requested time " <<
95|      displayTimePoint(t0) << " but the latest data is at time " << displayTimePoint(t1);
96|    *error_str = ss.str();
97|  }
106|  if (error_str) {
107|    std::stringstream ss;
108|    ss << "Lookup would require extrapolation into the past.  Requested time " << displayTimePoint(
109|      t0) << " but the earliest data is at time " << displayTimePoint(t1);
110|    *error_str = ss.str();
111|  }
