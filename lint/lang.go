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
)

func (l lang) String() string {
	switch l {
	case langPython:
		return "python"
	case langCPP:
		return "cpp"
	}
	return "none"
}

// langOf picks the language from a file name's extension.
func langOf(name string) lang {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".py":
		return langPython
	case ".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h", ".ipp":
		return langCPP
	}
	return langNone
}
