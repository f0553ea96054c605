package lint

import "bytes"

// visibilitySuffixes end the names of the export macros ROS 2 packages put
// between "class" and the class name (class COMPOSITION_PUBLIC Talker).
// tree-sitter has no preprocessor, and such a macro turns the whole class
// into a broken function definition.
var visibilitySuffixes = [][]byte{
	[]byte("_PUBLIC"), []byte("_EXPORT"), []byte("_LOCAL"), []byte("_IMPORT"),
	[]byte("_PUBLIC_TYPE"), []byte("_API"), []byte("_DLL"),
}

// blankVisibilityMacros expands visibility macros to nothing, as the
// preprocessor would on most platforms, by overwriting them with spaces so
// every byte offset stays the same. It also blanks the <cinttypes> format
// macros ("%" PRId64 "\n"), whose string expansion the parser cannot see;
// what remains is a valid concatenation of literals. It returns src itself when there is
// nothing to blank. Comments and string literals are skipped.
func blankVisibilityMacros(src []byte) []byte {
	out := src
	lineStart := true // only blanks and tabs so far on this line
	for i := 0; i < len(src); {
		c := src[i]
		if c == '\n' {
			lineStart = true
			i++
			continue
		}
		if c == '#' && lineStart {
			// A preprocessor directive, with its continuation lines: the
			// macros are defined here, not used.
			for i < len(src) && src[i] != '\n' {
				if src[i] == '\\' && i+1 < len(src) && src[i+1] == '\n' {
					i++
				}
				i++
			}
			continue
		}
		if c != ' ' && c != '\t' {
			lineStart = false
		}
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				return out
			}
			i += end + 4
		case c == '"' || c == '\'':
			i++
			for i < len(src) && src[i] != c && src[i] != '\n' {
				if src[i] == '\\' {
					i++
				}
				i++
			}
			i++
		case isIdentStart(c):
			j := i
			for j < len(src) && isIdentByte(src[j]) {
				j++
			}
			if isVisibilityMacro(src[i:j]) || isFormatMacro(src[i:j]) {
				if &out[0] == &src[0] {
					out = bytes.Clone(src)
				}
				for k := i; k < j; k++ {
					out[k] = ' '
				}
			}
			i = j
		default:
			i++
		}
	}
	return out
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentByte(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// isVisibilityMacro reports whether an identifier is upper-case with a
// visibility suffix, such as RCLCPP_PUBLIC or MY_PKG_EXPORT.
func isVisibilityMacro(id []byte) bool {
	for _, c := range id {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	for _, s := range visibilitySuffixes {
		if len(id) > len(s) && bytes.HasSuffix(id, s) {
			return true
		}
	}
	return false
}

// isFormatMacro reports whether an identifier is a <cinttypes> format macro
// such as PRId64, PRIu32 or SCNxPTR.
func isFormatMacro(id []byte) bool {
	if len(id) < 5 || !(bytes.HasPrefix(id, []byte("PRI")) || bytes.HasPrefix(id, []byte("SCN"))) {
		return false
	}
	if bytes.IndexByte([]byte("diouxX"), id[3]) < 0 {
		return false
	}
	switch rest := string(id[4:]); rest {
	case "8", "16", "32", "64", "PTR", "MAX":
		return true
	default:
		for _, p := range []string{"LEAST", "FAST"} {
			if len(rest) > len(p) && rest[:len(p)] == p {
				return true
			}
		}
	}
	return false
}
