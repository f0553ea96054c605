package lint

import (
	"errors"
	"testing"
)

func TestIsTestCode(t *testing.T) {
	for _, tc := range []struct {
		path, src string
		want      bool
	}{
		{"nav2_costmap_2d/test/unit/footprint_test.cpp", "", true},
		{"pkg/tests/helpers.py", "", true},
		{"pkg/test_node.py", "", true},
		{"pkg/src/node_test.cpp", "", true},
		{"pkg/conftest.py", "", true},
		{"tf2_ros/src/listener_unittest.cpp", "", true},
		{"pkg/src/probe.cpp", "#include <gtest/gtest.h>\n", true},
		{"pkg/launch/check.py", "import launch_testing\n", true},
		{"pkg/pkg/check.py", "import pytest\n", true},
		{"pkg/src/node.cpp", "#include <rclcpp/rclcpp.hpp>\n", false},
		{"nav2_system_tests/src/latest.py", "", false}, // a package name, not a test directory
		{"pkg/pkg/contest.py", "", false},
	} {
		if got := isTestCode(tc.path, []byte(tc.src)); got != tc.want {
			t.Errorf("isTestCode(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
	u := &unit{path: "pkg/test/test_sim.py", src: []byte("node.set_parameters([Parameter('use_sim_time', value=True)])\n")}
	if wallTimeTest(u) {
		t.Error("a test that sets use_sim_time is taken as a wall-time test")
	}
}

func TestParseDistro(t *testing.T) {
	for in, want := range map[string]string{"": DefaultDistro, "humble": "humble", " Kilted ": "kilted", "rolling": "rolling"} {
		if got, err := ParseDistro(in); err != nil || got != want {
			t.Errorf("ParseDistro(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseDistro("foxy"); !errors.Is(err, ErrUnknownDistro) {
		t.Errorf("ParseDistro(foxy): %v, want ErrUnknownDistro", err)
	}
	if rclcppThrowsOnNegative("jazzy") || rclcppThrowsOnNegative("humble") || !rclcppThrowsOnNegative("kilted") || !rclcppThrowsOnNegative("rolling") {
		t.Error("rclcpp throws on a negative Time from 28.2: Kilted and Rolling only")
	}
}
