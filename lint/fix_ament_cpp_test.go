//go:build cgo

package lint

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// amentCopyright is the header ament_copyright and ament_cpplint expect.
const amentCopyright = `// Copyright 2026 The simclock authors
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

`

// TestFixPassesAmentCppLinters checks that the C++ files --fix writes pass
// ament_cpplint and ament_uncrustify with their defaults, as `colcon test`
// runs them (Debian's ament-lint): the clock type the R5/R6 fix adds keeps
// the line within cpplint's 100 columns, and a fix that would not is not
// applied (the finding stands).
func TestFixPassesAmentCppLinters(t *testing.T) {
	var tools []string
	for _, tool := range []string{"ament_cpplint", "ament_uncrustify"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (Debian ament-lint; scripts/deps.sh installs it)", tool)
		}
		tools = append(tools, tool)
	}
	files := map[string]string{
		"window_node.cpp": amentCopyright + `#include <chrono>
#include <memory>

#include "rclcpp/rclcpp.hpp"

class Window : public rclcpp::Node
{
public:
  Window()
  : Node("window")
  {
    timer_ = create_wall_timer(std::chrono::milliseconds(100), [this]() {on_timer();});
  }

private:
  void on_timer()
  {
    const rclcpp::Time start = rclcpp::Time(5, 0);
    if ((now() - start).seconds() > 1.0) {
      RCLCPP_INFO(get_logger(), "late");
    }
    const rclcpp::Time never = rclcpp::Time();
    if (now() < never) {
      RCLCPP_INFO(get_logger(), "early");
    }
  }

  rclcpp::TimerBase::SharedPtr timer_;
};
`,
		"long_line_node.cpp": amentCopyright + `#include <chrono>

#include "rclcpp/rclcpp.hpp"

class Deadline : public rclcpp::Node
{
public:
  Deadline()
  : Node("deadline")
  {
    timer_ = create_wall_timer(std::chrono::milliseconds(100), [this]() {on_timer();});
  }

private:
  void on_timer()
  {
    const rclcpp::Time start_of_the_very_long_named_window_before_anything = rclcpp::Time();
    if (now() < start_of_the_very_long_named_window_before_anything) {
      RCLCPP_INFO(get_logger(), "early");
    }
  }

  rclcpp::TimerBase::SharedPtr timer_;
};
`,
	}
	dir := writeFiles(t, files)
	check := func(when string) {
		for _, tool := range tools {
			c := exec.Command(tool, ".")
			c.Dir = dir
			if out, err := c.CombinedOutput(); err != nil {
				t.Fatalf("%s %s --fix: %v\n%s", tool, when, err, out)
			}
		}
	}
	check("before")
	res, n := lintAndFix(t, dir, Config{})
	if n != 2 {
		t.Fatalf("%d findings fixed, want the 2 of window_node.cpp: %+v", n, res.Findings)
	}
	check("after")
	again, err := Run(t.Context(), []string{dir}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Findings) != 1 || filepath.Base(again.Findings[0].File) != "long_line_node.cpp" || len(again.Findings[0].Edits) != 0 {
		t.Fatalf("after --fix: %+v, want only long_line_node.cpp's R6, with no fix", again.Findings)
	}
	fixed, err := os.ReadFile(filepath.Join(dir, "window_node.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"rclcpp::Time(5, 0, RCL_ROS_TIME)", "rclcpp::Time(0, 0, RCL_ROS_TIME)"} {
		if !strings.Contains(string(fixed), want) {
			t.Errorf("window_node.cpp after --fix lacks %q:\n%s", want, fixed)
		}
	}
}

// TestNoFixPastLineLimit checks, without ament's linters, that a fix that
// would lengthen a line past ament_cpplint's 100 columns (C++) or
// ament_flake8's 99 (Python) is not offered, and that a shorter twin is.
func TestNoFixPastLineLimit(t *testing.T) {
	cases := []struct {
		name, src string
	}{
		{"deadline.cpp", `#include "rclcpp/rclcpp.hpp"
class D : public rclcpp::Node
{
  void tick()
  {
    const rclcpp::Time VARIABLE = rclcpp::Time();
    if (now() < VARIABLE) {}
  }
};
`},
		{"deadline.py", `from rclpy.node import Node
from rclpy.time import Time


class D(Node):

    def tick(self):
        VARIABLE = Time()
        return self.get_clock().now() < VARIABLE
`},
	}
	for _, tc := range cases {
		line := "const rclcpp::Time VARIABLE = rclcpp::Time();"
		indent, limit, added := 4, 100, len("0, 0, RCL_ROS_TIME")
		if strings.HasSuffix(tc.name, ".py") {
			line = "VARIABLE = Time()"
			indent, limit, added = 8, 99, len("clock_type=ClockType.ROS_TIME")
		}
		for _, fits := range []bool{true, false} {
			// The longest name that still fits, and one character more.
			long := limit - indent - len(line) + len("VARIABLE") - added
			if !fits {
				long++
			}
			name := strings.Repeat("n", long)
			src := strings.ReplaceAll(tc.src, "VARIABLE", name)
			res, err := Source(tc.name, []byte(src), Config{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Findings) != 1 {
				t.Fatalf("%s: findings = %+v, want one", tc.name, res.Findings)
			}
			if got := len(res.Findings[0].Edits) > 0; got != fits {
				t.Errorf("%s, fixed line of %d columns: fix offered = %v, want %v", tc.name, indent+len(line)-len("VARIABLE")+long+added, got, fits)
			}
		}
	}
}
