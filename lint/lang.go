package lint

import (
	"path/filepath"
	"strings"
)

// lang is a source language the linter understands.
type lang uint8

const (
	langNone lang = iota
	langPython
	langCPP
	langYAML // ROS 2 parameter files
	langXML  // XML launch files
	langShell
)

func (l lang) String() string {
	switch l {
	case langPython:
		return "python"
	case langCPP:
		return "cpp"
	case langYAML:
		return "yaml"
	case langXML:
		return "xml"
	case langShell:
		return "shell"
	}
	return "none"
}

// langOf picks the language from a file name's extension.
func langOf(name string) lang {
	lower := strings.ToLower(name)
	if strings.HasSuffix(lower, ".launch.xml") || strings.HasSuffix(lower, ".launch") {
		return langXML
	}
	switch filepath.Ext(lower) {
	case ".yaml", ".yml":
		return langYAML
	case ".sh", ".bash":
		return langShell
	case ".py":
		return langPython
	case ".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h", ".ipp":
		return langCPP
	}
	return langNone
}

// isCPPSource reports whether a C++ file is a source file (.cpp, .cc, .cxx,
// .c++), compiled on its own, not a header another file includes.
func isCPPSource(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".cpp", ".cc", ".cxx", ".c++":
		return true
	}
	return false
}
