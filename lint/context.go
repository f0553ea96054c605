package lint

import (
	"bytes"
	"path/filepath"
	"strings"
)

// Test code (gtest, pytest, launch_testing, unittest) runs on wall time
// unless it turns use_sim_time on: a test node's now() is the system time,
// never 0, so the sim-time startup rules (R26, R27, R29) do not apply there.
// Rules marked SimTimeOnly are skipped in such files. A test file that
// mentions use_sim_time anywhere is taken to turn it on and is linted like
// any other code.

// testDirs are directory names that hold tests in ROS 2 packages.
var testDirs = map[string]bool{"test": true, "tests": true, "testing": true}

// testMarkers are the content markers of test code: test frameworks a file
// includes or imports.
var testMarkers = [][]byte{
	[]byte("<gtest/gtest.h>"), []byte("<gmock/gmock.h>"), []byte("\"gtest/gtest.h\""),
	[]byte("import pytest"), []byte("import unittest"), []byte("from unittest"),
	[]byte("import launch_testing"), []byte("from launch_testing"),
}

// isTestCode reports whether a file is test code, by path (a test/ or
// tests/ directory, test_*.py, *_test.cpp...) or by content (a test
// framework's header or module).
func isTestCode(path string, src []byte) bool {
	slash := filepath.ToSlash(path)
	dirs := strings.Split(slash, "/")
	for _, d := range dirs[:len(dirs)-1] {
		if testDirs[d] {
			return true
		}
	}
	base := strings.ToLower(dirs[len(dirs)-1])
	stem := base
	if i := strings.IndexByte(base, '.'); i >= 0 {
		stem = base[:i]
	}
	if strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test") || strings.HasSuffix(stem, "_tests") ||
		stem == "conftest" || strings.HasSuffix(stem, "_unittest") {
		return true
	}
	for _, m := range testMarkers {
		if bytes.Contains(src, m) {
			return true
		}
	}
	return false
}

// wallTimeTest reports whether u is test code that never turns sim time on.
func wallTimeTest(u *unit) bool {
	return isTestCode(u.path, u.src) && !bytes.Contains(u.src, []byte("use_sim_time"))
}
